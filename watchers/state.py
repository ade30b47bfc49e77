"""The state judging compares with: each claim's current value per key, and what each snapshot
source said last. Plain data, loaded once per batch of polls (db.state) and kept current in memory
as the batch's own changes are applied."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any


@dataclass
class KeyState:
    """A claim's value for one key: the ledger baseline or the first value seen, then each change."""

    value: Any
    seq: int = 0  # the latest change's number; 0 while the baseline holds
    history: list = field(default_factory=list)  # the baseline, then each change's value, in order
    verification: str = ""  # how the current value was verified
    at: datetime | None = None

    def apply_change(self, value: Any, seq: int, verification: str, at: datetime | None) -> None:
        self.value, self.seq, self.verification, self.at = value, seq, verification, at
        self.history.append(value)


@dataclass
class SourceKey:
    """What one snapshot source said last about a claim's key."""

    value: Any  # None: the source no longer lists it
    group: str = ""
    missing_since: datetime | None = None
    missing_polls: int = 0
    seq: int | None = None  # where that word stands in the key's history; None: not known


@dataclass
class ClaimState:
    id: str
    spec: dict
    keys: dict[str, KeyState] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return self.spec["kind"]

    @property
    def keyed(self) -> bool:
        return self.kind == "price-list"

    def key(self, key: str) -> KeyState | None:
        """The state of a key; an unkeyed claim starts at its ledger baseline."""
        state = self.keys.get(key)
        if state is None and not key and not self.keyed:
            baseline = self.spec.get("value")
            state = self.keys[key] = KeyState(
                value=baseline, history=[baseline], verification=self.spec.get("verification", "")
            )
        return state


@dataclass
class Book:
    """Everything judging may know: claims by id, and per snapshot source its last word per key."""

    claims: dict[str, ClaimState]
    sources: dict[str, dict[tuple[str, str], SourceKey]] = field(default_factory=dict)
    latest_items: dict[str, tuple[int, str]] = field(default_factory=dict)  # watcher: (id, hash)
    version: tuple[int, int] = (0, 0)  # (max observation id, max item id) when loaded

    @cached_property
    def specs(self) -> dict[str, dict]:
        """Each claim's spec by id: one dict for every poll judged with this book (extraction keys
        what it has read by it)."""
        return {claim_id: claim.spec for claim_id, claim in self.claims.items()}

    def source(self, name: str) -> dict[tuple[str, str], SourceKey]:
        return self.sources.setdefault(name, {})

    def listed_elsewhere(self, source: str, claim_id: str, key: str) -> bool:
        """Does another source still list this key with a value?"""
        return any(
            name != source and (found := keys.get((claim_id, key))) and found.value is not None
            for name, keys in self.sources.items()
        )
