"""Signal extraction: from an item's text to candidate observations on claims. Pure.

For every subject the item is about: which stretches assert something (watchers.context), which
device each figure and statement is about, who measured, and under which conditions. A figure
becomes a candidate on the claim whose conditions match; one under other conditions is evidence
with the mismatch named; status phrases from the story's signal tables move status claims.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path

from watchers.base import Candidate, ParsedItem
from watchers.context import (
    Scope,
    item_scopes,
    looking_back,
    scopes,
    status,
    statuses,
    title_scopes,
    under_headings,
)
from watchers.quantities import (
    NEW_MEASURE,
    UNITS,
    Quantity,
    bare_numbers,
    heading_denominator,
    quantities,
)
from watchers.quantities import comparator_before as _comparator_before
from watchers.text import Sentence, normalise, sentences
from watchers.vocabulary import ClaimIndex, ClaimRef, Rules, Signal, Subject
from watchers.vocabulary import rules as load_rules

EXCERPT = 400
OTHER_MODELS = "other-models"  # the model table's entry for models no claim tracks
TITLE_WIDE = {"watchlist"}  # a headline "five things to watch" makes the whole item a watch-list
NOT_FACT = {"negated", "question", "watchlist", "retracted", "rumour", "nonanswer", "topic"}
PLANNED = {"future", "hypothetical"}
WINDOW_BEFORE, WINDOW_AFTER = 70, 40
WORKLOAD = [
    (
        re.compile(
            r"(?P<i>\d+(?:\.\d+)?)\s*k\s*(?:-?\s*tokens?)?(?:\s+of)?[\s-]*(?:input|in|prompt|输入)s?\W{0,4}(?:and\s+|/\s*|,\s*|、)?"
            r"(?P<o>\d+(?:\.\d+)?)\s*k\s*(?:-?\s*tokens?)?(?:\s+of)?[\s-]*(?:output|out|输出)",
            re.I,
        ),
        "io",
    ),
    (re.compile(r"(?<![\w.])(?P<i>\d+(?:\.\d+)?)k\s*/\s*(?P<o>\d+(?:\.\d+)?)k\b", re.I), "io"),
    (
        re.compile(
            r"(?P<i>\d{1,3}(?:,\d{3})+|\d{3,6})\s*(?:input\s+)?tokens?\s*(?:in|of input|input|输入)\b\W{0,6}"
            r"(?:and\s+)?(?P<o>\d{1,3}(?:,\d{3})+|\d{3,6})\s*(?:tokens?\s*)?(?:out|of output|output|输出)",
            re.I,
        ),
        "io-tokens",
    ),
    (
        re.compile(
            r"(?P<i>\d{1,3}(?:,\d{3})+|\d{3,6})\s*(?:input|prompt)\s+tokens?\W{0,6}(?:and\s+|with\s+)?"
            r"(?P<o>\d{1,3}(?:,\d{3})+|\d{3,6})\s*(?:output|generated)\s+tokens?",
            re.I,
        ),
        "io-tokens",
    ),
    (
        re.compile(
            r"(?P<i>\d{1,3}(?:,\d{3})+|\d{3,6})[- ]tokens?\s+(?:inputs?|prompts?)\W{0,6}(?:and\s+|with\s+)?"
            r"(?P<o>\d{1,3}(?:,\d{3})+|\d{3,6})[- ]tokens?\s+(?:outputs?|generations?)",
            re.I,
        ),
        "io-tokens",
    ),
    (
        re.compile(
            r"(?P<i>\d{1,3}(?:,\d{3})+|\d{4,6})[- ]tokens?\s+(?:of\s+)?(?:inputs?|prompts?|contexts?)",
            re.I,
        ),
        "i-tokens",
    ),
    (
        re.compile(
            r"(?P<i>\d+(?:\.\d+)?)\s*k(?:[- ]token)?\s*(?:input|context|prompt|输入|上下文)", re.I
        ),
        "i",
    ),
    # "上下文最长到 64k", "contexts up to 128k": the longest input a run used
    (
        re.compile(
            r"(?:上下文|context(?:s| length)?)[^，,。;；\d]{0,8}?(?P<i>\d+(?:\.\d+)?)\s*k\b", re.I
        ),
        "i",
    ),
]
WORKLOAD_KINDS = [
    ("long-context", re.compile(r"long[- ]context|long[- ]prompt|长上下文|长文本|长序列", re.I)),
    ("multi-turn", re.compile(r"multi[- ]turn|multi[- ]round|多轮", re.I)),
    ("agentic", re.compile(r"\bagentic\b|\bagent (?:workloads?|traces?|tasks?)\b|智能体", re.I)),
]
LONG_CONTEXT_TOKENS = 32 * 1024
COMPARED_WITH = re.compile(
    r"(?:\bover|\bthan|\bvs\.?|\bversus|\bagainst|\bcompared (?:with|to)|\brelative to|\bbeats?|\bbeat"
    r"|\bmatching|\boutperform\w*|\bahead of|\bbehind|对照(?:组|系统)?(?:是|为)?[^，,。；;]{0,8}|\bcompared against|对比|相比|相较|比|较|对|超过|领先|胜过|高于|低于"
    r"|\d\s*(?:x|×|times))\s*(?:(?:the|same|its|their|both|that of|on|in)\s+){0,3}(?:\w+(?:'s|’s)\s+)?"
    r"(?:(?:\d+\s*月|上一?代|此前|之前|早先|去年|原来|最初)的?\s*)?$",  # "比 8 月的 A0"
    re.I,
)


def rules(paths: tuple[str, ...] = ()) -> Rules:
    """The vocabularies of these signal files (the built-in ledgers' when none are given)."""
    return load_rules(paths or builtin_signal_files())


@cache
def builtin_signal_files() -> tuple[str, ...]:
    folder = Path(__file__).parent.parent / "db" / "ledgers"
    return tuple(str(p) for p in sorted(folder.glob("*.signals.toml")))


@cache
def _index(key: tuple) -> ClaimIndex:
    return ClaimIndex(dict(key[1]))


_last: list = [None, None, 0]  # the claims dict last indexed and its index: polls reuse one dict


def claim_index(claims: dict[str, dict]) -> ClaimIndex:
    if _last[0] is claims and _last[2] == len(claims):
        return _last[1]
    frozen = tuple(
        (cid, spec) for cid, spec in claims.items() if (spec.get("conditions") or {}).get("metric")
    )
    index = _index((len(claims), _Frozen(frozen)))
    _last[:] = [claims, index, len(claims)]
    return index


class _Frozen(tuple):
    """A tuple of (id, spec) compared by ids and metrics only, so specs can key a cache."""

    def _key(self):
        if not hasattr(self, "_cached"):
            self._cached = tuple(
                (cid, repr(spec.get("conditions")), spec.get("unit")) for cid, spec in self
            )
        return self._cached

    def __hash__(self):
        return hash(self._key())

    def __eq__(self, other):
        return isinstance(other, _Frozen) and self._key() == other._key()


def is_relevant(text: str, rules_: Rules | None = None) -> bool:
    r = rules_ or rules()
    text = normalise(text)
    return any(s.names is not None and s.relevant(text) for s in r.subjects)


def extract_item(
    item: ParsedItem,
    claims: dict[str, dict],
    only: list[str] | None = None,
    rules_: Rules | None = None,
) -> list[Candidate]:
    """Candidates the item gives, at most one per claim and key."""
    r = rules_ or rules()
    if not r.may_concern(f"{item.title}\n{item.text}"):
        return []  # most of a feed names no subject at all: nothing is normalised or read
    title, body = normalise(item.title), normalise(item.text)
    text = f"{title}.\n{body}" if title and body else title or body
    about = [subject for subject in r.subjects if subject.relevant(text)]
    if not about:
        return []  # most of a feed is about something else: no sentence is read
    whole = item_scopes(text) | (title_scopes(title) & TITLE_WIDE)
    split = sentences(text)
    back = [looking_back(s) for s in split[1:]] + [frozenset()]
    lead = under_headings(split) if ":" in text or "：" in text else [frozenset()] * len(split)
    analysed = [Analysed(s, whole | b | h) for s, b, h in zip(split, back, lead, strict=True)]
    index = claim_index(claims)
    found: dict[tuple[str, str], Candidate] = {}
    for subject in about:
        for candidate in Reading(subject, r, analysed, index, claims, text).candidates():
            if only and candidate.signal not in only:
                continue
            _keep(found, candidate, claims)
    return [c for c in found.values() if c.claim_id in claims]


def _keep(found: dict, candidate: Candidate, claims: dict) -> None:
    """One candidate per claim and key: a matching measurement beats evidence; a later step of a
    ladder beats an earlier one; otherwise the first statement in the item stands."""
    slot = (candidate.claim_id, candidate.key)
    held = found.get(slot)
    if held is None:
        found[slot] = candidate
        return
    if held.mismatch and not candidate.mismatch:
        found[slot] = candidate
        return
    if (
        candidate.signal == held.signal == "figures"
        and candidate.measured
        and (not held.measured or _published(held, claims) > _published(candidate, claims))
    ):
        # the item's own measurement beats the figure it quotes, and the published figure said
        # again before the run's own ("8.54 万 … 被转述了无数遍" then "结果是 7920 万")
        found[slot] = candidate
        return
    ladder = (claims.get(candidate.claim_id) or {}).get("ladder") or []
    if (
        candidate.value in ladder
        and held.value in ladder
        and ladder.index(candidate.value) > ladder.index(held.value)
    ):
        found[slot] = candidate


def _shared_unit(text: str, after: int, last: Quantity) -> list[Quantity]:
    """ "1,392, 702 and 731 tokens per second": the bare numbers listed right before a figure, in
    the figure's unit (a list of the same scale), then the figure; [] when there are none."""
    listed: list[tuple[int, int, float]] = []
    edge = last.start
    for bare in reversed([b for b in bare_numbers(text) if after < b[0] < last.start]):
        if not LIST_JOINT.fullmatch(text, bare[1], edge):
            break
        listed.insert(0, bare)
        edge = bare[0]
    if not listed:
        return []
    out = [Quantity(start, end, value, last.quantity, False) for start, end, value in listed]
    if any(not 1 / 10 <= q.value / last.value <= 10 for q in out if last.value):
        return []
    return [*out, last]


def _sections(analysed: list[Analysed]) -> list[int]:
    """For each sentence, where its story starts: a numbered list of stories (a newsletter's
    "1.", "2.", "3.") starts a new one at each number, a thread a new one at each reply
    ("kv_cache_enjoyer: …"), and nothing in one carries into the next."""
    marks = [n for n, a in enumerate(analysed) if LIST_NUMBER.fullmatch(a.sentence.text)]
    if (
        marks
        and marks[0] > 0
        and analysed[marks[0] - 1].sentence.text.rstrip().endswith((":", "："))
    ):
        marks = []  # "…measured per-user speed:" then "1. GPT-OSS 120B: 1,402": one story's list
    replies = [n for n, a in enumerate(analysed) if HANDLE.match(a.sentence.text)]
    breaks = set(marks if len(marks) >= 2 else []) | set(replies if len(replies) >= 2 else [])
    out, start = [], 0
    for number in range(len(analysed)):
        if number in breaks:
            start = number
        out.append(start)
    return out


def _turns(analysed: list[Analysed]) -> frozenset[int]:
    """The sentences spoken in a transcript's turns ("老周：只测了 Kimi K2.5。条件跟官方一样",
    "PRIYA: …"), from a speaker's label to the next: an item where two speakers or more take
    turns, one of them at least twice (a spec sheet's "Process:", "Memory:" lines never repeat)."""
    opened = [SPEAKER.match(a.sentence.text) for a in analysed]
    labels = [m.group(1) for m in opened if m]
    if len(set(labels)) < 2 or len(set(labels)) == len(labels):
        return frozenset()
    first = next(n for n, m in enumerate(opened) if m)
    return frozenset(range(first, len(analysed)))


def _published(candidate: Candidate, claims: dict) -> bool:
    """Is the figure the claim's published one, within its tolerance?"""
    spec = claims.get(candidate.claim_id) or {}
    value = spec.get("value")
    if not isinstance(value, int | float) or not isinstance(candidate.value, int | float):
        return False
    return abs(candidate.value - value) <= abs(value) * float(spec.get("tolerance") or 0)


class Analysed:
    """A sentence and, worked out when first asked for, the stretches its cues take out of plain
    assertion (most sentences never need them: nothing in them is a candidate)."""

    __slots__ = ("sentence", "whole", "lowered", "_scopes")

    def __init__(self, sentence: Sentence, whole: frozenset[str]):
        self.sentence, self.whole = sentence, whole
        self.lowered = sentence.text.lower()
        self._scopes: list[Scope] | None = None

    def __getitem__(self, index: int):
        return self.sentence if index == 0 else self.scopes

    @property
    def scopes(self) -> list[Scope]:
        if self._scopes is None:
            self._scopes = scopes(self.sentence, whole=self.whole)
        return self._scopes


@dataclass
class Mention:
    start: int
    end: int
    ours: bool


@dataclass
class Reading:
    """One item read for one subject."""

    subject: Subject
    rules: Rules
    analysed: list[Analysed]
    index: ClaimIndex
    claims: dict[str, dict]
    text: str
    mentions: list[list[Mention]] = field(default_factory=list)
    models: list[list[tuple[int, str]]] = field(default_factory=list)
    ran: dict = field(default_factory=dict)  # workloads the item's measured figures were run at
    ran_models: set = field(default_factory=set)  # models the item's measured figures are of
    ran_itself: bool = False  # a figure that is a run by itself was stated (a measured B0 gain)
    _hits: dict = field(default_factory=dict)  # the conditions each sentence states, once
    _verbs_in: dict = field(default_factory=dict)  # the measuring words of each sentence, once
    owner_quotes: frozenset = frozenset()  # sentences quoted from the owner's people
    _earlier: dict = field(default_factory=dict)  # the workload said before each sentence

    def __post_init__(self):
        self.with_owner = self.subject.with_owner if self.subject.owned_words(self.text) else None
        # "we measured" is the writer's run; in an interview with the owner's people, the owner's
        owner = self.subject.owner
        # people, or in the owner's own post ("OpenAI engineering blog", "— The OpenAI team")
        voice = owner is not None and any(
            OWNER_ROLE.match(self.text, m.end())
            or (self._leads(m.start()) and OWNER_OUTLET.match(self.text, m.end()))
            or (SIGN_OFF.search(self.text, 0, m.start()) and TEAM_LINE.match(self.text, m.end()))
            for m in owner.finditer(self.text)
        )
        voice = voice or (
            owner is not None
            and bool(owner.search(self.text))
            and bool(COMPANY_OUTLET.search(self.text))
        )
        self._first_person = "owner" if voice else "independent"
        self.firms = self._item_firms() if FIRM_HINT.search(self.text) else None
        for read in self.analysed:
            sentence = read.sentence
            self.mentions.append(self._mentions(sentence.text, read.lowered))
            self.models.append(
                sorted(
                    (m.start(), model.id)
                    for model in self.subject.models
                    for m in model.names.finditer(sentence.text, lowered=read.lowered)
                )
            )
        self._anaphors()
        self.owner_quotes = self._quotes_of_owner()
        self.sections = _sections(self.analysed)
        self.turns = _turns(self.analysed)
        item_models = {name for marks in self.models for _, name in marks}
        self.default_model = item_models.pop() if len(item_models) == 1 else None

    def _anaphors(self) -> None:
        """ "the chip", "这颗芯片": the device the title is about, in a sentence naming no other."""
        lead = next((m.ours for m in self.mentions[0]), None) if self.mentions else None
        if lead is None:
            return
        for number, read in enumerate(self.analysed):
            if any(not m.ours for m in self.mentions[number]) or not ANAPHOR.search(read.lowered):
                continue
            taken = self.mentions[number]
            extra = [
                Mention(m.start(), m.end(), lead)
                for m in ANAPHOR.finditer(read.sentence.text)
                if not any(t.start < m.end() and m.start() < t.end for t in taken)
            ]
            self.mentions[number] = sorted(taken + extra, key=lambda m: m.start)

    def _leads(self, at: int) -> bool:
        """Does the name at `at` open the title or a line? The owner's own post says so there
        ("OpenAI engineering blog: …"); "OpenAI's blog said 85,448" further on only cites it."""
        line_start = self.text.rfind("\n", 0, at) + 1
        return not self.text[line_start:at].strip(" #*>-—:[(\"'“")

    def _mentions(self, text: str, lowered: str) -> list[Mention]:
        out = []
        for pattern, ours in (
            (self.subject.names, True),
            (self.subject.direct, True),
            (self.subject.others, False),
        ):
            if pattern is None:
                continue
            skipped_end = -10
            for m in pattern.finditer(text, lowered=lowered):
                # "over GB200", "than Nvidia's GB300", "对比英伟达 GB300": the other side of a
                # comparison, not its topic (a name right after a skipped one goes with it)
                if not ours and (
                    _compared_before(text, m.start())
                    or RATIO_OF.match(text, m.end())
                    or (
                        0 <= m.start() - skipped_end <= 8
                        and JOINED.fullmatch(text, skipped_end, m.start())
                    )
                ):
                    skipped_end = m.end()
                    continue
                out.append(Mention(m.start(), m.end(), ours))
        if self.with_owner is not None and not any(not m.ours for m in out):
            # "B0", "二代芯片": the subject's only where no other device is named in the sentence
            out += [Mention(m.start(), m.end(), True) for m in self.with_owner.finditer(text)]
        out.sort(key=lambda m: (m.start, not m.ours))
        # a name inside another's ("Vera Rubin" inside an other's pattern) counts once
        kept: list[Mention] = []
        for mention in out:
            if kept and mention.start < kept[-1].end:
                continue
            kept.append(mention)
        return kept

    # ------------------------------------------------------------ who a stretch is about

    def about_subject(self, number: int, position: int) -> bool:
        """Is this stretch of sentence `number` about the subject rather than another device?"""
        sentence = self.analysed[number][0]
        clause = sentence.clause_at(position)
        aside = [(m.start(), m.end()) for m in APPOSITIVE.finditer(sentence.text)]
        before = [
            m
            for m in self.mentions[number]
            if m.end <= position and not any(a <= m.start < b <= position for a, b in aside)
        ]
        if before:
            last = before[-1]
            if not last.ours and last.start >= clause.start:
                return False
            if last.ours:
                return True
            if SEMICOLON.search(sentence.text, last.end, position):
                # "Jalapeño 跑 R1 …，GB300 为 127 个；GPT-OSS 120B 的优势为 49.6 倍": a new
                # stretch after a semicolon carries on the sentence's subject
                return before[0].ours
            # another device named in an earlier clause; ours named later in this clause
            after = [m for m in self.mentions[number] if clause.start <= m.start < clause.end]
            return any(m.ours for m in after)
        after = [
            m
            for m in self.mentions[number]
            if position <= m.start < clause.end
            and not COMPARISON.search(sentence.text[position : m.start])
        ]
        if after:
            return after[0].ours
        aside_only = [m for m in self.mentions[number] if m.end <= position]
        if aside_only:  # "Researchers, who were loaned two Jalapeño boards, measured 79.8"
            return aside_only[-1].ours
        for earlier in range(number - 1, self.sections[number] - 1, -1):
            if self.mentions[earlier]:
                return self._left_topic(earlier).ours
        # nothing named yet: the stretch is the subject's only if nothing else is the topic
        # (an item about a language model that names the chip only later is not)
        return not any(
            name == OTHER_MODELS for marks in self.models[: number + 1] for _, name in marks
        ) and (number == 0 or self._introduced_by(number))

    def _left_topic(self, number: int) -> Mention:
        """The device a sentence leaves the story on: the first one named in its last clause that
        names one ("GB200 没有重测；真正重测的是 Jalapeño" leaves it on Jalapeño; "Jalapeño
        processed 10,400, against 131 for the GB300" stays on Jalapeño)."""
        mentions = self.mentions[number]
        text = self.analysed[number].sentence.text
        for clause in reversed(self.analysed[number].sentence.clauses):
            if COMPARISON.match(text[clause.start : clause.end].lstrip()):
                continue  # ", against 131 for the GB300": the other side
            inside = [m for m in mentions if clause.start <= m.start < clause.end]
            if inside:
                return inside[0]
        return mentions[-1]

    def _topic(self, number: int, at: int, topic) -> bool:
        """Is the device a comparison speaks of one `topic` names? It is the first device named
        before it in its sentence, else the first one the nearest earlier sentence names ("The
        chip was on par with Rubin" after a sentence about a TPU is the TPU's). The subject, the
        other side of the comparison, is neither."""
        for earlier in range(number, -1, -1):
            text = self.analysed[earlier].sentence.text
            end = at if earlier == number else len(text)
            named = [
                (m.start, False) for m in self.mentions[earlier] if not m.ours and m.end <= end
            ]
            named += [(m.start(), True) for m in topic.finditer(text, 0, end)]
            if named:
                return min(named, key=lambda found: (found[0], not found[1]))[1]
        return True

    def _introduced_by(self, number: int) -> bool:
        """Was the subject named at or before sentence `number`?"""
        return any(m.ours for mentions in self.mentions[: number + 1] for m in mentions)

    def model_at(self, number: int, position: int, end: int | None = None) -> str | None:
        marks = self.models[number]
        if end is not None:
            text = self.analysed[number][0].text
            link = MODEL_AFTER.match(text, end)
            if link:
                following = [name for start, name in marks if start == link.end()]
                if following:
                    return following[0]  # "44.8 times for GPT-OSS 120B"
        before = [name for start, name in marks if start <= position]
        if before:
            return before[-1]
        clause = self.analysed[number][0].clause_at(position)
        after = [name for start, name in marks if position < start < clause.end]
        if after:
            return after[0]
        for earlier in range(number - 1, self.sections[number] - 1, -1):
            asserted = [
                name
                for start, name in self.models[earlier]
                if self.asserted(earlier, start) not in NOT_FACT
            ]
            if asserted:
                return asserted[-1]
        return self.default_model

    def asserted(self, number: int, start: int, end: int | None = None) -> str | None:
        """None when the stretch is stated as a fact, else the category that takes it out."""
        return status(self.analysed[number][1], start, end)

    # ------------------------------------------------------------ who measured

    @property
    def measurement(self) -> tuple[str, bool, dict]:
        """(who: "independent" | "owner" | "", full: bool, the run's conditions)."""
        if not hasattr(self, "_measurement"):
            self._measurement = self._measure()
        return self._measurement

    def _measure(self) -> tuple[str, bool, dict]:
        spec = self.subject.measurement
        if spec is None and not self.subject.implies:
            return "", False, {}  # a subject with no measurement claim: nobody's run moves it
        who, conditions, named = "", {}, set()
        full = False
        verbs = self.rules.verbs
        for number, read in enumerate(self.analysed):
            sentence, text, lowered = read.sentence, read.sentence.text, read.lowered
            if verbs.narrowed(lowered) is None:
                continue  # no measuring word: nobody measures in this sentence
            spots = self._spot_checks(number)
            if spots is None or not self._on_topic(number):
                continue
            for clause in sentence.clauses:
                if any(clause.start <= at < clause.end for at in spots):
                    continue  # "SemiAnalysis watched OpenAI run it": nobody independent ran it
                found, at = self._measuring(number, clause)
                if not found:
                    continue
                who = max((who, found), key=PARTY_RANK.index)
                conditions = _merge(conditions, self.conditions_in(text, number))
                if "negated" not in statuses(read.scopes, clause.start, clause.end):
                    # a row whose measured cell says "未测", "not run" names a model not run
                    # (not those of a clause that is a plan: "R1 和 Kimi 的测试将于年内完成")
                    named |= {
                        name
                        for at, name in self.models[number]
                        if not self._clause_status(number, at) & (NOT_FACT | PLANNED)
                    }
                if spec and spec.full_cues:
                    # "有了，而且三款模型都有。上周某实验室…": said beside the run, too
                    full = full or any(
                        self._says_full(spec.full_cues, n)
                        for n in (number - 1, number, number + 1)
                        if 0 <= n < len(self.analysed)
                    )
        if who:
            for number in self._answers():  # "Q: What did you run? A: All three models, …"
                named |= {name for _, name in self.models[number]}
                full = full or bool(
                    spec and spec.full_cues and self._says_full(spec.full_cues, number)
                )
        if self._tracked and self._tracked <= named:
            full = True  # every model the claims track was run
        if who and self._left_out():
            return "", False, {}  # "本次复测未包括 Jalapeño": the run was of something else
        return who, full, conditions

    def _clause_status(self, number: int, at: int) -> set[str]:
        """The categories that take any of the clause around `at` out of plain assertion."""
        read = self.analysed[number]
        clause = read.sentence.clause_at(at)
        return statuses(read.scopes, clause.start, clause.end)

    def _answers(self) -> list[int]:
        """The sentences that answer a question about the run ("What did you run?", "测了哪些
        模型？"): the one after it, when it is no question itself."""
        out = []
        for number, read in enumerate(self.analysed[:-1]):
            text = read.sentence.text
            if "?" not in text or self.rules.verbs.narrowed(read.lowered) is None:
                continue
            asks = any(
                self.asserted(number, m.start()) == "question"
                for m in self.rules.verbs.finditer(text, 0, len(text), lowered=read.lowered)
            )
            if asks and "question" not in {s.category for s in self.analysed[number + 1].scopes}:
                out.append(number + 1)
        return out

    def _spot_checks(self, number: int) -> list[int] | None:
        """Where sentence `number` speaks of a spot check or of watching others run it; None when
        the whole sentence does, unless it sets a run of the party's own against it ("与 8 月只是
        在现场见证不同，这一次…亲手跑了", "rather than watching")."""
        spec = self.subject.measurement
        read = self.analysed[number]
        if not (spec and spec.spot_check):
            return []
        found = [
            m.start() for m in spec.spot_check.finditer(read.sentence.text, lowered=read.lowered)
        ]
        if not found:
            return []
        return found if UNLIKE_BEFORE.search(read.sentence.text) else None

    def _left_out(self) -> bool:
        """Does the item say the subject was not part of the run?"""
        for number, mentions in enumerate(self.mentions):
            text = self.analysed[number][0].text
            for m in mentions:
                if m.ours and (
                    LEFT_OUT_BEFORE.search(text[max(0, m.start - 12) : m.start])
                    or LEFT_OUT_AFTER.match(text, m.end)
                ):
                    return True
        return False

    def _says_full(self, cues: re.Pattern, number: int) -> bool:
        text = self.analysed[number][0].text
        return any(self.asserted(number, m.start(), m.end()) is None for m in cues.finditer(text))

    def _measuring(self, number: int, clause) -> tuple[str, int]:
        """Who measures in this clause, at its first measuring word that has a party."""
        text = self.analysed[number][0].text
        # a measuring phrase starts in the clause and may run past it ("pushing A, B and C through")
        for verb in self._verbs(number):
            at = verb.start()
            if at < clause.start:
                continue
            if at >= clause.end:
                break
            if self.asserted(number, at) is not None or not self._measures_subject(number, at):
                continue
            found = (
                self._who(text, at, number)
                or (
                    verb.end() - at > 12 and self._who(text, verb.end(), number)
                )  # "发布了自己…的结果"
                or (PARTICIPLE.match(verb.group(0)) and self._first_after(text, at, number))
                or self._same_party(number, at)
            )
            if not found and number in self.turns and self._dropped_subject(number, clause, at):
                found = self._first_person  # "老周：只测了 Kimi K2.5": the speaker's own run
            if not found and RERUN.match(text, at):
                found = "someone"  # "复测", "re-tested": a new run, by a party not named
            if found:
                return found, at
        return "", -1

    def _dropped_subject(self, number: int, clause, at: int) -> bool:
        """Does a speaker's clause open on the measuring verb, with no subject ("只测了 Kimi K2.5",
        "后来又跑了一轮")? Its subject is the speaker."""
        text = self.analysed[number][0].text
        label = SPEAKER.match(text) if clause.start == 0 else None
        lead = text[label.end() if label else clause.start : at]
        return bool(DROPPED_LEAD.fullmatch(lead.strip()))

    def _verbs(self, number: int) -> list[re.Match]:
        """The measuring words of sentence `number`, found once."""
        found = self._verbs_in.get(number)
        if found is None:
            read = self.analysed[number]
            text = read.sentence.text
            found = list(self.rules.verbs.finditer(text, 0, len(text), lowered=read.lowered))
            self._verbs_in[number] = found
        return found

    def _first_after(self, text: str, at: int, number: int) -> str:
        """ "Running X on hardware it operated itself, the research firm found …": a sentence that
        opens on a participle has its party after it."""
        if text[:at].strip(" \"'“‘(—-"):
            return ""
        parties = [
            p for p in self._parties(text, number) if p[0] > at and self._stated(number, p[0])
        ]
        return parties[0][1] if parties else ""

    def _paired(self, number: int) -> bool:
        """Does the sentence put the subject and another device side by side ("X against Y",
        "在X和Y上跑")?"""
        text = self.analysed[number][0].text
        spans = []
        for pattern, ours in ((self.subject.names, True), (self.subject.others, False)):
            if pattern is not None:
                spans += [
                    (m.start(), m.end(), ours)
                    for m in pattern.finditer(text)
                    if not DEVICE_WORDS.match(text, m.end())  # "against Jalapeño's claims"
                ]
        spans.sort()
        return any(
            a[2] != b[2]
            and (
                PAIR_JOIN.fullmatch(text[a[1] : b[0]])
                # "Rubin 每兆瓦产出比他们手上的 Jalapeño 高出约 11%": compared, so both were run
                or (b[0] - a[1] <= 40 and PAIR_COMPARED.search(text, a[1], b[0]))
            )
            for a, b in zip(spans, spans[1:], strict=False)
        )

    def _same_party(self, number: int, at: int) -> str:
        """ "It ran …", "该实验室跑了…": a pronoun or a definite party carries on the independent
        party named in the sentence before."""
        if number == 0:
            return ""
        text = self.analysed[number][0].text
        if self._parties(text[:at]) and not PRONOUN_AGENT.search(text[:at]):
            return ""  # a party of its own is named: it is not the one before
        kinds: set[str] = set()
        for earlier in range(number - 1, max(-1, number - 4), -1):  # the nearest that names one
            kinds = {
                kind
                for where, kind in self._parties(self.analysed[earlier][0].text, earlier)
                # "在第三方复测出来之前": nobody ran anything; a correction's withdrawn sentence
                # still names who measured ("误写为 7.9 万…经核实，实测值为 8.9 万")
                if self._done(earlier, where) or self.asserted(earlier, where) == "retracted"
            }
            if kinds:
                break
        if kinds == {"independent"}:
            return "independent"
        if kinds == {"owner"} and (self.rules.new_run.search(text) or self._beyond_claims(text)):
            return "owner"
        return ""

    def _on_topic(self, number: int) -> bool:
        """A sentence about the subject's benchmarks: it names the subject, a tracked model or a
        figure (not, say, an evaluation of a language model that mentions the chip in passing)."""
        sentence = self.analysed[number][0]
        mentions = self.mentions[number]
        if any(m.ours for m in mentions):
            return True
        tracked = [name for _, name in self.models[number] if name != OTHER_MODELS]
        if tracked or any(self._metric(sentence.text, q) for q in quantities(sentence.text)):
            return True
        # a sentence naming nothing else carries on the item's story
        return not mentions and not self.models[number]

    def _measures_subject(self, number: int, at: int) -> bool:
        """The device a sentence measures is the first one it names before the measuring word
        (its subject), else the one the item was last about."""
        text = self.analysed[number].sentence.text
        # a clause of its own after a semicolon measures what it names
        start = max(text.rfind(";", 0, at), text.rfind("；", 0, at)) + 1
        end = min(
            (i for i in (text.find(";", at), text.find("；", at)) if i >= 0), default=len(text)
        )
        mentions = [m for m in self.mentions[number] if start <= m.start < at]
        if not (mentions and mentions[0].ours) and self._paired(number):
            return True  # "a benchmark of Vera Rubin against Jalapeño" ran both
        verb_end = VERB_WORD.match(text, at)
        right = verb_end.end() if verb_end else at
        object_ = [m for m in self.mentions[number] if right <= m.start <= right + 12]
        if object_ and OBJECT_GAP.fullmatch(text, right, object_[0].start):
            return object_[0].ours  # "the lab measured Jalapeño at 81.6 million": its object
        # "We had no access to a Jalapeño system, so we re-measured the comparator": a
        # negated stretch before the run names what was not run
        stated = [m for m in mentions if "negated" not in self._clause_status(number, m.start)]
        if stated:
            return stated[0].ours
        if mentions:  # only negated ones before: the run is of what its own clause names
            clause = self.analysed[number].sentence.clause_at(at)
            named = [m for m in self.mentions[number] if at <= m.start < clause.end]
            return named[0].ours if named else mentions[0].ours
        after = [m for m in self.mentions[number] if at <= m.start < end]
        if after and start > 0:
            return after[0].ours  # "…; SemiAnalysis ran only the Rubin system"
        if not self.mentions[number]:
            # a run carries on the device the story was last about ("Amazon ran the tests
            # itself" after a sentence about Trainium3), or on both ("It ran all three models
            # on both")
            both = BOTH.search(text)
            for earlier in range(number - 1, self.sections[number] - 1, -1):
                if self.mentions[earlier]:
                    if both:
                        return any(m.ours for m in self.mentions[earlier])
                    return self.mentions[earlier][0].ours
        if (
            number
            and any(m.ours for m in self.mentions[number - 1])
            and any(BOTH.search(self.analysed[n][0].text) for n in (number - 1, number))
        ):
            return True  # "把两者放在一起跑。这一次三款模型都测了": both devices were run
        return self.about_subject(number, at)

    def _who(self, sentence: str, at: int, number: int | None = None) -> str:
        """Who measured: the last party named before the measuring word, or after "by" (a party
        in a negated stretch, "第三方复测还没跟上", measured nothing)."""
        masked = _mask_independence(sentence)
        parties = [p for p in self._parties(sentence, number) if self._stated(number, p[0])]
        before = sorted(p for p in parties if p[0] <= at)
        after = sorted(p for p in parties if at < p[0] <= at + 40)
        agent = before[-1][1] if before else None
        if before and SUBJECT_PRONOUN.search(masked, before[-1][0], at):
            # "Nimbus is one of the clouds OpenAI let in, and it published…": "it" is the subject
            agent = before[0][1]
        passive = re.search(r"\bby\b|由|被", masked[at : at + 40]) or re.match(
            r"\S+\s+(?:\w+\s+)?(?:outside|independently)\b", masked[at : at + 40]
        )  # "benchmarked outside OpenAI", "re-tested independently"
        if after and passive:
            agent = after[0][1]
        elif (
            agent is None
            and after
            and OWN_PLACE.search(masked, max(0, after[0][0] - 20), after[0][0])
        ):
            agent = after[0][1]  # "SemiAnalysis has finished running Jalapeño in its own lab"
        if agent is None:
            said = ATTRIBUTION.search(masked)
            if said:  # wire copy: "… measured output speed … to 1,612, OpenAI said on its blog"
                agent = (
                    "owner"
                    if self._speaker(masked)
                    == "owner"  # "…, an engineer wrote on the company's blog"
                    else next((kind for at_, kind in parties if at_ >= said.start()), None)
                )
        if agent == "owner":
            new = (
                self.rules.new_run.search(masked)
                or self._beyond_claims(sentence)
                or (
                    RAN_VERB.search(masked, at, at + 24) and self._beyond_claims(sentence, ran=True)
                )
            )
            return "owner" if new else ""
        return agent or ""

    def _parties(self, sentence: str, number: int | None = None) -> list[tuple[int, str]]:
        """Where the sentence names a party, and whether it is the owner or independent. A bare
        "the team", "团队" (sentence `number` of the item) is the party named before it."""
        found = self._named_parties(sentence, number)
        if number is None:
            return found
        out = []
        for at, kind in found:
            if kind == "independent" and _bare(sentence, at):
                kind = self._antecedent(number, at, found)
            out.append((at, kind))
        return out

    def _antecedent(self, number: int, at: int, found: list[tuple[int, str]]) -> str:
        """The kind of the party a bare one refers to: the first named earlier in its sentence,
        else the first named in the nearest sentence before that names one (a sentence's
        subject comes first); independent when none was."""
        sentence = self.analysed[number][0].text
        before = [kind for where, kind in found if where < at and not _bare(sentence, where)]
        if before:
            return before[0]
        for earlier in range(number - 1, self.sections[number] - 1, -1):
            text = self.analysed[earlier][0].text
            named = [k for where, k in self._named_parties(text) if not _bare(text, where)]
            if named:
                return named[0]
        return "independent"

    def _named_parties(self, sentence: str, number: int | None = None) -> list[tuple[int, str]]:
        masked = _mask_independence(sentence)
        owner = self.subject.owner
        parties = []
        we = (
            "owner" if number is not None and number in self.owner_quotes else self._speaker(masked)
        )
        for kind, pattern in (
            ("owner", owner),
            ("independent", self.rules.independent),
            (we, self.rules.first_person),
        ):
            if pattern is None:
                continue
            for m in pattern.finditer(masked):
                if kind == "owner" and (
                    self._names_product(masked, m.start(), m.end())
                    or OWNERS_FIGURE.match(masked, m.end())
                    or OWNERS_WORK.match(masked, m.end())
                    or SUPPLIER.match(masked, m.end())
                    or LENT_BY.search(masked, max(0, m.start() - 60), m.start())
                    or OBJECT_MARK.search(masked, max(0, m.start() - 4), m.start())
                ):
                    continue  # "OpenAI's Jalapeño", "OpenAI's 19,600": not a party that ran anything
                owners = [at for at, k in parties if k == "owner"]  # found first, just above
                if kind == "independent" and RENTED_FROM.search(
                    masked, max(0, m.start() - 40), m.start()
                ):
                    continue  # "Rubin racks rented from a cloud provider": who supplied, not who ran
                if kind == "independent" and FIRST_PERSON_OWN.search(masked[: m.start()]):
                    parties.append((m.start(), we))  # "in our own lab", "我们在实验室里"
                elif (
                    kind == "independent"
                    and REFLEXIVE.search(m.group(0))
                    and any(o < m.start() for o in owners)
                    and not NAME_BEFORE.search(masked, max(0, m.start() - 24), m.start())
                ):  # ("SemiAnalysis 自己动手": the name right before it, not the owner further back)
                    parties.append((m.start(), "owner"))  # "由 OpenAI 自行完成": the owner itself
                elif (
                    kind == "independent"
                    and owner is not None
                    and _owned(owner, masked, m.start(), owners)
                ):
                    parties.append((m.start(), "owner"))  # "OpenAI's own lab", "OpenAI的团队"
                else:
                    parties.append((m.start(), kind))
        parties += [(m.start(), "independent") for m in INDEPENDENCE.finditer(sentence)]
        parties += self._named_runners(masked, parties)
        return sorted(parties)

    def _quotes_of_owner(self) -> frozenset[int]:
        """Quoted sentences the next sentence gives to the owner ("“…我们在 B0 上跑了…。”" then
        "OpenAI 硬件团队一位工程师在公司技术博客中写道。")."""
        owner = self.subject.owner
        if owner is None or not any(q in self.text for q in ("”", '"', "」")):
            return frozenset()
        out = set()
        for number in range(len(self.analysed) - 1):
            text = self.analysed[number].sentence.text.strip()
            said = self.analysed[number + 1].sentence.text
            quoted = text.startswith(("“", '"', "「")) or text.endswith(("”", '"', "」"))
            if (
                quoted
                and ATTRIBUTED_LINE.match(said)
                and (owner.search(said) or THE_COMPANY.search(said))
            ):
                out.add(number)
        return frozenset(out)

    def _speaker(self, sentence: str) -> str:
        """Who "we" is in this sentence: the owner when a quote is put in the owner's mouth
        ('"We measured 1,512 …," the company wrote', '"…," OpenAI's inference lead said'), else
        who "we" is in the item."""
        owner = self.subject.owner
        if owner is None:
            return self._first_person
        said = ATTRIBUTION.search(sentence)
        if said and (
            THE_COMPANY.search(sentence, said.start()) or owner.search(sentence, said.start())
        ):
            return "owner"
        # "OpenAI 工程师：我们在 B0 上跑了", "OpenAI … 称“我们测了…”": said in the owner's voice
        lead = SAID_BY.match(sentence)
        if lead and owner.search(lead.group(0)):
            return "owner"
        return self._first_person

    def _named_runners(self, text: str, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """A name alone as the one who ran it: "Kestrel Analytics has re-run the suite",
        "SemiAnalysis measured", and a firm the item introduced, named again ("Brightline
        Systems, which benchmarks…" then "Brightline ran the workload"). Not the owner, nor a
        device or a model, nor a name a party word already covers."""
        spots = [
            (m.start("name"), m.group("name"))
            for pattern in (NAMED_RUNNER, SAID_RUNNER, BY_RUNNER)
            for m in pattern.finditer(text)
        ]
        if self.firms is not None:
            spots += [(m.start(), m.group(0)) for m in self.firms.finditer(text)]
        out = []
        for at, name in spots:
            if any(at <= party < at + len(name) for party, _ in found) or not self._a_firm(name):
                continue
            out.append((at, "independent"))
        return out

    def _a_firm(self, name: str) -> bool:
        """Could this name be a firm's: not a model ("Kimi K2.6"), the owner or a device?"""
        if any(ch.isdigit() for ch in name):
            return False
        return not any(
            pattern is not None and pattern.search(name)
            for pattern in (
                self.subject.owner,
                self.subject.names,
                self.subject.direct,
                self.subject.others,
            )
        )

    def _item_firms(self) -> re.Pattern | None:
        """Names the item introduces as a firm that tests ("Brightline Systems, which benchmarks
        inference hardware", "Fieldnote's DeepSeek R1 run", "Halden Labs has re-run"): the
        whole name and its first word."""
        words = set()
        for name in firm_names(self.text):
            if self._a_firm(name):
                words.add(name)
                first = name.split()[0]
                if len(first) >= 4:
                    words.add(first)
        return firm_pattern(tuple(sorted(words))) if words else None

    def _beyond_claims(self, sentence: str, ran: bool = False) -> bool:
        """A run under conditions none of the subject's own claims holds (B0 silicon, MTP on;
        a comparator's claims do not count) is a new run even when its owner does not say so.
        `ran`: the sentence says the subject was run ("我们在 B0 上跑了"), so a claim of a stated
        figure (B0's compute rating) holds no run of those conditions."""
        spec = self.subject.measurement
        if spec is None or not spec.new_conditions:
            return False
        stated = self.conditions_in(sentence)
        stated_only = {m.id for m in self.subject.metrics if m.disclosure} if ran else set()
        held = [
            ref.conditions
            for (subject, metric, _), refs in self.index.by_metric.items()
            if subject == self.subject.id and metric not in stated_only
            for ref in refs
        ]
        return any(
            key in spec.new_conditions
            and any(key in c for c in held)
            and not any(c.get(key) == value for c in held)
            for key, value in stated.items()
        )

    def _names_product(self, text: str, start: int, end: int) -> bool:
        """Does the owner's name at [start, end) name the product ("OpenAI's Jalapeño", "OpenAI
        芯片")?"""
        direct = self.subject.direct
        if direct is not None and direct.match(text, start):
            return True
        rest = POSSESSIVE.sub("", text[end : end + 12], count=1)
        names = self.subject.names
        return bool(names and names.match(rest))

    @property
    def _tracked(self) -> set[str]:
        """The models the subject's claims track."""
        return {m for (subject, _, m) in self.index.by_metric if subject == self.subject.id and m}

    def level(self) -> str:
        who, full, _ = self.measurement
        # the run's own figures cover every tracked model: "DeepSeek R1: 17.9k. Kimi K2.5: 16.4k."
        full = full or bool(self._tracked and self._tracked <= self.ran_models)
        spec = self.subject.measurement
        if who == "independent" and spec:
            return spec.full if full else spec.partial
        if who == "owner" and spec:
            return spec.owner_level
        return ""

    # ------------------------------------------------------------ conditions

    def _stated(self, number: int | None, at: int) -> bool:
        """Is the phrase at `at` of sentence `number` said as fact ("MTP off", "未开启" are not)?"""
        return number is None or self.asserted(number, at) not in NOT_FACT

    def _done(self, number: int | None, at: int) -> bool:
        """Stated as fact and not as a plan: "it will try 128k-token inputs next" ran no 128k."""
        return number is None or self.asserted(number, at) not in NOT_FACT | PLANNED

    def conditions_in(self, text: str, number: int | None = None, at: int | None = None) -> dict:
        """The conditions a sentence states (`number` given: only those it asserts). A condition
        said two ways is not known, unless `at` (a figure's place) is given: then the one said
        nearest before it holds ("B0 上的首个结果：812 tokens/s，A0 在 8 月是 694")."""
        stated: dict = {}
        for pattern, kind in WORKLOAD:
            match = pattern.search(text)
            if match and self._done(number, match.start()):
                scale = 1 if kind.endswith("tokens") else 1024
                stated["isl"] = round(float(match.group("i").replace(",", "")) * scale)
                if kind.startswith("io"):
                    stated["osl"] = round(float(match.group("o").replace(",", "")) * scale)
                break
        kinds = {
            name
            for name, pattern in WORKLOAD_KINDS
            if any(self._done(number, m.start()) for m in pattern.finditer(text))
        }
        if stated.get("isl", 0) >= LONG_CONTEXT_TOKENS:
            kinds.add("long-context")
        if kinds:
            stated["workload"] = tuple(sorted(kinds))
        for name, hits in self._condition_hits(text, number).items():
            if len(hits) == 1:
                stated[name] = next(iter(hits))
            elif hits and at is not None:
                before = [(end, value) for value, ends in hits.items() for end in ends if end <= at]
                if before:
                    stated[name] = max(before, key=lambda hit: hit[0])[1]
        return stated

    def _condition_hits(self, text: str, number: int | None) -> dict[str, dict]:
        """For each condition the sentence states: value -> where each saying of it ends."""
        key = (text, number)
        cached = self._hits.get(key)
        if cached is not None:
            return cached
        out = {}
        for name, values in self.subject.conditions.items():
            hits = {
                value: [
                    m.end()
                    for m in pattern.finditer(text)
                    if self._stated(number, m.start())
                    and not _compared_before(text, m.start())
                    and not COMPARED_AFTER.match(text, m.end())  # "与A0相比"
                ]
                for value, pattern in values
            }
            hits = {value: ends for value, ends in hits.items() if ends}
            if hits:
                out[name] = hits
        self._hits[key] = out
        return out

    # ------------------------------------------------------------ candidates

    def candidates(self) -> list[Candidate]:
        out = list(self._signals())
        spec = self.subject.measurement
        # an independent re-test said in so many words ("Independent benchmark: …") is a run
        # even where no measuring verb says who ran it
        retest = [
            c
            for c in out
            if spec and c.claim_id == spec.claim and c.value in (spec.partial, spec.full)
        ]
        if retest and self._left_out():  # "实验室没有测 Jalapeño": a re-test of something else
            out = [c for c in out if c not in retest]
            retest = []
        out += self._figures(retest_said=bool(retest))
        out += self._measured()
        return out

    def _signals(self):
        vocabulary = _signal_words(self.subject)
        # the signals' words each sentence holds, found once: a signal none of whose words a
        # sentence holds is passed over with a set operation, not a search
        present = [
            None if vocabulary is None else {w for w in vocabulary if w in a.lowered}
            for a in self.analysed
        ]
        for signal in self.subject.signals:
            words = signal.quick.union if signal.quick is not None else None
            for number, sentence in enumerate(a.sentence for a in self.analysed):
                known = words is not None and present[number] is not None
                if known and words.isdisjoint(present[number]):
                    continue
                candidate = self._fire(signal, number, sentence, checked=known)
                if candidate:
                    yield from candidate

    def _fire(
        self, signal: Signal, number: int, sentence: Sentence, checked: bool = False
    ) -> list[Candidate] | None:
        """The signal's candidates from this sentence (`checked`: its words are known to be in
        it)."""
        text = sentence.text
        lowered = self.analysed[number].lowered
        # only the words: a pattern anchored to a clause ("^and Rubin came out ahead") need
        # not match the whole sentence
        if not checked and signal.quick is not None and signal.quick.narrowed(lowered) is None:
            return None
        # terms whose words the sentence lacks match in none of its pieces
        terms = signal.terms if all(t.narrowed(lowered) for t in signal.terms) else ()
        if not terms and not signal.patterns:
            return None
        pieces = sentence.clauses if not terms else sentence.clauses + sentence.spans
        for clause in pieces:
            part = text[clause.start : clause.end]
            for found in _matches(signal, part, terms, lowered[clause.start : clause.end]):
                stretches = [(clause.start + a, clause.start + b) for a, b in found]
                found_in = self.analysed[number][1]
                if any(statuses(found_in, a, b) - signal.allow for a, b in stretches):
                    continue
                at = stretches[0][0]  # a pattern, or the first term: what the signal is about
                if signal.exclude and signal.exclude.search(part):
                    continue
                if signal.require and not signal.require.search(self.text):
                    continue
                if signal.about == "subject" and not self.about_subject(number, at):
                    continue
                if signal.topic is not None and not self._topic(number, at, signal.topic):
                    continue
                excerpt = _excerpt(text)
                out = []
                for claim, value in signal.sets:
                    if signal.stronger and signal.stronger[1].search(self.text):
                        value = signal.stronger[0]
                    out.append(Candidate(claim, value, signal.id, excerpt, measured=True))
                return out
        return None

    def _figures(self, retest_said: bool = False) -> list[Candidate]:
        """The item's figures on the claims (`retest_said`: a signal says the subject was
        independently re-tested, so its figures are that run's)."""
        out = []
        if not self.subject.metrics:
            return out  # a subject known by its signals alone has no figures to read
        who = self.measurement[0] or ("independent" if retest_said else "")
        last: tuple[int, Quantity, object] | None = None  # the latest figure read, for lists
        for number, sentence in enumerate(a.sentence for a in self.analysed):
            stated = None
            respective = self._respectively(number)
            bare = bare_numbers(sentence.text)
            found = sorted([*quantities(sentence.text), *bare], key=_start)
            heading = (
                self._heading(number) or _row_label(sentence.text) or self._said_before(number)
            )
            for quantity in found:
                if heading and isinstance(quantity, Quantity) and quantity.quantity == "throughput":
                    # "单用户生成速度:" then "GPT-OSS 120B:1380 tokens/s": per user
                    quantity = replace(
                        quantity, quantity=heading[0], value=round(quantity.value * heading[1], 9)
                    )
                if not isinstance(quantity, Quantity) and -quantity[0] - 1 in respective:
                    quantity = respective[-quantity[0] - 1]  # "1,392, 702 and 731 tok/s"
                if not isinstance(quantity, Quantity):
                    if last is None or number - last[0] > 3:
                        continue
                    quantity = self._listed(number, quantity, last[1])
                    if quantity is None:
                        continue
                if quantity.comparator:
                    continue
                said = self.asserted(number, quantity.start)
                if said is not None and not (
                    said == "retracted" and self._corrects(number, quantity)
                ):
                    continue
                if not self.about_subject(number, quantity.start):
                    continue
                metric = self._metric(sentence.text, quantity) or self._metric_before(
                    number, quantity
                )
                if not metric:
                    continue
                metric = self._held_over(number, quantity, metric)
                last = (number, quantity, metric)
                stated = self.conditions_in(sentence.text, number, at=quantity.start)
                conditions = {**self.measurement[2], **self._said_earlier(number), **stated}
                model = respective.get(quantity.start) or self.model_at(
                    number, quantity.start, quantity.end
                )
                measured = (bool(who) or metric.disclosure) and not self._quoted(number, quantity)
                said = {**self._said_earlier(number), **stated}
                keys = RAN_KEYS & said.keys() if who and not metric.disclosure else ()
                if measured and keys:
                    # the run's figures say what it ran: "with 32,768-token inputs, … 410 tok/s",
                    # "B0 上的首个结果：812 tokens/s" (a stated rating or yield is no run)
                    self.ran = _merge(self.ran, {k: said[k] for k in keys})
                if measured and metric.run and stated and self._says_run(number):
                    self.ran = _merge(self.ran, stated)  # "B0 measures 31% more per watt"
                    self.ran_itself = True
                if measured and who and model:
                    self.ran_models.add(model)
                out.extend(
                    self._on_claims(metric.id, model, quantity, conditions, measured, sentence)
                )
        return out

    def _says_run(self, number: int) -> bool:
        """Does the sentence report a run as fact ("B0 measures 31% more", "实测提升28%"), not a
        figure alone ("B0: in fab, ~25 % better per watt expected")?"""
        text = self.analysed[number][0].text
        return any(
            self.asserted(number, m.start()) is None
            for m in self.rules.verbs.finditer(
                text, 0, len(text), lowered=self.analysed[number].lowered
            )
        )

    def _said_earlier(self, number: int) -> dict:
        """The workload the two sentences before state, for a figure whose own sentence states
        none ("1k tokens of input and 8k of output." then '"We measured 1,512 …"'); a list's
        lines are items of their own."""
        cached = self._earlier.get(number)
        if cached is not None:
            return cached
        out: dict = self._earlier.setdefault(number, {})
        if LIST_LINE.match(self.analysed[number].sentence.text):
            return out
        for back in range(max(self.sections[number], number - 2), number):
            text = self.analysed[back].sentence.text
            if LIST_LINE.match(text) or not (WORKLOAD_HINT.search(text) or MTP_HINT.search(text)):
                continue
            named = self.mentions[back]
            if named and not any(m.ours for m in named):
                continue  # "The GB300 side again had MTP on": another device's conditions
            stated = self.conditions_in(text, back)
            out.update({k: v for k, v in stated.items() if k in ("isl", "osl", "workload", "mtp")})
        return out

    def _corrects(self, number: int, quantity: Quantity) -> bool:
        """Is the figure the one a correction gives ("误写为 681，正确数字为 618", "should have read
        1.24 s")? The rest of the withdrawn sentence stays withdrawn."""
        sentence = self.analysed[number].sentence
        clause = sentence.clause_at(quantity.start)
        return bool(CORRECT_VALUE.search(sentence.text, clause.start, quantity.start))

    def _said_before(self, number: int) -> tuple[str, float] | None:
        """The denominator the sentence before gave its throughput, for a bare one in this sentence
        that names no measure of its own ("单用户速度为 614 tokens/s，数字有误。该负责人给出的
        实测值为 641 tokens/s")."""
        if number == 0 or not any(
            q.quantity == "throughput" for q in quantities(self.analysed[number].sentence.text)
        ):
            return None
        before = self.analysed[number - 1].sentence.text
        if not any(q.quantity.startswith("throughput-per") for q in quantities(before)):
            return None
        text = self.analysed[number].sentence.text.rstrip("。.!！?？ ")
        if NEW_MEASURE.search(text) or any(
            m.cues and m.cues.search(text) for m in self.subject.metrics
        ):
            return None
        return heading_denominator(before)

    def _heading(self, number: int) -> tuple[str, float] | None:
        """The denominator of the nearest line before that leads a list (it ends with a colon),
        when only list lines stand between."""
        lines = 0
        for back in range(number - 1, max(-1, number - 12), -1):
            text = self.analysed[back][0].text.rstrip()
            if LIST_NUMBER.fullmatch(text):
                continue  # the list's own "2."
            lines += 1
            if lines > 5:
                return None
            if text.endswith((":", "：")):
                return heading_denominator(text)
            if text.endswith((".", "。", "!", "?", "！", "？")):
                return None  # a sentence, not a list line: the list is over
        return None

    def _quoted(self, number: int, quantity: Quantity) -> bool:
        """ "官方说…1.7到3.6倍", "OpenAI's 19,600": a figure the clause gives as the owner's word is
        quoted, not measured by the item's own run."""
        if self.measurement[0] != "independent":
            return False
        sentence = self.analysed[number][0]
        clause = sentence.clause_at(quantity.start)
        lead = sentence.text[max(clause.start, quantity.start - 24) : quantity.start]
        owner = self.subject.owner
        return bool(QUOTED.search(lead) or (owner is not None and _owners_word(owner).search(lead)))

    def _respectively(self, number: int) -> dict[int, str | Quantity]:
        """ "A and B … X and Y respectively", "A和B…分别为X和Y": figure i is model i. Bare numbers
        listed before the last figure share its unit ("1,392, 702 and 731 tokens per second");
        they come back as Quantities keyed by where they start."""
        text = self.analysed[number][0].text
        cue = RESPECTIVELY.search(text)
        if not cue:
            return self._for_models(number)
        sentence = self.analysed[number][0]
        span = next((p for p in sentence.spans if p.start <= cue.start() < p.end), None)
        begin, end = (span.start, span.end) if span else (0, len(text))
        models: list[str] = []
        for start, name in self.models[number]:
            if begin <= start < cue.start() and name != OTHER_MODELS and name not in models:
                models.append(name)
        last_model = max((st for st, _ in self.models[number] if st < end), default=-1)
        after = [q for q in quantities(text) if not q.comparator and last_model < q.start < end]
        if len(after) == 1 and len(models) > 1:
            after = _shared_unit(text, last_model, after[0]) or after
        if len(models) < 2 or len(after) != len(models):
            return {}
        out: dict[int, str | Quantity] = {
            q.start: model for q, model in zip(after, models, strict=True)
        }
        out.update({-q.start - 1: q for q in after})  # the figures themselves, by -(start + 1)
        return out

    def _for_models(self, number: int) -> dict[int, str | Quantity]:
        """ "1,401, 688 and 702 tokens per second for GPT-OSS 120B, DeepSeek R1 and Kimi K2.5":
        a list of figures, then "for" and a list of as many models, figure i for model i."""
        text = self.analysed[number][0].text
        marks = [(start, name) for start, name in self.models[number] if name != OTHER_MODELS]
        if len(marks) < 2:
            return {}
        for q in quantities(text):
            lead = FOR_MODELS.match(text, q.end)
            if not lead or q.comparator:
                continue
            figures = _shared_unit(text, -1, q)
            names, edge = [], lead.end()
            for start, name in marks:
                if start >= edge and LIST_JOINT.fullmatch(text, edge, start):
                    names.append(name)
                    model = next(m for m in self.subject.models if m.id == name)
                    found = next(iter(model.names.finditer(text[start:])), None)
                    edge = start + (found.end() if found else 1)
            if len(figures) >= 2 and len(names) == len(figures):
                out: dict[int, str | Quantity] = {
                    f.start: n for f, n in zip(figures, names, strict=True)
                }
                out.update({-f.start - 1: f for f in figures})
                return out
        return {}

    def _metric(self, text: str, quantity: Quantity):
        """The metric a figure measures: the one whose cue stands nearest it (a cue that may stand
        anywhere in the sentence wins outright), else the only one with no cues."""
        start = max(0, quantity.start - WINDOW_BEFORE)
        after = text[quantity.end : quantity.end + WINDOW_AFTER]
        after = AFTER_BREAK.split(after, maxsplit=1)[0]  # cues after a break: the next figure's
        window = text[start : quantity.end] + after
        best, best_distance = None, None
        defaults = []
        for metric in self.subject.metrics:
            if not _may_measure(metric, quantity, text):
                continue
            if metric.cues is None:
                defaults.append(metric)
                continue
            if metric.wide and metric.cues.search(text):
                return metric
            distance = _nearest(metric.cues, window, quantity.start - start)
            if distance is not None and (best_distance is None or distance < best_distance):
                best, best_distance = metric, distance
        return best or (defaults[0] if len(defaults) == 1 else None)

    def _listed(self, number: int, bare: tuple, previous: Quantity) -> Quantity | None:
        """ "DeepSeek R1 landed at 19,450", "Kimi K2.5为1.71万": a bare number right after a model's
        name, in a list whose last figure had a unit, is a figure of that unit and scale."""
        text = self.analysed[number][0].text
        start, end, value = bare
        models = [s for s, _ in self.models[number] if s < start]
        if (
            not models
            or start - models[-1] > 36
            or not BARE_LEAD.fullmatch(text[models[-1] : start])
        ):
            return None
        others, owner = self.subject.others, self.subject.owner
        if others is not None and others.search(text, models[-1], start):
            return None  # "DeepSeek R1为1.96万，对比GB300的1.18万": the other device's figure
        if owner is not None and owner.search(text, models[-1], start):
            return None  # "Kimi K2.5: 731 tokens/s (OpenAI: 694)": the owner's figure beside it
        ratio = value / previous.value if isinstance(previous.value, float) else 0
        if not 1 / 10 <= ratio <= 10:
            return None  # another scale: not the list's unit
        return Quantity(start, end, value, previous.quantity, _comparator_before(text, start))

    def _held_over(self, number: int, quantity: Quantity, metric):
        """ "两边都维持约169 token/s的单用户速度。Jalapeño每千瓦约9,800": a condition said in the
        sentence before (a sentence-wide cue) still holds for a bare figure of its quantity, unless
        the figure says it is the peak."""
        if metric.cues is not None or number == 0 or PEAK.search(self.analysed[number][0].text):
            return metric
        before = self.analysed[number - 1][0].text
        for other in self.subject.metrics:
            if other.wide and other.quantity == quantity.quantity and other.cues.search(before):
                return other
        return metric

    def _metric_before(self, number: int, quantity: Quantity):
        """ "The lab measured 1.24 seconds": a bare figure measures what the nearest of the three
        sentences before it named, when exactly one metric of its quantity is named there."""
        text = self.analysed[number][0].text
        for back in range(number - 1, max(-1, number - 4), -1):
            found = self._named_in(self.analysed[back][0].text, text, quantity)
            if found is not None:
                return found
        return None

    def _named_in(self, before: str, text: str, quantity: Quantity):
        """The one metric of the figure's quantity an earlier sentence names, if exactly one."""
        named = [
            m
            for m in self.subject.metrics
            if m.cues is not None
            and m.cues.search(before)
            and _may_measure(m, quantity, text)
            and not (m.unless and m.unless.search(before))
        ]
        if len(named) > 1:
            return False  # named, but ambiguously: look no further back
        return named[0] if named else None

    def _on_claims(self, metric, model, quantity: Quantity, conditions, measured, sentence):
        refs = self.index.find(self.subject.id, metric, model)
        if not refs:
            return []
        verdicts = [(ref, _mismatch(ref.conditions, conditions)) for ref in refs]
        matching = [(ref, m) for ref, m in verdicts if not m]
        ref, mismatch = (matching or verdicts)[0]
        value = _in_unit(quantity, ref)
        if value is None:
            return []
        return [
            Candidate(
                claim_id=ref.id,
                value=value,
                unit=ref.unit,
                signal="figures",
                excerpt=_excerpt(sentence.text),
                measured=measured,
                verification=self.level() if measured else "",
                mismatch=mismatch,
            )
        ]

    def _measured(self) -> list[Candidate]:
        """What a new measurement of the subject says by itself: that it was re-tested, and
        what its conditions imply (a long-context run, a run on the next stepping)."""
        who, _, conditions = self.measurement
        if not who and not self.ran_itself:
            return []
        conditions = _merge(conditions, self.ran)
        excerpt = _excerpt(self._measurement_sentence())
        out = []
        spec = self.subject.measurement
        if who == "independent" and spec:
            out.append(Candidate(spec.claim, self.level(), "independent-retest", excerpt))
        for implication in self.subject.implies:
            if all(_holds(conditions.get(k), wanted) for k, wanted in implication.when.items()):
                out += [Candidate(c, v, "implied", excerpt) for c, v in implication.sets]
        return out

    def _measurement_sentence(self) -> str:
        for number, sentence in enumerate(a.sentence for a in self.analysed):
            verb = self.rules.verbs.search(sentence.text)
            if verb and self.asserted(number, verb.start()) is None:
                return sentence.text
        return self.analysed[0][0].text if self.analysed else ""


_WORDS: dict[int, tuple] = {}


def _signal_words(subject: Subject) -> frozenset[str] | None:
    """Every literal word the subject's signals need (None when some signal has none)."""
    held = _WORDS.get(id(subject))
    if held is not None and held[0] is subject:
        return held[1]
    unions = [s.quick.union if s.quick is not None else None for s in subject.signals]
    words = None if None in unions else frozenset().union(*unions)
    _WORDS[id(subject)] = (subject, words)
    return words


@lru_cache(maxsize=1024)
def firm_names(text: str) -> tuple[str, ...]:
    """Capitalised names an item introduces as a firm, or gives a run to (cached: each subject's
    reading of an item asks)."""
    names = {m.group("name") for m in FIRM_INTRO.finditer(text)}
    names |= {m.group("name") for m in FIRM_WORK.finditer(text)}
    names |= {m.group("name") for m in NAMED_RUNNER.finditer(text)}
    names |= {m.group("name") for m in SAID_RUNNER.finditer(text)}
    names |= {m.group("name") for m in BY_RUNNER.finditer(text)}
    names |= {m.group("name") for m in ZH_FIRM_REPORT.finditer(text)}
    return tuple(sorted(n for n in names if n.split()[0] not in FIRM_NOT and n not in FIRM_NOT))


@lru_cache(maxsize=1024)
def firm_pattern(words: tuple[str, ...]) -> re.Pattern:
    """The names as whole words (a Chinese name has no spaces around it to stand between)."""
    ordered = sorted(words, key=len, reverse=True)
    latin = "|".join(re.escape(w) for w in ordered if w.isascii())
    chinese = "|".join(re.escape(w) for w in ordered if not w.isascii())
    parts = ([rf"(?<![\w-])(?:{latin})(?![\w-])"] if latin else []) + ([chinese] if chinese else [])
    return re.compile("|".join(parts))


def _compared_before(text: str, at: int) -> bool:
    """Is the name at `at` the other side of a comparison ("over GB200", "against the same
    Nvidia", "1.4x the Nvidia systems", "对比英伟达")?"""
    window = text[max(0, at - 32) : at]
    return bool(COMPARED_WITH.search(window) or COMPARED_ZH.search(window))


def _row_label(text: str) -> tuple[str, float] | None:
    """The denominator a table row's label gives every cell of the row ("GPT-OSS 120B 单用户速度:
    官方 1,459 tok/s; 实测 1,380 tok/s", a row as `text.TABLE` reads it)."""
    colon = ROW_LABEL.match(text)
    return heading_denominator(colon.group(1)) if colon and ";" in text[colon.end() :] else None


def _matches(signal: Signal, part: str, terms, lowered: str):
    """(start, end) of each way the signal is said in this clause: a pattern, or all its terms
    (those of `terms`: the signal's, when the sentence holds their words)."""
    for pattern in signal.patterns:
        match = pattern.search(part)
        if match:
            yield [(match.start(), match.end())]
    if terms:
        found = []
        for term in terms:
            match = term.search(part, lowered=lowered)
            if match is None:
                return
            found.append(match)
        # each term's own words must be asserted; a cue between them touches neither
        yield [(match.start(), match.end()) for match in found]


@cache
def _owners_word(owner: re.Pattern) -> re.Pattern:
    """The owner's possessive or speech just before a figure ("OpenAI's 19,600", "官方说")."""
    return re.compile(
        rf"(?:{owner.pattern}|the company)(?:'s|’s| says| said|的|说|称)\s*\S{{0,6}}$", re.I
    )


def _bare(text: str, at: int) -> bool:
    """Is the party word at `at` a bare "the team", "engineers", "团队", naming nobody by itself?"""
    word = BARE_PARTY.match(text, at)
    return (
        bool(word)
        and bool(BARE_BEFORE.search(text[max(0, at - 16) : at]))
        and not NAMED_AFTER.match(text, word.end())  # "Researchers at ETH Zurich" name someone
    )


def _owned(owner: re.Pattern, text: str, at: int, owners: list[int]) -> bool:
    """Is the party word at `at` the owner's own ("OpenAI's hardware team", "OpenAI内部团队", or,
    once the owner has been named as a party before it, "公司已在自家实验室", "in its own lab")?
    `owners`: where the sentence names the owner as a party (not "OpenAI's Jalapeño"). The
    owner's customers and tenants are not the owner ("拿到 OpenAI 试用权的客户")."""
    if CUSTOMER.match(text, at):
        return False
    if OWN_WORD.search(text[max(0, at - 10) : at]) and any(o < at for o in owners):
        return True
    before = text[max(0, at - 28) : at]
    found = list(owner.finditer(before))
    if not found:
        return False
    match = found[-1]
    between = before[match.end() :]
    if SUPPLIER.match(between):
        return False  # "在 OpenAI 提供的机柜上独立测试": the owner lent it, not its own party
    if PHRASE_BREAK.search(between):
        return False  # "OpenAI's Jalapeño in an independent head-to-head": another phrase
    return bool(
        re.fullmatch(
            r"(?:'s|’s|的)?\s*(?:own\s+|in-house\s+|internal\s+|内部)?[\w\s-]{0,16}?", between
        )
    )


def _may_measure(metric, quantity: Quantity, text: str) -> bool:
    """Can this figure of this sentence be of this metric: its quantity, no excluding word near it,
    no ruling-out word in the sentence, and the words the metric needs?"""
    # an excluding word of another clause ("token 间隔为 0.76 毫秒，端到端 1.14 秒") is not near
    start = max(quantity.start - 30, max(text.rfind(c, 0, quantity.start) for c in ",;，；") + 1)
    ends = [i for i in (text.find(c, quantity.end) for c in ",;，；") if i >= 0]
    near = text[start : min([quantity.end + 20, *ends])]
    return (
        metric.quantity == quantity.quantity
        and not (metric.exclude and metric.exclude.search(near))
        and not (metric.unless and metric.unless.search(text))
        and not (metric.needs and not metric.needs.search(text))
    )


def _start(figure) -> int:
    """Where a figure starts: a Quantity, or a bare number's (start, end, value)."""
    return figure.start if isinstance(figure, Quantity) else figure[0]


def _holds(stated, wanted: tuple) -> bool:
    if stated is None:
        return False
    if isinstance(stated, tuple):
        return any(s in wanted for s in stated)
    return stated in wanted


def _merge(held: dict, stated: dict) -> dict:
    """The run's conditions across sentences; a condition said two ways is not known."""
    out = dict(held)
    for key, value in stated.items():
        if key in out and out[key] != value and key != "workload":
            out[key] = None
        elif key == "workload" and key in out and out[key]:
            out[key] = tuple(sorted(set(out[key]) | set(value)))
        else:
            out[key] = value
    return {k: v for k, v in out.items() if v is not None}


def _mismatch(claim: dict, stated: dict) -> str:
    """The conditions a figure states that differ from the claim's; "" when none does."""
    differ = []
    for key in ("isl", "osl"):
        if key in claim and key in stated and abs(stated[key] - claim[key]) > claim[key] * 0.05:
            differ.append(f"{key} {stated[key]:,} (claim: {claim[key]:,})")
    kinds = stated.get("workload") or ()
    if kinds and "isl" in claim:
        differ.append(f"workload {', '.join(kinds)}")
    for key, value in stated.items():
        if key in ("isl", "osl", "workload") or key not in claim:
            continue
        if value != claim[key]:
            differ.append(f"{key} {value} (claim: {claim[key]})")
    return "; ".join(differ)


def _in_unit(quantity: Quantity, ref: ClaimRef):
    """The figure in the claim's unit; None when the quantities differ."""
    unit = UNITS.get(ref.unit)
    if quantity.quantity in ("ratio-range", "percent-range"):
        return quantity.value if unit and unit[0] in ("ratio", "percent") else None
    if unit is None or unit[0] != quantity.quantity:
        return None
    return round(quantity.value / unit[1], 6)


def _nearest(pattern: re.Pattern, window: str, at: int) -> int | None:
    distances = [min(abs(m.start() - at), abs(m.end() - at)) for m in pattern.finditer(window)]
    return min(distances) if distances else None


def _excerpt(text: str) -> str:
    return " ".join(text.split())[:EXCERPT]


ROW_LABEL = re.compile(r"([^:;。]{1,60}):\s")
PARTY_RANK = ["", "someone", "owner", "independent"]  # who measured, when sentences differ
RERUN = re.compile(
    r"re-?test\w*|re-?ran|re-?run\w*|re-?measur\w*|replicat\w*|reproduc\w*|复测|重测|重跑|复现",
    re.I,
)
# ", the accelerator that sits alongside its Rubin GPUs,": a device named in an aside is not the topic
APPOSITIVE = re.compile(r",\s*(?:the|a|an|which|who|its)\b[^,]{0,120},", re.I)
# between a model's name and its bare figure: "landed at", "came in at", "为", ":", "is"
BARE_LEAD = re.compile(
    r"\S.*?(?:\s(?:landed at|came in at|reached|hit|at|is|was|of|with)|为|是|达到|:|：)?\s*"
    r"(?:about|around|roughly|约)?\s*",
    re.I | re.S,
)
PEAK = re.compile(r"\bpeak\b|\bmaximum\b|峰值|最高|最大", re.I)
QUOTED = re.compile(
    r"官方|自报|宣称|\bofficial\b|\bclaimed\b|\badvertised\b|\bpublished\b|\bquoted\b", re.I
)
MODEL_AFTER = re.compile(r"\s*(?:\w+\s+){0,2}?(?:for|on|with|running|在)\s*", re.I)
# the owner's figure quoted, not the owner running anything: "OpenAI's 1.03-second", "OpenAI 的 8.54 万"
# the owner's work, not the owner at work: "repeated OpenAI's equal-interactivity comparison"
OWNERS_WORK = re.compile(
    r"(?:'s|’s)\s+(?:[\w-]+\s+){0,2}?(?:comparison|figures?|numbers|results|claims?|data"
    r"|methodology|headline|ratios?|chart|table|blog|post|paper)\b|(?:'s|’s)(?=\s*(?:[.,;:)]|$))"
    r"|\s*的\s*\S{0,6}?(?:口径|数据|数字|成绩|结果|方法|说法|图表|博客|论文|标准)",
    re.I,
)
OWNERS_FIGURE = re.compile(r"\s*(?:'s|’s|的)?\s*(?:own\s+|official\s+|published\s+)?[\d$¥]")
# the subject left out of a run: "未包括 Jalapeño", "Jalapeño was not part of the test"
LEFT_OUT_BEFORE = re.compile(
    r"(?:未|没有|并未|不)(?:包括|包含|涉及|覆盖|复测|重测|测试?)了?\s*$"
    r"|\b(?:did not|didn't|does not|has not|hasn't|never)\s+(?:include|cover|re-?run|re-?test"
    r"|re-?measure|run|test|measure|benchmark)\s+$",
    re.I,
)
LEFT_OUT_AFTER = re.compile(
    r"\s*(?:itself\s+)?(?:was|were|is)\s+not\s+(?:part of|included in|among|in)\s+(?:the|this|that)\s+"
    r"(?:test|run|re-?test|comparison|study|measurement)s?\b|\s*(?:不在|未在)(?:本次|这次)?(?:测试|复测)"
    r"|\s*(?:芯片)?\s*(?:无关|没有关系|毫无关系)",
    re.I,
)
REFLEXIVE = re.compile(r"自测|自行|自己|\bitself\b|\bthemselves\b", re.I)
# a transcript's turn: a short name, a role or 问/答 before a colon at the start of a line
SPEAKER = re.compile(
    r"\s*([A-Z][A-Za-z.'’ -]{1,24}|[\u4e00-\u9fff]{1,4})(?:\s*\([^)]{0,80}\))?\s*:\s*"
)
DROPPED_LEAD = re.compile(r"(?:只|也|又|都|还|就|先|再|后来|然后|最后|已经|当时|一共)*")
PARTICIPLE = re.compile(r"\w+ing\b", re.I)
# the speaker's own: "in our own lab", "我们的团队"
FIRST_PERSON_OWN = re.compile(
    r"(?:\b(?:our|my)\s+(?:own\s+)?|我们(?:的|在|自己的)?|我的)\s*$", re.I
)
# someone of the owner's speaking: "OpenAI's VP of compute hardware", "OpenAI 硬件负责人"
OWNER_ROLE = re.compile(
    r"(?:'s|’s)?\s*(?:\w+\s+){0,3}?(?:chief|head|vp|vice president|director|executive|cfo|ceo|cto"
    r"|president|spokes(?:wo)?man|spokesperson)\b|(?:'s|’s)\s+(?-i:[A-Z][a-z]+\s+[A-Z][a-z]+)"
    r"|\s*(?:的)?\s*\S{0,6}?(?:负责人|副总裁|总裁|高管|首席|发言人|主管)",
    re.I,
)
# the owner's own publication: "OpenAI engineering blog", "OpenAI 官方博客"
OWNER_OUTLET = re.compile(
    r"(?:'s|’s)?\s*(?:\w+\s+){0,2}?(?:blog|newsroom|press release|official (?:post|statement))\b"
    r"|\s*(?:的)?\s*(?:官方)?(?:博客|官博|新闻稿|官方公告|官方声明)",
    re.I,
)
# the owner, named in the item, writing on its own outlet: "wrote on the company's engineering blog"
COMPANY_OUTLET = re.compile(
    r"\b(?:on|in) the company(?:'s|’s) (?:own |official |engineering |research |hardware )?"
    r"(?:blog|newsroom|website)\b|在公司(?:官方)?(?:博客|官网)",
    re.I,
)
# a signature line: "— The OpenAI hardware team"
SIGN_OFF = re.compile(r"(?:^|\n)\s*(?:—|–|--?)\s*(?:the\s+)?$", re.I)
TEAM_LINE = re.compile(r"[^\n]{0,40}(?:\bteam|团队)\s*(?:$|\n)", re.I)
# a capitalised name right before a measuring verb: "Kestrel Analytics has now re-run …"
# (a name of two words or more, or one with a capital inside: "Halden Labs", "SemiAnalysis";
# never a pronoun or a line's label such as "Silicon tested:")
NAMED_RUNNER = re.compile(
    r"(?:^|[,;:—]\s*|\b(?:and|that|as|after|when|where)\s+)"
    r"(?!(?:We|They|It|He|She|I|You|This|That|These|Those|The|A|An|Our|Their|Its)\b)"
    r"(?P<name>(?-i:[A-Z][a-z]+[A-Z][\w&.'’-]*|[A-Z][\w.'’-]*(?:\s+(?:&\s+)?[A-Z][\w.'’-]*){1,3}))"
    r"\s+(?:has\s+|have\s+|had\s+)?(?:now\s+|also\s+|since\s+|independently\s+|just\s+)?"
    r"(?:ran|re-?ran|re-?run|measured|re-?measured|tested|re-?tested|benchmarked|clocked|timed"
    r"|repeated|replicated|reproduced|(?<=has )run|(?<=have )run|(?<=had )run|(?<=now )run"
    r"|clocks|measures|re-?tests|re-?runs|re-?measures)\b"
    r"(?!:|\s+at\b)"  # "DeepSeek V4 ran at 21,300" is a model's figure
)
# a name that says it ran it: "SemiAnalysis said on Tuesday it has now operated Jalapeño itself"
FOR_MODELS = re.compile(r"[^,;.\d]{0,30}?\b(?:for|on|of)\s+(?:the\s+)?", re.I)
# a name (not the owner's: checked by the caller's order) right before "自己", "itself"
NAME_BEFORE = re.compile(r"(?-i:[A-Z][\w&.-]+(?:\s+[A-Z][\w&.-]+){0,2})\s*$")
CUSTOMER = re.compile(r"客户|租户|用户|customers?\b|tenants?\b|clients?\b", re.I)
# a spot check set against the party's own run: "与 8 月只是在现场见证不同", "rather than watching"
UNLIKE_BEFORE = re.compile(
    r"与[^，,。]{0,24}不同|不同于|不再(?:只是)?|\b(?:rather than|instead of|unlike|no longer|not just)\b",
    re.I,
)
# "比跑出 8 月成绩的 A0 高 31%": what follows 比 and its description is the other side
COMPARED_ZH = re.compile(r"(?:比|较|相较于|相比于)[^，,。；;:：比]{0,16}的\s*$")
RAN_KEYS = frozenset({"workload", "silicon", "mtp"})  # what a measured figure says its run was
SEMICOLON = re.compile(r"[;；]")
# a forum reply's handle: "kv_cache_enjoyer: …", "gpu_poor: …" (lower case, no spaces)
HANDLE = re.compile(r"(?=[a-z0-9_.-]*[a-z])(?=[a-z0-9_.-]*[_\d.-])[a-z0-9_.-]{3,30}:\s")
CORRECT_VALUE = re.compile(
    r"正确(?:的)?(?:数字|数据|数值|值|结果)?(?:应)?(?:为|是)|应为|实为|实际(?:上)?为"
    r"|\b(?:the )?(?:correct|right|actual) (?:figure|number|value|result) (?:is|was)\b"
    r"|\bshould (?:have )?(?:read|said|been)\b",
    re.I,
)
# a verb that says the device was run, not that a figure was disclosed or reached
RAN_VERB = re.compile(
    r"跑|实测|测了|测得|\b(?:ran|run|re-?ran|measured|tested|benchmarked|clocked)\b", re.I
)
RENTED_FROM = re.compile(
    r"\b(?:rented|leased|borrowed|bought|sourced|hired)\s+(?:[\w-]+\s+){0,2}?from\s+(?:an?\s+|the\s+)?$"
    r"|(?:租自|借自|购自)\s*$",
    re.I,
)
PHRASE_BREAK = re.compile(r"\b(?:in|on|at|for|by|from|with|than|and|of)\b", re.I)
VERB_WORD = re.compile(r"[\w-]+")
OBJECT_GAP = re.compile(r"\s*(?:(?:the|its|an?|openai's|nvidia's)\s+)?", re.I)
MTP_HINT = re.compile(r"\bmtp\b|multi[- ]token prediction|多\s*token\s*预测", re.I)
LIST_LINE = re.compile(r"\s*(?:[-•*·]|\d{1,2}[.)])\s")
WORKLOAD_HINT = re.compile(
    r"\d\s*k\b|\d{3,}\s*(?:input|prompt|token)|上下文|输入|long[- ]context|multi[- ]turn|多轮", re.I
)
LIST_NUMBER = re.compile(r"\s*\(?\d{1,2}[.)]\s*")
LIST_JOINT = re.compile(r"\s*(?:,|、|，)?\s*(?:and|和|及|与)?\s*", re.I)
SAID_RUNNER = re.compile(
    r"(?P<name>(?-i:[A-Z][a-z]+[A-Z][\w&.'’-]*|[A-Z][\w.'’-]*(?:\s+(?:&\s+)?[A-Z][\w.'’-]*){0,3}))"
    r"\s+(?:said|says|announced|reported|wrote)\s+(?:[\w-]+\s+){0,3}?(?:that\s+)?(?:it|they)\s+"
    r"(?:has\s+|have\s+|had\s+)?(?:now\s+|also\s+|just\s+|finally\s+|since\s+)?"
    r"(?:ran|re-?ran|re-?run|measured|re-?measured|tested|re-?tested|benchmarked|operated|repeated)\b"
)
# a name a run is done by: "Runs submitted and executed by Nimbus Cloud on its own cluster"
BY_RUNNER = re.compile(
    r"\b(?:ran|run|runs|executed|performed|conducted|carried out|measured|tested|benchmarked"
    r"|re-?run|re-?tested|re-?measured|audit|study|evaluation|re-?test|replication)"
    r"\s+(?:and\s+\w+\s+)?(?:independently\s+)?by\s+(?:the\s+)?"
    r"(?P<name>(?-i:[A-Z][a-z]+[A-Z][\w&.'’-]*|[A-Z][\w.'’-]*(?:\s+(?:&\s+)?[A-Z][\w.'’-]*){0,3}))",
    re.I,
)
# a Chinese name that opens a sentence and publishes a report: "钛度周三发布报告"
ZH_FIRM_REPORT = re.compile(
    r"(?:^|(?<=[，,。；;\n]))\s*(?P<name>[\u4e00-\u9fff]{2,4}?)"
    r"(?=\s*(?:周[一二三四五六日]|今天|昨天|昨日|日前|近日|本周|上周)?\s*(?:发布|公布|晒出|发表)了?"
    r"(?:一份|最新的?)?(?:报告|测试|评测|结果|数据|跑分))"
)
# a firm introduced as one: "Brightline Systems, which benchmarks…", "Fieldnote's R1 run"
FIRM_INTRO = re.compile(
    r"(?P<name>(?-i:[A-Z][a-z]+[A-Z][\w&.'’-]*|[A-Z][\w.'’-]*(?:\s+(?:&\s+)?[A-Z][\w.'’-]*){1,3}))"
    r"(?:,\s+(?:which|a|an|the)\s+(?:[\w-]+\s+){0,4}?"
    r"(?:benchmarks|tests|measures|firm|company|lab|consultancy|startup|provider|house|shop|group"
    r"|cloud|operator|customer)\b"
    r"|\s+is\s+(?:one of\s+(?:a handful of|several|many|the|few)|a|an)\s+(?:[\w-]+\s+){0,4}?"
    r"(?:clouds?|providers?|labs?|firms?|compan(?:y|ies)|consultanc(?:y|ies)|startups?|operators?"
    r"|customers?|test houses?)\b"
    r"|(?:'s|’s)\s+(?:[\w/-]+\s+){0,4}?(?:run|runs|test|tests|report|benchmark|numbers|results"
    r"|measurements|replication|re-?test|study|evaluation|paper)\b"
    r"|\s+(?:posts|posted|publishes|published|releases|released|reports|reported)\s+(?:its|their)\s+"
    r"(?:[\w/-]+\s+){0,3}?(?:numbers|results|figures|measurements)\b)"
)
# a name, one word or more, that owns a test: "Brightline's full Jalapeño replication"
FIRM_WORK = re.compile(
    r"(?P<name>(?-i:[A-Z][\w.&-]+(?:\s+(?:&\s+)?[A-Z][\w.&-]+){0,3}))(?:'s|’s)\s+(?:[\w/-]+\s+){0,4}?"
    r"(?:run|runs|test|tests|re-?test|replication|benchmark|measurements|study|evaluation)\b"
)
FIRM_HINT = re.compile(
    r",\s+(?:which|a|an)\s+|(?:'s|’s)\s+(?:[\w/-]+\s+){0,4}?"
    r"(?:run|test|report|benchmark|results|replication|re-?test|study|evaluation|paper|numbers"
    r"|measurements|figures)\b|\s+is\s+(?:one of|a|an)\s+"
    r"|(?:发布|公布|晒出|发表)了?(?:一份|最新的?)?(?:报告|测试|评测|结果|数据|跑分)"
    r"|\s(?:posts|posted|publishes|published|releases|released|reports|reported)\s+(?:its|their)\s"
    r"|\b(?:ran|re-?ran|re-?run|measured|re-?measured|tested|re-?tested|benchmarked)\b"
)
# words that start a capitalised stretch but name no firm
FIRM_NOT = {
    "The", "A", "An", "This", "That", "These", "Those", "Our", "Their", "Its", "We", "They",
    "It", "In", "On", "At", "For", "By", "With", "And", "But", "So", "As", "When", "After",
    "Nvidia", "Google", "Amazon", "Microsoft", "Meta", "AMD", "Intel", "Broadcom", "TSMC",
    "官方", "公司", "该公司", "团队", "他们", "我们", "对方", "双方", "媒体", "外媒", "记者", "随后",
    "此前", "同时", "另外", "此外", "今天", "昨天", "目前", "近日", "日前", "本周", "上周",
}  # fmt: skip
# where a run took place, said after it: "running Jalapeño in its own lab"
OWN_PLACE = re.compile(r"\b(?:in|at|on) (?:its|their) own\s+$", re.I)
# the owner inside what 把 or 将 marks as the object: "把 OpenAI 的方法复刻了一遍"
OBJECT_MARK = re.compile(r"(?:把|将)\s*$")
# the owner lending, said in the passive: "who were loaned two boards by OpenAI"
LENT_BY = re.compile(
    r"\b(?:loaned|lent|supplied|provided|given|shipped|sent|furnished)\s+(?:[\w'’-]+\s+){0,5}?by\s+$"
    r"|\b(?:loaner|loaned|borrowed|on loan|lent)\b[^.;]{0,40}\bfrom\s+$",
    re.I,
)
# the owner lending the hardware, not running it: "OpenAI lent", "OpenAI 出借的"
SUPPLIER = re.compile(
    r"\s*(?:had\s+|has\s+)?(?:lent|loaned|supplied|provided|gave|shipped|sent|loans|lends)\b"
    r"|\s*(?:出借|借出|借给|提供|寄送|送来|借的)|\s*(?:已经?)?向[^，,。]{0,12}?(?:寄送|寄出|提供|出借|借出|交付)",
    re.I,
)
# party words that name nobody by themselves, and what may stand before them then
BARE_PARTY = re.compile(
    r"(?:lab|labs|laboratory|team|teams|engineers?|researchers?|testers?)\b|团队|实验室|工程师|研究人员"
    r"|负责人",
    re.I,
)
NAMED_AFTER = re.compile(r"\s+(?:at|from|of|in|with)\s+(?:the\s+)?(?-i:[A-Z])", re.I)
BARE_BEFORE = re.compile(
    r"(?:(?:^|[,.;:!?，。；：、()（）])\s*"  # nothing of its own before it
    r"|(?:^|\s)(?:the|its|their|this|that|these|those|after|and|but|when|while|as|because|then|so"
    r"|by|with|from)\s+"  # a definite or a joining word: no name, no "a" that brings a new one
    r"|该|这个|这支|这家|此|其)$",
    re.I,
)
# a party word's own possessive, pointing back at the sentence's owner: "its own lab", "自家实验室"
OWN_WORD = re.compile(
    r"(?:\b(?:its|the company's|the company’s)\s+(?:own\s+)?(?:in-house\s+)?|\bin-house\s+"
    r"|自家|自有|自己的|公司内部|内部|公司的?)\s*$",
    re.I,
)
POSSESSIVE = re.compile(r"^\s*(?:'s|’s|的)?\s*(?:(?:own|new|in-house|自研)\s*)?")
PAIR_JOIN = re.compile(
    r"\s*(?:nvl\d+\s*)?(?:racks?\s+|systems?\s+|boards?\s+|机柜|系统|板卡|服务器|整机)?\s*"
    r"(?:and|against|versus|vs\.?|alongside|next to|beside|和|与|及|对比|对阵)\s*"
    r"(?:on\s+|with\s+)?(?:an?\s+)?(?:\w+(?:'s|’s)\s+|\w+\s*的\s*|the\s+)?"
    r"(?:(?:one|two|three|four|\d+|loaned|rented|borrowed|its|their|own|a0|b0)\s+){0,3}",
    re.I,
)
# a device's published words, not the device: "Jalapeño's claims", "GB300's figures"
DEVICE_WORDS = re.compile(
    r"(?:'s|’s)\s+(?:claims?|figures?|numbers?|results?|data|headline)\b", re.I
)
PAIR_COMPARED = re.compile(
    r"\b(?:than|vs\.?|versus|against|ahead of|outperform\w*|beat|beats|edged out|level with)\b"
    r"|比|领先|落后|对比|相比|持平|打平",
    re.I,
)
RESPECTIVELY = re.compile(r"\brespectively\b|分别(?:为|是|达到|在)?", re.I)
AFTER_BREAK = re.compile(r"[;；:：、，]|,(?!\d)")
BOTH = re.compile(
    r"\bboth (?:systems|chips|devices|machines)\b|\bside by side\b|两者|二者|双方|同台|放在一起",
    re.I,
)
COMPARED_AFTER = re.compile(r"\s*(?:相比|相较|比较|对比)")
# "为对比系统的 1.5-1.9 倍": the device a ratio is taken against
# names joined to a skipped comparator go with it ("against Nvidia's GB200 and GB300")
JOINED = re.compile(r"\s*(?:,|、|/|and|or|和|与|及|以及|[(（])?\s*", re.I)
# "为对照系统（GB200/GB300）的 1.3 至 1.7 倍": the device the figure is a multiple of
RATIO_OF = re.compile(
    r"\s*(?:\S{0,4}?(?:系统|平台|芯片|方案|产品))?\s*(?:[(（][^()（）]{0,30}[)）])?\s*[)）]?\s*的\s*\d"
)
# a word that puts what follows on the other side of a comparison ("1.71 s versus 5.31 s on GB300")
COMPARISON = re.compile(
    r"\b(?:vs\.?|versus|than|against|compared (?:with|to)|relative to)(?!\w)|对比|相比|相较|比",
    re.I,
)
# the device an item is about, named again without its name
ANAPHOR = re.compile(
    r"\b(?:the|this) (?:chip|part|accelerator|asic)\b"
    r"(?!\s*(?:industry|market|makers?|team|war|shortage|business|sector|stocks?|supply|design(?:ers?)?))"
    r"|(?:该|这颗|这款|这枚|此)芯片",
    re.I,
)
# who a sentence is attributed to, at its end: ", OpenAI said on its engineering blog."
ATTRIBUTION = re.compile(
    r",\s*(?:according to\s+[^,;]{1,60}|[^,;]{1,40}?\s(?:said|says|reported|wrote|added|announced)"
    r"(?:\s+(?:on|in)\s+[^,;]{1,80})?)\s*[.。]?\s*$"
    r"|[”\"」]\s*[^。，,“”\"]{1,50}?(?:写道|表示|说|称|指出)\s*[。.]?\s*$",  # "“…”OpenAI 一位工程师写道。"
    re.I,
)
# who speaks a sentence that opens on them: "OpenAI 工程师：…", "OpenAI 发布更新，称“…"
SAID_BY = re.compile(r"[^:：“\"「。]{1,40}?(?:[:：]|(?:称|表示|说|写道|指出)\s*[:：]?\s*[“\"「])")
# a sentence that only says who said the one before: "OpenAI 的一位工程师在博客中写道。"
ATTRIBUTED_LINE = re.compile(
    r"[^。.!?？！“”\"]{1,60}?(?:写道|表示|说|称|指出|\bwrote\b|\bsaid\b|\badded\b)[^。.!?？！“”\"]{0,60}[。.]?\s*$",
    re.I,
)
THE_COMPANY = re.compile(
    r"\bthe (?:company|firm's (?:own )?team)\b|该公司|公司方面|公司(?:技术|官方)?博客", re.I
)
SUBJECT_PRONOUN = re.compile(r"(?:^|[,;]\s*|\band\s+(?:\w+\s+){0,3})(?:it|they)\s+$", re.I)
PRONOUN_AGENT = re.compile(
    r"^\s*(?:it|they|the (?:lab|team|group|researchers|firm|company|tester)|its (?:engineers|team)|该(?:实验室|团队|机构|公司)|他们|其)\b"
    r"|\b(?:their|its) own\b|他们自己|其自有",
    re.I,
)
INDEPENDENCE = re.compile(
    r"\bno (?:ties|affiliation|relationship|connection)\b[^,;.]*|\bnot (?:affiliated|connected|associated|tied)\b[^,;.]*"
    r"|\bunaffiliated with\b[^,;.]*|\bindependent (?:of|from)\b[^,;.]*|\b(?:has |have )?never worked (?:for|with)\b[^,;.]*"
    r"|[（(]\s*非[^）)]{0,20}[）)]"
    r"|与[^，,。]{1,16}?无(?:任何)?(?:关|关联|利益关系)",
    re.I,
)


def _mask_independence(text: str) -> str:
    """A clause without its "no ties to <owner>": naming the owner there says nothing of who ran it."""
    return INDEPENDENCE.sub(lambda m: " " * len(m.group(0)), text)
