"""A story's vocabulary, read from the signal files beside its ledger: how writing names the
subject, the other devices, the models, the metrics and the conditions of a figure, and which
phrases move which claims. The engine is generic; everything it knows of a story is here."""

from __future__ import annotations

import html
import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from functools import cache, cached_property
from operator import itemgetter
from pathlib import Path

from watchers import needle_store
from watchers.context import CUES, cues
from watchers.needles import Alternatives, Pattern, automaton
from watchers.text import as_read

SUBJECT_KEYS = {
    "id", "names", "direct", "with_owner", "stand_ins", "context", "owner", "others", "not_context",
    "namesakes", "own_context", "hardware", "hardware_claim", "agentic_claims", "first_published",
}  # fmt: skip
SIGNAL_KEYS = {
    "id", "claim", "claims", "value", "patterns", "terms", "exclude", "require", "stronger", "about",
    "allow", "topic", "results", "by_owner",
    "value_from",
}  # fmt: skip
TOP_KEYS = {
    "subject",
    "models",
    "metrics",
    "conditions",
    "measurement",
    "implies",
    "signals",
    "words",
}
# a named stretch of pattern written once in [words] and used as {{name}} in any pattern
WORD_REF = re.compile(r"\{\{([\w-]+)\}\}")


class VocabularyError(ValueError):
    """A malformed signal file; the message names the file and the key."""


DOUBLED = re.compile(r"\\\\[bdswBDSW]")  # "\\\\s" matches a backslash: an escape written twice


def _check(patterns: list[str], where: str) -> None:
    for pattern in patterns:
        if DOUBLED.search(pattern):
            raise VocabularyError(
                f"{where}: pattern {pattern!r} has a doubled backslash; in a TOML 'literal' string"
                ' write \\s, in a "basic" string \\\\s'
            )


def _any(patterns: list[str] | None, where: str) -> Alternatives | None:
    if not patterns:
        return None
    _check(patterns, where)
    try:
        return Alternatives([as_read(p) for p in patterns])
    except re.error as exc:
        raise VocabularyError(f"{where}: bad pattern: {exc}") from None


@dataclass(frozen=True)
class Model:
    id: str
    names: re.Pattern
    keys: dict[str, tuple[str, ...]]  # e.g. {"inferencex": ("gptoss120b",)}


@dataclass(frozen=True)
class Metric:
    id: str
    quantity: str
    cues: re.Pattern | None  # words that must be near the figure; none: the quantity's default
    exclude: re.Pattern | None  # words that rule the metric out near the figure
    disclosure: bool  # a figure stated as fact counts (a yield), no new measurement needed
    unless: re.Pattern | None = None  # words that rule it out anywhere in the sentence
    wide: bool = False  # its cues may stand anywhere in the sentence ("at 169 tok/s per user, …")
    needs: re.Pattern | None = None  # words the sentence must hold (a B0 gain names B0)
    # a figure stated as fact is itself a run, on what its sentence states and on `run_on` (a
    # B0 gain measured is a result on B0, whoever reports it, beside whatever it is set against)
    run: bool = False
    run_on: dict = field(default_factory=dict)
    most: float | None = None  # the largest value the metric can take (a yield: 100 %)
    # conditions its figures do not depend on: a latency is the same on any power basis
    ignores: tuple[str, ...] = ()


@dataclass(frozen=True)
class Signal:
    id: str
    sets: tuple[tuple[str, str], ...]  # (claim, value)
    patterns: tuple[Pattern, ...]
    exclude: re.Pattern | None
    require: re.Pattern | None
    stronger: tuple[str, re.Pattern] | None
    about: str  # "subject": the clause must be about the subject; "any": a comparison of two
    terms: tuple[re.Pattern, ...] = ()  # every one must match in one clause, in any order
    # any pattern or the first term: a sentence without it is skipped
    quick: Alternatives | None = None
    allow: frozenset[str] = frozenset()  # cue categories that do not take it out ("future": a slip)
    # a comparison's other device: the first one named before it must be one of these
    topic: Alternatives | None = None
    # results the subject must be among: an item that says it was left out of them cancels it
    # ("SemiAnalysis publishes first AgentX results — Jalapeño not among them")
    results: bool = False
    # something only the subject's owner does (publishing its own scripts): another party said to
    # do it ("Meridian 公开了全部测试配置") is not this
    by_owner: bool = False


@dataclass(frozen=True)
class Implication:
    """A new measurement of the subject under these conditions also moves these claims."""

    when: dict[str, tuple]
    sets: tuple[tuple[str, str], ...]
    # said as fact anywhere in the item, these cancel it ("B0 remains in fab")
    unless: re.Pattern | None = None


@dataclass(frozen=True)
class Measurement:
    claim: str
    partial: str
    full: str
    owner_level: str
    full_cues: re.Pattern | None
    spot_check: re.Pattern | None
    # conditions under which the owner's own run is news by itself (no claim holds them)
    new_conditions: tuple[str, ...] = ()


@dataclass
class Subject:
    id: str
    names: re.Pattern | None = None
    direct: re.Pattern | None = None
    # words that name the subject in an item that names its owner ("B0", "二代芯片" beside OpenAI)
    with_owner: re.Pattern | None = None
    # words that stand for the subject only in an item that names its owner and never the subject
    # ("two A0 boards running GPT-OSS 120B" in a story about OpenAI's numbers)
    stand_ins: re.Pattern | None = None
    context: re.Pattern | None = None
    not_context: re.Pattern | None = None
    # the name said to be something else ("Jalapeño is an observability platform"): the item is
    # about that, even where it names the owner ("not affiliated with OpenAI")
    namesakes: re.Pattern | None = None
    # words only the subject's own story uses: they outweigh `not_context` as the owner does
    own_context: re.Pattern | None = None
    owner: re.Pattern | None = None
    others: re.Pattern | None = None
    # words that date a run to the first published results ("posted … in August", "8 月公布的"):
    # such a run is the baseline retold, not a new one
    first_published: re.Pattern | None = None
    models: list[Model] = field(default_factory=list)
    metrics: list[Metric] = field(default_factory=list)
    conditions: dict[str, list[tuple[object, re.Pattern]]] = field(default_factory=dict)
    measurement: Measurement | None = None
    implies: list[Implication] = field(default_factory=list)
    signals: list[Signal] = field(default_factory=list)
    hardware: re.Pattern | None = None  # benchmark hardware keys that are this subject
    hardware_claim: str = ""  # the claim its first listing in benchmark results moves
    agentic_claims: tuple[tuple[str, str], ...] = ()  # what its agentic benchmark rows move

    def mentions(self, text: str) -> bool:
        return bool(
            (self.names and self.names.search(text)) or (self.direct and self.direct.search(text))
        )

    def relevant(self, text: str) -> bool:
        """About this subject: named with context (a chip, not the pepper), or named outright."""
        if self.names is None:
            return True  # a subject known only by its signals: the patterns decide
        if self._namesake(text):
            return False  # "Jalapeño, the open-source HTTP load generator, … not OpenAI's chip"
        if self.names.search(text) and self._in_context(text):
            return True
        if self.direct and self.direct.search(text):
            return True
        return self.owned_words(text) or self.stood_in_for(text)

    def may_be_named(self, lowered: str, found: frozenset[str] | None = None) -> bool:
        """A quick test on an item's raw text (NFKC, lower-cased) before it is normalised: False
        only when no way of naming the subject can be there (each pattern lacks a literal word it
        needs); True when it may be, or when the patterns have no such words. `found`: the text's
        words among `naming_needles()`, found in one pass."""
        if self.names is None:
            return True
        if _may_hold(self.names, lowered, found) or _may_hold(self.direct, lowered, found):
            return True
        if self.owner is None or not _may_hold(self.owner, lowered, found):
            return False  # both kinds of stand-in need the owner named
        return _may_hold(self.with_owner, lowered, found) or _may_hold(
            self.stand_ins, lowered, found
        )

    def naming_needles(self) -> frozenset[str] | None:
        """Every word `may_be_named` looks for; None when some way of naming has no words."""
        words: set[str] = set()
        for pattern in (self.names, self.direct, self.owner, self.with_owner, self.stand_ins):
            if pattern is None:
                continue
            needles = getattr(pattern, "raw_needles", None)
            if needles is None:
                return None
            words |= needles()
        return frozenset(words)

    def owned_words(self, text: str) -> bool:
        """Does the item name the subject by words that need its owner named too?"""
        return self._beside_owner(self.with_owner, text)

    def stood_in_for(self, text: str) -> bool:
        """Is the subject, never named, stood in for by words that need its owner named?"""
        return self._beside_owner(self.stand_ins, text) and not self.mentions(text)

    def _beside_owner(self, words: re.Pattern | None, text: str) -> bool:
        """Are these words in the text, and the owner named there too?"""
        return bool(words and self.owner and words.search(text) and self.owner.search(text))

    def _namesake(self, text: str) -> bool:
        """Is the name said to be something else, and nothing only the subject's story says?"""
        return (
            self.namesakes is not None
            and bool(self.namesakes.search(text))
            and not (self.own_context is not None and self.own_context.search(text))
        )

    def _in_context(self, text: str) -> bool:
        own = self.own_context is not None and bool(self.own_context.search(text))
        if self.not_context is not None and self.not_context.search(text):
            # something else of that name (a pepper, a software library, a brand): only an item
            # that also names the owner, or words only its story uses, is about the subject
            return self._owner_named(text) or own
        return self.context is None or bool(self.context.search(text))

    def _owner_named(self, text: str) -> bool:
        """Is the owner named, not only referred to ("the company said" is any company's)?"""
        return self.owner is not None and any(
            not DEFINITE.match(m.group(0)) for m in self.owner.finditer(text)
        )


TAG = re.compile(r"<[^<>]*>")
DEFINITE = re.compile(r"the\s", re.I)


def _may_hold(pattern, lowered: str, found: frozenset[str] | None = None) -> bool:
    """Could `pattern` match the text whose raw, lower-cased form this is? (No pattern: no.)"""
    if pattern is None:
        return False
    may_hold = getattr(pattern, "may_hold", None)
    return may_hold is None or may_hold(lowered, found)


@dataclass(frozen=True)
class Rules:
    """Every subject's vocabulary, and the generic measurement cues."""

    subjects: tuple[Subject, ...]
    independent: re.Pattern  # an independent party
    verbs: re.Pattern  # measuring
    new_run: re.Pattern  # new results
    first_person: re.Pattern  # we ran it ourselves

    @property
    def signals(self) -> tuple[Signal, ...]:
        return tuple(s for subject in self.subjects for s in subject.signals)

    def may_concern(self, raw: str) -> bool:
        """Could an item with this raw text be about any subject (see Subject.may_be_named)?"""
        # with what normalising makes of it: "Jalape&ntilde;o", "Open<b>AI</b>", "**Open**AI"
        marked = "<" in raw or "&" in raw or "**" in raw
        read = TAG.sub("", html.unescape(raw)).replace("**", "") if marked else raw
        text = raw if read == raw else f"{raw}\n{read}"
        if not text.isascii():
            text = unicodedata.normalize("NFKC", text)
        lowered = " ".join(text.lower().split())
        finder = self._naming_finder
        found = frozenset(map(itemgetter(1), finder.iter(lowered))) if finder else None
        return any(subject.may_be_named(lowered, found) for subject in self.subjects)

    @cached_property
    def _naming_finder(self):
        """One automaton of every word the subjects may be named by: an item's words are found in
        one pass for every subject (None: some subject has a way of naming without words)."""
        words: set[str] = set()
        for subject in self.subjects:
            needles = subject.naming_needles()
            if needles is None:
                return None
            words |= needles
        return automaton(frozenset(words)) if words else None


def _signal(raw: dict, where: str) -> Signal:
    if (
        not isinstance(raw, dict)
        or not {"id", "patterns"} <= set(raw)
        or not {
            "claim",
            "claims",
        }
        & set(raw)
    ):
        raise VocabularyError(f"{where}: needs id, patterns and claim (or claims)")
    unknown = set(raw) - SIGNAL_KEYS
    if unknown:
        raise VocabularyError(f"{where}: unknown key {sorted(unknown)[0]!r}")
    if "claims" in raw:
        sets = tuple((s["claim"], s.get("value", "")) for s in raw["claims"])
    else:
        sets = ((raw["claim"], raw.get("value", "")),)
    if not raw.get("patterns") and not raw.get("terms"):
        raise VocabularyError(f"{where}: a signal needs patterns or terms")
    terms = tuple(_any(group, f"{where}: terms") for group in raw.get("terms", []))
    patterns = []
    _check(raw.get("patterns", []), where)
    for pattern in raw.get("patterns", []):
        try:
            patterns.append(Pattern(as_read(pattern), re.I))
        except re.error as exc:
            raise VocabularyError(f"{where}: bad pattern {pattern!r}: {exc}") from None
    stronger = raw.get("stronger")
    about = raw.get("about", "subject")
    if about not in ("subject", "any"):
        raise VocabularyError(f"{where}: about must be 'subject' or 'any'")
    return Signal(
        id=raw["id"],
        sets=sets,
        patterns=tuple(patterns),
        exclude=_any(raw.get("exclude"), where),
        require=_any(raw.get("require"), where),
        stronger=(stronger["value"], _any(stronger["patterns"], where)) if stronger else None,
        about=about,
        terms=terms,
        allow=frozenset(raw.get("allow", [])),
        topic=_any(raw.get("topic"), where),
        results=bool(raw.get("results", False)),
        by_owner=bool(raw.get("by_owner", False)),
        quick=Alternatives([p.pattern for p in (*patterns, *terms[:1])]),
    )


def _subject(data: dict, where: str) -> Subject:
    raw = data.get("subject", {})
    unknown = set(raw) - SUBJECT_KEYS
    if unknown:
        raise VocabularyError(f"{where}: [subject]: unknown key {sorted(unknown)[0]!r}")
    subject = Subject(
        id=raw.get("id", ""),
        names=_any(raw.get("names"), f"{where}: subject.names"),
        direct=_any(raw.get("direct"), f"{where}: subject.direct"),
        with_owner=_any(raw.get("with_owner"), f"{where}: subject.with_owner"),
        stand_ins=_any(raw.get("stand_ins"), f"{where}: subject.stand_ins"),
        context=_any(raw.get("context"), f"{where}: subject.context"),
        not_context=_any(raw.get("not_context"), f"{where}: subject.not_context"),
        namesakes=_any(raw.get("namesakes"), f"{where}: subject.namesakes"),
        own_context=_any(raw.get("own_context"), f"{where}: subject.own_context"),
        owner=_any(raw.get("owner"), f"{where}: subject.owner"),
        others=_any(raw.get("others"), f"{where}: subject.others"),
        first_published=_any(raw.get("first_published"), f"{where}: subject.first_published"),
        hardware=_any(raw.get("hardware"), f"{where}: subject.hardware"),
        hardware_claim=raw.get("hardware_claim", ""),
        agentic_claims=tuple((c["claim"], c["value"]) for c in raw.get("agentic_claims", [])),
    )
    for model_id, spec in data.get("models", {}).items():
        keys = {k: tuple(v) for k, v in spec.items() if k != "names"}
        subject.models.append(
            Model(model_id, _any(spec["names"], f"{where}: models.{model_id}"), keys)
        )
    for metric_id, spec in data.get("metrics", {}).items():
        subject.metrics.append(
            Metric(
                id=metric_id,
                quantity=spec["quantity"],
                cues=_any(spec.get("cues"), f"{where}: metrics.{metric_id}.cues"),
                exclude=_any(spec.get("exclude"), f"{where}: metrics.{metric_id}.exclude"),
                disclosure=bool(spec.get("disclosure", False)),
                unless=_any(spec.get("unless"), f"{where}: metrics.{metric_id}.unless"),
                wide=spec.get("cues_in", "near") == "sentence",
                needs=_any(spec.get("needs"), f"{where}: metrics.{metric_id}.needs"),
                run=bool(spec.get("run", False)),
                run_on=dict(spec["run"]) if isinstance(spec.get("run"), dict) else {},
                most=float(spec["most"]) if "most" in spec else None,
                ignores=tuple(spec.get("ignores", ())),
            )
        )
    for name, values in data.get("conditions", {}).items():
        subject.conditions[name] = [
            (_condition_value(value), _any(patterns, f"{where}: conditions.{name}.{value}"))
            for value, patterns in values.items()
        ]
    measurement = data.get("measurement")
    if measurement:
        subject.measurement = Measurement(
            claim=measurement["claim"],
            partial=measurement["partial"],
            full=measurement["full"],
            owner_level=measurement.get("owner_level", "self-reported"),
            full_cues=_any(measurement.get("full_cues"), f"{where}: measurement.full_cues"),
            spot_check=_any(measurement.get("spot_check"), f"{where}: measurement.spot_check"),
            new_conditions=tuple(measurement.get("new_conditions", [])),
        )
    for index, raw_implies in enumerate(data.get("implies", [])):
        when = {
            k: tuple(v) if isinstance(v, list) else (v,) for k, v in raw_implies["when"].items()
        }
        sets = tuple((s["claim"], s["value"]) for s in raw_implies["claims"])
        if not sets:
            raise VocabularyError(f"{where}: implies[{index}]: no claims")
        unless = _any(raw_implies.get("unless"), f"{where}: implies[{index}].unless")
        subject.implies.append(Implication(when, sets, unless))
    for index, raw_signal in enumerate(data.get("signals", [])):
        name = f"signal {raw_signal['id']}" if raw_signal.get("id") else f"signals[{index}]"
        subject.signals.append(_signal(raw_signal, f"{where}: {name}"))
    return subject


def _condition_value(text: str):
    return {"true": True, "false": False}.get(text, text)


def read(path: str | Path) -> dict:
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise VocabularyError(f"{path}: cannot read signals: {exc}") from None
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise VocabularyError(f"{path}: unknown top-level key {sorted(unknown)[0]!r}")
    words = data.pop("words", {})
    return _with_words(data, words, str(path))


def _with_words(value, words: dict, where: str):
    """`value` with every {{name}} in its strings replaced by the [words] entry of that name, as a
    group: one spelling of a thing ("B0", "the respin", 改版芯片) kept in one place."""
    if isinstance(value, str):

        def one(match: re.Match) -> str:
            name = match.group(1)
            if name not in words:
                raise VocabularyError(f"{where}: {{{{{name}}}}} is not in [words]")
            return f"(?:{words[name]})"

        return WORD_REF.sub(one, value)
    if isinstance(value, list):
        return [_with_words(v, words, where) for v in value]
    if isinstance(value, dict):
        return {k: _with_words(v, words, where) for k, v in value.items()}
    return value


@cache
def rules(paths: tuple[str, ...] = ()) -> Rules:
    """The subjects of these signal files; a file without [subject] adds its signals to the
    subject its claims belong to (or makes one known only by its signals). The needles of their
    patterns and of the context cues come from the needle store when it has them."""
    store = needle_store.location()
    needle_store.load(store)
    built = _rules(paths)
    cues()  # read now, so the store keeps their needles too
    needle_store.save(store)
    return built


def _rules(paths: tuple[str, ...]) -> Rules:
    subjects: dict[str, Subject] = {}
    for path in paths:
        data = read(path)
        subject = _subject(data, str(path))
        key = subject.id or _claims_subject(subject) or str(path)
        if key in subjects and not data.get("subject"):
            subjects[key].signals.extend(subject.signals)
            subjects[key].implies.extend(subject.implies)
        else:
            subject.id = key
            subjects[key] = subject
    data = tomllib.loads(CUES.read_text(encoding="utf-8"))
    generic = _with_words(data["measurement"], data.get("words", {}), "cues.toml")
    return Rules(
        subjects=tuple(subjects.values()),
        independent=_any(generic["independent"], "cues.toml: measurement.independent"),
        verbs=_any(generic["verbs"], "cues.toml: measurement.verbs"),
        new_run=_any(generic["new_run"], "cues.toml: measurement.new_run"),
        first_person=_any(generic["first_person"], "cues.toml: measurement.first_person"),
    )


def _claims_subject(subject: Subject) -> str:
    claims = {claim for s in subject.signals for claim, _ in s.sets}
    subjects = {claim.split(".", 1)[0] for claim in claims}
    return subjects.pop() if len(subjects) == 1 else ""


# ---------------------------------------------------------------- claims by their conditions


@dataclass(frozen=True)
class ClaimRef:
    id: str
    unit: str
    conditions: dict


class ClaimIndex:
    """Claims that measure something: by (subject, metric, model), with their conditions."""

    def __init__(self, specs: dict[str, dict]):
        self.by_metric: dict[tuple[str, str, str], list[ClaimRef]] = {}
        for claim_id, spec in specs.items():
            conditions = spec.get("conditions") or {}
            metric = conditions.get("metric")
            if not metric or spec.get("kind") not in ("number", "range"):
                continue
            key = (claim_id.split(".", 1)[0], metric, conditions.get("model", ""))
            ref = ClaimRef(claim_id, spec.get("unit", ""), conditions)
            self.by_metric.setdefault(key, []).append(ref)

    def find(self, subject: str, metric: str, model: str | None) -> list[ClaimRef]:
        found = self.by_metric.get((subject, metric, model or ""), [])
        found = found or self.by_metric.get((subject, metric, ""), [])
        if found or model:
            return found
        # a model the source does not name is no mismatch: the metric's only claim is meant
        # ("time between tokens is 0.74 ms" when only GPT-OSS 120B's is tracked)
        only = [refs for (s, m, _), refs in self.by_metric.items() if s == subject and m == metric]
        return only[0] if len(only) == 1 else []

    def metrics(self, subject: str) -> set[str]:
        return {metric for s, metric, _ in self.by_metric if s == subject}
