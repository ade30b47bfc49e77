"""Scoring extraction on a labelled corpus: each item polled alone against the ledgers' baselines,
its predicted changes compared with its labels. Used by bench/signals.py and the tests."""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from watchers.base import ParsedItem
from watchers.extract import extract_item
from watchers.judge import judge, judge_keyed
from watchers.state import ClaimState
from watchers.vocabulary import Rules

TOLERANCE = 0.005  # a predicted figure within 0.5 % of the label is the label


@dataclass(frozen=True)
class Labelled:
    id: str
    lang: str
    style: str
    item: ParsedItem
    changes: frozenset


@dataclass
class Outcome:
    item: Labelled
    predicted: set
    true_positives: set = field(default_factory=set)
    false_positives: set = field(default_factory=set)
    false_negatives: set = field(default_factory=set)


def load(path: Path, root: Path) -> list[Labelled]:
    items = []
    for raw in tomllib.loads(path.read_text(encoding="utf-8"))["item"]:
        text = (root / raw["file"]).read_text(encoding="utf-8") if "file" in raw else raw["text"]
        changes = frozenset((c["claim"], _frozen(c["value"])) for c in raw["changes"])
        item = ParsedItem(dedupe_key=raw["id"], title=raw["title"], text=text)
        items.append(Labelled(raw["id"], raw["lang"], raw["style"], item, changes))
    return items


def _frozen(value):
    return tuple(value) if isinstance(value, list) else value


def predict(item: ParsedItem, specs: dict[str, dict], rules: Rules) -> set:
    """The changes an item makes when polled alone against the ledgers' baselines."""
    out = set()
    for candidate in extract_item(item, specs, rules_=rules):
        claim = ClaimState(id=candidate.claim_id, spec=specs[candidate.claim_id])
        verdict = (
            judge_keyed(candidate, claim, None, new_source=False)
            if candidate.key
            else judge(candidate, claim)
        )
        if verdict is not None and verdict.changed:
            out.add((candidate.claim_id, _frozen(candidate.value)))
    return out


def same(a, b) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float):
        return abs(a - b) <= abs(b) * TOLERANCE
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        return all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def score(item: Labelled, predicted: set) -> Outcome:
    outcome = Outcome(item, predicted)
    unmatched = set(item.changes)
    for claim, value in predicted:
        hit = next((c for c in unmatched if c[0] == claim and same(value, c[1])), None)
        if hit is None:
            outcome.false_positives.add((claim, value))
        else:
            unmatched.discard(hit)
            outcome.true_positives.add(hit)
    outcome.false_negatives = unmatched
    return outcome


@dataclass
class Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


def tally(outcomes: list[Outcome], key=lambda claim, outcome: "all") -> dict[str, Tally]:
    out: dict[str, Tally] = {}
    for outcome in outcomes:
        for kind, found in (
            ("tp", outcome.true_positives),
            ("fp", outcome.false_positives),
            ("fn", outcome.false_negatives),
        ):
            for claim, _ in found:
                entry = out.setdefault(key(claim, outcome), Tally())
                setattr(entry, kind, getattr(entry, kind) + 1)
    return out


def styles(items: list[Labelled]) -> Counter:
    return Counter(i.style for i in items)
