"""Text as extraction reads it: normalised, split into sentences and clauses. Pure."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

SENTENCE_END = re.compile(
    r"(?<=[.!?])[\"'”’)]?\s+(?=[A-Z\"“‘'(\[\d•\-])"  # English: an end mark, space, a capital
    r"|(?<=[。！？!?])[”’\"')]?"  # Chinese: the end mark ends it
    r"|\n+|(?<=\S)\s+(?=\d{1,2}\.\s+[A-Z])|(?<=\S)\s+(?=Q:|A:)"  # lines, numbered lists, Q and A
)
# where a negation or a hedge stops: a contrast, a new clause with its own verb, a semicolon
SPAN_END = re.compile(
    r";|:(?=\s)|:(?=\S*[\u4e00-\u9fff])|\s[—–-]{1,2}\s|——"
    r"|,?\s+(?=(?:but|while|whereas|although|though|however|even as|except that)\b)"
    r"|(?<!not)(?<!nor)(?<! as),?\s+(?=yet\b(?!\s+(?:to|again)\b))"  # "but": not "not yet", "yet to"
    r"|,\s*(?=(?:and|so|which|who|where|because|as|after|when|whereas|meaning)\s)"
    r"|(?=(?:但是|但|而是|而|不过|然而|只是|可是|却|尽管))|,(?=\s*(?:并且|同时|之后|并|且|随后|此外|另外))"
)
CLAUSE_END = re.compile(
    r"(?<!\d),|,(?!\d{3}(?!\d))|;|:(?=\s)|:(?=\S*[\u4e00-\u9fff])|\s[—–-]{1,2}\s|——|…"
    r"|\s+(?=(?:but|while|whereas|although|though|however|even as|except that)\b)"
    r"|(?<!not)(?<!nor)(?<! as)\s+(?=yet\b(?!\s+(?:to|again)\b))"
    r"|(?=(?:但是|但|而是|而|不过|然而|只是|可是|却|并且未|尽管))|、(?=[^\d])"
)
NUMBER_COMMA = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
SPACES = re.compile(r"[ \t\u00a0\u3000]+")
CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# a space between Chinese and Latin letters or digits, so word boundaries work in mixed text
CJK_LATIN = re.compile(rf"(?<=[{CJK}])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9%])(?=[{CJK}])")


def normalise(text: str) -> str:
    """NFKC (full-width digits and punctuation become ASCII), one space, no zero-width marks, and
    a space where Chinese meets Latin letters or digits."""
    text = text or ""
    if text.isascii():  # NFKC leaves ASCII as it is, and there is no Chinese to space
        return SPACES.sub(" ", text)
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\u200b", "").replace("\ufeff", "").replace("\u00ad", "")
    return SPACES.sub(" ", CJK_LATIN.sub(" ", text))


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
