"""Parsing mutated real price entries raises nothing but ParseError and stores only sane numbers."""

import copy
import json
import math
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import watchers
from monitor.config import WatcherConfig
from watchers.base import Fetched, ParseError
from watchers.prices import MAX_PRICE

REAL = Path(__file__).parent / "data" / "real"
PRICES = Path(__file__).parent / "data" / "prices"


def load(name: str):
    return json.loads((REAL / name).read_text(encoding="utf-8"))


def pick(rows: list[dict], key: str, wanted: list[str]) -> list[dict]:
    return [row for row in rows if row.get(key) in wanted]


def samples() -> dict:
    """Real entries of every shape each reader meets, as published: few, so that mutations hit
    prices, tiers and conditions as often as names and metadata."""
    litellm = load("litellm-3baa777.json")
    openrouter = load("openrouter-models-ef05c3b.json")["data"]
    genai = load("genai-prices-data-47df840.json")
    llm = load("llm-prices-current-v1-723ef0b.json")
    names = ["o3", "o3-2025-04-16", "gpt-5.5", "gpt-image-1", "whisper-1", "tts-1",
             "ft:gpt-4o-2024-08-06", "gpt-3.5-turbo-instruct", "openai/sora-2"]  # fmt: skip
    ids = ["openai/o3", "openai/o3:batch", "openai/gpt-5.5", "openai/gpt-audio",
           "openai/gpt-oss-20b:free", "openai/gpt-5-image", "openrouter/auto"]  # fmt: skip
    models = ["o3", "gpt-5.4", "gpt-4o:extended", "ft:gpt-4o", "moderation", "deepseek-chat"]
    rows = ["o3", "gpt-5.4", "gpt-5.4-272k", "gpt-image-1", "text-davinci-003", "claude-opus-4-5"]
    return {
        "litellm": {name: litellm[name] for name in names},
        "openrouter": {"data": pick(openrouter, "id", ids)},
        "genai-prices": [
            {"id": p["id"], "models": pick(p["models"], "id", models)}
            for p in genai
            if p["id"] in ("openai", "deepseek")
        ],
        "llm-prices": {**llm, "prices": pick(llm["prices"], "id", rows)},
    }


PRICE_KEYS = {
    "input_cost_per_token", "output_cost_per_token", "cache_read_input_token_cost",
    "output_cost_per_image_token", "prompt", "completion", "input_cache_read", "request",
    "input_mtok", "output_mtok", "cache_read_mtok", "base", "input", "output", "input_cached",
}  # fmt: skip
# the other keys the readers look at: most mutations land on these, the rest anywhere
READ_KEYS = PRICE_KEYS | {
    "mode", "litellm_provider", "pricing", "architecture", "output_modalities", "id", "data",
    "prices", "constraint", "start_date", "end_date", "models", "vendor", "name", "tiers",
}  # fmt: skip


def paths(node, prefix=()) -> list[tuple]:
    """Every place in a JSON document, as a key path."""
    keys = (
        node.keys()
        if isinstance(node, dict)
        else range(len(node))
        if isinstance(node, list)
        else []
    )
    return [p for k in keys for p in [(*prefix, k), *paths(node[k], (*prefix, k))]]


SAMPLES = samples()
KEYS = ["base", "tiers", "price", "prices", "constraint", "start_date", "input_mtok", "prompt"]
NUMBERS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**400), max_value=10**400),
    st.sampled_from([-1, -1e-06, 0, 1e-320, 1e-06, 1e308]),
)
STRINGS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["-1", "-0.5", "nan", "Infinity", "1e400", "$3", "1,000", "", "0.000002"]),
)
VALUES = st.recursive(
    st.none() | st.booleans() | NUMBERS | STRINGS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


@st.composite
def mutated(draw):
    fmt = draw(st.sampled_from(sorted(SAMPLES)))
    doc = copy.deepcopy(SAMPLES[fmt])
    for _ in range(draw(st.integers(1, 3))):
        places = paths(doc)
        read = [p for p in places if p[-1] in READ_KEYS]
        if not places:
            break
        *path, last = draw(st.sampled_from(read) | st.sampled_from(places))
        parent = doc
        for key in path:
            parent = parent[key]
        parent[last] = draw(VALUES)
    return fmt, json.dumps(doc).encode(), draw(st.sampled_from([None, ["all"]]))


@st.composite
def repriced(draw):
    """A real sample with one to three of its price values replaced by anything at all."""
    fmt = draw(st.sampled_from(sorted(SAMPLES)))
    doc = copy.deepcopy(SAMPLES[fmt])
    for _ in range(draw(st.integers(1, 3))):
        places = [p for p in paths(doc) if p[-1] in PRICE_KEYS]
        if not places:
            break
        *path, last = draw(st.sampled_from(places))
        parent = doc
        for key in path:
            parent = parent[key]
        parent[last] = draw(NUMBERS | STRINGS | VALUES)
    return fmt, json.dumps(doc).encode(), draw(st.sampled_from([None, ["all"]]))


def parse(fmt: str, body: bytes, scope: list[str] | None = None):
    config = WatcherConfig(
        name="fuzz",
        kind="prices",
        url="http://127.0.0.1/p",
        format=fmt,
        providers=["openai", "deepseek", "anthropic"],
        scope=scope,
    )
    fetched = Fetched(
        url="http://127.0.0.1/p",
        status=200,
        headers={},
        body=body,
        fetched_at=datetime(2026, 8, 21, tzinfo=UTC),
    )
    return watchers.build(config).parse(fetched)


def assert_sane(parsed) -> None:
    [item] = parsed.items
    assert item.data["prices"]
    for key, price in item.data["prices"].items():
        assert isinstance(price, float) and math.isfinite(price), key
        assert 0 <= price <= MAX_PRICE, key


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_real_entries_parse_or_fail_with_a_parse_error(case):
    fmt, body, scope = case
    try:
        parsed = parse(fmt, body, scope)
    except ParseError as error:
        assert "\n" not in str(error)
        return
    assert_sane(parsed)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(repriced())
def test_any_price_value_parses_sane_or_fails_with_a_parse_error(case):
    test_mutated_real_entries_parse_or_fail_with_a_parse_error.hypothesis.inner_test(case)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([("openai-markdown", "openai_pricing.md"), ("html", "pricing.html")]),
    st.integers(min_value=0, max_value=2000),
    st.text(max_size=40),
)
def test_text_formats_with_garbage_spliced_in(source, at, garbage):
    fmt, name = source
    text = (PRICES / name).read_text(encoding="utf-8")
    at = min(at, len(text))
    try:
        parsed = parse(fmt, (text[:at] + garbage + text[at:]).encode())
    except ParseError:
        return
    assert_sane(parsed)
