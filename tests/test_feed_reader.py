"""The plain RSS reader and the quick HTML text give what feedparser and BeautifulSoup give, or
step aside: every feed here is parsed both ways and must come out the same."""

from xml.sax.saxutils import escape

import pytest
from bs4 import BeautifulSoup
from hypothesis import given, settings
from hypothesis import strategies as st

import watchers.feed as feed
from watchers.base import ParseError
from watchers.rss import read_rss

from .conftest import DATA

RSS = "application/rss+xml"


def via_feedparser(monkeypatch, body: bytes, headers: dict):
    with monkeypatch.context() as patched:
        patched.setattr(feed, "read_rss", lambda *_: None)
        return feed.parse_feed(body, headers, "source")


def rss(items: str, *, channel: str = "<title>Wire &amp; Co</title>", head: str = "") -> bytes:
    return (
        f'{head}<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>\n'
        f"{channel}\n<link>http://127.0.0.1/</link>\n{items}</channel></rss>\n"
    ).encode()


ITEM = (
    "<item><title>{title}</title><link>{link}</link><description>{text}</description>"
    '<guid isPermaLink="false">g-{n}</guid><pubDate>{date}</pubDate></item>\n'
)
PLAIN = [
    rss(
        "".join(
            ITEM.format(
                n=n,
                title=f"  Chip {n} hits {n}0,000 tokens/s  ",
                link=f"http://127.0.0.1/a/{n}?x=1&amp;y=2",
                text=escape(f"<p>Measured by <b>InferenceX</b> at {n}00 W.</p>\n<p>Café ✓</p>"),
                date=date,
            )
            for n, date in enumerate(
                [
                    "Mon, 02 Nov 2026 09:00:00 GMT",
                    "2 Nov 2026 09:00 +0130",
                    "Tue, 03 Nov 2026 23:59:59 -0800",
                    "Wed, 04 Nov 2026 00:00:00 UT",
                ]
            )
        )
    ),
    rss("<item><title>No link</title><guid>http:///127.0.0.1/permalink</guid></item>"),
    rss("<item><guid>http://127.0.0.1/g</guid><link>http://127.0.0.1/l</link></item>"),
    rss("<item><link></link><guid>http://127.0.0.1/g</guid></item>"),
    rss('<item><title>Not a link</title><guid isPermaLink="false">x</guid></item>'),
    rss("<item><description><![CDATA[<p>cdata <i>text</i></p>]]></description></item>"),
    rss("<item><title>Ã©tude \u0093quoted\u0094</title></item>"),
    rss("<item><title>a</title><category>x</category><category domain='d'>y</category></item>"),
    rss("<item><title>no channel title</title></item>", channel="<title></title>"),
]
# what the plain reader must leave to feedparser
UNSURE = [
    rss("<item><title>Fish &amp;amp; chips</title></item>"),
    rss("<item><title>a &lt;b&gt;bold&lt;/b&gt; claim</title></item>"),
    rss("<item><title>a</title><title>b</title></item>"),
    rss("<item><title>a<!-- note --></title></item>"),
    rss("<item><title>a</title><source url='http://127.0.0.1/'>Origin</source></item>"),
    rss("<item><title>a</title><pubDate>Mon, 02 Nov 2026 09:00:00 EST</pubDate></item>"),
    rss("<item><title>a</title><pubDate></pubDate></item>"),
    rss("<item><title>a</title></item>", channel="<title>A</title><title>B</title>"),
    rss("", channel="<title>t</title><item><title>a</title></item><image><title>i</title></image>"),
    rss("<item><title>a</title></item>", head='<!DOCTYPE rss PUBLIC "-//x" "y">\n'),
    b'<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><title>t</title>'
    b"<item><title>caf\xe9</title></item></channel></rss>",
    b'<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title></feed>',
    b"<rss version='2.0'><channel><title>t</title><item><title>cut",
]


@pytest.mark.parametrize("body", PLAIN, ids=range(len(PLAIN)))
@pytest.mark.parametrize(
    "headers", [{"content-type": RSS}, {}, {"content-type": "text/xml; charset=utf-8"}]
)
def test_the_plain_reader_reads_what_feedparser_reads(body, headers, monkeypatch):
    assert read_rss(body, headers) is not None
    assert feed.parse_feed(body, headers, "source") == via_feedparser(monkeypatch, body, headers)


@pytest.mark.parametrize("body", UNSURE, ids=range(len(UNSURE)))
def test_what_the_plain_reader_is_unsure_of_goes_to_feedparser(body, monkeypatch):
    headers = {"content-type": RSS}
    assert read_rss(body, headers) is None
    try:
        expected = via_feedparser(monkeypatch, body, headers)
    except ParseError as exc:
        with pytest.raises(ParseError, match="not a readable feed"):
            feed.parse_feed(body, headers, "source")
        assert "readable" in str(exc)
    else:
        assert feed.parse_feed(body, headers, "source") == expected


@pytest.mark.parametrize(
    "headers",
    [{"content-type": "text/xml"}, {"content-type": "text/html"}, {"server": "x"}],
)
def test_a_type_or_charset_feedparser_warns_about_goes_to_feedparser(headers, monkeypatch):
    body = PLAIN[0]
    assert read_rss(body, headers) is None
    assert feed.parse_feed(body, headers, "source").warning is not None


@pytest.mark.parametrize("name", ["retest_en.rss", "truncated.rss"])
def test_the_fixture_feeds_read_the_same_either_way(name, monkeypatch):
    body = (DATA / "feed" / name).read_bytes()
    headers = {"content-type": RSS}
    assert feed.parse_feed(body, headers, "source") == via_feedparser(monkeypatch, body, headers)


def test_entity_declarations_are_refused_before_either_reader():
    body = rss("<item><title>&x;</title></item>").replace(
        b"<rss", b'<!DOCTYPE rss [<!ENTITY x "boom">]>\n<rss'
    )
    with pytest.raises(ParseError, match="declares XML entities"):
        feed.parse_feed(body, {"content-type": RSS}, "source")


FRAGMENTS = [
    "<p>",
    "</p>",
    "<b>",
    "</b>",
    "<br>",
    "<br/>",
    '<a href="http://127.0.0.1/x">',
    "</a>",
    "<div class='c'>",
    "</div>",
    '<img alt="a>b">',
    '<p title="it\'s">',
    "<!-- c -->",
    "<script>",
    "</script>",
    "<style>",
    "<SCRIPT>",
    "<rt>",
    "<textarea>",
    "<1>",
    "</>",
    "<",
    ">",
    "&amp;",
    "&",
    "word",
    "Café",
    " ",
    "\n",
    "\t",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=14))
def test_quick_html_text_is_beautifulsoups_text(parts):
    markup = "".join(parts)
    expected = (
        " ".join(BeautifulSoup(markup, "html.parser").get_text(" ").split())
        if "<" in markup
        else " ".join(markup.split())
    )
    assert feed.html_text(markup) == expected
