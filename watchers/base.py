"""The watcher protocol: a kind parses fetched bytes into items and items into candidates."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

from monitor.config import WatcherConfig


class WatchError(Exception):
    """A poll that produced nothing usable; `kind` goes into the watcher's health."""

    kind = "error"

    def __init__(self, message: str, *, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


class NotModified(WatchError):  # noqa: N818 (a state, not a failure)
    kind = "not-modified"


class FetchError(WatchError):
    kind = "fetch"


class TimeoutError_(FetchError):
    kind = "timeout"


class BlockedError(WatchError):
    """A bot wall or challenge page: never parsed as content."""

    kind = "blocked"


class ParseError(WatchError):
    kind = "parse"


class LayoutChanged(ParseError):
    """The page parsed but held none of what we look for."""

    kind = "layout"


@dataclass(frozen=True)
class Fetched:
    url: str
    status: int
    headers: dict[str, str]
    body: bytes
    fetched_at: datetime

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()


@dataclass(frozen=True)
class ParsedItem:
    dedupe_key: str
    title: str = ""
    url: str = ""
    published_at: datetime | None = None
    text: str = ""
    source: str = ""
    data: Any = None  # structured payload of snapshots (prices, benchmark rows, page text)
    snapshot: bool = False

    @property
    def content_hash(self) -> str:
        payload = self.data if self.snapshot else [self.title, self.text, self.url]
        raw = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(raw.encode()).hexdigest()


@dataclass(frozen=True)
class Parsed:
    items: list[ParsedItem]
    warning: str | None = None  # parsed with trouble (a feed's bozo bit): shown in health


@dataclass(frozen=True)
class Candidate:
    """What an item says about a claim, before it is compared with the claim's current state."""

    claim_id: str
    value: Any
    signal: str
    excerpt: str
    key: str = ""
    unit: str = ""
    # a new measurement (an independent party's, or a new run reported as measured); a figure
    # that is not one can restate or inform, never change a number
    measured: bool = True
    verification: str = ""  # how this figure was verified, when the source says
    mismatch: str = ""  # conditions that differ from the claim's: evidence only
    group: str = ""  # keyed values: what the key belongs to (the model of a price field)
    first_is_baseline: bool = False  # keyed values: the first seen from a source sets the baseline
    stated: bool = False  # the figure's own sentence states the claim's conditions


@dataclass
class PollContext:
    """What extraction may know of the world: the claims and, for snapshots, the source's last state."""

    claims: dict[str, dict] = field(default_factory=dict)  # id -> spec
    previous: dict[str, Any] | None = None  # per key, this source's last value; None: never seen
    rules: Any = None  # the signal table (watchers.extract.Rules); None: the built-in one


class Watcher:
    """A kind of source. Subclasses register with `class X(Watcher, kind="x")`."""

    kind: ClassVar[str]
    registry: ClassVar[dict[str, type[Watcher]]] = {}
    accept: ClassVar[str] = "*/*"
    formats: ClassVar[tuple[str, ...]] = ()
    snapshot: ClassVar[bool] = False  # reads a whole list or page each time, not a stream of items

    def __init_subclass__(cls, kind: str, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.kind = kind
        Watcher.registry[kind] = cls

    def __init__(self, config: WatcherConfig):
        self.config = config
        self.check_config()

    @property
    def name(self) -> str:
        return self.config.name

    def check_config(self) -> None:
        if self.formats and (self.config.format or self.formats[0]) not in self.formats:
            raise ValueError(
                f"format {self.config.format!r} is not one of {', '.join(self.formats)}"
            )

    def parse(self, fetched: Fetched) -> Parsed:
        raise NotImplementedError

    def extract(self, item: ParsedItem, context: PollContext) -> list[Candidate]:
        raise NotImplementedError


def snapshot_key(content_hash: str, previous_item_id: int | None) -> str:
    """Snapshots repeat content (A→B→A); chaining on the previous item keeps each transition unique."""
    return f"snapshot:{content_hash[:32]}:{previous_item_id or 0}"


def claim_for(claims: dict[str, dict], configured: str | None, **spec) -> str | None:
    """The claim a watcher feeds: the one configured, else the only claim whose spec has these
    fields (`kind="price-list"`, `role="benchmark-hardware"`); None when there is none or several."""
    if configured:
        return configured
    found = [cid for cid, s in claims.items() if all(s.get(k) == v for k, v in spec.items())]
    return found[0] if len(found) == 1 else None
