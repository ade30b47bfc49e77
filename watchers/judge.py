"""Change detection: a candidate against the claim's current state. Pure.

A verdict's role says what the observation is: `change` (the claim moved; alert), `new` and
`removed` (a keyed value appeared or left for good; the digest tells), `baseline` (the first value
of a key), `confirms` (another source, or a new measurement, says what is current), `restates`
(says it again without new evidence), `evidence` (a figure under other conditions, or not a new
measurement), `catch-up` (a lagging source reaching a value the claim already passed through).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from watchers.base import Candidate
from watchers.state import ClaimState, KeyState, SourceKey

MET = "met"  # a milestone met stays met


@dataclass(frozen=True)
class Verdict:
    candidate: Candidate
    role: str
    changed: bool
    notify: bool  # tell at once; else the digest tells
    delta_pct: float | None = None
    previous: Any = None  # the value this one is compared with


@dataclass(frozen=True)
class RemovalWindow:
    """A key missing from a source is removed only after this many polls and this long."""

    polls: int = 2
    after: timedelta = timedelta(hours=24)


def delta(new: Any, old: Any) -> float | None:
    if not _number(new) or not _number(old) or old == 0:
        return None
    return round((new - old) / abs(old) * 100, 4)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _range(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_number(v) for v in value)


def _normal(text: Any) -> str:
    return " ".join(str(text).lower().split())


def judge(candidate: Candidate, claim: ClaimState) -> Verdict | None:
    """An unkeyed candidate (from prose or a benchmark row) against the claim's current value;
    None when it says nothing this claim can hold."""
    state = claim.key("")
    if state is None:
        return None
    kind = claim.kind
    if kind == "number":
        return _judge_number(candidate, claim.spec, state)
    if kind == "range":
        return _judge_range(candidate, claim.spec, state)
    if kind == "status":
        return _judge_status(candidate, claim.spec, state)
    if kind == "milestone":
        return _judge_milestone(candidate, state)
    if kind == "text":
        return _judge_text(candidate, state)
    return None


def _verdict(candidate: Candidate, role: str, state: KeyState, delta_pct=None) -> Verdict:
    changed = role == "change"
    return Verdict(candidate, role, changed, changed, delta_pct, state.value)


def _judge_number(candidate: Candidate, spec: dict, state: KeyState) -> Verdict | None:
    if not _number(candidate.value):
        return None
    if candidate.mismatch:
        return _verdict(candidate, "evidence", state, delta(candidate.value, state.value))
    change = delta(candidate.value, state.value)
    tolerance = spec.get("tolerance", 0.02) * 100
    if change is not None and abs(change) <= tolerance:
        return _verdict(candidate, "confirms" if candidate.measured else "restates", state, change)
    if not candidate.measured:
        return _verdict(candidate, "evidence", state, change)
    return _verdict(candidate, "change", state, change)


def _judge_range(candidate: Candidate, spec: dict, state: KeyState) -> Verdict | None:
    value, current = candidate.value, state.value
    if not _range(value) or value[0] > value[1]:
        return None
    if candidate.mismatch:
        return _verdict(candidate, "evidence", state)
    mid = delta(sum(value) / 2, sum(current) / 2) if _range(current) else None
    tolerance = spec.get("tolerance", 0.02) * 100
    ends = [delta(value[i], current[i]) for i in (0, 1)] if _range(current) else [None, None]
    if all(d is not None and abs(d) <= tolerance for d in ends):
        return _verdict(candidate, "confirms" if candidate.measured else "restates", state, mid)
    if not candidate.measured:
        return _verdict(candidate, "evidence", state, mid)
    return _verdict(candidate, "change", state, mid)


def _judge_status(candidate: Candidate, spec: dict, state: KeyState) -> Verdict | None:
    ladder = spec.get("ladder")
    value = candidate.value
    if ladder and value not in ladder:
        return None
    if value == state.value:
        return _verdict(candidate, "restates", state)
    forward_only = spec.get("ladder_moves", "forward") == "forward"
    behind = ladder and state.value in ladder and ladder.index(value) < ladder.index(state.value)
    if forward_only and behind:
        return _verdict(candidate, "restates", state)  # an older step, said again
    return _verdict(candidate, "change", state)


def _judge_milestone(candidate: Candidate, state: KeyState) -> Verdict | None:
    value = candidate.value
    if not isinstance(value, str) or not value.strip():
        return None
    if value == state.value or state.value == MET:
        return _verdict(candidate, "restates", state)
    return _verdict(candidate, "change", state)


def _judge_text(candidate: Candidate, state: KeyState) -> Verdict | None:
    if candidate.value is None:
        return None
    if _normal(candidate.value) == _normal(state.value):
        return _verdict(candidate, "restates", state)
    if candidate.mismatch or not candidate.measured:
        return _verdict(candidate, "evidence", state)
    return _verdict(candidate, "change", state)


# ---------------------------------------------------------------- keyed values from snapshots


def judge_keyed(
    candidate: Candidate, claim: ClaimState, said: SourceKey | None, new_source: bool
) -> Verdict | None:
    """A keyed value (a price, a page's text) from a snapshot source, given what that source said
    last. Only a source's own move can change a claim, so the changes do not depend on which
    source was polled first: the first to report a move changes the claim, the others confirm."""
    value = candidate.value
    state = claim.keys.get(candidate.key)
    if state is None:  # nobody has listed this key before
        role = "baseline" if new_source else "new"
        return Verdict(candidate, role, role == "new", False, None, None)
    if said is None:  # this source's first word on a key others list
        return _first_word(candidate, state)
    if value == said.value:
        return None
    if state.value is None:  # listed again after it was removed
        return Verdict(candidate, "new", True, False, None, None)
    if said.value is None:  # back in this source after it left it while others kept it
        return _first_word(candidate, state)
    if said.seq is not None and said.seq < len(state.history):
        return _from_place(candidate, state, said)
    if value == state.value:
        if said.value not in state.history and not state.seq:
            # a move that began before the first word anyone else gave: a source polled first
            # already said where this one is going, and that was never recorded as a change
            return Verdict(candidate, "change", True, True, delta(value, said.value), said.value)
        return Verdict(candidate, "confirms", False, False, None, state.value)
    if _catching_up(state, said.value, value) or _on_the_way(state, said.value, value):
        return Verdict(candidate, "catch-up", False, False, None, state.value)
    return Verdict(candidate, "change", True, True, delta(value, state.value), state.value)


def _from_place(candidate: Candidate, state: KeyState, said: SourceKey) -> Verdict:
    """A source whose last word has a place in the key's history moves on from there. A value
    the history holds after that place is catching up, or confirms the latest. A source still
    behind the latest that shows a value it already passed, or a step between, is lagging (10 →
    8 → 10 upstream: a slow list showing the 8 after the claim is back at 10 never moves it).
    Anything else is a move."""
    value, last = candidate.value, len(state.history) - 1
    place = standing(state.history, said.seq + 1, value)
    if place == last:
        return Verdict(candidate, "confirms", False, False, None, state.value)
    if place is not None:
        return Verdict(candidate, "catch-up", False, False, None, state.value)
    if said.seq < last and (
        value in state.history[: said.seq + 1] or _on_the_way(state, said.value, value)
    ):
        return Verdict(candidate, "catch-up", False, False, None, state.value)
    return Verdict(candidate, "change", True, True, delta(value, state.value), state.value)


def standing(history: list, start: int | None, value: Any) -> int | None:
    """Where a source saying `value` stands in a key's history: the first place from `start` on
    that holds it. A source with no place yet (`start` None) is placed at the first place that
    holds its value: a list first polled at 10 after the price went 10 → 4 → 10 may still be at
    the first 10, and its 4 then catches up; were it at the latest 10 instead, its next move is
    only told by the first list at the latest to show it."""
    first = start or 0
    return next((i for i in range(first, len(history)) if history[i] == value), None)


def _first_word(candidate: Candidate, state: KeyState) -> Verdict:
    role = "confirms" if candidate.value == state.value else "differs"
    return Verdict(candidate, role, False, False, delta(candidate.value, state.value), state.value)


def _catching_up(state: KeyState, before: Any, after: Any) -> bool:
    """A source moving from one past value to a later past value, still behind the current one;
    or, from a first word the claim never held, to a past value (a lagging list coming in)."""
    history = state.history
    if after not in history:
        return False
    if before not in history:
        return after in history[:-1] and after != state.value
    last = len(history) - 1
    start = last - history[::-1].index(before)
    end = last - history[::-1].index(after)
    return start < end < last


def _on_the_way(state: KeyState, before: Any, after: Any) -> bool:
    """A source behind the claim, or apart from it since its first word, shows a step between
    where it was and where the claim is now (10 → 5 while the claim, told by a faster source, is
    already at 2): a step the claim passed without anyone seeing it, not a move back."""
    if before == state.value or after in state.history:
        return False
    if not (_number(before) and _number(after) and _number(state.value)):
        return False
    low, high = sorted((before, state.value))
    return low < after < high


def judge_missing(
    claim: ClaimState,
    key: str,
    said: SourceKey,
    *,
    now: datetime,
    window: RemovalWindow,
    elsewhere: bool,
    source: str,
) -> Verdict | None:
    """A key this source listed is missing from its latest snapshot. Counts the miss on `said`;
    a verdict only once the miss has lasted the whole window."""
    said.missing_polls += 1
    said.missing_since = said.missing_since or now
    if said.missing_polls < window.polls or now - said.missing_since < window.after:
        return None
    state = claim.keys.get(key)
    before = said.value
    said.value, said.missing_polls, said.missing_since = None, 0, None
    what = said.group or key
    candidate = Candidate(
        claim_id=claim.id,
        key=key,
        value=None,
        signal="removed",
        excerpt=f"{what} is no longer listed by {source}",
        group=said.group,
    )
    if elsewhere or state is None or state.value is None:
        return Verdict(candidate, "evidence", False, False, None, before)
    return Verdict(candidate, "removed", True, False, None, state.value)


def with_previous(verdict: Verdict, previous: Any) -> Verdict:
    return replace(verdict, previous=previous)
