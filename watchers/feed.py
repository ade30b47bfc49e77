"""`feed`: RSS 0.9x/1.0/2.0 and Atom (GitHub commit and tag feeds included), and Hacker News search JSON."""

from __future__ import annotations

import calendar
import json
import re
from datetime import UTC, datetime
from urllib.parse import urljoin

from watchers.base import Candidate, Fetched, Parsed, ParsedItem, ParseError, PollContext, Watcher
from watchers.markup import check_feed, soup
from watchers.rss import read_rss

MAX_TEXT = 20_000
# markup whose text is the text between its tags: plain tags, no entity, comment or raw-text element
TAG = re.compile(r"</?[A-Za-z][^<>]*>")
RAW_TEXT = re.compile(
    r"</?(?:script|style|template|rt|rp|textarea|title|xmp|iframe|noembed|noframes|noscript"
    r"|plaintext)(?![A-Za-z0-9])",
    re.IGNORECASE,
)


def html_text(markup: str) -> str:
    """The text of an HTML fragment, words separated by single spaces."""
    if "<" not in markup:
        return " ".join(markup.split())
    if "&" not in markup and not RAW_TEXT.search(markup):
        tags = TAG.findall(markup)
        text = TAG.sub(" ", markup)
        if "<" not in text and ">" not in text and all(_quotes_paired(t) for t in tags):
            return " ".join(text.split())  # what BeautifulSoup gives, without building a tree
    return " ".join(soup(markup).get_text(" ").split())


def _quotes_paired(tag: str) -> bool:
    return tag.count('"') % 2 == 0 and tag.count("'") % 2 == 0


def _when(struct) -> datetime | None:
    if not struct:
        return None
    return datetime.fromtimestamp(calendar.timegm(struct), UTC)


def parse_feed(body: bytes, headers: dict[str, str], source_name: str, url: str = "") -> Parsed:
    check_feed(body, headers)  # entity bombs, external entities, element floods
    plain = read_rss(body, headers)
    if plain is not None:
        return _plain_items(*plain, source_name)
    import feedparser

    parsed = feedparser.parse(
        body, response_headers=headers, sanitize_html=False, resolve_relative_uris=False
    )
    # a feed with no entries yet and a warning (served as text/html, say) is still a feed
    if parsed.bozo and not parsed.entries and not parsed.get("version"):
        reason = str(parsed.get("bozo_exception", "unreadable")).splitlines()[0][:200]
        raise ParseError(f"not a readable feed: {reason}")
    feed_title = parsed.feed.get("title", "") or source_name
    items = []
    for entry in parsed.entries:
        title = entry.get("title", "")
        if entry.get("title_detail", {}).get("type") != "text/plain":
            title = html_text(title)
        title = " ".join(title.split())
        link = urljoin(url, entry.get("link", ""))  # GitHub gives `/owner/repo/releases/...`
        parts = [entry.get("summary", "")] + [c.get("value", "") for c in entry.get("content", [])]
        text = html_text(" ".join(p for p in parts if p))[:MAX_TEXT]
        key = (
            entry.get("id") or link or f"{title}|{entry.get('source', {}).get('title', feed_title)}"
        )
        if "news.google.com" in link:  # opaque redirect tokens: the same story gets new links
            key = f"{title}|{entry.get('source', {}).get('title', '')}"
        items.append(
            ParsedItem(
                dedupe_key=key[:300],
                title=title,
                url=link,
                published_at=_when(entry.get("published_parsed") or entry.get("updated_parsed")),
                text=text,
                source=feed_title,
            )
        )
    warning = None
    if parsed.bozo:
        warning = f"feed parsed with errors: {str(parsed.get('bozo_exception', '')).splitlines()[0][:200]}"
    return Parsed(items=items, warning=warning)


def _plain_items(channel_title: str, entries, source_name: str) -> Parsed:
    """Items of a feed read by watchers.rss, built as parse_feed builds them from feedparser's."""
    feed_title = channel_title or source_name
    items = []
    for entry in entries:
        title = " ".join(entry.title.split())
        key = entry.id or entry.link or f"{title}|{feed_title}"
        if "news.google.com" in entry.link:
            key = f"{title}|"
        items.append(
            ParsedItem(
                dedupe_key=key[:300],
                title=title,
                url=entry.link,
                published_at=entry.published,
                text=html_text(entry.summary)[:MAX_TEXT],
                source=feed_title,
            )
        )
    return Parsed(items=items)


def parse_hn(body: bytes) -> Parsed:
    try:
        hits = json.loads(body)["hits"]
    except (ValueError, KeyError, TypeError, RecursionError):
        raise ParseError("not Hacker News search JSON (no 'hits', or nested too deep)") from None
    items = []
    for hit in hits:
        if not isinstance(hit, dict) or "objectID" not in hit:
            continue
        when = hit.get("created_at_i")
        items.append(
            ParsedItem(
                dedupe_key=f"hn:{hit['objectID']}",
                title=str(hit.get("title") or ""),
                url=str(
                    hit.get("url") or f"https://news.ycombinator.com/item?id={hit['objectID']}"
                ),
                published_at=datetime.fromtimestamp(when, UTC) if isinstance(when, int) else None,
                text=html_text(str(hit.get("story_text") or ""))[:MAX_TEXT],
                source="Hacker News",
            )
        )
    return Parsed(items=items)


class FeedWatcher(Watcher, kind="feed"):
    accept = "application/atom+xml, application/rss+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.5"
    formats = ("auto", "hn-algolia")

    def parse(self, fetched: Fetched) -> Parsed:
        if self.config.format == "hn-algolia":
            return parse_hn(fetched.body)
        return parse_feed(fetched.body, fetched.headers, self.name, fetched.url)

    def extract(self, item: ParsedItem, context: PollContext) -> list[Candidate]:
        # imported here: a round of 304s never loads the extraction engine
        from watchers.extract import extract_item

        return extract_item(item, context.claims, only=self.config.signals, rules_=context.rules)
