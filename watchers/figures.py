"""Figures in prose: numbers with units, Chinese numerals and model aliases, assigned to claims."""

from __future__ import annotations

import re
from dataclasses import dataclass

MODELS = {
    "gpt-oss-120b": re.compile(r"gpt[- ]?oss(?:[- ]?120\s?b)?(?![- ]?20\s?b)", re.I),
    "deepseek-r1": re.compile(
        r"deepseek[- ]?r1(?:[- ]0528)?(?:\s*670b)?|\br1-0528\b|\bdeepseek\b(?![- ]?v\d)", re.I
    ),
    "kimi-k2.5": re.compile(r"kimi(?:[- ]?k2\.5)?", re.I),
}
JALAPENO = re.compile(r"jalape(?:ñ|n|ñ)o|openai", re.I)
NUMBER = re.compile(
    r"(?<![A-Za-z0-9_.])(?P<n>\d{1,3}(?:[,，]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(?P<m>[kK](?![a-zA-Z])|M(?![a-zA-Z])|万|亿|千(?!瓦))?"
)
MULTIPLIER = {"k": 1e3, "K": 1e3, "M": 1e6, "万": 1e4, "亿": 1e8, "千": 1e3}
TOKENS = r"(?:tok(?:en)?s?|个?\s*token)"
PER_SECOND = r"(?:\s*/\s*s(?:ec)?|\s+per\s+second|\s*/\s*秒|每秒)"
UNIT_AFTER = [
    ("per_kw", re.compile(rf"^\s*{TOKENS}?{PER_SECOND}?\s*(?:/|per)\s*(?:kw|kilowatt)\b", re.I)),
    ("per_mw", re.compile(rf"^\s*{TOKENS}?{PER_SECOND}?\s*(?:/|per)\s*(?:mw|megawatt)\b", re.I)),
    ("per_user", re.compile(rf"^\s*{TOKENS}{PER_SECOND}\s*(?:/|per)\s*(?:user|用户)", re.I)),
    ("ms", re.compile(r"^\s*(?:ms|毫秒|milliseconds?)(?![a-z])", re.I)),
    ("s", re.compile(r"^\s*(?:s|secs?|seconds?|秒)(?![a-z/])", re.I)),
    ("tokens_s", re.compile(rf"^\s*{TOKENS}{PER_SECOND}", re.I)),
]
PAIR = re.compile(r"^\s*(?:vs\.?|versus|对|比)\s*", re.I)
COMPARATOR_BEFORE = re.compile(
    r"(?:vs\.?|versus|对|比|against|compared (?:with|to)|from|从)\s*$", re.I
)
CUE = {
    "per_kw": re.compile(r"per\s+kw\b|per\s+kilowatt|/kw\b|每千瓦|千瓦", re.I),
    "per_mw": re.compile(r"per\s+mw\b|per\s+megawatt|/mw\b|每兆瓦|兆瓦", re.I),
    "per_user": re.compile(
        r"per[- ]user|/user|single[- ]user|interactivity|单用户|每用户|单流", re.I
    ),
    "latency": re.compile(r"latency|end[- ]to[- ]end|e2e|延迟|时延", re.I),
    "tbt": re.compile(
        r"\btbt\b|time between tokens|inter[- ]token|\btpot\b|per[- ]token latency|token\s*间隔|首\s*token\s*延迟",
        re.I,
    ),
}
ISO = re.compile(
    r"(?:same|equal|matched|iso)[- ](?:interactivity|per[- ]user speed|user speed)|相同的单用户|同样的单用户|维持约|保持相同",
    re.I,
)
RANGE = re.compile(
    r"(?<![A-Za-z0-9_.])(?P<lo>\d+(?:\.\d+)?)\s*[x×倍]?\s*(?:–|-|—|~|to|至|到)\s*(?P<hi>\d+(?:\.\d+)?)\s*(?:×|x\b|倍|times)",
    re.I,
)
RANGE_CUES = [
    (
        "jalapeno.perf-per-watt.range",
        re.compile(r"per[- ]watt|perf(?:ormance)?[- /]per[- ]watt|perf/w|每瓦|能效", re.I),
    ),
    ("jalapeno.e2e-latency.range", re.compile(r"latency|延迟", re.I)),
    ("jalapeno.interactive-speedup.range", re.compile(r"interactiv|交互", re.I)),
]
CLAIM = {"per_kw": "tokens-per-kw", "per_user": "tokens-per-user", "s": "e2e-latency", "ms": "tbt"}
UNITS = {"per_kw": "tok/s/kW", "per_user": "tok/s/user", "s": "s", "ms": "ms"}


@dataclass(frozen=True)
class Figure:
    claim_id: str
    value: float | list[float]
    unit: str
    sentence: str


def to_number(digits: str, multiplier: str | None) -> float:
    value = float(digits.replace(",", "").replace("，", ""))
    return value * MULTIPLIER.get(multiplier or "", 1)


def models_in(text: str) -> set[str]:
    return {name for name, pattern in MODELS.items() if pattern.search(text)}


def _segments(sentence: str, default: str | None) -> list[tuple[str | None, int, int]]:
    """Stretches of the sentence, each with the model named at its start (or the item's only model)."""
    marks = sorted((m.start(), name) for name, p in MODELS.items() for m in p.finditer(sentence))
    if not marks:
        return [(default, 0, len(sentence))]
    out = [(default, 0, marks[0][0])] if marks[0][0] > 0 else []
    for i, (start, name) in enumerate(marks):
        end = marks[i + 1][0] if i + 1 < len(marks) else len(sentence)
        out.append((name, start, end))
    return out


def _unit(after: str) -> str | None:
    for unit, pattern in UNIT_AFTER:
        if pattern.match(after):
            return unit
    return None


def _metric(unit: str, segment: str) -> str | None:
    """The metric a number measures, from its unit and the words around it."""
    if unit == "per_mw" or (unit == "tokens_s" and CUE["per_mw"].search(segment)):
        return "per_mw"
    if unit == "per_kw" or (unit == "tokens_s" and CUE["per_kw"].search(segment)):
        return "per_kw"
    if unit == "per_user" or (unit == "tokens_s" and CUE["per_user"].search(segment)):
        return "per_user"
    if unit == "ms" and CUE["tbt"].search(segment):
        return "ms"
    if unit == "s" and CUE["latency"].search(segment) and not CUE["tbt"].search(segment):
        return "s"
    return None


COMPARED_WITH = re.compile(
    r"(?:对比|相比|比较|vs\.?|versus|compared (?:with|to)|against|over)\s*$", re.I
)


def _about_competitor(before: str, competitor: re.Pattern) -> bool:
    """The figure follows a rival's name ("GB300 要 5.31 秒"), not a comparison with it."""
    rivals = list(competitor.finditer(before))
    if not rivals:
        return False
    last = rivals[-1]
    last_ours = max((m.end() for m in JALAPENO.finditer(before)), default=-1)
    if last_ours > last.end() or len(before) - last.end() >= 30:
        return False
    return not COMPARED_WITH.search(before[max(0, last.start() - 14) : last.start()])


def extract_figures(sentences: list[str], models: set[str], competitor: re.Pattern) -> list[Figure]:
    default = next(iter(models)) if len(models) == 1 else None
    figures: list[Figure] = []
    for sentence in sentences:
        figures.extend(_ranges(sentence))
        iso = bool(ISO.search(sentence))
        for model, start, end in _segments(sentence, default):
            if model is None:
                continue
            segment = sentence[start:end]
            for match in NUMBER.finditer(segment):
                before = segment[: match.start()]
                if COMPARATOR_BEFORE.search(before[-14:]) or _about_competitor(
                    sentence[: start + match.start()], competitor
                ):
                    continue
                after = segment[match.end() :]
                unit = _unit(after)
                pair = PAIR.match(after)
                # "8.54万对4.5万 tokens/s/kW": the unit follows the second number
                if unit is None and pair:
                    second = NUMBER.match(after, pair.end())
                    unit = _unit(after[second.end() :]) if second else None
                # the words that qualify this number: 60 characters before it, 24 after
                lead = sentence[max(0, start + match.start() - 60) : start + match.start()]
                window = lead + match.group(0) + after[:24]
                metric = _metric(unit, window) if unit else None
                if metric is None or (iso and metric == "per_user"):
                    continue
                value = to_number(match.group("n"), match.group("m"))
                if metric == "per_mw":
                    metric, value = "per_kw", value / 1000
                name = "iso-interactivity" if iso and metric == "per_kw" else CLAIM[metric]
                figures.append(
                    Figure(f"jalapeno.{name}.{model}", round(value, 6), UNITS[metric], sentence)
                )
    return figures


def _ranges(sentence: str) -> list[Figure]:
    out = []
    for match in RANGE.finditer(sentence):
        context = sentence[max(0, match.start() - 80) : match.end() + 40]
        for claim, cue in RANGE_CUES:
            if cue.search(context):
                lo, hi = float(match.group("lo")), float(match.group("hi"))
                if lo <= hi:
                    out.append(Figure(claim, [lo, hi], "×", sentence))
                break
    return out
