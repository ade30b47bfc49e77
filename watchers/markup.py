"""Bounds on parsing web markup: what a parser holds in memory grows with the elements it builds,
not with the bytes it was given, so the byte cap alone does not bound it.

HTML goes through a BeautifulSoup that counts what it builds and stops at a limit; a feed is
decoded the way feedparser decodes it, and that decoded document is what is checked for entity
declarations and counted, whatever its encoding or however much padding comes first.
"""

from __future__ import annotations

import re
from functools import cache

from watchers.base import ParseError

MAX_NODES = 200_000  # tags and strings of one HTML document (~1 KB of memory each)
MAX_HTML_DEPTH = 4_096  # html.parser nests unclosed <p> and <li>, so real pages run deep
MAX_FEED_ELEMENTS = 200_000
MAX_FEED_DEPTH = 512

ENTITY_DECLARATION = re.compile(rb"<!ENTITY", re.IGNORECASE)
OTHER_ENCODING = re.compile(
    rb"encoding\s*=\s*[\"'](?!(?:utf-?8|us-ascii|ascii|iso-8859-1|latin-?1)[\"'])", re.I
)
ASCII_CHARSET = re.compile(r"charset=\"?(?:utf-?8|us-ascii|ascii|iso-8859-1|latin-?1)\b")
# an opening or closing tag, or the start of a CDATA section or comment (skipped to its end);
# no '<' inside a tag, so a quoted attribute cannot hide tags from the count
_XML_TOKEN = re.compile(
    rb"<!\[CDATA\[|<!--|<(/?)[A-Za-z_][^\s/<>'\"]*(?:\"[^\"<]*\"|'[^'<]*'|[^'\"<>])*?(/?)>"
)
_SECTION_END = {b"<![CDATA[": b"]]>", b"<!--": b"-->"}


class MarkupTooLarge(ParseError):
    """The document builds more than the limits allow; reported as `parse`."""


@cache
def _bounded_soup() -> type:
    """BeautifulSoup on html.parser that refuses to build past `max_nodes` or `max_depth`
    (bs4 is imported when a page is first parsed, not when a feed-only process starts)."""
    from bs4 import BeautifulSoup

    class BoundedSoup(BeautifulSoup):
        def __init__(
            self,
            markup: str | bytes = "",
            features: str = "html.parser",
            *args,
            max_nodes: int = MAX_NODES,
            max_depth: int = MAX_HTML_DEPTH,
            **kwargs,
        ):
            self._nodes, self._max_nodes, self._max_depth = 0, max_nodes, max_depth
            super().__init__(markup, features, *args, **kwargs)

        def pushTag(self, tag) -> None:  # noqa: N802 (BeautifulSoup's name)
            super().pushTag(tag)
            self._count()
            if len(self.tagStack) > self._max_depth:
                raise MarkupTooLarge(
                    f"HTML nested deeper than {self._max_depth:,} elements; not parsed further"
                )

        def object_was_parsed(self, o, parent=None, most_recent_element=None) -> None:
            super().object_was_parsed(o, parent, most_recent_element)
            self._count()

        def _count(self) -> None:
            self._nodes += 1
            if self._nodes > self._max_nodes:
                raise MarkupTooLarge(
                    f"HTML has more than {self._max_nodes:,} elements and strings;"
                    " not parsed further"
                )

    return BoundedSoup


def soup(markup: str | bytes, **limits):
    """An html.parser soup of `markup`, or MarkupTooLarge."""
    return _bounded_soup()(markup, "html.parser", **limits)


def decoded_feed(body: bytes, headers: dict[str, str]) -> bytes:
    """The document feedparser will parse: `body` converted to UTF-8 by feedparser's own rules
    (BOM, HTTP charset, XML declaration), so a check on it holds whatever the encoding. Plain
    ASCII is that already, and needs no feedparser."""
    charset = headers.get("content-type", headers.get("Content-Type", "")).lower()
    if (
        body.isascii()
        and not OTHER_ENCODING.search(body[:512])
        and ("charset=" not in charset or ASCII_CHARSET.search(charset))
    ):
        return body  # an ASCII document in an ASCII-compatible encoding (not UTF-7, not EBCDIC)
    from feedparser.encodings import convert_to_utf8

    return convert_to_utf8(dict(headers), body, {})


def check_feed(body: bytes, headers: dict[str, str]) -> None:
    """ParseError for a feed that declares entities or builds more than the limits allow."""
    document = decoded_feed(body, headers)
    # a document feedparser could not decode goes to its loose parser as UTF-8 with
    # replacement characters; without the NULs of UTF-16 or UTF-32 a declaration shows as well
    if ENTITY_DECLARATION.search(document) or ENTITY_DECLARATION.search(
        document.replace(b"\0", b"")
    ):
        raise ParseError(
            "feed declares XML entities (entity expansion or external entity); refused"
        )
    elements, deepest = count_elements(document)
    if elements > MAX_FEED_ELEMENTS:
        raise MarkupTooLarge(f"feed has more than {MAX_FEED_ELEMENTS:,} elements; not parsed")
    if deepest > MAX_FEED_DEPTH:
        raise MarkupTooLarge(f"feed nested deeper than {MAX_FEED_DEPTH:,} elements; not parsed")


def count_elements(
    document: bytes, max_elements: int = MAX_FEED_ELEMENTS, max_depth: int = MAX_FEED_DEPTH
) -> tuple[int, int]:
    """Elements and the deepest nesting of an XML document, outside CDATA and comments; the
    count stops just past either limit. Linear: an unterminated section is looked for once."""
    elements = depth = deepest = position = 0
    unterminated: set[bytes] = set()
    while elements <= max_elements and deepest <= max_depth:
        match = _XML_TOKEN.search(document, position)
        if match is None:
            break
        position = match.end()
        token = match.group(0)
        if token in _SECTION_END:
            end = -1 if token in unterminated else document.find(_SECTION_END[token], position)
            if end < 0:
                unterminated.add(token)  # its tags count: a lenient parser may build them
            else:
                position = end + len(_SECTION_END[token])
        elif match.group(1):
            depth = max(depth - 1, 0)
        else:
            elements += 1
            if not match.group(2):
                depth += 1
                deepest = max(deepest, depth)
    return elements, deepest
