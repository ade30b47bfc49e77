"""Text as extraction reads it: normalised, split into sentences and clauses. Pure."""

from __future__ import annotations

import html
import importlib.util
import json
import re
import sys
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

SENTENCE_END = re.compile(
    # English: an end mark, space, a capital (not after "Sept.", "Mr.": an abbreviation)
    # (the end mark first: the look-behinds after it are tried only where one stands)
    r"(?<=[.!?])(?<!\b(?:Sept|Prof)\.)(?<!\b(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec|Mrs)\.)"
    r"(?<!\b(?:Mr|Ms|Dr|St|Co|vs|ca)\.)(?<!\bapprox\.)(?<!\b(?:incl|excl)\.)(?<!\b(?:avg|est)\.)"
    r"(?<!\bNo\.(?=\s+\d))"  # "No. 5" numbers; "No. We've moved it" answers
    r"[\"'”’)]?\s+(?=[A-Z\"“‘'(\[\d•\-])"
    r"|(?<=[。！？!?])(?!=)[”’\"')]?"  # Chinese: the end mark ends it ("!=" is no end)
    r"|\n+|(?<=\S)\s+(?=\d{1,2}\.\s+[A-Z])|(?<=\S)\s+(?=Q:|A:)"  # lines, numbered lists, Q and A
    # a post's emoji ends what it cheers: "已完成流片（tape-out）🎉 首批样片预计明年回片"
    r"|(?<=[^\s\U0001F300-\U0001FAFF\u2600-\u27BF\ufe0f][\U0001F300-\U0001FAFF\u2600-\u27BF])"
    r"\ufe0f?\s+"
)
# the words after which "yet" is "so far", not "but"
NOT_BUT = (
    r"(?<!not)(?<!nor)(?<! as)(?<!\bhas)(?<!have)(?<!\bhad)(?<!\bis)(?<!\bare)(?<!was)(?<!were)"
)
# where a negation or a hedge stops: a contrast, a new clause with its own verb, a semicolon
SPAN_END = re.compile(
    r";|:(?=\s)|:(?=\S*[\u4e00-\u9fff])|\s[—–-]{1,2}\s|——"
    r"|,?\s+(?=(?:but|while|whereas|although|though|however|even as|except that)\b)"
    # "yet" as "but": not "not yet", "yet to", "no one has yet re-run it", "yet another"
    rf"|(?=[,\s]){NOT_BUT},?\s+(?=yet\b(?!\s+(?:to|again|another|more)\b))"
    # (a comma inside a closing quote too: '"completed qualification in February," and that …')
    r"|,[\"”’']?\s*(?=(?:and|so|which|who|where|because|as|after|when|whereas|meaning)\s)"
    # speech without commas: a filler, or a new subject after "and", "so", "because" ("…not by the
    # submitter and I want to be careful … um we also logged power")
    r"|\s+(?=(?:um|uh|erm|uhm)\b)|\s+(?=(?:and|so|because)\s+(?:i|we|you|they|he|she)\s)"
    # a second verb phrase with its own auxiliary: "was not energised in 2026 and will now come online"
    r"|\s+(?=and\s+(?:will|would|is|are|has|have)\s+(?:now|since|instead|then)\s)"
    # the main verb after an aside: "Northgate, which has no ties to either, has now published"
    r"|,\s*(?=(?:has|have|had|is|was|were|are)\s+(?:now\s+|since\s+|also\s+|just\s+)?\w+(?:ed|en)\b)"
    r"|(?=(?:但是|但|而是|而|不过|然而|只是|可是|却|尽管))|,(?=\s*(?:并且|同时|之后|并|且|随后|此外|另外))"
)
CLAUSE_END = re.compile(
    r"(?<!\d),|,(?!\d{3}(?!\d))|;|:(?=\s)|:(?=\S*[\u4e00-\u9fff])|\s[—–-]{1,2}\s|——|…"
    r"|\s+(?=(?:but|while|whereas|although|though|however|even as|except that)\b)"
    rf"|(?=\s){NOT_BUT}\s+(?=yet\b(?!\s+(?:to|again|another|more)\b))"
    r"|(?=(?:但是|但|而是|而|不过|然而|只是|可是|却|并且未|尽管))|、(?=[^\d])"
)
SPACES = re.compile(r"[ \t\u00a0\u3000]+")
CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# a space between Chinese and Latin letters or digits, so word boundaries work in mixed text
CJK_LATIN = re.compile(rf"(?<=[{CJK}])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9%])(?=[{CJK}])")


def _simplified(text: str) -> str:
    """Traditional Chinese (Taiwan and Hong Kong outlets) in mainland Simplified words, so one
    vocabulary reads both: "台積電法說會：B0 良率傳出達 78%，尚未證實" → "台积电法说会：B0 良率传出达
    78%，尚未证实" (晶片 → 芯片, 伺服器 → 服务器). Text with no Traditional-only character is left
    as it is."""
    only = _traditional_only()
    if not any(char in only for char in text if char >= "\u4e00"):
        return text
    return _converter()(text, "zh-cn")


def as_read(pattern: str) -> str:
    """A vocabulary's pattern in the characters `normalise` leaves in text: a Traditional-only
    character ("昇腾") would otherwise never match the Simplified text it reads ("升腾")."""
    return _simplified(pattern)


@cache
def _converter():
    """zhconv's `convert`, imported the first time a text needs it. zhconv reads its table through
    pkg_resources when that imports, a tenth of a second of set-up; with it out of reach zhconv
    opens the same file itself."""
    if "pkg_resources" in sys.modules:
        from zhconv import convert
    else:
        sys.modules["pkg_resources"] = None  # an import of it now raises ImportError
        try:
            from zhconv import convert
        finally:
            del sys.modules["pkg_resources"]
    return convert


@cache
def _traditional_only() -> frozenset[str]:
    """zhconv's Traditional-only characters, read from its table without importing it (its
    import loads pkg_resources, a tenth of a second most texts never need)."""
    spec = importlib.util.find_spec("zhconv")
    folder = Path(next(iter(spec.submodule_search_locations)))
    table = json.loads((folder / "zhcdict.json").read_text(encoding="utf-8"))
    return frozenset(table["TRADONLY"])


# a bracketed Chinese gloss right after an English term, no figure in it: "multi-token prediction
# (多token预测)" (not a note on a name: "Jalapeño(本实验室实测)")
CHINESE_GLOSS = re.compile(
    r"(?<![\w-])([a-z][a-z-]+) [(（][^()（）\d\n]{0,24}[\u4e00-\u9fff][^()（）\d\n]{0,24}[)）]"
)


def normalise(text: str) -> str:
    """NFKC (full-width digits and punctuation become ASCII), one space, no zero-width marks, a
    space where Chinese meets Latin letters or digits, and no Chinese gloss after an English term."""
    text = text or ""
    if "&" in text and ENTITY.search(text):  # "Jalape&ntilde;o", "end&#8209;to&#8209;end"
        text = html.unescape(text)
    if "<" in text and BLOCK_TAG.search(text):
        text = markup_lines(text)
    if "**" in text:  # Markdown bold: "**Lab finished its run.** The consultancy…" is two sentences
        text = text.replace("**", "")
    if "|" in text:
        text = TABLE.sub(_table_as_sentences, text)
    if "---" in text or "  " in text or " | " in text:
        text = _aligned_tables(text)
    if EN_SCALE.search(text):
        text = EN_NUMBER.sub(_in_digits(en_value), text)
        text = EN_SHARE_WORD.sub(lambda m: f"{EN_UNITS[m.group(1).lower()]} {m.group(2)}", text)
    if " k " in text or text.endswith(" k"):  # speech: "eight k in one k out", "thirty two k"
        text = SPOKEN_K_AFTER.sub(_spoken_k, SPOKEN_K.sub(_spoken_k, text))
    if " of a " in text:  # "0.8 of a millisecond": 0.8 milliseconds
        text = FRACTION_OF_UNIT.sub(r"\1 \2seconds", text)
    if " in " in text or " of " in text:  # "four of every five dies": 80% of dies
        text = SHARE_OF_PARTS.sub(_share, text)
    if "\n" in text:
        text = _unwrap(text)
    if text.isascii():  # NFKC leaves ASCII as it is, and there is no Chinese to space
        return SPACES.sub(" ", text)
    # a Chinese gloss after an English term says it again: "multi-token prediction (多token预测) off"
    text = CHINESE_GLOSS.sub(r"\1", text)
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\u200b", "").replace("\ufeff", "").replace("\u00ad", "")
    text = text.replace("\u2010", "-").replace("\u2011", "-")  # hyphens: "gen‑2", "end‑to‑end"
    text = _simplified(text)
    if "百分之" in text:  # "提升百分之二十八", "百分之 28": 28%
        text = CN_PERCENT.sub(_percent, text)
    text = CN_TENTHS.sub(_tenths, CN_NUMBER.sub(_in_digits(cn_value), text))
    return SPACES.sub(" ", CJK_LATIN.sub(" ", text))


FRACTION_OF_UNIT = re.compile(r"(\d+(?:\.\d+)?)\s+of\s+an?\s+(milli|micro)?second\b", re.I)
# a share of parts said as a fraction: "four of every five dies", "nine in ten chips", "3 out of 4 parts"
_SHARE_WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
SHARE_OF_PARTS = re.compile(
    rf"\b(?P<n>{'|'.join(_SHARE_WORDS)}|\d)\s+(?:of|in|out of)\s+(?:every\s+)?(?P<m>{'|'.join(_SHARE_WORDS)}|10|[2-9])"
    r"(?=\s+(?:[\w-]+\s+)?(?:dies|die|chips|parts|wafers|packages|units|devices)\b)",
    re.I,
)


def _share(match: re.Match) -> str:
    def value(word: str) -> int:
        return int(word) if word.isdigit() else _SHARE_WORDS.index(word.lower()) + 1

    n, m = value(match.group("n")), value(match.group("m"))
    return f"{100 * n / m:.3g}% of" if 0 < n <= m else match.group(0)


# a character reference left in an item's text
ENTITY = re.compile(r"&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});", re.I)
# HTML left in an item's text: its blocks are lines, its table rows Markdown rows
BLOCK_TAG = re.compile(
    r"</?(?:p|br|div|li|ul|ol|tr|td|th|table|caption|h[1-6]|blockquote)\b[^<>]*>", re.I
)
ROW_START = re.compile(r"<tr\b[^<>]*>", re.I)
CELL_START = re.compile(r"<t([dh])\b[^<>]*>", re.I)
LINE_TAG = re.compile(
    r"<br\s*/?>|</?(?:p|div|ul|ol|table|caption|h[1-6]|blockquote)\b[^<>]*>|</(?:li|tr)>", re.I
)
ANY_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
ROW_END = re.compile(r"</tr\s*>|</table\s*>", re.I)


def markup_lines(markup: str) -> str:
    """HTML an item's text still holds, as lines: a block a line, a list item a "- " line, a
    table's rows Markdown rows (a rule after a header row of <th> cells), every other tag gone."""
    rows = ROW_START.split(markup)
    out = [rows[0]]
    for row in rows[1:]:
        end = ROW_END.search(row)
        row, rest = (row[: end.start()], row[end.end() :]) if end else (row, "")
        cells = CELL_START.split(row)
        # cells: text before the first cell, then (kind, text) pairs
        kinds, texts = cells[1::2], cells[2::2]
        line = "\n| " + " | ".join(ANY_TAG.sub(" ", t).strip() for t in texts) + " |\n"
        if kinds and all(k.lower() == "h" for k in kinds):
            line += "|" + "---|" * len(texts) + "\n"
        out.append(cells[0] + line + rest)
    text = "".join(out)
    text = re.sub(r"<li\b[^<>]*>", "\n- ", text, flags=re.I)
    text = ANY_TAG.sub(" ", LINE_TAG.sub("\n", text))
    lines = (" ".join(line.split()) for line in html.unescape(text).splitlines())
    return "\n".join(line for line in lines if line)


# hard-wrapped text (a forum post, an email): a line that runs on into the next
RUN_ON_WORDS = frozenset(
    {"and", "or", "the", "of", "to", "a", "an", "in", "on", "at", "with", "for", "by", "from",
     "that", "they", "their", "its", "is", "are", "was", "were", "than", "as", "but"}
)  # fmt: skip
WRAP_WIDTH = 55  # wrapped text fills its lines; a heading or a name line is short
WRAP_WIDTH_CJK = 20  # a Chinese character fills two columns
LINE_LABEL = re.compile(
    r"\s*(?:[#>|*•【-]|\d{1,2}[.)]\s|\d{1,2}:\d{2}\b|[一二三四五六七八九十]{1,3}、"
    r"|[^:：\n]{1,30}(?::\s|：))"
)
CJK_START = re.compile(rf"[{CJK}（“「]")  # a Chinese character or an opening mark of Chinese


def _unwrap(text: str) -> str:
    """Lines joined where a sentence runs on across a line break ("… says their\n  gpt-oss
    numbers", "… and they watched\n  OpenAI's runs"); headings, labels, list items and table
    rows stay lines of their own."""
    lines = text.split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        if _runs_on(out[-1].strip(), line.strip()):
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    return "\n".join(out)


def _runs_on(before: str, line: str) -> bool:
    if not before or not line or LINE_LABEL.match(line):
        return False
    needs_more = before.rsplit(None, 1)[-1].lower() in RUN_ON_WORDS  # "… running at", "… and"
    if LINE_LABEL.match(before) and not needs_more:
        return False  # (a labelled line may run on: "A: B0 yield is running at\n71 percent")
    last = before[-1]
    if CJK_START.match(last) or last in "，、（":
        # Chinese wrapped at a width: a long line that runs on without a stop
        return len(before) >= WRAP_WIDTH_CJK and bool(CJK_START.match(line) or line[0].isascii())
    if not (last.isascii() and (last.isalnum() or last in ",;'\")]%-")):
        return False  # a stop or a colon: the line ends there
    if line[0].islower() or line[0] == "(":
        return True
    if not line[0].isalpha():
        # "B0 yield is running at\n71 percent": a figure after a word that needs one runs on
        # (a numbered list item, "1. …", is a line label above)
        return line[0].isdigit() and needs_more
    return needs_more or (len(before) >= WRAP_WIDTH and (last.isalpha() or last in ",;"))


# a Markdown table: a header row, a rule, and rows, each line between pipes
TABLE = re.compile(
    r"(?m)^[ \t]*\|.*\|[ \t]*\n[ \t]*\|[\s:|\-]*-[\s:|\-]*\|[ \t]*(?:\n[ \t]*\|.*\|[ \t]*)+$"
    # without the outer pipes: "指标 | 实测 | 官方" over "---|---|---"
    r"|^[ \t]*[^\n|]+(?:\|[^\n|]+)+\n[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+"
    r"(?:\n[ \t]*[^\n|]+(?:\|[^\n|]+)+)+$"
)
# a header's unit in brackets: "Jalapeño (tok/s per W)", "延迟（毫秒）"
# what marks a unit: a slash, "per", 每, a time, a share or a multiple
UNIT_MARKS = r"(?:/|\bper\b|每|秒|瓦|\bms\b|\bs\b|%|×|\bx\b)"
HEADER_UNIT = re.compile(
    rf"^(?P<name>.*?)\s*[(（](?P<unit>[^()（）]*{UNIT_MARKS}[^()（）]*)[)）]\s*$", re.I
)


# a plain-text table: a header line, a rule of dashes, and rows, columns apart by 2+ spaces
RULE = re.compile(r"[ \t]*-{3,}(?:[ \t]+-{3,})+[ \t]*")
COLUMNS = re.compile(r"[ \t]{2,}")
PIPES = re.compile(r"[ \t]*\|[ \t]*")
# a unit a row's label gives its bare figures: "tok/s per user, single stream | 742 | 700"
# a throughput unit written out ("tok/s/kW", "tokens per second per user"); `{}` is what may
# stand between tok/s and its denominator
THROUGHPUT_UNIT = (
    r"tok(?:en)?s?\s*/\s*s(?:ec)?(?:\s*(?:{})\s*(?:kw|mw|w|user))?"
    r"|tokens? per second(?: per (?:kw|kilowatt|mw|megawatt|watt|user))?"
)
ROW_UNIT = re.compile(r"\b(?:" + THROUGHPUT_UNIT.format("/|per") + r"|[pt]flops)\b", re.I)


def _aligned_tables(text: str) -> str:
    """Plain-text tables read as Markdown's, line by line (no pattern spans lines, so a long
    hostile line costs its length once)."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if i + 1 < len(lines) and RULE.fullmatch(lines[i + 1]) and COLUMNS.search(lines[i].strip()):
            end = i + 2
            while end < len(lines) and lines[end].strip() and COLUMNS.search(lines[end].strip()):
                end += 1
            if end > i + 2:
                rows = [COLUMNS.split(line.strip()) for line in (lines[i], *lines[i + 2 : end])]
                table = ["|".join(rows[0]), "", *map("|".join, rows[1:])]
                out.append(_rows_as_sentences(table, _unit_around(lines, i, end)))
                i = end
                continue
        split = PIPES if lines[i].count("|") >= 2 else COLUMNS
        end = _unruled_rows(lines, i, split)
        if end:
            rows = [split.split(line.strip().strip("|").strip()) for line in lines[i:end]]
            if len(rows[0]) < len(rows[1]):
                rows[0].insert(0, "")
            table = ["|".join(rows[0]), "", *map("|".join, rows[1:])]
            out.append(_rows_as_sentences(table, _unit_around(lines, i, end)))
            i = end
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


def _unit_around(lines: list[str], start: int, end: int) -> str | None:
    """`_caption_unit` of a plain-text table that takes lines `start` to `end`."""
    before, after = "\n".join(lines[max(0, start - 8) : start]), "\n".join(lines[end : end + 8])
    return _caption_unit(f"{before}\n{after}", len(before), len(before) + 1)


def _unruled_rows(lines: list[str], i: int, split: re.Pattern) -> int:
    """A table with no rule under its header (columns apart by two spaces, or by pipes with none
    at the ends): a header of three or more columns, no figures in it, and at least two rows of
    the same columns that hold figures. Where it ends, or 0."""
    header = split.split(lines[i].strip().strip("|").strip())
    if len(header) < 2 or any(cell[:1].isdigit() for cell in header):
        return 0
    # a header over the figures only ("      A0    B0" above "MXFP4, PFLOPS   -   14.1"): the
    # row labels' column has no name
    width = len(header) + 1 if split is COLUMNS and lines[i][:1] in " \t" else len(header)
    if width < 3:
        return 0
    # rows that hold figures count; rows of words between them belong too ("制程 | 台积电N3P | …")
    end = last = i + 1
    rows = 0
    while end < len(lines):
        cells = split.split(lines[end].strip().strip("|").strip())
        if len(cells) != width:
            break
        end += 1
        if any(FIGURE_CELL.match(c) for c in cells[1:]):
            rows, last = rows + 1, end
    return last if rows >= 2 else 0


def _table_as_sentences(match: re.Match) -> str:
    """A table read as one sentence a row, each cell with its column's name and unit after it:
    "| GPT-OSS 120B | 81.9 | …" under "| Model | Jalapeño (tok/s per W) | …" reads
    "GPT-OSS 120B: Jalapeño 81.9 tok/s per W; …". Cells are clauses of their own."""
    return _rows_as_sentences(
        [line.strip().strip("|") for line in match.group(0).strip().splitlines()],
        _caption_unit(match.string, match.start(), match.end()),
        _caption_note(match.string, match.start()),
    )


def _caption_note(text: str, start: int) -> str:
    """What a table's numbered caption says of every row, in its brackets: "Table 2 (DeepSeek R1,
    both systems held at about 169 tok/s per user)", "表 2（DeepSeek R1，同等单用户速度）"."""
    line = text[max(0, start - 200) : start].rstrip().rpartition("\n")[2]
    found = NUMBERED_CAPTION.match(line)
    return found.group(1).strip() if found else ""


def _caption_unit(text: str, start: int, end: int) -> str | None:
    """The unit a table's caption gives all its figures: the line just before or after it
    ("Units: tokens/s per kW.", "Throughput per kW, tokens/s:")."""
    above = [line for line in text[max(0, start - 400) : start].split("\n") if line.strip()]
    before = above[-1].rstrip() if above else ""
    after = text[end : end + 400].lstrip().partition("\n")[0]
    # or a sentence of the paragraph before, the last first ("… MTP disabled. Unit for every
    # cell: …", "Peak throughput, tokens/s per kW (rated power). InferenceX 8k/1k. …"), or a
    # numbered caption a line or two above ("表3 单用户生成速度，单位 tokens/s/用户" over "测试方：…")
    numbered = [line for line in reversed(above[-3:-1]) if NUMBERED_LINE.match(line)]
    for line in (after, before, *reversed(LAST_SENTENCE.split(before)), *numbered):
        if len(line) <= 60 or CAPTION.match(line):  # a caption, not the next paragraph
            found = ROW_UNIT.search(line)
            if found:
                unit = found.group(0)
                if not UNIT_DENOMINATOR.search(unit) and PER_USER.search(line):
                    unit += " per user"  # "Per-user speed, tokens/s."
                return unit
    return None


def _rows_as_sentences(lines: list[str], caption: str | None = None, note: str = "") -> str:
    """Header line, rule, rows (cells between pipes) as one sentence a row; a caption's `note`
    goes with every row's label."""
    header = [cell.strip() for cell in lines[0].split("|")]
    out = []
    for line in lines[2:]:
        cells = [_digits_joined(cell.strip()) for cell in line.split("|")]
        parts = []
        # the unit said in the row's words: its label, or a "metric" column; else the caption's
        said = ROW_UNIT.search(" ".join(c for c in cells if not BARE_CELL.fullmatch(c)))
        row_unit = said.group(0) if said else _unit_column(header, cells) or caption
        for name, cell in zip(header[1:], cells[1:], strict=False):
            unit = HEADER_UNIT.match(name) or HEADER_IS_UNIT.match(name)
            if unit and re.match(r"[~≈约]?\s*\d", cell):
                label, said = _unit_apart(unit["name"], unit["unit"])
                parts.append(f"{label} {cell} {said}".lstrip())
            elif row_unit and BARE_CELL.fullmatch(cell):
                parts.append(f"{name} {cell} {row_unit}")
            else:
                parts.append(f"{name} {cell}")
        label = f"{cells[0]} ({note})" if note else cells[0]
        out.append(f"{label}: " + "; ".join(parts) + ".")
    return "\n".join(out)


def _unit_apart(name: str, unit: str) -> tuple[str, str]:
    """A header's bracket that holds a note beside its unit ("单用户速度（实测，tokens/s）"): the
    note goes with the name ("单用户速度 实测"), the unit after the figure ("tokens/s")."""
    pieces = [p.strip() for p in re.split(r"[,，;；]", unit) if p.strip()]
    units = [p for p in pieces if UNIT_MARK.search(p)]
    if len(pieces) < 2 or len(units) != 1:
        return name, unit
    notes = " ".join(p for p in pieces if p is not units[0])
    return f"{name} {notes}".strip(), units[0]


UNIT_MARK = re.compile(UNIT_MARKS, re.I)


def _unit_column(header: list[str], cells: list[str]) -> str | None:
    """The row's cell under a "unit" column: "| time between tokens | ms | 0.69 |"."""
    for name, cell in zip(header, cells, strict=False):
        if UNIT_HEADER.fullmatch(name) and 0 < len(cell) <= 16 and not any(map(str.isdigit, cell)):
            return cell
    return None


UNIT_HEADER = re.compile(r"units?|单位|unit of measure", re.I)


# a cell's figure with its thousands set apart by spaces: "81 902", "1 234 567.5"
SPACED_THOUSANDS = re.compile(r"\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+(?:\.\d+)?")


def _digits_joined(cell: str) -> str:
    return re.sub(r"\s", "", cell) if SPACED_THOUSANDS.fullmatch(cell) else cell


PER_USER = re.compile(r"per[- ]user|single[- ](?:user|stream)|单用户|每用户", re.I)
UNIT_DENOMINATOR = re.compile(
    r"/\s*(?:kw|mw|user|w)\b|\bper\s+(?:kw|mw|kilowatt|megawatt|user|watt)", re.I
)
LAST_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+")
NUMBERED_CAPTION = re.compile(
    r"\W*(?:table|tab\.|表)\s*\d+[^(（\n]{0,60}[(（]([^()（）\n]{3,100})[)）]\s*[:：.]?\s*$", re.I
)
NUMBERED_LINE = re.compile(r"\W*(?:table|tab\.|表)\s*\d+", re.I)
CAPTION = re.compile(r"\W*(?:units?|all figures|figures|numbers|values|单位|注)\b", re.I)
FIGURE_CELL = re.compile(r"[+~≈约]?\s*\d")
BARE_CELL = re.compile(r"[~≈约]?\s*\d[\d,.]*\s*(?:k|K|万)?")
# a header that is a unit, after any words: "Peak tok/s/kW", "tok/s/user", "Latency ms"
HEADER_IS_UNIT = re.compile(
    r"^(?P<name>.*?)(?:^|(?<=\s)|(?<=,))\s*(?P<unit>(?:"
    + THROUGHPUT_UNIT.format("/|per")
    + r"|ms|µs|%|W|kW|PFLOPS))(?:\s*\([^()]{0,30}\))?$",
    re.I,
)
# a figure written in Chinese numerals before its unit: 六百三十个 token, 五百八十六瓦, 一点九倍
CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
             "七": 7, "八": 8, "九": 9}  # fmt: skip
CN_PLACES = {"十": 10, "百": 100, "千": 1000}
CN_GROUPS = {"万": 10**4, "亿": 10**8}
CN_NUMBER = re.compile(
    r"(?<![零〇一二两三四五六七八九十百千万亿第])"
    r"(?P<n>[零〇一二两三四五六七八九十百千万亿]{2,}(?:点[零〇一二三四五六七八九]+)?"
    r"|[零〇一二两三四五六七八九]点[零〇一二三四五六七八九]+)"
    r"(?=\s*(?:个|瓦|千瓦|兆瓦|毫秒|微秒|秒|倍|%|％|token|tok|w\b|ms\b|万|亿|pflops|tflops|petaflops))",
    re.I,
)
# a figure written in English words before its unit: "ten thousand four hundred tokens",
# "seventy-nine point eight tokens", "one point nine times"
_UNIT_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
)
_TEN_WORDS = "twenty thirty forty fifty sixty seventy eighty ninety"
EN_UNITS = {w: i for i, w in enumerate(_UNIT_WORDS.split())}
EN_TENS = {w: 10 * i for i, w in enumerate(_TEN_WORDS.split(), start=2)}
EN_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9}
_EN_WORD = "|".join([*EN_UNITS, *EN_TENS, "hundred", *EN_SCALES])
_CHANGE = r"(?:lower|higher|less|more|below|above|under|over|short|down|up|ahead|behind)\b"
EN_SCALE = re.compile(
    rf"\b(?:hundred|thousand|million|billion|point|half|{'|'.join(_TEN_WORDS.split())})\b"
    # a change in words: "about six per cent lower"
    rf"|\b(?:{'|'.join(_UNIT_WORDS.split())})[\s-]+(?:per\s?cent|percent)\s+{_CHANGE}",
    re.I,
)
# (a change said as a share only: "six per cent lower", not "within three percent of ours")
EN_SHARE_WORD = re.compile(
    rf"\b({'|'.join(_UNIT_WORDS.split())})[\s-]+(per\s?cent|percent)(?=\s+{_CHANGE})", re.I
)
EN_NUMBER = re.compile(
    rf"(?<!\d\s)(?<!\d[.,]\s)(?<![\d.,-])\b(?P<n>(?:{'|'.join([*EN_UNITS, *EN_TENS])}|a(?=[\s-]+(?:hundred|thousand|million)\b))(?:(?:[\s-]+(?:(?<=hundred )and\s+|(?<=thousand )and\s+|(?<=million )and\s+)?)(?:{_EN_WORD}))*"
    rf"(?:\s+point(?:\s+(?:{'|'.join(list(EN_UNITS)[:10])}))+(?:\s+(?:{'|'.join(EN_SCALES)}))?)?"
    r"(?:\s+and\s+a\s+half)?)\b"  # "forty-four and a half times"
    # (an adjective may stand before the unit: "six hundred and fifty-two output tokens")
    r"(?=(?:[\s-]+(?:output|input|generated|mixed|decoded?|prompt|completion))?"
    r"[\s-]+(?:tokens?|tok\b|watts?|kilowatts?|megawatts?|milliseconds?|microseconds?|seconds?|millijoules?|joules?"
    r"|times\b|percent\b|per\s?cent\b|x\b)"
    # the first end of a span said in words: "between one point eight and three point five times"
    # (not the tail of one number: "six hundred and fifty-two")
    rf"|(?<!hundred)(?<!thousand)(?<!million)\s+(?:and|to)\s+(?:{'|'.join([*EN_UNITS, *EN_TENS])})\b)",
    re.I,
)


def en_value(words: str) -> float | None:
    """ten thousand four hundred → 10400, seventy-nine point eight → 79.8; None unless the words
    hold a place (hundred, thousand, million), a tens word or a decimal point, so "three times"
    stays."""
    words = words.lower()
    half = words.endswith(" and a half")  # "four and a half times" is 4.5
    whole, _, fraction = words.removesuffix(" and a half").partition(" point ")
    parts = [w for w in re.split(r"[\s-]+", whole) if w and w != "and"]
    if not (fraction or half) and not any(
        w == "hundred" or w in EN_SCALES or w in EN_TENS for w in parts
    ):
        return None  # (a tens word is a figure too: "forty-one times", "fifty-four percent")
    total, current = 0, 0
    for word in parts:
        if word in EN_UNITS or word in EN_TENS:
            current += EN_UNITS.get(word, 0) + EN_TENS.get(word, 0)
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in EN_SCALES:
            total, current = total + (current or 1) * EN_SCALES[word], 0
    value = float(total + current)
    digits = fraction.split()
    scale = EN_SCALES.get(digits.pop()) if digits and digits[-1] in EN_SCALES else None
    if digits:
        value += float("0." + "".join(str(EN_UNITS[w]) for w in digits))
    value += 0.5 if half else 0
    return value * scale if scale else value


# a yield in tenths: 良率六成五 is 65 %
CN_PERCENT = re.compile(
    r"百分之\s*(?P<n>\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百]+(?:点[零〇一二三四五六七八九]+)?)"
)


def _percent(match: re.Match) -> str:
    numeral = match.group("n")
    if numeral[0].isdigit():
        return f"{numeral}%"
    value = cn_value(numeral)
    if value is None and len(numeral) == 1:
        value = float(CN_DIGITS.get(numeral, -1))
    if value is None or value < 0:
        return match.group(0)
    return f"{value:g}%"


CN_TENTHS = re.compile(
    r"(?P<lead>(?:良率|良品率|\byield)[^。,，;；]{0,8}?"
    r"|(?:高出|提升|提高|增加|多出|降低|下降|减少|低了|高了)了?\s*(?:约|近|超过|逾)?\s*)"
    r"(?P<a>[一二两三四五六七八九])成(?P<b>[一二三四五六七八九])?"
)


# a token count said as words and "k" ("eight k in one k out", "thirty two k context")
_SMALL = rf"(?:(?:{'|'.join(EN_TENS)})(?:[\s-]+(?:{'|'.join(list(EN_UNITS)[1:10])}))?|(?:{'|'.join(list(EN_UNITS)[1:])}))"
SPOKEN_K = re.compile(
    rf"\b(?P<n>{_SMALL})\s+k\b(?=\s+(?:in|out|input|output|tokens?|context|prompts?|{_SMALL}\s+k)\b)",
    re.I,
)

SPOKEN_K_AFTER = re.compile(rf"(?<=\dk )(?P<n>{_SMALL})\s+k\b", re.I)  # "8k one k"


def _spoken_k(match: re.Match) -> str:
    words = re.split(r"[\s-]+", match.group("n").lower())
    return f"{sum(EN_UNITS.get(w, 0) + EN_TENS.get(w, 0) for w in words)}k"


def _in_digits(value_of):
    """A substitution writing the numeral a match's `n` group spells in digits (as it was, when
    `value_of` finds no number in it)."""

    def sub(match: re.Match) -> str:
        value = value_of(match.group("n"))
        if value is None:
            return match.group(0)
        return f"{value:g}" if value != int(value) else str(int(value))

    return sub


def cn_value(numeral: str) -> float | None:
    """一万四千六百 → 14600, 六百三十 → 630, 一点九 → 1.9; None unless it is a number with a place
    (十 百 千 万 亿) or a decimal point, so 三款 or 第二代 are left alone."""
    whole, _, fraction = numeral.partition("点")
    if not fraction and not any(c in CN_PLACES or c in CN_GROUPS for c in whole):
        return None
    total, group, digit = 0, 0, 0
    for char in whole:
        if char in CN_DIGITS:
            digit = CN_DIGITS[char]
        elif char in CN_PLACES:
            group += (digit or 1) * CN_PLACES[char]
            digit = 0
        elif char in CN_GROUPS:
            total += (group + digit) * CN_GROUPS[char]
            group, digit = 0, 0
    value = float(total + group + digit)
    if fraction:
        value += float("0." + "".join(str(CN_DIGITS[c]) for c in fraction))
    return value


def _tenths(match: re.Match) -> str:
    tenths = CN_DIGITS[match.group("a")] * 10 + (
        CN_DIGITS[match.group("b")] if match.group("b") else 0
    )
    return f"{match.group('lead')}{tenths}%"


@dataclass(frozen=True)
class Clause:
    start: int  # offsets in the sentence
    end: int


@dataclass(frozen=True)
class Sentence:
    text: str
    start: int  # offset in the item's text
    clauses: tuple[Clause, ...]  # split at every comma: where patterns are looked for
    spans: tuple[Clause, ...] = ()  # split at contrasts and new clauses: how far a cue reaches

    def clause_at(self, position: int) -> Clause:
        for clause in self.clauses:
            if clause.start <= position < clause.end:
                return clause
        return self.clauses[-1]


def sentences(text: str) -> list[Sentence]:
    out, position = [], 0
    for piece in SENTENCE_END.split(text):
        if piece is None:
            continue
        start = text.find(piece, position)
        position = start + len(piece) if start >= 0 else position
        stripped = piece.strip()
        if not stripped or start < 0:
            continue
        offset = start + piece.index(stripped[0])
        out.append(
            Sentence(stripped, offset, tuple(clauses(stripped)), tuple(clauses(stripped, SPAN_END)))
        )
    return out


def clauses(sentence: str, boundary: re.Pattern = CLAUSE_END) -> list[Clause]:
    bounds, start = [], 0
    for match in boundary.finditer(sentence):
        if match.start() > start:
            bounds.append(Clause(start, match.start()))
        start = max(match.end(), match.start())
    if start < len(sentence) or not bounds:
        bounds.append(Clause(start, len(sentence)))
    return bounds
