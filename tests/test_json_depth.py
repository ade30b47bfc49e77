"""JSON nested deeper than Python recurses is a parse error naming the source, never a crash."""

from datetime import UTC, datetime

import pytest

from monitor.config import WatcherConfig
from watchers import build
from watchers.base import Fetched, ParseError
from watchers.benchmark import parse_inferencex
from watchers.feed import parse_hn

DEEP = b"[" * 200_000 + b"]" * 200_000


def test_deep_inferencex_json_is_a_parse_error():
    with pytest.raises(ParseError, match="nested too deep"):
        parse_inferencex(DEEP)


def test_deep_hacker_news_json_is_a_parse_error():
    with pytest.raises(ParseError, match="nested too deep"):
        parse_hn(b'{"hits": ' + DEEP + b"}")


@pytest.mark.parametrize("fmt", ["litellm", "openrouter", "genai-prices", "llm-prices"])
def test_deep_price_json_is_a_parse_error(fmt):
    watcher = build(WatcherConfig(name="p", kind="prices", format=fmt, url="http://127.0.0.1/p"))
    fetched = Fetched(
        url="http://127.0.0.1/p", status=200, headers={}, body=DEEP, fetched_at=datetime.now(UTC)
    )
    with pytest.raises(ParseError, match="nested too deep"):
        watcher.parse(fetched)
