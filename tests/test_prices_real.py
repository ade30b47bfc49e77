"""The price parsers on the real upstream files in tests/data/real/, as published.

Each file's parsed output (prices and aliases) stands beside it as `<file>.expected.json`. Set
CLAIMWATCH_UPDATE_GOLDEN=1 to rewrite them, then review the diff.

Checked by hand: the models in HAND_CHECKED were read from the raw files with jq, independently
of the parser (`jq '.["o3"]'` for LiteLLM, `.data[] | select(.id == "openai/o3")` for OpenRouter,
the `openai` vendor rows of llm-prices, the `openai` provider's models of genai-prices), converted
to USD per 1M tokens by hand, and compared with the golden files. The table test asserts them again,
so a golden rewritten wrongly still fails.
"""

import json
import os
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import pytest

import watchers
from monitor.config import WatcherConfig
from watchers.base import Fetched

REAL = Path(__file__).parent / "data" / "real"
# file -> (format, the day it was published: the fetch date for dated prices)
FILES = {
    "litellm-3baa777.json": ("litellm", "2026-04-29"),
    "litellm-d1549c1.json": ("litellm", "2026-01-02"),
    "litellm-7c34609.json": ("litellm", "2026-01-02"),
    "llm-prices-current-v1-723ef0b.json": ("llm-prices", "2026-08-05"),
    "genai-prices-data-47df840.json": ("genai-prices", "2026-08-21"),
    "openrouter-models-ef05c3b.json": ("openrouter", "2026-08-19"),
}


def parse(name: str, day: str | None = None, **config) -> dict:
    fmt, published = FILES[name]
    watcher = watchers.build(
        WatcherConfig(name="real", kind="prices", url="http://127.0.0.1/p", format=fmt, **config)
    )
    fetched = Fetched(
        url="http://127.0.0.1/p",
        status=200,
        headers={},
        body=(REAL / name).read_bytes(),
        fetched_at=datetime.fromisoformat(day or published).replace(tzinfo=UTC),
    )
    [item] = watcher.parse(fetched).items
    return item.data


@cache
def published(name: str) -> dict:
    """The file parsed as it was on the day it was published, with the default settings."""
    return parse(name)


def models(data: dict) -> set[str]:
    return {key.rsplit(":", 1)[0] for key in data["prices"]}


@pytest.mark.parametrize("name", sorted(FILES))
def test_real_price_list_matches_its_golden(name):
    got = json.loads(json.dumps(published(name)))
    expected = REAL / f"{name}.expected.json"
    if os.environ.get("CLAIMWATCH_UPDATE_GOLDEN"):
        expected.write_text(json.dumps(got, indent=1) + "\n", encoding="utf-8")
    assert got == json.loads(expected.read_text(encoding="utf-8"))


# (input, cached_input, output) in USD per 1M tokens; None: the source gives no such price
LITELLM_COMMON = {
    "gpt-4o": (2.5, 1.25, 10.0),
    "gpt-4o-2024-05-13": (5.0, None, 15.0),
    "gpt-4o-mini": (0.15, 0.075, 0.6),
    "o3": (2.0, 0.5, 8.0),
    "o3-pro": (20.0, None, 80.0),
    "o1-pro": (150.0, None, 600.0),
    "gpt-4.1": (2.0, 0.5, 8.0),
    "gpt-4.1-nano": (0.1, 0.025, 0.4),
    "gpt-5": (1.25, 0.125, 10.0),
    "gpt-5-nano": (0.05, 0.005, 0.4),
    "gpt-5.1": (1.25, 0.125, 10.0),
    "gpt-5.2-pro": (21.0, None, 168.0),
    "gpt-3.5-turbo": (0.5, None, 1.5),
    "gpt-3.5-turbo-1106": (1.0, None, 2.0),
    "gpt-3.5-turbo-instruct": (1.5, None, 2.0),
    "chatgpt-4o-latest": (5.0, None, 15.0),
    "codex-mini-latest": (1.5, 0.375, 6.0),
    "o4-mini": (1.1, 0.275, 4.4),
    "gpt-4": (30.0, None, 60.0),
}
HAND_CHECKED = {
    "litellm-3baa777.json": {
        **LITELLM_COMMON,
        "gpt-5.4": (2.5, 0.25, 15.0),
        "gpt-5.5": (5.0, 0.5, 30.0),
        "gpt-5.5-pro": (30.0, 3.0, 180.0),
    },
    "litellm-d1549c1.json": LITELLM_COMMON,
    "litellm-7c34609.json": LITELLM_COMMON,
    "openrouter-models-ef05c3b.json": {
        "gpt-4o": (2.5, 1.25, 10.0),
        "gpt-4o-2024-05-13": (5.0, None, 15.0),
        "gpt-4o-mini": (0.15, 0.075, 0.6),
        "o3": (2.0, 0.5, 8.0),
        "o3-pro": (20.0, None, 80.0),
        "o1": (15.0, 7.5, 60.0),
        "o1-pro": (150.0, None, 600.0),
        "o4-mini-high": (1.1, 0.275, 4.4),
        "gpt-4.1-nano": (0.1, 0.025, 0.4),
        "gpt-5-nano": (0.05, 0.005, 0.4),
        "gpt-5.1-codex": (1.25, 0.13, 10.0),
        "gpt-5.2-pro": (21.0, None, 168.0),
        "gpt-5.5": (5.0, 0.5, 30.0),
        "gpt-5.5-pro": (30.0, None, 180.0),
        "gpt-5.6-sol": (2.5, 0.25, 15.0),
        "gpt-5.6-luna": (0.2, 0.02, 1.2),
        "gpt-5.6-terra": (2.0, 0.2, 12.0),
        "gpt-3.5-turbo-instruct": (1.5, None, 2.0),
        "gpt-oss-120b": (0.03, 0.03, 0.17),
    },
    "llm-prices-current-v1-723ef0b.json": {
        "text-davinci-003": (20.0, None, 20.0),
        "gpt-4.5": (75.0, 37.5, 150.0),
        "gpt-4o": (2.5, 1.25, 10.0),
        "chatgpt-4o-latest": (5.0, None, 15.0),
        "o1-preview": (15.0, 7.5, 60.0),
        "o1-pro": (150.0, None, 600.0),
        "o3": (10.0, 0.5, 40.0),
        "o3-pro": (20.0, None, 80.0),
        "o4-mini": (1.1, 0.275, 4.4),
        "gpt-5-nano": (0.05, 0.005, 0.4),
        "gpt-5.2-pro": (21.0, None, 168.0),
        "gpt-5.4": (2.5, 0.25, 15.0),
        "gpt-5.4-pro": (30.0, None, 180.0),
        "gpt-5.5": (5.0, 0.5, 30.0),
        "gpt-5.6-sol": (5.0, 0.5, 30.0),
        "gpt-5.6-terra": (2.0, 0.2, 12.0),
        "gpt-5.6-luna": (0.2, 0.02, 1.2),
    },
    "genai-prices-data-47df840.json": {
        "gpt-4o": (2.5, 1.25, 10.0),
        "o3": (2.0, 0.5, 8.0),
        "o3-pro": (20.0, None, 80.0),
        "o1-pro": (150.0, None, 600.0),
        "gpt-4.1": (2.0, 0.5, 8.0),
        "gpt-5": (1.25, 0.125, 10.0),
        "gpt-5-nano": (0.05, 0.005, 0.4),
        "gpt-5.4": (2.5, 0.25, 15.0),
        "gpt-5.4-pro": (30.0, None, 180.0),
        "gpt-5.5": (5.0, 0.5, 30.0),
        "gpt-5.6-luna": (1.0, 0.1, 6.0),
        "gpt-5.6-sol": (5.0, 0.5, 30.0),
        "gpt-5.6-terra": (2.5, 0.25, 15.0),
        "gpt-3.5-turbo": (0.5, None, 1.5),
        "gpt-4": (30.0, None, 60.0),
        "chatgpt-4o-latest": (5.0, None, 15.0),
        "codex-mini": (1.5, 0.375, 6.0),
        "o4-mini": (1.1, 0.275, 4.4),
        "gpt-oss-120b": (0.039, None, 0.18),
        "davinci": (20.0, None, 20.0),
    },
}
ALIASES_CHECKED = {
    "litellm-3baa777.json": {
        "o3": ["o3-2025-04-16"],
        "gpt-4o": ["gpt-4o-2024-08-06", "gpt-4o-2024-11-20"],
        "gpt-4o-mini": ["gpt-4o-mini-2024-07-18"],
        "gpt-4": ["gpt-4-0314", "gpt-4-0613"],
        "gpt-3.5-turbo": ["gpt-3.5-turbo-0125"],
        "o3-pro": ["o3-pro-2025-06-10"],
        "gpt-5.1": ["gpt-5.1-2025-11-13"],
    },
    "openrouter-models-ef05c3b.json": {
        "gpt-4o": ["gpt-4o-2024-08-06", "gpt-4o-2024-11-20"],
        "gpt-4o-mini": ["gpt-4o-mini-2024-07-18"],
    },
}
CASES = [
    (name, model, prices) for name, table in HAND_CHECKED.items() for model, prices in table.items()
]


@pytest.mark.parametrize("name", sorted(HAND_CHECKED))
def test_at_least_fifteen_models_per_file_are_checked_by_hand(name):
    assert len(HAND_CHECKED[name]) >= 15


@pytest.mark.parametrize("name,model,prices", CASES, ids=[f"{n[:12]}-{m}" for n, m, _ in CASES])
def test_hand_checked_prices(name, model, prices):
    data = published(name)
    got = tuple(
        data["prices"].get(f"{model}:{field}") for field in ("input", "cached_input", "output")
    )
    assert got == prices


@pytest.mark.parametrize("name", sorted(ALIASES_CHECKED))
def test_hand_checked_aliases(name):
    data = published(name)
    for model, aliases in ALIASES_CHECKED[name].items():
        assert data["aliases"][model] == aliases
        assert not models(data) & set(aliases)


OUT_OF_SCOPE = {
    "litellm-3baa777.json": [
        "whisper-1", "tts-1", "gpt-4o-mini-tts", "gpt-4o-transcribe", "gpt-realtime",
        "gpt-4o-realtime-preview", "gpt-audio", "gpt-4o-audio-preview", "gpt-image-1",
        "gpt-image-1.5", "chatgpt-image-latest", "dall-e-3", "sora-2", "text-embedding-3-small",
        "omni-moderation-latest", "text-moderation-latest", "gpt-4o-search-preview",
        "gpt-5-search-api", "ft:gpt-4o-2024-08-06", "ft:babbage-002", "container",
    ],
    "openrouter-models-ef05c3b.json": [
        "gpt-5.5:batch", "o3:batch", "gpt-oss-20b:free", "gpt-audio",
        "gpt-audio-mini", "gpt-5-image", "gpt-5-image-mini", "gpt-5.4-image-2",
    ],
    "llm-prices-current-v1-723ef0b.json": [
        "gpt-image-1", "gpt-image-2-image", "gpt-image-2-text", "gpt-5.4-272k", "gpt-5.5-pro-272k",
    ],
    "genai-prices-data-47df840.json": [
        "gpt-4o:extended", "ft:gpt-4o", "gpt-4o-mini-2024-07-18.ft-", "gpt-4o-mini-tts",
        "gpt-realtime", "gpt-audio", "gpt-image-1.5", "gpt-5-image", "text-embedding-3-large",
        "moderation", "gpt-4o-search-preview",
    ],
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(OUT_OF_SCOPE))
def test_out_of_scope_entries_are_absent(name):
    present = models(published(name))
    assert not present & set(OUT_OF_SCOPE[name])
    assert not [m for m in present if ":" in m]


def test_gpt_image_1_field_rename_changes_no_text_price():
    before, after = published("litellm-d1549c1.json"), published("litellm-7c34609.json")
    assert before == after
    assert "gpt-image-1" not in models(before)


def test_gpt_image_1_keeps_its_output_price_across_the_rename_in_image_scope():
    before = parse("litellm-d1549c1.json", scope=["image"])["prices"]
    after = parse("litellm-7c34609.json", scope=["image"])["prices"]
    assert before["gpt-image-1:output"] == after["gpt-image-1:output"] == 40.0
    assert before["gpt-image-1:input"] == after["gpt-image-1:input"] == 5.0


@pytest.mark.parametrize("name", sorted(FILES))
def test_whisper_is_never_a_token_price(name):
    for scope in (["text"], ["text", "audio"], ["all"]):
        assert not [m for m in models(parse(name, scope=scope)) if "whisper" in m or m == "tts-1"]


def test_o3_and_its_dated_alias_are_one_model():
    data = published("litellm-3baa777.json")
    assert data["aliases"]["o3"] == ["o3-2025-04-16"]
    assert [k for k in data["prices"] if k.startswith("o3-2025")] == []
    assert "gpt-4o-2024-05-13:input" in data["prices"]  # different prices: its own model


def test_genai_prices_resolves_the_price_in_force_on_the_fetch_date():
    before_cut = parse("genai-prices-data-47df840.json", day="2025-06-09")["prices"]
    after_cut = parse("genai-prices-data-47df840.json", day="2025-06-10")["prices"]
    assert (before_cut["o3:input"], before_cut["o3:output"]) == (10.0, 40.0)
    assert (after_cut["o3:input"], after_cut["o3:output"]) == (2.0, 8.0)


def test_genai_prices_dated_price_of_another_provider():
    early = parse("genai-prices-data-47df840.json", providers=["anthropic"])["prices"]
    later = parse("genai-prices-data-47df840.json", day="2026-09-01", providers=["anthropic"])
    assert early["claude-sonnet-5:input"] == 2.0
    assert later["prices"]["claude-sonnet-5:input"] == 3.0
    assert early["claude-opus-4-6:input"] == 5.0  # tiered before its start date: the base tier


def test_genai_prices_time_of_day_windows_do_not_move_a_price():
    noon = parse("genai-prices-data-47df840.json", providers=["deepseek"])["prices"]
    assert noon["deepseek-chat:input"] == 0.135


def every_provider(name: str) -> list[str]:
    data = json.loads((REAL / name).read_text(encoding="utf-8"))
    fmt = FILES[name][0]
    if fmt == "litellm":
        listed = [v.get("litellm_provider") for v in data.values() if isinstance(v, dict)]
    elif fmt == "openrouter":
        listed = [m["id"].split("/")[0] for m in data["data"]]
    elif fmt == "llm-prices":
        listed = [p["vendor"] for p in data["prices"]]
    else:
        listed = [p["id"] for p in data]
    return sorted({p for p in listed if isinstance(p, str)})


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_real_price_of_every_provider_is_within_bounds(name):
    data = parse(name, providers=every_provider(name), scope=["all"])
    assert len(data["prices"]) > 250
    assert all(0 <= p <= 1_000_000 for p in data["prices"].values())
