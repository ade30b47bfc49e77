"""`page`: the text under a CSS selector of any HTML page; a change of that text is an observation."""

from __future__ import annotations

from watchers.base import (
    Candidate,
    Fetched,
    LayoutChanged,
    Parsed,
    ParsedItem,
    PollContext,
    Watcher,
)
from watchers.markup import soup as html_soup

MAX_TEXT = 5_000


class PageWatcher(Watcher, kind="page"):
    snapshot = True
    accept = "text/html, application/xhtml+xml;q=0.9, */*;q=0.5"

    def check_config(self) -> None:
        if not self.config.selector or not self.config.claim:
            raise ValueError("a page watcher needs 'selector' and 'claim'")

    def parse(self, fetched: Fetched) -> Parsed:
        soup = html_soup(fetched.body)
        try:
            nodes = soup.select(self.config.selector)
        except ValueError as exc:
            raise LayoutChanged(f"selector {self.config.selector!r} is invalid: {exc}") from None
        text = " ".join(" ".join(n.get_text(" ").split()) for n in nodes).strip()
        if not text:
            raise LayoutChanged(
                f"{fetched.url}: nothing matches {self.config.selector!r}; the page layout may have changed"
            )
        title = soup.title.get_text(" ", strip=True) if soup.title else self.name
        return Parsed(
            items=[
                ParsedItem(
                    dedupe_key="",
                    title=title[:300],
                    url=fetched.url,
                    published_at=fetched.fetched_at,
                    source=self.name,
                    data=text[:MAX_TEXT],
                    snapshot=True,
                )
            ]
        )

    def extract(self, item: ParsedItem, context: PollContext) -> list[Candidate]:
        first = context.previous is None
        return [
            Candidate(
                claim_id=self.config.claim,
                key=self.config.key or self.name,
                value=item.data,
                signal="page-baseline" if first else "page-changed",
                excerpt=item.data[:400],
                first_is_baseline=True,
            )
        ]
