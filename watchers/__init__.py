"""Watchers: fetch (I/O), then parse and extract (pure), one small class per kind.

A kind's module is imported when a watcher of that kind is first built: a process that polls
feeds only never loads the HTML parsers the page and price kinds use."""

from importlib import import_module

from watchers.base import Watcher

MODULES = {
    "benchmark": "watchers.benchmark",
    "feed": "watchers.feed",
    "page": "watchers.page",
    "prices": "watchers.prices",
}


def kinds() -> dict[str, type[Watcher]]:
    """Every kind, by name (imports them all)."""
    for module in MODULES.values():
        import_module(module)
    return Watcher.registry


def __getattr__(name: str):
    if name == "KINDS":  # watchers.KINDS: every kind, imported on first use
        return kinds()
    raise AttributeError(f"module 'watchers' has no attribute {name!r}")


def build(config) -> Watcher:
    """The watcher for a config entry; ValueError names what is wrong."""
    module = MODULES.get(config.kind)
    if module is None:
        raise ValueError(f"unknown kind {config.kind!r} (known: {', '.join(sorted(MODULES))})")
    import_module(module)
    return Watcher.registry[config.kind](config)
