"""Signal extraction: pure functions from an item's text to candidate observations on claims."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from watchers.base import Candidate, ParsedItem
from watchers.figures import extract_figures, models_in

SIGNALS = Path(__file__).parent / "signals.toml"
EXCERPT = 400
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(\[\d])|(?<=[。！？；;])|\n+")
CLAUSE = re.compile(
    r",(?!\d{3})|，(?!\d{3})|;|；|:\s|：|\s[—–-]{1,2}\s|\s+(?:but|while|whereas|although|though|however)\s+|但是|但|而|不过|然而"
)


def _any(patterns: list[str]) -> re.Pattern | None:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE) if patterns else None


@dataclass(frozen=True)
class Signal:
    id: str
    sets: tuple[tuple[str, str], ...]  # (claim, value); value "" when taken from the match
    patterns: tuple[re.Pattern, ...]  # apart, so each may name its own groups
    exclude: re.Pattern | None
    require: re.Pattern | None
    stronger: tuple[str, re.Pattern] | None
    value_from: str | None
    exclude_competitor: bool


@dataclass(frozen=True)
class Rules:
    subject: re.Pattern
    context: re.Pattern
    direct: re.Pattern
    negation: re.Pattern
    hedge: re.Pattern
    measurement: re.Pattern
    competitor: re.Pattern
    signals: tuple[Signal, ...]


def parse_rules(data: dict) -> Rules:
    signals = []
    for raw in data["signals"]:
        if "claims" in raw:
            sets = tuple((s["claim"], s.get("value", "")) for s in raw["claims"])
        else:
            sets = ((raw["claim"], raw.get("value", "")),)
        stronger = raw.get("stronger")
        signals.append(
            Signal(
                id=raw["id"],
                sets=sets,
                patterns=tuple(re.compile(p, re.I) for p in raw["patterns"]),
                exclude=_any(raw.get("exclude", [])),
                require=_any(raw.get("require", [])),
                stronger=(stronger["value"], _any(stronger["patterns"])) if stronger else None,
                value_from=raw.get("value_from"),
                exclude_competitor=raw.get("exclude_competitor", False),
            )
        )
    relevance, cues = data["relevance"], data["cues"]
    return Rules(
        subject=_any(relevance["subject"]),
        context=_any(relevance["context"]),
        direct=_any(relevance["direct"]),
        negation=_any(cues["negation"]),
        hedge=_any(cues["hedge"]),
        measurement=_any(cues["measurement"]),
        competitor=_any(cues["competitor"]),
        signals=tuple(signals),
    )


@cache
def rules(extra: tuple[str, ...] = ()) -> Rules:
    """The built-in signal table, plus the signals of each extra file (a user's own, no code needed)."""
    data = tomllib.loads(SIGNALS.read_text(encoding="utf-8"))
    for path in extra:
        try:
            more = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ValueError(f"{path}: cannot read signals: {exc}") from None
        for index, signal in enumerate(more.get("signals", [])):
            complete = (
                isinstance(signal, dict)
                and {"id", "patterns"} <= set(signal)
                and {"claim", "claims"} & set(signal)
            )
            if not complete:
                raise ValueError(
                    f"{path}: signals[{index}]: needs id, patterns and claim (or claims)"
                )
            for pattern in signal["patterns"]:
                try:
                    re.compile(pattern)
                except re.error as exc:
                    raise ValueError(
                        f"{path}: signal {signal['id']}: bad pattern {pattern!r}: {exc}"
                    ) from None
        data["signals"] = data["signals"] + more.get("signals", [])
    return parse_rules(data)


def is_relevant(text: str, rules_: Rules | None = None) -> bool:
    """About OpenAI's chip: named with chip context, or named outright as OpenAI's own chip."""
    r = rules_ or rules()
    if r.direct.search(text):
        return True
    return bool(r.subject.search(text) and r.context.search(text))


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE.split(text) if s and s.strip()]


def clauses(sentence: str) -> list[str]:
    return [c.strip() for c in CLAUSE.split(sentence) if c and c.strip()]


def asserted(clause: str, r: Rules) -> bool:
    """A clause that states something, rather than denying, doubting or expecting it."""
    return not r.negation.search(clause) and not r.hedge.search(clause)


def extract_item(
    item: ParsedItem,
    claims: dict[str, dict],
    only: list[str] | None = None,
    rules_: Rules | None = None,
) -> list[Candidate]:
    r = rules_ or rules()
    text = f"{item.title}. {item.text}" if item.title else item.text
    if not is_relevant(text, r):
        return []
    found: dict[tuple[str, str], Candidate] = {}
    measured = False
    for sentence in sentences(text):
        excerpt = " ".join(sentence.split())[:EXCERPT]
        for clause in clauses(sentence):
            if not asserted(clause, r):
                continue
            if r.measurement.search(clause):
                measured = True
            for signal in r.signals:
                if only and signal.id not in only:
                    continue
                for candidate in _fire(signal, clause, sentence, excerpt, r):
                    if candidate.signal == "independent-retest":
                        measured = True
                    _keep(found, candidate)
    if not only or "figures" in only:
        for figure in extract_figures(sentences(text), models_in(text), r.competitor):
            claim = figure.claim_id
            if claim in claims:
                _keep(
                    found,
                    Candidate(
                        claim_id=claim,
                        value=figure.value,
                        unit=figure.unit,
                        signal="figures",
                        excerpt=" ".join(figure.sentence.split())[:EXCERPT],
                        measured=measured,
                    ),
                )
    return [c for c in found.values() if c.claim_id in claims]


def _fire(signal: Signal, clause: str, sentence: str, excerpt: str, r: Rules) -> list[Candidate]:
    match = next((m for m in (p.search(clause) for p in signal.patterns) if m), None)
    if not match:
        return []
    if signal.exclude and signal.exclude.search(clause):
        return []
    if signal.require and not signal.require.search(sentence):
        return []
    if signal.exclude_competitor and r.competitor.search(clause):
        return []
    out = []
    for claim, value in signal.sets:
        if signal.value_from == "percent":
            value = f"{match.group('pct')} %"
        elif signal.stronger and signal.stronger[1].search(sentence):
            value = signal.stronger[0]
        out.append(Candidate(claim_id=claim, value=value, signal=signal.id, excerpt=excerpt))
    return out


def _keep(found: dict, candidate: Candidate) -> None:
    """One candidate per claim and key; the first statement in the item wins, a stronger one replaces it."""
    slot = (candidate.claim_id, candidate.key)
    if slot not in found or candidate.value == "independent full re-test":
        found[slot] = candidate
