"""Feeds as real sources write them: relative links, and feeds with no entries yet."""

import pytest
from sqlmodel import Session, select

from db.models import Alert, Item, WatcherState
from monitor.service import Poller, open_database
from watchers.base import ParseError
from watchers.feed import parse_feed

# the shape of a GitHub releases feed: links relative to github.com
RELEASES = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-US">
  <id>tag:github.com,2008:https://github.com/owner/repo/releases</id>
  <link type="text/html" rel="alternate" href="https://github.com/owner/repo/releases"/>
  <title>Release notes from repo</title>
  <updated>2026-09-18T10:00:00Z</updated>
  <entry>
    <id>tag:github.com,2008:Repository/1/v1.2.0</id>
    <updated>2026-09-18T10:00:00Z</updated>
    <link rel="alternate" type="text/html" href="/owner/repo/releases/tag/v1.2.0"/>
    <title>v1.2.0</title>
    <content type="html">&lt;p&gt;Faster kernels&lt;/p&gt;</content>
  </entry>
  <entry>
    <id>tag:github.com,2008:Repository/1/v1.1.0</id>
    <updated>2026-09-01T10:00:00Z</updated>
    <link rel="alternate" type="text/html" href="https://github.com/owner/repo/releases/tag/v1.1.0"/>
    <title>v1.1.0</title>
  </entry>
</feed>"""
EMPTY = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><id>tag:example,2026:empty</id>
<title>Release notes from a new repo</title><updated>2026-09-18T10:00:00Z</updated></feed>"""
ATOM = {"content-type": "application/atom+xml"}


def test_relative_links_resolve_against_the_feed_url():
    parsed = parse_feed(RELEASES, ATOM, "repo", "https://github.com/owner/repo/releases.atom")
    assert [i.url for i in parsed.items] == [
        "https://github.com/owner/repo/releases/tag/v1.2.0",
        "https://github.com/owner/repo/releases/tag/v1.1.0",
    ]


def test_a_polled_feed_stores_absolute_links(server, make_settings):
    server.expect_request("/owner/repo/releases.atom").respond_with_data(
        RELEASES, content_type="application/atom+xml"
    )
    url = server.url_for("/owner/repo/releases.atom")
    settings = make_settings([{"name": "releases", "kind": "feed", "url": url}])
    engine, _ = open_database(settings)
    assert Poller(settings, engine).poll("releases").items == 2
    with Session(engine) as session:
        urls = sorted(session.exec(select(Item.url)))
    assert urls == [
        server.url_for("/owner/repo/releases/tag/v1.2.0"),
        "https://github.com/owner/repo/releases/tag/v1.1.0",
    ]


def test_a_feed_with_no_entries_and_a_warning_is_read_with_the_warning():
    parsed = parse_feed(EMPTY, {"content-type": "text/html"}, "new", "https://example.org/f")
    assert parsed.items == [] and "text/html" in parsed.warning


@pytest.mark.parametrize(
    "body", [b"<html><body>Not here</body></html>", b"\x89PNG\r\n\x1a\n" + b"\0" * 40]
)
def test_what_is_no_feed_at_all_is_still_a_parse_error(body):
    with pytest.raises(ParseError, match="^not a readable feed"):
        parse_feed(body, {"content-type": "text/html"}, "x", "https://example.org/f")


def test_an_empty_feed_with_a_warning_is_ok_and_never_a_failure_alert(server, make_settings):
    server.expect_request("/empty.atom").respond_with_data(EMPTY, content_type="text/html")
    settings = make_settings(
        [{"name": "empty", "kind": "feed", "url": server.url_for("/empty.atom")}],
        failures_alert=2,
    )
    engine, _ = open_database(settings)
    poller = Poller(settings, engine)
    reports = [poller.poll("empty") for _ in range(3)]
    assert [r.outcome for r in reports] == ["ok"] * 3
    with Session(engine) as session:
        state = session.get(WatcherState, "empty")
        assert (state.consecutive_failures, state.health) == (0, "ok")
        assert "text/html is not an XML media type" in state.warning
        assert session.exec(select(Alert)).all() == []
    poller.close()
