"""Signal extraction: from an item's text to candidate observations on claims. Pure.

For every subject the item is about: which stretches assert something (watchers.context), which
device each figure and statement is about, who measured, and under which conditions. A figure
becomes a candidate on the claim whose conditions match; one under other conditions is evidence
with the mismatch named; status phrases from the story's signal tables move status claims.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from pathlib import Path

from watchers.base import Candidate, ParsedItem
from watchers.context import (
    NOT_FACT,
    PLANNED,
    Scope,
    item_scopes,
    looking_above,
    looking_ahead,
    looking_back,
    open_bracket,
    scopes,
    status,
    statuses,
    title_scopes,
    under_headings,
)
from watchers.figures import (
    COMPARED_WITH,
    COMPARISON,
    HEARSAY,
    LIST_LINE,
    LIST_NUMBER,
    OTHER_DEVICE,
    OTHER_MODELS,
    FigureReading,
    _compared_before,
    _excerpt,
    compared_clause,
    only_hedged,
)
from watchers.needles import present as needles_in
from watchers.parties import (
    BOTH,
    ONE_MODEL,
    SPEAKER,
    PartyReading,
    speakers_aside,
    staff_named,
)
from watchers.quantities import bare_numbers, quantities
from watchers.text import Clause, Sentence, normalise, sentences
from watchers.vocabulary import ClaimIndex, Rules, Signal, Subject
from watchers.vocabulary import rules as load_rules

CONFIRMED = re.compile(
    r"(?:已经|已)(?:正式)?(?:确认|证实|官宣|宣布)|\b(?:has|have|had)\s+(?:now\s+|officially\s+)?(?:confirmed|announced)\b",
    re.I,
)
TITLE_WIDE = {"watchlist"}  # a headline "five things to watch" makes the whole item a watch-list
DONE_TOO = re.compile(
    r"(?:做成|兑现|落地|实现|完成|交付|达成)了|\b(?:delivered|happened|came true|got done|kept)\b"
    # "测试脚本终于公开", "二代流片、B0 良率落地，剩下还要看什么"
    r"|终于(?!要|会|将|能|可以|可能)|(?:落地|兑现|到位|出炉)(?=\s*[，,、。；;！!：:]|$)"
    # an event the title tells: "Checklist update: Rubin's first gigawatt slides into 2027"
    r"|\b(?:slides|slid|slips|slipped|lands|landed|arrives|arrived|taped out|went live|goes live)\b"
    # a state reached, told before the watch-list: "B0 is in volume. What's left to watch"
    r"|\b(?:is|are|now)\s+(?:in\s+(?:full\s+|mass\s+)?(?:volume|production)|live|shipping)\b"
    # a tally with a new entry: "每周证据清单｜新增一条：…", "one new entry this week"
    r"|新增(?:了)?[一二三两\d]+\s*(?:条|项|个)|\bnew (?:entry|entries|item|items|addition|additions)\b"
    r"|\bwhat(?:'s| is| was| got) done\b"
    # a box ticked: "one tick", "two boxes ticked", "放量这一项，打勾了"
    r"|\b(?:one|two|three|a|first|another) (?:new )?ticks?\b|\bticked\b|\b(?:cross(?:ed)?|check(?:ed)?|struck|strike) off\b"
    r"|打(?:了)?勾|勾(?:上|掉)了|划掉了?"
    # an event the list follows: "第二代已流片，接下来盯这四件事", "what to watch after the December miss"
    r"|已(?:经)?(?:确认)?(?:流片|回片|量产|部署|上线|点亮|通电|上电|投运|切流|发布|公布|完成|开始|启动|推迟|延期|挪到|推到|出货|交付)"
    r"|\bafter (?:the|its|a) (?:[\w-]+ )?(?:miss|slip|delay|launch|tape-?out|re-?test|results?)\b",
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
    """Candidates the item gives, at most one per claim and key. A story read before (the same
    wire story in many feeds) is not read again: extraction is pure, so its reading is kept."""
    r = rules_ or rules()
    if not r.may_concern(f"{item.title}\n{item.text}"):
        return []  # most of a feed names no subject at all: nothing is normalised or read
    key = (item.title, item.text, tuple(only) if only else None, _fingerprint(claims))
    if id(r) not in _READ and len(_READ) >= VOCABULARIES_HELD:
        del _READ[next(iter(_READ))]  # a vocabulary replaced (a reloaded ledger): let it go
    held = _READ.setdefault(id(r), (r, {}))[1]
    found = held.get(key)
    if found is None:
        found = held[key] = tuple(_read_item(item, claims, only, r))
        if len(held) > READ_HELD:
            del held[next(iter(held))]  # the oldest story read
    return list(found)


READ_HELD = 512  # stories whose reading is kept, per vocabulary
VOCABULARIES_HELD = 4
# per vocabulary (held, so its id is not reused): each story's reading, by its text, the signals
# asked for and the claims it was read against
_READ: dict[int, tuple[Rules, dict]] = {}
_LAST_CLAIMS: list = [None, ""]  # the claims last fingerprinted (held) and their fingerprint


def _fingerprint(claims: dict[str, dict]) -> str:
    """What the claims say, as a key: the same claims dict is fingerprinted once."""
    if _LAST_CLAIMS[0] is not claims:
        _LAST_CLAIMS[:] = [claims, json.dumps(claims, sort_keys=True, default=str)]
    return _LAST_CLAIMS[1]


def forget_read() -> None:
    """Forget every story read (a benchmark times each pass on stories it has not read)."""
    _READ.clear()


def _read_item(item: ParsedItem, claims: dict[str, dict], only, r: Rules) -> list[Candidate]:
    title, body = normalise(item.title), normalise(item.text)
    text = f"{title}.\n{body}" if title and body else title or body
    about = [subject for subject in r.subjects if subject.relevant(text)]
    if not about:
        return []  # most of a feed is about something else: no sentence is read
    split = sentences(text)
    # (not a title that also says what got done: "三件事做成了，两件还在路上")
    title_wide = title_scopes(title) & TITLE_WIDE if not DONE_TOO.search(title) else frozenset()
    # (a sentence reporting a confirmation is news under any headline: "…接下来看什么" then
    # "OpenAI 上周已经确认，B0 样片回到了实验室")
    confirmed = [bool(CONFIRMED.search(s.text)) for s in split]
    whole = [
        w if said else w | title_wide
        for w, said in zip(_section_scopes(text, split), confirmed, strict=True)
    ]
    whole = [
        w | QUOTED_ABOVE if _quotes_above(text, s) else w for w, s in zip(whole, split, strict=True)
    ]
    withdrawn = _reposted_withdrawn(text)
    if withdrawn is not None:  # "假的 //@…", "Retracting this." over the quoted post
        whole = [
            w | RETRACTED if s.start + len(s.text) > withdrawn else w
            for w, s in zip(whole, split, strict=True)
        ]
    if CORRECTION.search(text):  # a correction: what the earlier article said is withdrawn
        whole = [
            w | RETRACTED if EARLIER_ARTICLE.search(s.text) else w
            for w, s in zip(whole, split, strict=True)
        ]
    back = [looking_back(s) for s in split[1:]] + [frozenset()]
    ahead = [frozenset()] + [looking_ahead(s) for s in split[:-1]]
    if title and DONE_TOO.search(title):  # a title that also tells what got done leads no list
        ahead = [
            a - TITLE_WIDE if n and split[n - 1].start < len(title) else a
            for n, a in enumerate(ahead)
        ]
    # a lead's next sentence that reports a confirmation is news, not an item of its list
    ahead = [a - TITLE_WIDE if said else a for a, said in zip(ahead, confirmed, strict=True)]
    above = looking_above(split)
    back = [b | a | u for b, a, u in zip(back, ahead, above, strict=True)]
    back = _counted_items(split, whole, back)
    lead = (
        under_headings(split, text=text)
        if ":" in text or "：" in text or "\n" in text
        else [frozenset()] * len(split)
    )
    analysed = [Analysed(s, w | b | h) for s, w, b, h in zip(split, whole, back, lead, strict=True)]
    index = claim_index(claims)
    found: dict[tuple[str, str], Candidate] = {}
    for subject in about:
        for candidate in Reading(subject, r, analysed, index, claims, text).candidates():
            if only and candidate.signal not in only:
                continue
            _keep(found, candidate, claims)
    return [c for c in found.values() if c.claim_id in claims]


def _counted_items(split: list[Sentence], whole: list, back: list) -> list:
    """An answer that counts what follows ("What would change your mind?" "Three things, in
    order.") passes what it is (a plan, a wish) to the sentences it counts."""
    out = list(back)
    for number, sentence in enumerate(split):
        lead = COUNT_LEAD.match(sentence.text)
        carried = (whole[number] | back[number]) & LEAD_PASSES if lead else frozenset()
        if carried:
            count = COUNTS[lead.group("n").lower()]
            for later in range(number + 1, min(len(split), number + 1 + count)):
                out[later] = out[later] | carried
    return out


def _keep(found: dict, candidate: Candidate, claims: dict) -> None:
    """One candidate per claim and key: a matching measurement beats evidence, unless it is the
    same figure said again without the conditions it was given with; a later step of a ladder
    beats an earlier one, and a milestone met beats its slip; otherwise the first statement in
    the item stands."""
    slot = (candidate.claim_id, candidate.key)
    held = found.get(slot)
    if held is None:
        found[slot] = candidate
        return
    if held.mismatch and not candidate.mismatch:
        # (the same figure said again with the claim's conditions in its own sentence: "…单用户
        # 速度 652" in a headline over a run that also went to 32k, then "按 8k 输入、1k 输出…652")
        if not _same_figure(held, candidate) or candidate.stated:
            found[slot] = candidate
        return
    if (
        candidate.mismatch == held.mismatch
        and (candidate.measured or not held.measured)
        and _rounded_from(held, candidate)
    ):
        # the headline's rounded figure, then the body's own ("缩到 48 倍" over "48.2 倍")
        found[slot] = candidate
        return
    if candidate.mismatch and _same_figure(held, candidate):
        # the same figure said again with its conditions ("1,318 tokens/s per user" in the
        # headline, then "at 1k input and 8k output"): they are the figure's
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
    spec = claims.get(candidate.claim_id) or {}
    if spec.get("kind") == "milestone" and (held.value, candidate.value) == ("slipped", "met"):
        found[slot] = candidate  # a slip, then the milestone met: it happened, late
        return
    ladder = spec.get("ladder") or []
    if (
        candidate.value in ladder
        and held.value in ladder
        and ladder.index(candidate.value) > ladder.index(held.value)
    ):
        found[slot] = candidate


def _same_figure(a: Candidate, b: Candidate) -> bool:
    """Are both the same figure read from the item (its headline's and its body's)?"""
    return _both_figures(a, b) and a.value == b.value


def _rounded_from(held: Candidate, candidate: Candidate) -> bool:
    """Is the figure held a rounding of the candidate's more exact one (48 of 48.2, 1.9 of 1.87)?"""
    if not _both_figures(held, candidate) or held.value == candidate.value:
        return False
    places = _places(held.value)
    return places < _places(candidate.value) and round(candidate.value, places) == round(
        held.value, places
    )


def _both_figures(a: Candidate, b: Candidate) -> bool:
    """Are both read as figures, each a single number?"""
    return a.signal == b.signal == "figures" and all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in (a.value, b.value)
    )


def _places(value: float) -> int:
    """The decimal places a figure is given to (48.0: 0, 1.87: 2; 70.0: -1, a figure in tens, as
    "seven in ten" gives it)."""
    return -Decimal(repr(float(value))).normalize().as_tuple().exponent


QUOTED_ABOVE = frozenset({"rumour"})  # said by the post a reply quotes, not by the reply


def _reposted_withdrawn(text: str) -> int | None:
    """Where the reposted part of a repost starts, when the reposter's own comment on top says it
    is fake or withdrawn ("假的，P图。//@…", "Retracting this." over the quoted post, "This isn't
    our post"); None otherwise. The title and the body are each a post of their own."""
    title_end = text.find("\n")
    posts = [(0, len(text))] if title_end < 0 else [(0, title_end), (title_end + 1, len(text))]
    for start, end in posts:
        marker = REPOST_MARK.search(text, start, end)
        if marker is not None and TOP_DENIES.search(text, start, marker.start()):
            return marker.start()
    return None


def _quotes_above(text: str, sentence: Sentence) -> bool:
    """Is the sentence a line a reply quotes from the post above it ("> something like 70k
    tok/s/kW" after a post that said so)? It was said there, not here."""
    if not sentence.text.startswith(">"):
        return False
    quoted = sentence.text.lstrip("> ").strip()
    return len(quoted) >= 12 and quoted in text[: sentence.start]


def _section_scopes(text: str, split: list[Sentence]) -> list[frozenset[str]]:
    """The item-wide categories each sentence is under: those cued in the lead story hold for
    the whole item ("Rumour: …"); those cued in a later story of a newsletter hold for that
    story alone ("【HBM】… 未经证实" says nothing of "【OpenAI】…")."""
    starts = _sections(split)
    if not any(starts):
        return [item_scopes(text)] * len(split)
    stories: dict[int, list[str]] = {}
    for start, sentence in zip(starts, split, strict=True):
        stories.setdefault(start, []).append(sentence.text)
    found = {start: item_scopes(" ".join(texts)) for start, texts in stories.items()}
    return [found[0] | found[start] for start in starts]


def _sections(split: list[Sentence]) -> list[int]:
    """For each sentence, where its story starts: a numbered list of stories (a newsletter's
    "1.", "2.", "3.", or "【HBM】", "【OpenAI】" heads) starts a new one at each, a thread a new
    one at each reply ("kv_cache_enjoyer: …"), and nothing in one carries into the next."""
    marks = [n for n, sentence in enumerate(split) if LIST_NUMBER.fullmatch(sentence.text)]
    if marks and marks[0] > 0 and split[marks[0] - 1].text.rstrip().endswith((":", "：")):
        marks = []  # "…measured per-user speed:" then "1. GPT-OSS 120B: 1,402": one story's list
    replies = [n for n, sentence in enumerate(split) if HANDLE.match(sentence.text)]
    heads = [n for n, sentence in enumerate(split) if STORY_HEAD.match(sentence.text)]
    dated = [n for n, sentence in enumerate(split) if DATE_HEAD.match(sentence.text)]
    breaks = set(marks if len(marks) >= 2 else []) | set(replies if len(replies) >= 2 else [])
    breaks |= set(heads if len(heads) >= 2 else []) | set(dated if len(dated) >= 2 else [])
    out, start = [], 0
    for number in range(len(split)):
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
    """Is the figure the claim's published one, within its tolerance (a range: both ends)?"""
    spec = claims.get(candidate.claim_id) or {}
    value, said = spec.get("value"), candidate.value
    if (
        isinstance(value, list | tuple)
        and isinstance(said, list | tuple)
        and len(value) == len(said)
    ):
        pairs = list(zip(said, value, strict=True))
    else:
        pairs = [(said, value)]
    tolerance = float(spec.get("tolerance") or 0)
    return all(
        isinstance(b, int | float)
        and isinstance(a, int | float)
        and abs(a - b) <= abs(b) * tolerance
        for a, b in pairs
    )


class Analysed:
    """A sentence and, worked out when first asked for, the stretches its cues take out of plain
    assertion (most sentences never need them: nothing in them is a candidate)."""

    __slots__ = ("sentence", "whole", "lowered", "_scopes", "_joined")

    def __init__(self, sentence: Sentence, whole: frozenset[str]):
        self.sentence, self.whole = sentence, whole
        self.lowered = sentence.text.lower()
        self._scopes: list[Scope] | None = None
        self._joined: dict[bool, tuple[Clause, ...]] = {}

    def joined(self, relatives: bool) -> tuple[Clause, ...]:
        """`_joined` of the sentence, worked out once for each kind."""
        found = self._joined.get(relatives)
        if found is None:
            found = self._joined[relatives] = _joined(self.sentence, relatives)
        return found

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
class Reading(PartyReading, FigureReading):
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
    _parties_of: dict = field(default_factory=dict)  # the parties each text names, once
    _verbs_in: dict = field(default_factory=dict)  # the measuring words of each sentence, once
    owner_quotes: frozenset = frozenset()  # sentences quoted from the owner's people
    _earlier: dict = field(default_factory=dict)  # the workload said before each sentence
    _of_all: dict | None = None  # the conditions said of every figure in the item
    _authors: dict | None = None  # who wrote the post each sentence stands in, by its text
    _baselines: tuple | None = None  # the subject's published figures, for `_a_baseline`
    _firms_named: frozenset | None = None  # other devices' names used as a firm's

    def __post_init__(self):
        self._title_end = (
            self.analysed[0].sentence.start + len(self.analysed[0].sentence.text)
            if self.analysed
            else 0
        )
        self.with_owner = self.subject.with_owner if self.subject.owned_words(self.text) else None
        self.stand_ins = self.subject.stand_ins if self.subject.stood_in_for(self.text) else None
        # "we measured" is the writer's run; in an interview with the owner's people, the owner's
        owner = self.subject.owner
        # people, or in the owner's own post ("OpenAI engineering blog", "— The OpenAI team")
        voice = (
            owner is not None
            and any(
                OWNER_ROLE.match(self.text, m.end())
                or (self._leads(m.start()) and OWNER_OUTLET.match(self.text, m.end()))
                or (
                    SIGN_OFF.search(self.text, 0, m.start()) and TEAM_LINE.match(self.text, m.end())
                )
                # "Official answer from the OpenAI accelerator team", "— on behalf of OpenAI hardware"
                or bool(ON_BEHALF.search(self.text, max(0, m.start() - 40), m.start()))
                # a byline under the title: "OpenAI Research", "OpenAI Hardware Team" on a line alone
                or (
                    self._title_end < m.start() < self._title_end + 120
                    and self._leads(m.start())
                    and bool(BYLINE.match(self.text, m.end()))
                )
                or staff_named(self.text, m)  # "I'm on OpenAI's inference kernels team"
                # a repost's segment by the owner's own account: "//@OpenAI: We've published …"
                or (
                    self.text[max(0, m.start() - 3) : m.start()].endswith("@")
                    and POSTER.match(self.text, m.end())
                )
                # in the title, a release of the owner's own repository ("· openai/<repo>") or the
                # owner's people as the speaker ("演讲实录｜OpenAI 硬件团队：…")
                or (
                    m.end() <= self._title_end
                    and (
                        REPOSITORY.match(self.text, m.end())
                        or OWNER_SPEAKS.match(self.text, m.end(), self._title_end)
                    )
                )
                for m in owner.finditer(self.text)
            )
        )
        voice = voice or (
            owner is not None
            and bool(owner.search(self.text))
            and bool(COMPANY_OUTLET.search(self.text))
        )
        voice = voice or self._owner_signs()
        # an interview (the title says so) with the owner's people: "we" is the owner, and what
        # "we" did is done to the subject; with another subject's owner, to that one's
        self._interview = None
        title = self.analysed[0].sentence.text if self.analysed else ""
        if INTERVIEW.search(title):
            rivals = (s.owner for s in self.rules.subjects if s is not self.subject and s.owner)
            if owner is not None and any(
                # (not "Q&A with Meridian's test lead on OpenAI's Jalapeño": the owner's product)
                not self._names_product(title, m.start(), m.end())
                for m in owner.finditer(title)
            ):
                self._interview = "owner"
            elif any(rival.search(title) for rival in rivals):
                self._interview = "rival"  # another subject's owner: its "we" is not ours
        voice = voice or self._interview == "owner" or self._published_ours()
        self._first_person = "owner" if voice else "independent"
        self.firms = self._item_firms() if FIRM_HINT.search(self.text) else None
        self._products = self._other_products()
        for read in self.analysed:
            sentence = read.sentence
            self.mentions.append(self._mentions(sentence.text, read.lowered))
            found = needles_in(read.lowered)
            self.models.append(
                sorted(
                    (m.start(), model.id)
                    for model in self.subject.models
                    if not model.names.absent(found)
                    for m in model.names.finditer(sentence.text, lowered=read.lowered)
                )
            )
        self._anaphors()
        self._both()
        self.sections = _sections([a.sentence for a in self.analysed])
        self.turns = _turns(self.analysed)
        self.owner_quotes = self._quotes_of_owner()
        item_models = {name for marks in self.models for _, name in marks}
        self.default_model = item_models.pop() if len(item_models) == 1 else None

    def _owner_signs(self) -> bool:
        """Does the item say it is the owner's own ("— The Jalapeño software team", "These are
        OpenAI's own measurements", "when we published Jalapeño's first results")?"""
        text, names, owner = self.text, self.subject.names, self.subject.owner
        if (
            names is not None
            and SIGN_LINE.search(text)
            and any(
                SIGN_OFF.search(text, 0, m.start()) and TEAM_LINE.match(text, m.end())
                for m in names.finditer(text)
            )
        ):
            return True
        if (
            owner is not None
            and OWN_DISCLOSURE.search(text)
            and any(
                DISCLOSED_BEFORE.search(text, max(0, m.start() - 40), m.start())
                and DISCLOSED_AFTER.match(text, m.end())
                for m in owner.finditer(text)
            )
        ):
            return True
        if names is not None:
            for said in WE_PUBLISHED.finditer(text):
                named = names.search(text, said.end(), said.end() + 24)
                if named and OUR_RESULTS.match(text, named.end()):
                    return True
            # the subject's own software's release notes: "Release notes: Jalapeño firmware 2.3"
            title = text[: self._title_end]
            if RELEASE_NOTES.search(title) and any(
                OWN_SOFTWARE.match(title, m.end()) for m in names.finditer(title)
            ):
                return True
        return False

    def _published_ours(self) -> bool:
        """Does "we" claim a published figure of the subject's claims as its own ("within noise
        of the 85,448 we published", "我们此前公布的 8.54 万")? Then "we" is the owner."""
        if not WE_PUBLISHED.search(self.text):
            return False
        for read in self.analysed:
            text = read.sentence.text
            for said in WE_PUBLISHED.finditer(text):
                spans = [(n[0], n[1], n[2]) for n in bare_numbers(text)]
                spans += [(q.start, q.end, q.value) for q in quantities(text)]
                near = [  # the figure right before it, or right after its 的
                    v
                    for start, end, v in spans
                    if 0 <= said.start() - end <= 4 or 0 <= start - said.end() <= 4
                ]
                if any(self._a_baseline(v, 0.005) for v in near):
                    return True
        return False

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

    def _both(self) -> None:
        """ "Both systems were run with MTP on", "两套系统都…": in a sentence naming no device, the
        subject is one of the two."""
        for number, read in enumerate(self.analysed):
            if self.mentions[number] or not BOTH_DEVICES.search(read.lowered):
                continue
            self.mentions[number] = [
                Mention(m.start(), m.end(), True) for m in BOTH_DEVICES.finditer(read.sentence.text)
            ]

    def _leads(self, at: int) -> bool:
        """Does the name at `at` open the title or a line? The owner's own post says so there
        ("OpenAI engineering blog: …", "From the OpenAI developer blog, …"); "OpenAI's blog said
        85,448" further on only cites it."""
        line_start = self.text.rfind("\n", 0, at) + 1
        lead = self.text[line_start:at].strip(" #*>-—:[(\"'“")
        return not lead or bool(FROM_OUTLET.fullmatch(lead))

    def _other_products(self) -> re.Pattern | None:
        """Products the item introduces by what they are and a name (推理卡“赤焰一号”, "an
        accelerator called Ember"): later, the bare name is that other device."""
        found = {
            next(g for g in m.groups() if g).strip() for m in PRODUCT_NAMED.finditer(self.text)
        }
        names = {n for n in found if len(n) >= 2 and not self.subject.mentions(n)}
        if not names:
            return None
        return re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))

    def _firm_words(self) -> frozenset[str]:
        """Other devices' names the item uses as a firm's ("Trillium Benchmarks"), lower-cased."""
        if self._firms_named is None:
            others = self.subject.others
            self._firms_named = frozenset(
                m.group(0).lower()
                for m in (others.finditer(self.text) if others is not None else ())
                if FIRM_AFTER.match(self.text, m.end())
            )
        return self._firms_named

    def _mentions(self, text: str, lowered: str) -> list[Mention]:
        out = []
        if self._products is not None:
            out += [Mention(m.start(), m.end(), False) for m in self._products.finditer(text)]
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
                if ours and OUTDONE.search(text, max(0, m.start() - 60), m.start()):
                    continue  # "92,000 …, exceeding the 85,448 OpenAI announced for Jalapeño"
                if not ours and (
                    FIRM_AFTER.match(text, m.end()) or m.group(0).lower() in self._firm_words()
                ):
                    # "Trillium Benchmarks, an independent test house", and "Trillium" after it:
                    # a firm's name
                    continue
                if not ours and (
                    (_compared_before(text, m.start()) and not _done_to(text, m))
                    or RATIO_OF.match(text, m.end())
                    or (
                        0 <= m.start() - skipped_end <= 8
                        and JOINED.fullmatch(text, skipped_end, m.start())
                    )
                ):
                    skipped_end = m.end()
                    continue
                out.append(Mention(m.start(), m.end(), ours))
        if self._first_person != "owner":  # "Ours are in production", said by another maker
            out += [Mention(m.start(), m.end(), False) for m in OURS_DEVICE.finditer(text)]
        if not any(not m.ours for m in out):
            # "B0", "二代芯片", "A0 boards": the subject's only where no other device is named in
            # the sentence
            for stand_in in (self.with_owner, self.stand_ins):
                if stand_in is not None:
                    out += [Mention(m.start(), m.end(), True) for m in stand_in.finditer(text)]
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
            if m.end <= position
            and not any(a <= m.start < b <= position for a, b in aside)
            and not _left_behind(sentence.text, m)
        ]
        around = [
            m
            for m in self.mentions[number]
            if m.start < position < m.end
            # (not one that spans another device's name: "OpenAI 的机房里已经部署了大量 Rubin，…自研芯片")
            and not (
                self.subject.others is not None
                and self.subject.others.search(sentence.text, m.start, m.end)
            )
        ]
        if not before and around:
            # a name said around the stretch ("OpenAI's serving team says the trick is on in every
            # run the company does on its own inference chip"): the stretch is that device's
            return around[-1].ours
        if before:
            last = before[-1]
            if not last.ours and MULTIPLE.match(sentence.text, position):
                # a multiple whose base the other device is: the second of a pair the subject leads
                # ("Jalapeño 与英伟达系统的…之比：47.2 倍"), or what an advantage is over ("puts the
                # advantage over its own GB200 runs at 41 times")
                paired = (
                    len(before) > 1
                    and before[-2].ours
                    and PAIR_BETWEEN.match(sentence.text[before[-2].end : last.start])
                )
                over = ADVANTAGE_OVER.search(
                    sentence.text, max(clause.start, last.start - 40), last.start
                )
                if paired or over:
                    return True
            if not last.ours and last.start >= clause.start:
                # "Jalapeño's speed-up over the comparators was 1.8 to 3.9 times": the other side
                # of a comparison the subject leads in this clause
                return any(m.ours and m.start >= clause.start for m in before) and bool(
                    COMPARED_WITH.search(
                        sentence.text[max(clause.start, last.start - 24) : last.start]
                    )
                )
            if last.ours:
                return True
            if SEMICOLON.search(sentence.text, last.end, position):
                # "Jalapeño 跑 R1 …，GB300 为 127 个；GPT-OSS 120B 的优势为 49.6 倍": a new
                # stretch after a semicolon carries on the sentence's subject
                return before[0].ours
            # another device named in an earlier clause; ours named later in this clause (not
            # after a comparison: "Rubin came out ahead: 91.2 million against 84.9 million for
            # Jalapeño" leaves 91.2 with Rubin)
            after = [
                m
                for m in self.mentions[number]
                if clause.start <= m.start < clause.end
                and not (
                    m.start > position and COMPARISON.search(sentence.text[position : m.start])
                )
            ]
            return any(m.ours for m in after)
        after = [
            m
            for m in self.mentions[number]
            if position <= m.start < clause.end
            and not COMPARISON.search(sentence.text[position : m.start])
            # "1.4 to 1.8 times the throughput per watt of the Nvidia systems": the base of a multiple
            and not (MULTIPLE.match(sentence.text, position) and not m.ours)
        ]
        if after:
            # (not a device a cleft denies it: "开启 MTP 的并非 Jalapeño，而是 GB300", "the side that
            # ran MTP was not Jalapeño but GB300")
            return after[0].ours and not _denied_focus(sentence.text, after[0])
        if sentence.text[clause.end : clause.end + 1] in (":", "：") and position < clause.end:
            # "668 tok/s per user: Kimi K2.5 on Jalapeño as measured by …": a figure, then what it is
            named = [m for m in self.mentions[number] if m.start >= clause.end]
            if named:
                return named[0].ours
        aside_only = [m for m in self.mentions[number] if m.end <= position]
        if aside_only:  # "Researchers, who were loaned two Jalapeño boards, measured 79.8"
            return aside_only[-1].ours
        if self._interview and WE_SUBJECT.search(sentence.text[clause.start : position]):
            # "A: We started the volume ramp in November.": the interviewee's own device
            return self._interview == "owner"
        if (
            not self.mentions[number]
            and MULTIPLE.match(sentence.text, position)
            and COMPARATOR_ROLE.search(sentence.text, 0, position)
        ):
            # "峰值每瓦吞吐为对照系统的 1.4 至 1.8 倍；端到端延迟低 1.5 至 3.1 倍": multiples of the
            # comparators, in a sentence naming no device, are ours
            return True
        owner = self.subject.owner
        if (
            owner is not None
            and not self.mentions[number]
            and owner.search(sentence.text, clause.start, position)
        ):
            # "OpenAI 在 GitHub 上公开了三款模型的全部测试脚本": the owner's doing, naming no device,
            # is of its own chip, whatever the sentence before ended on
            return True
        listed = LIST_LINE.match(sentence.text)
        for earlier in range(number - 1, self.sections[number] - 1, -1):
            if LIST_LINE.match(self.analysed[earlier].sentence.text) and (
                listed or self.sections[earlier] != self.sections[number] or number - earlier > 1
            ):
                # a list's items each go back to its lead, not to the item before; prose after a
                # list does not carry on the device its last item named
                continue
            if self.mentions[earlier] and self._comparators_aside(earlier):
                continue  # "对照的 GB200、GB300 也由团队重跑。": the story stays on the subject
            if self.mentions[earlier] and all(
                self.asserted(earlier, m.start, m.end) == "negated" for m in self.mentions[earlier]
            ):
                continue  # "长上下文、AgentX、Rubin 都没有涉及。": what was left out is no topic
            if self.mentions[earlier] and self._only_comparands(earlier):
                return True  # "…1.6 to 3.3 times lower than on the Blackwell machines": the story stays
            told = self.analysed[earlier].sentence.text
            if speakers_aside(told, [m.start for m in self.mentions[earlier]]):
                continue  # "高赞回答（某芯片公司架构师）：": who answers, in brackets, is no device
            if self.mentions[earlier] and BOTH.search(self.analysed[earlier].sentence.text):
                return True  # "…with both systems held at the GB300's per-user speed": both
            if self.mentions[earlier]:
                return self._left_topic(earlier).ours
            if MARKDOWN_HEADING.match(self.analysed[earlier].sentence.text):
                break  # "### 结果摘要": a new part does not carry the device the last one ended on
        # nothing named yet: the stretch is the subject's only if nothing else is the topic
        # (an item about a language model that names the chip only later is not)
        return not any(
            name == OTHER_MODELS for marks in self.models[: number + 1] for _, name in marks
        ) and (number == 0 or self._introduced_by(number) or self._named_next(number))

    def _named_next(self, number: int) -> bool:
        """Does the next sentence of the story name the subject first ("The volume ramp started
        in April. We have Jalapeño packages installed …")?"""
        after = number + 1
        if after >= len(self.analysed) or self.sections[after] != self.sections[number]:
            return False
        return bool(self.mentions[after]) and self.mentions[after][0].ours

    def _only_comparands(self, number: int) -> bool:
        """Does a sentence name other devices only as what a figure is set against ("1.4 to 1.8
        times the throughput per watt of the Nvidia systems", "lower than on Blackwell")?"""
        sentence = self.analysed[number].sentence
        text = sentence.text
        for m in self.mentions[number]:
            if m.ours:
                return False
            start = max(sentence.clause_at(m.start).start, m.start - 60)
            # the comparison is a figure's: a figure with a unit comes first in the clause
            figure = next((q for q in quantities(text) if start <= q.start < m.start), None)
            if figure is None or not (
                COMPARISON.search(text, figure.end, m.start)
                or MULTIPLE_BEFORE.search(text, figure.start, m.start)
            ):
                return False
        return True

    def _comparators_aside(self, number: int) -> bool:
        """Does a sentence with no figure name only other devices, called the comparators ("The
        comparator GB300s were re-run in the same hall too")?"""
        text = self.analysed[number].sentence.text
        return (
            not any(m.ours for m in self.mentions[number])
            and bool(COMPARATOR_ROLE.search(text))
            and not quantities(text)
        )

    def _left_topic(self, number: int) -> Mention:
        """The device a sentence leaves the story on: the first one named in its last clause that
        names one ("GB200 没有重测；真正重测的是 Jalapeño" leaves it on Jalapeño; "Jalapeño
        processed 10,400, against 131 for the GB300" stays on Jalapeño)."""
        mentions = self.mentions[number]
        sentence = self.analysed[number].sentence
        for clause in reversed(sentence.clauses):
            if compared_clause(sentence, clause.start):
                continue  # ", against 131 for the GB300": the other side
            if WITH_ASIDE.match(sentence.text, clause.start):
                continue  # ", with the GB200 and GB300 systems measured in the same lab"
            inside = [m for m in mentions if clause.start <= m.start < clause.end]
            if (
                inside
                and not any(m.ours for m in inside)
                and COMPARATOR_ROLE.search(sentence.text, clause.start, clause.end)
                and any(m.ours for m in mentions)
            ):
                continue  # "…，对照系统同样是 GB200 和 GB300": the comparators, said after the run
            # (not a name in brackets: "一家云厂商（与 OpenAI、英伟达均无合作关系）拿到了 Jalapeño")
            plain = [m for m in inside if open_bracket(sentence.text, 0, m.start) < 0]
            if inside:
                return (plain or inside)[0]
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
            bracket = BRACKET_AFTER.match(text, end)
            if bracket:
                inside = [name for start, name in marks if start == bracket.end()]
                if inside:
                    return inside[0]  # "85,448 token/秒/千瓦(GPT-OSS 120B)、19,600(DeepSeek R1)"
        before = [name for start, name in marks if start <= position]
        if before:
            return before[-1]
        clause = self.analysed[number][0].clause_at(position)
        after = [name for start, name in marks if position < start < clause.end]
        if after:
            return after[0]
        for earlier in range(number - 1, self.sections[number] - 1, -1):
            told = self.analysed[earlier][0]
            asserted = [
                name
                for start, name in self.models[earlier]
                if self.asserted(earlier, start) not in NOT_FACT | PLANNED
                # (not a model whose run failed: "The R1 and Kimi builds wouldn't load")
                and not FAILED_RUN.search(told.text, start, told.clause_at(start).end)
            ]
            if asserted:
                return asserted[-1]
        return self.default_model

    def asserted(self, number: int, start: int, end: int | None = None) -> str | None:
        """None when the stretch is stated as a fact, else the category that takes it out."""
        return status(self.analysed[number][1], start, end)

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
        # signals of results the subject must be among ("AgentX results are out — Jalapeño not
        # among them": results of other devices)
        results = {s.id for s in self.subject.signals if s.results}
        of_results = [c for c in out if c.signal in results]
        if (
            retest or of_results
        ) and self._left_out():  # "实验室没有测 Jalapeño": of something else
            out = [c for c in out if c not in retest and c not in of_results]
            retest = []
        # "长上下文测试已经跑了一部分，结果将与 AgentX 一并发布": run, but the results are to come
        if of_results and RESULTS_TO_COME.search(self.text):
            title = self.analysed[0].sentence.text
            out = [
                c
                for c in out
                if c not in of_results
                or not (RESULTS_TO_COME.search(c.excerpt) or title.startswith(c.excerpt[:40]))
            ]
        out += self._figures(retest_said=bool(retest))
        out += self._measured()
        return out

    def _signals(self):
        vocabulary = _signal_words(self.subject)
        # the signals' words each sentence holds, found once: a signal none of whose words a
        # sentence holds is passed over with a set operation, not a search
        present = [
            None if vocabulary is None else vocabulary & needles_in(a.lowered)
            for a in self.analysed
        ]
        for signal in self.subject.signals:
            words = signal.quick.union if signal.quick is not None else None
            for number, sentence in enumerate(a.sentence for a in self.analysed):
                known = words is not None and present[number] is not None
                if known and words.isdisjoint(present[number]):
                    continue
                candidate = self._fire(signal, number, sentence)
                if (
                    candidate
                    and number == 0
                    and (
                        self._title_hedged(self._first_named(0))
                        or self._hedged_below(signal, present)
                    )
                ):
                    break  # "Channel check: Rubin's first gigawatt already live", then a rumour
                if candidate:
                    yield from candidate

    def _first_named(self, number: int) -> int:
        """Where sentence `number` first names a device (its end when it names none)."""
        named = self.mentions[number]
        return named[0].start if named else len(self.analysed[number].sentence.text)

    def _title_hedged(self, at: int) -> bool:
        """Does the headline hedge what it says at `at` from before it, in any clause (a headline
        says one thing: "分析师：按我们的模型推算，Jalapeño 已落后 Rubin")?"""
        return bool(self.analysed) and any(
            scope.category in HEARSAY and scope.start < at for scope in self.analysed[0].scopes
        )

    def _hedged_below(self, signal: Signal, present: list) -> bool:
        """Does the body say what the headline says only as hearsay or an estimate? A headline
        drops the hedges its story keeps ("Channel check: … already live", then "…, according
        to a note that cited two unnamed operators")."""
        return only_hedged(
            said - signal.allow
            for number in range(1, len(self.analysed))
            for said in self._said_of(signal, number, present)
        )

    def _said_of(self, signal: Signal, number: int, present: list):
        """The categories over each way sentence `number` says what the signal says."""
        words = signal.quick.union if signal.quick is not None else None
        if words is not None and present[number] is not None and words.isdisjoint(present[number]):
            return
        sentence, found_in = self.analysed[number].sentence, self.analysed[number][1]
        terms = _narrowed_terms(signal, self.analysed[number].lowered)
        for clause in sentence.clauses + sentence.spans:
            part = sentence.text[clause.start : clause.end]
            for found in _matches(signal.patterns, part, terms):
                spans = [(clause.start + a, clause.start + b) for a, b in found]
                said = set().union(*(statuses(found_in, a, b) for a, b in spans))
                if signal.about == "subject" and not self.about_subject(number, spans[0][0]):
                    said.add(OTHER_DEVICE)  # "a Rubin part ships in volume": Rubin CPX
                yield said

    def _in_field_name(self, number: int, stretches: list[tuple[int, int]]) -> bool:
        """Do the stretches lie in the name of a field, in a block of "name: value" lines (a
        table's rows, a spec sheet: "Independent verification: on-site witnessing only")?"""
        label = FIELD_LABEL.match(self.analysed[number].sentence.text) if number else None
        if not label or not all(end <= label.end() for _, end in stretches):
            return False
        return any(
            0 < n < len(self.analysed) and FIELD_LABEL.match(self.analysed[n].sentence.text)
            for n in (number - 1, number + 1)
        )

    def _fire(self, signal: Signal, number: int, sentence: Sentence) -> list[Candidate] | None:
        """The signal's candidates from this sentence."""
        text = sentence.text
        lowered = self.analysed[number].lowered
        # only the words: a pattern anchored to a clause ("^and Rubin came out ahead") need
        # not match the whole sentence
        patterns = signal.patterns
        if signal.quick is not None:
            kept = signal.quick.kept(lowered)
            if not kept:
                return None
            patterns = tuple(patterns[i] for i in kept if i < len(patterns))
        terms = _narrowed_terms(signal, lowered)
        if not terms and not patterns:
            return None
        pieces = sentence.clauses if not terms else sentence.clauses + sentence.spans
        pieces = pieces + self.analysed[number].joined(bool(terms))
        for clause in pieces:
            part = text[clause.start : clause.end]
            row = _row_parts(sentence, clause.start, clause.end)  # a table row's label and cell
            for found in _matches(patterns, part, terms):
                stretches = [(clause.start + a, clause.start + b) for a, b in found]
                found_in = self.analysed[number][1]
                said = [piece for a, b in stretches for piece in _row_parts(sentence, a, b)]
                if _in_middle_cells(row, stretches):
                    continue  # "状态: A0 工程样品; B0 制造中; GB300 量产": each cell its own
                if any(statuses(found_in, a, b) - signal.allow for a, b in said):
                    continue
                if self._in_field_name(number, stretches):
                    continue  # "测试脚本公开情况: 未公开": a field's name, not what it holds
                at = stretches[0][0]  # a pattern, or the first term: what the signal is about
                if signal.exclude and any(signal.exclude.search(text[a:b]) for a, b in row):
                    continue
                if signal.require and not signal.require.search(self.text):
                    continue
                if signal.about == "subject" and not self.about_subject(number, at):
                    continue
                if signal.topic is not None and not self._topic(number, at, signal.topic):
                    continue
                if (
                    signal.by_owner
                    and not (self.subject.owner and self.subject.owner.search(part))
                    and not WE_WORD.search(text, clause.start, at)  # the speaker's: who is "we"
                    and self._who(text, at, number) == "independent"
                ):
                    continue  # "Ridgeline published its harness configuration": not the owner's
                excerpt = _excerpt(text)
                out = []
                for claim, value in signal.sets:
                    if (
                        signal.stronger
                        and self._says_anywhere(signal.stronger[1])
                        and not ONE_MODEL.search(self.text)
                    ):  # ("a full re-test would need…" in a long piece is not one)
                        value = signal.stronger[0]
                    out.append(Candidate(claim, value, signal.id, excerpt, measured=True))
                return out
        return None


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


def _joined(sentence: Sentence, relatives: bool) -> tuple[Clause, ...]:
    """A label joined to what follows its colon ("First production racks: moved to Q1 2027"),
    and (`relatives`) each clause joined to the relative clause right after it ("B0, which
    completed qualification in January,"): what the second says, it says of the first."""
    clauses, text = sentence.clauses, sentence.text
    pairs = tuple(
        Clause(first.start, then.end)
        for first, then in zip(clauses, clauses[1:], strict=False)
        if (relatives and RELATIVE.match(text, then.start))
        or (first.end - first.start <= 40 and text[first.end : first.end + 1] in (":", "："))
    )
    # a clause and the one after an aside between them ("The first wafers of B0, the second
    # stepping of the chip, were delivered"): what the third says, it says of the first
    asides = tuple(
        Clause(first.start, then.end)
        for first, aside, then in zip(clauses, clauses[1:], clauses[2:], strict=False)
        if aside.end - aside.start <= 80 and ASIDE.match(text, aside.start, aside.end)
    )
    # a table's row: its label with each cell after the first ("B0 stepping: Promised at TSMC;
    # Status parts back in OpenAI's lab"): what a cell says, it says of the row
    cells = ()
    if len(clauses) > 2 and pairs and pairs[0].start == clauses[0].start and ";" in text:
        cells = tuple(Clause(clauses[0].start, then.end) for then in clauses[2:])
    return pairs + asides + cells


def _row_parts(sentence: Sentence, start: int, end: int) -> list[tuple[int, int]]:
    """The parts of a stretch whose cues count: a stretch from a table row's label into a later
    cell skips the cells between ("B0 量产认证: 8 月时的计划 —; 实际进展 4 月中旬通过": the plan's
    cell says nothing of what happened)."""
    clauses = sentence.clauses
    label, last = clauses[0], sentence.clause_at(max(start, end - 1))
    if start >= label.end or last.start <= label.end or ";" not in sentence.text:
        return [(start, end)]
    if sentence.text[label.end : label.end + 1] not in (":", "："):
        return [(start, end)]
    return [(start, label.end), (last.start, end)]


def _in_middle_cells(row: list[tuple[int, int]], stretches: list) -> bool:
    """Does a stretch of a table row's label joined to a later cell (`row`, `_row_parts` of the
    clause) lie in a cell between them?"""
    if len(row) < 2:
        return False
    (_, label_end), (last_start, _) = row
    return any(label_end <= at < last_start for a, b in stretches for at in (a, max(a, b - 1)))


def _narrowed_terms(signal: Signal, lowered: str) -> tuple[re.Pattern, ...]:
    """The signal's terms, each narrowed to the parts whose words the sentence holds; none when
    the sentence lacks every word of some term (then no piece of it holds them all)."""
    terms = tuple(term.narrowed(lowered) for term in signal.terms)
    return () if None in terms else terms


def _matches(patterns, part: str, terms):
    """(start, end) of each way a signal is said in this clause: one of its `patterns` (those
    whose words the sentence holds), or all its `terms` (narrowed to the sentence's words)."""
    for pattern in patterns:
        match = pattern.search(part)
        if match:
            yield [(match.start(), match.end())]
    if terms:
        found = []
        for term in terms:
            match = term.search(part)
            if match is None:
                return
            found.append(match)
        # each term's own words must be asserted; a cue between them touches neither
        yield [(match.start(), match.end()) for match in found]


# an appositive (", the second stepping,"), a relative clause (", which it had targeted for the
# second half of 2026,") or a discourse marker (", after all,") between commas
ASIDE = re.compile(
    r"\s*(?:(?:the|a|an|its|their|which|who)\s"
    # a discourse marker alone between commas: "did not, after all, happen in 2026"
    r"|(?:after all|in the end|it turns out|however|though|of course|in fact|as it happens"
    r"|as expected|as feared)\s*$)",
    re.I,
)
COMPARATOR_ROLE = re.compile(
    r"对照(?:的|组|系统|机型)|\bcomparators?\b|\bcomparison systems?\b", re.I
)
WITH_ASIDE = re.compile(r"[\s,]*(?:with|along with|alongside)\s", re.I)
MARKDOWN_HEADING = re.compile(r"\s*#{1,4}\s")
RELATIVE = re.compile(r"[\s,，]*(?:which|that|who)\s+(?!is\b|are\b|was\b|were\b)", re.I)
# ", the accelerator that sits alongside its Rubin GPUs,": a device named in an aside is not the topic
# what traffic moved off: "已从英伟达集群切流", "traffic moved off the Nvidia fleet"
FROM_BEFORE = re.compile(
    r"(?:从|自)\s*$|\b(?:moved|migrated|shifted|switched) (?:\w+ )?(?:off|away from)\s+(?:the\s+)?$",
    re.I,
)
MOVED_AFTER = re.compile(
    r"[^，,。；;]{0,8}?(?:切流|切换|切走|迁出|迁移|迁走|换下|撤下|转移)|[^.;,]{0,30}?\bto\b", re.I
)


def _left_behind(text: str, mention) -> bool:
    """Is the device named as what was moved off ("已从英伟达集群切流，开始承接…请求")?"""
    return bool(
        FROM_BEFORE.search(text, max(0, mention.start - 12), mention.start)
        and MOVED_AFTER.match(text, mention.end)
    )


# a figure that is a multiple of another's: the device named after it is that other
MULTIPLE = re.compile(
    r"[\d.,]+\s*(?:(?:to|and|–|-|—|~|至|到)\s*[\d.,]+\s*)?(?:times\b|x\b|×|倍|-fold\b)", re.I
)
# the base of an advantage: "the advantage over its own GB200 runs", "相对 GB300 的优势"
ADVANTAGE_OVER = re.compile(
    r"\b(?:advantage|lead|edge|margin|speed-?up|uplift)\s+(?:over|against|versus|vs\.?|relative to)"
    r"\s+(?:the\s+|its\s+|their\s+|an?\s+)?(?:own\s+)?$|(?:相对|相对于|相较于?)\s*$",
    re.I,
)
# the second of a pair a multiple is taken over: "Jalapeño 与英伟达系统的每千瓦吞吐之比：…47.2 倍"
PAIR_BETWEEN = re.compile(r"\s*(?:与|和|跟|同|对|比|vs\.?|versus|and|against)\s*$", re.I)
MULTIPLE_BEFORE = re.compile(r"\d\s*(?:times\b|x\b|×|-fold\b)", re.I)
APPOSITIVE = re.compile(r",\s*(?:the|a|an|which|who|its)\b[^,]{0,120},", re.I)
BRACKET_AFTER = re.compile(r"[^()（），,;；、\s]{0,16}\s*[(（]\s*")
MODEL_AFTER = re.compile(r"\s*(?:[\w-]+\s+){0,3}?(?:for|on|with|running|在)\s*", re.I)
# someone of the owner's speaking: "OpenAI's VP of compute hardware", "OpenAI 硬件负责人"
OWNER_ROLE = re.compile(
    r"(?:'s|’s)?\s*(?:\w+\s+){0,3}?(?:chief|head|vp|vice president|director|executive|cfo|ceo|cto"
    r"|president|spokes(?:wo)?man|spokesperson)\b|(?:'s|’s)\s+(?-i:[A-Z][a-z]+\s+[A-Z][a-z]+)"
    r"|\s*(?:的)?\s*\S{0,6}?(?:负责人|副总裁|总裁|高管|首席|发言人|主管)",
    re.I,
)
# "we" saying a figure is its own publication: "the 85,448 we published", "我们此前公布的"
WE_PUBLISHED = re.compile(
    r"\b(?:we|i)\s+(?:had\s+|have\s+)?(?:originally\s+|first\s+|initially\s+)?"
    r"(?:published|reported|announced|posted|put out)\b|我们(?:此前|之前|最初|当初)?(?:公布|发布)的",
    re.I,
)
# the owner's own publication or broadcast: "OpenAI engineering blog", "OpenAI Research livestream",
# "OpenAI 官方博客", "OpenAI 技术直播"
OWNER_OUTLET = re.compile(
    r"(?:'s|’s)?\s*(?:\w+\s+){0,2}?(?:blog|newsroom|press release|official (?:post|statement)"
    r"|livestream|live stream|webinar|keynote|dev ?day|ama)\b"
    # a line heading the owner's own notes: "OpenAI Engineering — B0 bring-up notes"
    r"|\s+(?:engineering|research|hardware|infrastructure|infra|silicon)(?:\s+team)?\s*(?:—|–|--|:|\|)"
    r"|\s*(?:的)?\s*(?:官方)?(?:工程|技术|研究|开发者|硬件)?(?:博客|官博|新闻稿|官方公告|官方声明|技术直播|直播|开发者大会|分享会)",
    re.I,
)
# the owner, named in the item, writing on its own outlet: "wrote on the company's engineering blog"
COMPANY_OUTLET = re.compile(
    r"\b(?:on|in) the company(?:'s|’s) (?:own |official |engineering |research |hardware )?"
    r"(?:blog|newsroom|website)\b|在公司(?:官方)?(?:博客|官网)",
    re.I,
)
# what may stand before the owner's outlet opening a line: "From the OpenAI developer blog, …"
FROM_OUTLET = re.compile(r"(?:from|via|posted (?:on|to)|on)(?:\s+the)?", re.I)
# in a headline, the owner's people as the speaker: "演讲实录｜OpenAI 硬件团队：…"
# (not "Kimi K2.5 on OpenAI's silicon: fewer tokens…": the owner's device, not its people)
OWNER_SPEAKS = re.compile(
    r"(?!(?:'s|’s)?\s*(?:[\w-]+\s+){0,2}(?:silicon|chips?|accelerators?|parts?|asics?|hardware"
    r"|boards?)\s*[:：]|\s*的?\s*(?:自研)?\s*(?:推理)?(?:芯片|加速器|硬件)\s*[:：])"
    r"(?:'s|’s)?\s*[^:：。.,，|｜]{0,12}[:：]",
    re.I,
)
# in a headline, the owner's own repository: "Release v1.1.0 · openai/<repo>"
REPOSITORY = re.compile(r"/[\w.-]+(?!\.\w{2,4}/)")
# the owner's own figures, said so: "These are OpenAI's own measurements", "以上均为 OpenAI 自测数据"
OWN_DISCLOSURE = re.compile(
    r"(?:'s|’s) own (?:measurements|numbers|figures|runs|results|data)|自测|内部测试", re.I
)
DISCLOSED_BEFORE = re.compile(
    r"(?:\b(?:these|those|all (?:of )?(?:these|the|our) (?:figures|numbers|results))\s+(?:are|were)(?:\s+all)?"
    r"|以上(?:数据|数字|结果)?(?:均|都|全部)?(?:为|是))\s*$",
    re.I,
)
DISCLOSED_AFTER = re.compile(
    r"(?:'s|’s) own (?:measurements|numbers|figures|runs|results|data)\b|\s*(?:的)?\s*(?:自测|内部测试)",
    re.I,
)
# what "we published" the subject's: "when we published Jalapeño's first results"
OUR_RESULTS = re.compile(
    r"(?:'s|’s)?\s+(?:(?:first|original|initial|august|published|benchmark)\s+){0,2}"
    r"(?:results|numbers|figures|benchmarks?|scores)\b|\s*(?:的)?\s*(?:首批|首次|最初的?)?(?:成绩|结果|跑分|数据)",
    re.I,
)
# the release notes of the subject's own software: "Release notes: Jalapeño firmware 2.3"
RELEASE_NOTES = re.compile(r"\brelease notes?\b|\bchangelog\b|更新日志|发布说明|版本说明", re.I)
OWN_SOFTWARE = re.compile(
    r"(?:'s|’s)?\s*(?:firmware|driver|sdk|runtime|toolkit|software stack|compiler)\b"
    r"|\s*(?:的)?\s*(?:固件|驱动|软件栈|运行时|编译器)",
    re.I,
)
# the rest of a byline after the owner's name: "OpenAI Research", "OpenAI 硬件团队"
BYLINE = re.compile(
    r"(?:[ \t]+(?:research|engineering|hardware|infrastructure|newsroom|blog|team|labs?)){1,2}"
    r"[ \t]*(?:\n|$)|[ \t]*(?:研究院|工程团队|硬件团队|官方博客|技术博客)[ \t]*(?:\n|$)",
    re.I,
)
# a signature line: "— The OpenAI hardware team"
SIGN_LINE = re.compile(r"\n\s*(?:—|–|-)")  # a line that may be a sign-off
SIGN_OFF = re.compile(r"(?:^|\n)\s*(?:—|–|--?)\s*(?:the\s+)?$", re.I)
TEAM_LINE = re.compile(r"[^\n]{0,40}(?:\bteam|团队)\s*(?:$|\n)", re.I)
SEMICOLON = re.compile(r"[;；]")
# 对 marking what something is done to, not a comparison: "第三方实验室对 Trainium3 做了独立复测"
DUI_BEFORE = re.compile(r"对\s*$")
DONE_TO = re.compile(r"\s*(?:做了|进行了|开展了|展开了|完成了|做|进行|开展|展开)")


def _done_to(text: str, mention: re.Match) -> bool:
    """Is the device named here what 对 says something is done to ("对 Trainium3 做了复测")?"""
    return bool(
        DUI_BEFORE.search(text, max(0, mention.start() - 4), mention.start())
        and DONE_TO.match(text, mention.end())
    )


# the focus of a cleft, denied: "开启 MTP 的并非 Jalapeño", "the side that ran it was not Jalapeño but"
DENIED_FOCUS = re.compile(r"的\s*(?:并非|不是|并不是)\s*$|\b(?:was|is|were|are)\s+not\s+$")
CONTRAST_AFTER = re.compile(r"\s*[,，]?\s*(?:but\b|而是|是)")


def _denied_focus(text: str, mention: Mention) -> bool:
    """Is the device named here the denied focus of a cleft ("…的并非 X", "… was not X but Y")?"""
    denied = DENIED_FOCUS.search(text, max(0, mention.start - 12), mention.start)
    if denied is None:
        return False
    # (in English only a cleft a contrast completes: "was not Jalapeño but GB300")
    return denied.group(0).startswith("的") or bool(CONTRAST_AFTER.match(text, mention.end))


# a newsletter's story head: "【OpenAI】…", "[Packaging] …"
# a timeline's entry: "Feb 2027 — …", "Aug 25, 2026 — …", "2027 年 3 月:…"
DATE_HEAD = re.compile(
    r"\s*(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+(?:\d{1,2},?\s+)?20\d\d"
    r"|20\d\d\s*年\s*(?:\d{1,2}\s*月\s*(?:\d{1,2}\s*日)?)?|\d{1,2}\s*月\s*\d{1,2}\s*日)"
    r"\s*(?:[—–-]{1,2}|:|：|\|)\s*",
    re.I,
)
STORY_HEAD = re.compile(
    r"\s*(?:【(?![\d:.\s]+】)[^】]{1,16}】|\[(?![\d:.\s]+\])[^\]]{1,24}\]\s)"
)  # no "[00:18:40]", "【00:21:10】"
# a forum reply's handle: "kv_cache_enjoyer: …", "> u/gpu_poor: …" (lower case, no spaces)
HANDLE = re.compile(
    r"(?:>\s*)*(?:u/|@)?(?=[a-z0-9_.-]*[a-z])(?=[a-z0-9_.-]*[_\d.-])[a-z0-9_.-]{3,30}:\s"
)
# a correction, and the sentence in it that says what the earlier article said ("A Nov. 28
# article said…", "An article on Nov. 12 said…", "本站 9 月 16 日的报道称…")
CORRECTION = re.compile(
    r"(?:^|\n)\W*(?:correction|clarification|corrected\b|更正|勘误|澄清)"
    r"|\b(?:has|have) been (?:corrected|withdrawn|retracted)\b"
    r"|\bwe (?:have )?corrected\b|\bwe regret\b|\bcorrection to\b|特此更正|予以更正|现更正"
    r"|(?:^|\n)\W*retraction\b|\bwe (?:are |have )?(?:retract(?:ed|ing)?|withdr[ae]wn?) (?:the|this|our|that)\b"
    r"|撤稿|撤回(?:该|此|这篇|本篇)?(?:报道|文章|稿件|消息)",
    re.I,
)
EARLIER_ARTICLE = re.compile(
    r"\b(?:a|an|the|our|this|an earlier|a previous|[\w.’']+(?:'s|’s))\s+(?:[\w.,]+\s+){0,3}?"
    r"(?:story|report|article|post|version|item|piece|edition|episode|newsletter|letter|note|column"
    r"|flash|alert|headline|bulletin|tweet|dispatch|brief)\s+"
    # (and "we published on 9 January": "A news brief we published on 9 January said …")
    r"(?:(?:on|of|from|published|dated|last|sent|issued|posted|filed|moved"
    r"|(?:that\s+|which\s+)?we\s+(?:published|ran|posted|sent|wrote|issued|filed))\s+(?:[\w.,:]+\s+){0,5}?)?"
    r"(?:(?:also|originally|previously|wrongly|incorrectly|mistakenly|erroneously)\s+)?"
    r"(?:said|stated|reported|claimed|wrote|described|called|put)\b"
    # the writer's own earlier words, in a correction: "In our first-quarter letter, … we wrote that"
    r"|\bwe\s+(?:had\s+|originally\s+|wrongly\s+|incorrectly\s+)?(?:wrote|said|reported|stated|claimed)\s+that\b"
    # "We described Pellworth as an independent lab and the figures as measured."
    r"|\bwe\s+(?:had\s+|wrongly\s+|incorrectly\s+)?(?:described|called|characteri[sz]ed|presented|labell?ed)\b"
    r"|(?:原文|原报道|此前报道|早前报道|该文|前文|一文|推文|文章|报道|稿件|快讯|(?:首发|原|初|此前的?|早前的?)版本)"
    r"(?:中)?(?:称|说|写道|提到)"
    r"|关于\s*[“\"《][^”\"》]{1,60}[”\"》]\s*(?:的|一)(?:报道|文章|文|消息|稿件)",
    re.I,
)
RETRACTED = frozenset({"retracted"})
WE_WORD = re.compile(r"\b(?:we|our|us)\b|我们", re.I)
# an answer that counts the things it goes on to list: "WIERZBICKI: Three things, in order.", "三件事："
COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "2": 2, "3": 3, "4": 4, "5": 5}
COUNTS |= {"两": 2, "三": 3, "四": 4, "五": 5}
COUNT_LEAD = re.compile(
    r"^\W*(?:[A-Z][\w'’ .-]{0,30}[:：]\s*)?(?P<n>two|three|four|five|[2-5]|两|三|四|五)\s*(?:件|个|条|点)?\s*"
    r"(?:things?|conditions?|items?|points?|signals?|steps?|事|条件|方面|信号)"
    r"(?:,?\s+in (?:that |this )?order)?\s*[.:：。]?$",
    re.I,
)
LEAD_PASSES = frozenset({"future", "hypothetical", "watchlist", "question"})
# the subject as what another device's figure beat: "…, exceeding the 85,448 announced for"
OUTDONE = re.compile(
    r"[,，]\s*(?:exceed(?:ing|s|ed)?|surpass(?:ing|es|ed)?|beat(?:ing|s)?|outpac(?:ing|es|ed)"
    r"|topp(?:ing|ed)|outperform(?:ing|s|ed)?|超过|超越|胜过)\b[^.;。；]{0,50}$",
    re.I,
)
# a speaker's own device named by the pronoun: another maker's, in an item not in the owner's voice
OURS_DEVICE = re.compile(
    r"\bours\b(?=\s+(?:is|are|was|were|has|have|had|already|now)\b)"
    r"|\bour (?:own )?(?:chips?|accelerators?|parts?|silicon|asics?)\b|我们的(?:芯片|加速器|产品)",
    re.I,
)
RESULTS_TO_COME = re.compile(
    r"结果(?:将|会|预计|计划|拟|要)[^。；;]{0,30}?(?:发布|公布|公开|放出)"
    r"|\bresults?\s+(?:will|would|are (?:expected|due|set|scheduled|slated) to)\s+(?:\w+\s+){0,2}"
    r"(?:be\s+)?(?:published|released|posted|out|come)\b",
    re.I,
)
POSTER = re.compile(r"\s*[:：]")  # "//@OpenAI:": the account a repost's segment is by
# where a repost's reposted part starts: a Weibo chain's "//@", a quote-post's "> " lines, a forward
REPOST_MARK = re.compile(r"//@|\n\s*>\s|\n\s*(?:forwarded from|转发自)\b", re.I)
# the reposter's comment on top says what it reposts is fake or withdrawn
TOP_DENIES = re.compile(  # at the start of one of the comment's lines
    r"(?:^|(?<=\n))[^\w\n]*(?:假的|假消息|谣言|不实|p图|别信|不是真的|撤回|数据作废|fake|not true|false\b|debunked"
    r"|this (?:isn'?t|is not) (?:our|a real|real)|retract(?:ing|ed) (?:this|that|it)|please disregard)",
    re.I,
)
# a field's name before its value: "测试脚本公开情况: 示例内容 未公开", "Scripts published: no"
FIELD_LABEL = re.compile(r"[^:：.。!?！？]{2,30}[:：]\s")
FIRM_HINT = re.compile(
    r",\s+(?:which|a|an)\s+|(?:'s|’s)\s+(?:[\w/-]+\s+){0,4}?"
    r"(?:run|test|report|benchmark|results|replication|re-?test|study|evaluation|paper|numbers"
    r"|measurements|figures)\b|\s+is\s+(?:one of|a|an|the)\s+"
    r"|(?:发布|公布|晒出|发表)了?(?:一份|最新的?)?(?:报告|测试|评测|结果|数据|跑分)"
    r"|(?:机构|公司|服务商|厂商|业者|团队|研究所)\s*(?:[A-Z]|[\u4e00-\u9fff]{2,6}?(?:测评|评测|实验室|研究院"
    r"|研究所|智算|算力|科技))"
    r"|(?-i:[A-Z]\w+ (?:Research|Instruments|Analytics|Benchmarks|Benchmarking|Testing|Labs?"
    r"|Laboratory|Cloud|Compute|Computing|AI))\b"
    r"|\s(?:posts|posted|publishes|published|releases|released|reports|reported)\s+(?:its|their)\s"
    r"|\b(?:ran|re-?ran|re-?run|measured|re-?measured|tested|re-?tested|benchmarked)\b"
)
# "为对比系统的 1.5-1.9 倍": the device a ratio is taken against
# names joined to a skipped comparator go with it ("against Nvidia's GB200 and GB300")
JOINED = re.compile(r"\s*(?:,|、|/|and|or|和|与|及|以及|[(（])?\s*", re.I)
# "为对照系统（GB200/GB300）的 1.3 至 1.7 倍": the device the figure is a multiple of
RATIO_OF = re.compile(
    r"\s*(?:\S{0,4}?(?:系统|平台|芯片|方案|产品))?\s*(?:[(（][^()（）]{0,30}[)）])?\s*[)）]?\s*的\s*\d"
)
# a product introduced by what it is and its name: 推理卡“赤焰一号”, "an accelerator called Ember"
PRODUCT_NAMED = re.compile(
    # (a quoted clause is speech, not a name: 芯片“上周已经流片”)
    r"(?:推理卡|加速卡|计算卡|芯片|加速器|处理器)\s*[“\"「『《](?![^”\"」』》]{0,16}(?:已经|已|了|将|正在|完成|流片|量产|上线|部署))"
    r"([^”\"」』》]{1,16})[”\"」』》]"
    r"|\b(?:chip|accelerator|card|processor|asic|npu)s?\s+(?:(?:called|named|dubbed|branded)\s+[\"“]?|[\"“‘'])"
    r"([A-Z][\w-]+(?:\s+[A-Z0-9][\w-]*)?)"
    # or in quotes before what it is: "'Hinoki-2' inference chip"
    r"|[\"“‘']([A-Z][\w.-]{1,20})[\"”’']\s+(?:ai\s+)?(?:inference\s+)?(?:chip|accelerator|asic|processor|card|npu)s?\b"
    # or by a model code beside what it is: "推理卡 YX-200", "the QH-9 accelerator"
    r"|(?:推理卡|加速卡|计算卡|芯片|加速器|处理器)\s*([A-Z]{2,6}-\d{1,4}[A-Z]?)\b"
    r"|\b([A-Z]{2,6}-\d{1,4}[A-Z]?)\s+(?:ai\s+)?(?:inference\s+)?(?:chip|accelerator|asic|processor|card|npu)s?\b",
)
ON_BEHALF = re.compile(
    r"(?:\bon behalf of|\b(?:official|formal)\s+(?:answer|statement|reply|response|post)\s+from"
    r"|代表)\s*(?:the\s+)?$",
    re.I,
)
FAILED_RUN = re.compile(
    r"\b(?:wouldn['’]t|would not|didn['’]t|did not|couldn['’]t|could not|failed to|won['’]t)\s+"
    r"(?:\w+\s+)?(?:load|run|compile|boot|start|work|fit)\b|\bcrashed\b"
    r"|没(?:能)?(?:跑|测|加载)(?:起来|通|成)?|跑不(?:起来|通)|加载失败|崩溃",
    re.I,
)
# a device's name as the first word of a firm's: "Trillium Benchmarks", "Rubin Labs"
FIRM_AFTER = re.compile(
    r"\s+(?-i:Benchmarks?|Labs?|Laboratories|Research|Testing|Analytics|Consulting|Partners|Capital"
    r"|Ventures|Computing|Group|Inc\.?|Ltd\.?|LLC|GmbH|Institute|Metrics|Audit)\b"
)
INTERVIEW = re.compile(
    r"\b(?:interview|q\s*&\s*a|in conversation with|fireside chat|ama)\b|专访|访谈|对话",
    re.I,
)
# an answer's own subject: "A: We started the volume ramp", "我们已经开始上量"
WE_SUBJECT = re.compile(
    r"(?:^\W*|[:：]\s*|\b(?:and|but|so)\s+)(?:we|we've|we're)\b|(?:^\W*|[:：]\s*)我们", re.I
)
# "both systems" as a mention of the devices themselves (parties.BOTH: two devices run together)
BOTH_DEVICES = re.compile(
    r"\bboth (?:systems|chips|accelerators|devices|platforms|parts|boards)\b(?!\s+of\b)"
    r"|(?:两套|两款|两个|两台)(?:系统|芯片|平台|加速器)(?:都|均|全都)",
    re.I,
)
ANAPHOR = re.compile(
    r"\b(?:the|this) (?:in-house |custom |home-?grown )?(?:chip|part|accelerator|asic)\b"
    r"(?!\s*(?:industry|market|makers?|team|war|shortage|business|sector|stocks?|supply|design(?:ers?)?))"
    r"|(?:该|这颗|这款|这枚|此)(?:自研)?(?:推理)?(?:芯片|加速器)",
    re.I,
)
