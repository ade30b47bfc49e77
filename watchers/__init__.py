"""Watchers: fetch (I/O), then parse and extract (pure), one small class per kind."""

from watchers import benchmark, feed, page, prices  # noqa: F401  (register the kinds)
from watchers.base import Watcher

KINDS = Watcher.registry


def build(config) -> Watcher:
    """The watcher for a config entry; ValueError names what is wrong."""
    cls = KINDS.get(config.kind)
    if cls is None:
        raise ValueError(f"unknown kind {config.kind!r} (known: {', '.join(sorted(KINDS))})")
    return cls(config)
