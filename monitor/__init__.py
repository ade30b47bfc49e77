"""Claimwatch: the service (configuration, CLI, polling, scheduler)."""

__version__ = "0.1.0"
