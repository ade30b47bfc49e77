"""Storage: tables, engine and migrations, queries, and the one writer."""
