"""Assertion: is a stretch of a sentence stated as a fact, or negated, hypothetical, a question,
a watch-list, retracted, an estimate, a rumour, a non-answer? A compact ConText (Harkema et al.,
2009): each cue has a category, a direction and a scope that ends where its clause does. Pure."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from watchers.needles import Alternatives, present
from watchers.text import Sentence, as_read

CUES = Path(__file__).parent / "cues.toml"
SHORT_END = re.compile(r"[,，;；:：]")
CELL_END = re.compile(r"[;；]")
COMMA = re.compile(r"[,，]")
# a relative clause, an appositive or a participle's phrase between commas: "Halberd, an
# independent house, …", "Engineers from a cooling vendor, asked by a customer to size the heat, put …"
RELATIVE_OPEN = re.compile(
    r"[,，]\s*(?:which|who|whose|an?|the|(?:asked|hired|commissioned|paid|invited|contracted|engaged|"
    r"retained|brought in|tasked|funded|told)\s+by)\b",
    re.I,
)
# the categories that take a stretch out of plain assertion: not a fact at all, or a plan
NOT_FACT = frozenset(
    {"negated", "question", "watchlist", "retracted", "rumour", "nonanswer", "topic", "quoted"}
)
PLANNED = frozenset({"future", "hypothetical"})
DIRECTIONS = (
    "forward", "short", "backward", "self", "cell", "clause", "sentence", "previous", "next",
    "above", "item",
)  # fmt: skip


@dataclass(frozen=True)
class Cues:
    by_direction: dict[str, list[tuple[str, Alternatives]]]  # direction -> (category, patterns)
    pseudo: Alternatives | None
    # what a sentence's own words lift of what the item's cues make of every sentence: one on
    # the record ("confirmed in a statement") is no hearsay the item's anonymous sources make
    lifts: tuple[tuple[str, Alternatives], ...] = ()


@dataclass(frozen=True)
class Scope:
    start: int
    end: int
    category: str


@cache
def cues(path: Path = CUES) -> Cues:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    by_direction: dict[str, list[tuple[str, Alternatives]]] = {d: [] for d in DIRECTIONS}
    for cue in data["cue"]:
        if cue["direction"] not in DIRECTIONS:
            raise ValueError(
                f"{path}: cue direction {cue['direction']!r} is not one of {DIRECTIONS}"
            )
        if cue["patterns"]:
            patterns = [as_read(p) for p in cue["patterns"]]
            by_direction[cue["direction"]].append((cue["category"], Alternatives(patterns)))
    pseudo = data.get("pseudo", {}).get("patterns") or []
    lifts = tuple(
        (lift["category"], Alternatives(lift["patterns"])) for lift in data.get("lift", [])
    )
    return Cues(by_direction, Alternatives(pseudo) if pseudo else None, lifts)


@lru_cache(maxsize=2048)
def _masked(text: str, pseudo: Alternatives | None) -> str:
    """The text with pseudo-triggers blanked out, offsets kept (cached: a sentence is masked for
    its scopes and again for the cues it gives the sentence before)."""
    if pseudo is None:
        return text
    return pseudo.sub(_blank, text)


def scopes(
    sentence: Sentence, table: Cues | None = None, whole: frozenset[str] = frozenset()
) -> list[Scope]:
    """Every stretch of the sentence some cue takes out of plain assertion (`whole`: the
    categories the item's own cues give every sentence, see item_scopes)."""
    table = table or cues()
    text = _masked(sentence.text, table.pseudo)
    lowered = text.lower()
    found = present(lowered)  # cues whose words the sentence lacks are passed over at once
    for category, pattern in table.lifts:
        if category in whole and pattern.search(text, lowered=lowered):
            whole = whole - {category}
    out: list[Scope] = [Scope(0, len(text), category) for category in sorted(whole)]
    for category, pattern in (
        table.by_direction["sentence"]
        + table.by_direction["previous"]
        + table.by_direction["next"]
        + table.by_direction["above"]
        + table.by_direction["item"]
    ):
        words = pattern.union  # (Alternatives.absent, inlined: this loop runs per sentence)
        if words is None or not words.isdisjoint(found):
            cue = pattern.search(text, lowered=lowered)
            if cue:
                out.append(Scope(_asked_from(text, cue), len(text), category))
    for direction, pieces in (
        ("forward", sentence.spans),
        ("short", sentence.spans),
        ("backward", sentence.spans),
        ("self", sentence.spans),
        ("cell", sentence.spans),
        ("clause", sentence.clauses),
    ):
        for category, pattern in table.by_direction[direction]:
            words = pattern.union
            if words is not None and words.isdisjoint(found):
                continue
            # once over the sentence, then to its piece
            for match in pattern.finditer(text, lowered=lowered):
                piece = next((p for p in pieces if p.start <= match.start() < p.end), None)
                if piece is None:
                    continue
                reach = _scope(direction, category, piece, match, text)
                if direction == "backward" and CJK.search(text):
                    reach = _topic_clause(sentence, reach, match.start())
                out.append(reach)
    return out + _row_label_hearsay(text, out) + _label_of_value(text, out)


# a table's row read as "label: cell; cell": "B0 yield around 60 %: Where it comes from a
# substrate supplier's estimate; OpenAI's answer …"
ROW = re.compile(r"([^:：;\n]{1,60})[:：]\s[^;\n]*;\s")
ROW_HEARSAY = ("rumour", "estimate")
DIGIT = re.compile(r"\d")


def _row_label_hearsay(text: str, found: list[Scope]) -> list[Scope]:
    """A row whose cell says its figure is hearsay or an estimate says so of its label, where
    the figure stands in a table whose first column holds the claims."""
    row = ROW.match(text)
    if row is None or not DIGIT.search(row.group(1)):
        return []  # (the label holds no figure: "OpenAI update: ramp moved to 2028; we trim …")
    label_end = row.end(1)
    said = {s.category for s in found if s.category in ROW_HEARSAY and s.start > label_end}
    return [Scope(0, label_end, category) for category in sorted(said)]


# a short label before its value: "2. 外部复测：多家实验室排队等机器", "AgentX：OpenAI 说会…补上"
LABEL = re.compile(
    r"\W*(?:\d{1,2}[.、)]\s*|[一二三四五六七八九十]{1,2}、\s*)?([^:：，,。；;\n]{1,12})[:：]\s*"
)
LABEL_DONE = re.compile(r"已|了|\b(?:is|are|was|were|has|have|had)\b", re.I)
VALUE_PASSES = ("future", "negated", "watchlist", "hypothetical")
VALUE_END = re.compile(r"[，,；;。.!?！？]")


def _label_of_value(text: str, found: list[Scope]) -> list[Scope]:
    """A label says what its value's first clause says of it: a label whose value is a plan, a
    wait or a denial ("外部复测：多家实验室排队等机器", "AgentX: nothing yet") is no fact itself."""
    label = LABEL.match(text)
    if label is None or LABEL_DONE.search(label.group(1)) or ROW.match(text):
        return []  # (a table's row: each cell says its own)
    start = label.end()
    stop = VALUE_END.search(text, start)
    end = stop.start() if stop else len(text)
    said = {
        s.category
        for s in found
        if s.category in VALUE_PASSES and start <= s.start < end and s.end >= end
    }
    return [Scope(0, label.end(1), category) for category in sorted(said)]


CJK = re.compile(r"[\u4e00-\u9fff]")
TOPIC_FIRST = re.compile(r"\W*(?:对于|关于|至于|说到|谈到|提到)")
ADVERBS_ONLY = re.compile(
    r"(?:目前|现在|至今|眼下|迄今|截至目前|到现在|暂时|一直|始终|依然|仍然|依旧|也|还|仍|都|却|则|但|而|可|就|只是)+"
)


def _topic_clause(sentence: Sentence, found: Scope, at: int) -> Scope:
    """A Chinese cue said after its own clause's subject reaches back over that clause only; one
    that opens its clause ("…，认证工作仍在进行中，尚未完成") over the clause before, its topic, too:
    "B0 样片已于 3 月回片" two clauses back is not what has not happened."""
    number = next(
        (i for i, c in enumerate(sentence.clauses) if c.start <= at < c.end),
        len(sentence.clauses) - 1,
    )
    clause = sentence.clauses[number]
    text = sentence.text
    lead = text[clause.start : at].strip(" ,，、")
    opens = not lead or ADVERBS_ONLY.fullmatch(lead)  # "…的正面对比，目前也还没有任何一方公布"
    if opens and number:
        number -= 1
    while (
        number and text[sentence.clauses[number].start - 1 : sentence.clauses[number].start] == "、"
    ):
        number -= 1  # "在测试脚本公开、外部实验室拿到板卡之前": a list is one clause
    if TOPIC_FIRST.match(text):
        number = 0  # "对于外界关心的 Rubin 与 Jalapeño 正面对比，英伟达称“没有这方面的计划”"
    return Scope(max(found.start, sentence.clauses[number].start), found.end, found.category)


def _asked_from(text: str, cue: re.Match) -> int:
    """Where a sentence-wide cue's stretch starts: a question mark after a colon asks what
    follows the colon ("… the question we cared about was the one our customers feel: how long
    does a whole answer take?"), not what the sentence said before it."""
    if cue.group(0) not in ("?", "？"):
        return 0
    colon = max(text.rfind(":", 0, cue.start()), text.rfind("：", 0, cue.start()))
    return colon + 1 if colon > 0 else 0


def _scope(direction: str, category: str, piece, match: re.Match, text: str) -> Scope:
    """What a cue found in its piece (span or clause) takes out, by its direction."""
    start, end = match.start(), min(match.end(), piece.end)
    if direction == "forward":
        end = _bracket_end(text, start, piece.end)
        return Scope(start, _aside_end(text, piece.start, start, end), category)
    if direction == "short":  # to the next comma, not past "、"
        stop = SHORT_END.search(text, end, piece.end)
        return Scope(
            start, _bracket_end(text, start, stop.start() if stop else piece.end), category
        )
    if direction == "backward":
        # inside brackets, only as far back as they open: "年终内部信（随后公开）中写明"
        opened = open_bracket(text, piece.start, start)
        return Scope(opened if opened >= 0 else piece.start, end, category)
    if direction == "self":  # the match itself, across a colon in a quoted title
        return Scope(start, match.end(), category)
    if direction == "cell":  # a table cell, to the next one: "Modeled yield, 4Q26 58%; …"
        stop = CELL_END.search(text, end)
        return Scope(start, stop.start() if stop else len(text), category)
    return Scope(piece.start, piece.end, category)


def _aside_end(text: str, opens: int, start: int, end: int) -> int:
    """A cue inside a relative clause or an appositive between commas reaches its closing comma at
    most: "Tessellate Labs, which takes no vendor money, has run the full suite" and "Halberd, an
    independent test house that takes no money from OpenAI, says it has clocked" negate the money,
    not the run."""
    opened = max(
        # (the opener may be the cue itself: ", asked by a customer to size the heat, put …")
        (
            m
            for m in RELATIVE_OPEN.finditer(text, max(0, opens - 2), start + 24)
            if m.start() < start
        ),
        key=lambda m: m.start(),
        default=None,
    )
    if opened is None or COMMA.search(text, opened.end(), start):
        return end
    close = COMMA.search(text, start, end)
    return close.start() if close else end


def open_bracket(text: str, start: int, end: int) -> int:
    """Where a bracket opened in text[start:end] and not closed there stands, or -1."""
    opened = max(text.rfind("(", start, end), text.rfind("（", start, end))
    closed = max(text.rfind(")", start, end), text.rfind("）", start, end))
    return opened if opened > closed else -1


def _bracket_end(text: str, start: int, end: int) -> int:
    """A cue inside brackets reaches their close at most: "Aldgate Lab (independent; no funding
    from OpenAI) has re-run all three models" negates the funding, not the run."""
    if open_bracket(text, 0, start) < 0:
        return end
    closes = [i for i in (text.find(")", start, end), text.find("）", start, end)) if i >= 0]
    return min(closes) if closes else end


def status(found: list[Scope], start: int, end: int | None = None) -> str | None:
    """The category whose scope covers the stretch [start, end), one that says it is no fact
    before one that says it is a plan ("将…对比，两边都未开启 MTP": not switched on, whatever the
    plan); None: asserted."""
    end = start + 1 if end is None else end
    covering = [scope.category for scope in found if scope.start < end and start < scope.end]
    if not covering:
        return None
    return next((category for category in covering if category in NOT_FACT), covering[0])


def item_scopes(text: str, table: Cues | None = None) -> frozenset[str]:
    """Categories whose cues mark a whole item (a title such as "Correction:" or "Rumour:"). What
    someone is quoted saying at length marks only its own sentence ('“…我们怀疑是固件版本比较旧，但
    我们没法验证。”' is the lab's doubt about its guess, not about the item)."""
    table = table or cues()
    return _found(
        QUOTED_SPEECH.sub(_blank, _masked(text, table.pseudo)), table.by_direction["item"]
    )


QUOTED_SPEECH = re.compile(r"“[^”]{16,}”|\"[^\"\n]{16,}\"")


def _blank(match: re.Match) -> str:
    """A match blanked out, its length kept (offsets into the text stay true)."""
    return " " * len(match.group(0))


def statuses(found: list[Scope], start: int, end: int) -> set[str]:
    """Every category whose scope covers some of the stretch [start, end)."""
    return {scope.category for scope in found if scope.start < end and start < scope.end}


def title_scopes(title: str, table: Cues | None = None) -> frozenset[str]:
    """Categories of the sentence-wide cues a headline carries ("Five things to watch")."""
    table = table or cues()
    return _found(_masked(title, table.pseudo), table.by_direction["sentence"])


def looking_back(sentence: Sentence, table: Cues | None = None) -> frozenset[str]:
    """Categories this sentence gives the one before it ("这只是估算")."""
    return _given(sentence, "previous", table)


def looking_ahead(sentence: Sentence, table: Cues | None = None) -> frozenset[str]:
    """Categories this sentence gives the one after it: "Q: What did Nvidia promise?" makes
    its answer a plan."""
    return _given(sentence, "next", table)


def looking_above(split: list[Sentence], table: Cues | None = None) -> list[frozenset[str]]:
    """For each sentence, the categories a later one gives every sentence above it ("All figures
    above are our estimates", "以上数据均为估算"), back to the heading of its part."""
    out: list[frozenset[str]] = [frozenset()] * len(split)
    carried: frozenset[str] = frozenset()
    for number in range(len(split) - 1, -1, -1):
        out[number] = carried
        if heading_line(split[number]) and number:
            carried = frozenset()  # a heading starts the part the note below it looks back on
        carried = carried | _given(split[number], "above", table)
    return out


def _given(sentence: Sentence, direction: str, table: Cues | None) -> frozenset[str]:
    table = table or cues()
    given = table.by_direction[direction]
    if not _found(sentence.text, given):
        return frozenset()  # no such cue even before masking: most sentences stop here
    return _found(_masked(sentence.text, table.pseudo), given)


def _found(text: str, listed: list[tuple[str, Alternatives]]) -> frozenset[str]:
    """The categories of the cues in `listed` that the text holds; the text's words are found
    once, and a cue none of whose words it holds is passed over without a search."""
    lowered = text.lower()
    found = present(lowered)
    return frozenset(
        category
        for category, pattern in listed
        if not pattern.absent(found) and pattern.search(text, lowered=lowered)
    )


# what a list's lead line passes on to the lines under it ("its targets:", "what to watch:")
HEADING_PASSES = frozenset(
    {"future", "hypothetical", "watchlist", "question", "rumour", "estimate"}
)
# what a sentence ending like one passes on to a list right under it ("here is what we are still
# waiting for, in order." then "1. …"); a hedge in it ("Paraphrased unless in quotes.") is its own
LIST_LEAD_PASSES = frozenset({"watchlist"})
# what a heading passes on to its section: a list of risks, of things to watch, of rumours (a
# heading put as a question, "发生了什么", "How fast is it?", introduces its answer)
SECTION_PASSES = frozenset({"watchlist", "hypothetical", "rumour"})
SENTENCE_MARK = (".", "。", "!", "?", "！", "？")
HEADING_LENGTH = 60  # characters: a longer line without a sentence's end is a sentence cut short
LIST_START = re.compile(r"[-•*·▶►👉|]|[(（]?\d{1,2}(?:[.:](?!\d)|[)）])")  # not "5:01 PM"
# a list's line, Chinese ordinals too ("一、", "（二）", "3、"), which also open headings of their own
LIST_ITEM = re.compile(
    rf"{LIST_START.pattern}|\d{{1,2}}、|[(（]?[一二三四五六七八九十]{{1,3}}(?:[、．]|[)）])"
    # a timeline's entry: "October 2026: …", "25 Aug 2026 — …", "2027 年 3 月：…"
    r"|(?i:(?:\d{1,2}\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+"
    r"(?:\d{1,2},?\s+)?20\d\d\s*(?:[:：]|\s[—–-]\s))"
    r"|20\d\d\s*年\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?\s*(?:[:：]|\s*[—–]\s*)"
)


def under_headings(
    split: list[Sentence], table: Cues | None = None, text: str = ""
) -> list[frozenset[str]]:
    """For each sentence, the categories the lead line of the list it sits in gives it: a line
    ending in a colon whose own end is, say, a plan ("laid out its targets:") makes every list
    line under it a plan (`text`, the item's text, tells which sentences share a list line), up
    to the first line after them that ends like a sentence. A heading on a line of its own
    ("风险提示", "What we're watching") gives its categories to its section, up to the next
    heading."""
    out: list[frozenset[str]] = []
    passed: frozenset[str] = frozenset()
    section = False  # `passed` comes from a heading, not a list's lead line
    listed = False  # the sentence stands in a list's line
    for number, sentence in enumerate(split):
        out.append(passed)
        said = sentence.text.rstrip()
        listed = bool(LIST_ITEM.match(said.lstrip())) or (
            listed and bool(text) and not _starts_line(text, sentence.start)
        )
        colon = said.endswith((":", "："))
        if colon or (
            said.endswith(SENTENCE_MARK) and not listed and _leads_list(split, number, text)
        ):
            found = scopes(sentence, table)
            end = len(said) - 1
            passed = frozenset(
                scope.category
                for scope in found
                if scope.start < end
                and end - 1 < scope.end
                and scope.category in (HEADING_PASSES if colon else LIST_LEAD_PASSES)
            )
            section = False
        elif number and heading_line(sentence):
            found = scopes(sentence, table)
            passed = frozenset(s.category for s in found if s.category in SECTION_PASSES)
            section = True
        elif said.endswith(SENTENCE_MARK) and not section and not listed:
            passed = frozenset()
    return out


def _leads_list(split: list[Sentence], number: int, text: str) -> bool:
    """Does a list start on the line after this sentence ("here is what we are still waiting
    for, in the order we think it matters." then "1. …")?"""
    after = split[number + 1] if text and number + 1 < len(split) else None
    return (
        after is not None
        and bool(LIST_ITEM.match(after.text.lstrip()))
        and _starts_line(text, after.start)
    )


def _starts_line(text: str, start: int) -> bool:
    """Does only blank space stand between the line's start and `start`?"""
    before = start - 1
    while before >= 0 and text[before] in " \t":
        before -= 1
    return before < 0 or text[before] in "\r\n"


def heading_line(sentence: Sentence) -> bool:
    """Is the sentence a heading on a line of its own: short, no sentence's end, no list line?"""
    text = sentence.text.strip()
    return (
        0 < len(text) <= HEADING_LENGTH
        and not text.endswith(SENTENCE_MARK + (",", "，", ";", "；"))
        and not LIST_START.match(text)
    )
