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


def samples() -> dict:
    """A slice of each real file: its OpenAI entries (the ones parsed), a few others, as published."""
    litellm = load("litellm-3baa777.json")
    openai = [k for k, v in litellm.items() if isinstance(v, dict) and "openai" in str(v)]
    openrouter = load("openrouter-models-ef05c3b.json")["data"]
    genai = load("genai-prices-data-47df840.json")
    llm = load("llm-prices-current-v1-723ef0b.json")
    return {
        "litellm": {k: litellm[k] for k in ["sample_spec", *openai[::6], "o3", "o3-2025-04-16"]},
        "openrouter": {"data": openrouter[::20] + [m for m in openrouter if "o3" in m["id"]]},
        "genai-prices": [
            {**p, "models": p["models"][:25] + [m for m in p["models"] if m["id"] == "o3"]}
            for p in genai
            if p["id"] in ("openai", "deepseek")
        ],
        "llm-prices": {**llm, "prices": llm["prices"][::3]},
    }


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
        parent, key, node = None, None, doc
        for _ in range(draw(st.integers(1, 5))):
            if isinstance(node, dict) and node:
                key = draw(st.sampled_from(sorted(node)))
            elif isinstance(node, list) and node:
                key = draw(st.integers(0, len(node) - 1))
            else:
                break
            parent, node = node, node[key]
        if parent is not None:
            parent[key] = draw(VALUES)
    return fmt, json.dumps(doc).encode()


def parse(fmt: str, body: bytes):
    config = WatcherConfig(name="fuzz", kind="prices", url="http://127.0.0.1/p", format=fmt)
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


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_real_entries_parse_or_fail_with_a_parse_error(case):
    fmt, body = case
    try:
        parsed = parse(fmt, body)
    except ParseError as error:
        assert "\n" not in str(error)
        return
    assert_sane(parsed)


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
