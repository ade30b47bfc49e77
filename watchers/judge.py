"""Change detection: a candidate against the claim's current state, by claim kind. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from watchers.base import Candidate

MISSING = object()


@dataclass(frozen=True)
class Judged:
    candidate: Candidate
    changed: bool
    delta_pct: float | None
    previous: Any  # the value this one is compared with (the current state)


def delta(new: float | None, old: float | None) -> float | None:
    if not isinstance(new, int | float) or not isinstance(old, int | float) or old == 0:
        return None
    return round((new - old) / abs(old) * 100, 4)


def _mid(value) -> float | None:
    return (value[0] + value[1]) / 2 if isinstance(value, list) and len(value) == 2 else None


def _normal(text) -> str:
    return " ".join(str(text).lower().split())


def judge(
    candidate: Candidate, spec: dict, current: Any, *, source_previous: Any = MISSING
) -> Judged | None:
    """None when the candidate adds nothing worth storing; else whether it changes the claim.

    `current` is the claim's state for the candidate's key. For keyed values from snapshots
    (prices, pages) `source_previous` is what this source said last time; MISSING means the source
    has never been seen, so what it says now is its baseline.
    """
    if candidate.key and candidate.first_is_baseline:
        return _judge_keyed(candidate, current, source_previous)
    kind = spec["kind"]
    value = candidate.value
    if kind == "number":
        if not isinstance(value, int | float):
            return None
        change = delta(value, current)
        if change is None:
            return Judged(candidate, current is None, None, current)
        outside = abs(change) > spec.get("tolerance", 0.02) * 100
        return Judged(candidate, outside and candidate.measured, change, current)
    if kind == "range":
        if not (isinstance(value, list) and isinstance(current, list)):
            return None
        tolerance = spec.get("tolerance", 0.02) * 100
        ends = [delta(value[i], current[i]) for i in (0, 1)]
        outside = any(d is None or abs(d) > tolerance for d in ends)
        return Judged(
            candidate, outside and candidate.measured, delta(_mid(value), _mid(current)), current
        )
    if kind == "status":
        ladder = spec.get("ladder")
        if ladder and value not in ladder:
            return None
        return Judged(candidate, value != current, None, current)
    if kind in ("milestone", "text"):
        return Judged(candidate, _normal(value) != _normal(current), None, current)
    if kind == "price-list":
        return _judge_keyed(candidate, current, source_previous)
    return None


def _judge_keyed(candidate: Candidate, current: Any, source_previous: Any) -> Judged | None:
    value = candidate.value
    if source_previous is MISSING:  # this source's first word on the key: its baseline, no alert
        if value is None:
            return None
        return Judged(candidate, False, delta(value, current), current)
    if value == source_previous:
        return None
    # the source changed its mind; it is news only if it differs from what we hold as current
    changed = value != current and not (value is None and current is None)
    base = current if isinstance(current, int | float) else source_previous
    return Judged(
        candidate, changed, delta(value, base), current if current is not None else source_previous
    )
