"""`feed`: RSS 0.9x/1.0/2.0 and Atom (GitHub commit and tag feeds included), and Hacker News search JSON."""

from __future__ import annotations

import calendar
import json
from datetime import UTC, datetime

import feedparser

from watchers.base import Candidate, Fetched, Parsed, ParsedItem, ParseError, PollContext, Watcher
from watchers.extract import extract_item
from watchers.markup import check_feed, soup

MAX_TEXT = 20_000


def html_text(markup: str) -> str:
    if "<" not in markup:
        return " ".join(markup.split())
    return " ".join(soup(markup).get_text(" ").split())


def _when(struct) -> datetime | None:
    if not struct:
        return None
    return datetime.fromtimestamp(calendar.timegm(struct), UTC)


def parse_feed(body: bytes, headers: dict[str, str], source_name: str) -> Parsed:
    check_feed(body, headers)  # entity bombs, external entities, element floods
    parsed = feedparser.parse(
        body, response_headers=headers, sanitize_html=False, resolve_relative_uris=False
    )
    if parsed.bozo and not parsed.entries:
        reason = str(parsed.get("bozo_exception", "unreadable")).splitlines()[0][:200]
        raise ParseError(f"not a readable feed: {reason}")
    feed_title = parsed.feed.get("title", "") or source_name
    items = []
    for entry in parsed.entries:
        title = entry.get("title", "")
        if entry.get("title_detail", {}).get("type") != "text/plain":
            title = html_text(title)
        title = " ".join(title.split())
        link = entry.get("link", "")
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


def parse_hn(body: bytes) -> Parsed:
    try:
        hits = json.loads(body)["hits"]
    except (ValueError, KeyError, TypeError):
        raise ParseError("not Hacker News search JSON (no 'hits')") from None
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
        return parse_feed(fetched.body, fetched.headers, self.name)

    def extract(self, item: ParsedItem, context: PollContext) -> list[Candidate]:
        return extract_item(item, context.claims, only=self.config.signals, rules_=context.rules)
