"""Hostile markup under the byte cap: entity declarations in any encoding or behind any padding,
and documents that build millions of elements. Each poll runs in a child process with a limit on
its address space, and its peak resident memory is asserted, so a regression fails the test
instead of taking the machine."""

import json
import os
import resource
import subprocess
import sys

import pytest
from sqlmodel import Session, select

from db.engine import make_engine
from db.models import Observation, WatcherState
from watchers.markup import MarkupTooLarge, check_feed, count_elements, soup

ADDRESS_SPACE = 3 * 1024**3  # a runaway parse dies here rather than exhausting the machine
PEAK_RSS_MB = 400  # a poll of a normal feed stays near 100 MB

ENTITY = "x" * (1024 * 1024)
BOMB = (
    '<?xml version="1.0" encoding="{encoding}"?>\n{padding}'
    f'<!DOCTYPE rss [<!ENTITY big "{ENTITY}">]>\n'
    '<rss version="2.0"><channel><title>t</title>'
    f"<item><guid>1</guid><title>OpenAI Jalapeno re-tested {'&big;' * 1000}</title></item>"
    "</channel></rss>"
)
UTF16_BOMB = BOMB.format(encoding="UTF-16", padding="").encode("utf-16")
UTF16_NO_BOM = BOMB.format(encoding="UTF-16", padding="").encode("utf-16-be")
UTF32_BOMB = BOMB.format(encoding="UTF-32", padding="").encode("utf-32")
PADDED_BOMB = BOMB.format(encoding="utf-8", padding=f"<!-- {'pad ' * 40_000} -->\n").encode()
SOUP_BOMB = (  # not well-formed, for feedparser's loose parser, behind 100 KB of padding
    f'<?xml version="1.0"?><!-- {"p" * 100_000} --><!DOCTYPE rss [<!ENTITY big "{ENTITY}">]>'
    f"<rss><channel><item><title>{'&big;' * 1000}<b></item></rss"
).encode()

NESTED_FEED = (
    b'<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><item><guid>1</guid>'
    b"<description>" + b"<a>" * 1_500_000 + b"</a>" * 1_500_000 + b"</description></item>"
    b"</channel></rss>"
)
FLAT_FEED = (
    b'<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>'
    + b"<item><title>x</title></item>" * 400_000
    + b"</channel></rss>"
)
TAG_SOUP = b"<html><body>" + b"<div><p>x<span>" * 1_200_000  # 18 MB, never closed
FLAT_SOUP = b"<html><body><table>" + b"<tr><td>x</td></tr>" * 1_000_000


def _limit():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def poll_in_child(tmp_path, watcher: dict) -> tuple[int, int, WatcherState, list]:
    """`claimwatch poll` of one watcher in a child process: exit code, peak RSS in MB, the
    watcher's stored state and its observations."""
    database = tmp_path / "c.db"
    lines = [f'database_url = "sqlite:///{database}"', "[http]", "max_bytes = 20_000_000"]
    lines += ["[[watchers]]"] + [f"{k} = {json.dumps(v)}" for k, v in watcher.items()]
    config = tmp_path / "c.toml"
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "monitor", "--config", str(config), "poll"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=_limit,
        cwd=tmp_path,
    )
    try:
        _, status, usage = os.wait4(process.pid, 0)  # this child's own peak, no other's
    finally:
        process.returncode = 0  # reaped above; keep Popen from waiting again
    engine = make_engine(f"sqlite:///{database}")
    with Session(engine) as session:
        state = session.get(WatcherState, watcher["name"])
        observations = list(session.exec(select(Observation)))
    engine.dispose()
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss // 1024, state, observations


def serve(server, path: str, body: bytes, content_type: str) -> str:
    server.expect_request(f"/{path}").respond_with_data(body, content_type=content_type)
    return server.url_for(f"/{path}")


@pytest.mark.parametrize(
    ("name", "body", "content_type"),
    [
        ("utf16", UTF16_BOMB, "application/rss+xml"),
        ("utf16-by-header", UTF16_NO_BOM, "application/xml; charset=utf-16be"),
        ("utf32", UTF32_BOMB, "application/rss+xml"),
        ("padded", PADDED_BOMB, "application/rss+xml"),
        ("loose", SOUP_BOMB, "text/xml"),
    ],
)
def test_entity_declarations_are_refused_in_any_encoding_or_padding(
    server, tmp_path, name, body, content_type
):
    url = serve(server, name, body, content_type)
    code, peak, state, observations = poll_in_child(
        tmp_path, {"name": "w", "kind": "feed", "url": url}
    )
    assert (code, state.last_error_kind) == (1, "parse"), state.last_error
    assert "feed declares XML entities" in state.last_error and url in state.last_error
    assert observations == [] and peak < PEAK_RSS_MB, f"peak {peak} MB"


@pytest.mark.parametrize(
    ("name", "watcher", "body", "content_type", "says"),
    [
        ("nested", {"kind": "feed"}, NESTED_FEED, "application/rss+xml", "nested deeper"),
        ("flat", {"kind": "feed"}, FLAT_FEED, "application/rss+xml", "more than 200,000"),
        (
            "page",
            {"kind": "page", "selector": "p", "claim": "jalapeno.efficiency"},
            TAG_SOUP,
            "text/html",
            "HTML nested deeper",
        ),
        (
            "flat-page",
            {"kind": "page", "selector": "td", "claim": "jalapeno.efficiency"},
            FLAT_SOUP,
            "text/html",
            "more than 200,000 elements",
        ),
        ("prices", {"kind": "prices", "format": "html"}, TAG_SOUP, "text/html", "HTML nested"),
    ],
)
def test_element_floods_are_a_parse_error_within_bounded_memory(
    server, tmp_path, name, watcher, body, content_type, says
):
    url = serve(server, name, body, content_type)
    code, peak, state, observations = poll_in_child(tmp_path, {"name": "w", "url": url, **watcher})
    assert (code, state.last_error_kind) == (1, "parse"), state.last_error
    assert says in state.last_error and url in state.last_error
    assert observations == [] and peak < PEAK_RSS_MB, f"peak {peak} MB"


def test_a_large_honest_feed_still_parses(server, tmp_path):
    items = b"".join(
        b"<item><guid>%d</guid><title>OpenAI Jalapeno note %d</title>"
        b"<description><![CDATA[<p>text<br><p>more]]></description></item>" % (i, i)
        for i in range(5_000)
    )
    body = b'<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>' + items
    url = serve(server, "big", body + b"</channel></rss>", "application/rss+xml")
    code, _, state, _ = poll_in_child(tmp_path, {"name": "w", "kind": "feed", "url": url})
    assert (code, state.health, state.last_error_kind) == (0, "ok", None), state.last_error


def test_counts_skip_cdata_and_comments_and_stop_past_the_limit():
    assert count_elements(b'<a><b x="1>2"/><![CDATA[<p><p>]]><!-- <x> --><c></c></a>') == (3, 2)
    assert count_elements(b"<![CDATA[<p><p>") == (
        2,
        2,
    )  # unterminated: a lenient parser builds them
    assert count_elements(b"<a>" * 10_000, max_elements=10) == (11, 11)


def test_soup_limits_nodes_and_depth():
    assert soup(b"<p>a</p>" * 100).get_text() == "a" * 100
    with pytest.raises(MarkupTooLarge, match="more than 50 elements"):
        soup(b"<b>x</b>" * 100, max_nodes=50)
    with pytest.raises(MarkupTooLarge, match="deeper than 20"):
        soup(b"<div>" * 100, max_depth=20)


def test_entity_check_reads_what_feedparser_decodes():
    with pytest.raises(Exception, match="declares XML entities"):
        check_feed(UTF16_BOMB, {"content-type": "application/xml"})
    check_feed(b'<?xml version="1.0"?><rss><channel><title>&amp;</title></channel></rss>', {})
