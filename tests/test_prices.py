"""Price lists: scope, aliases, number validation and what a change says."""

import json
from datetime import UTC, datetime

import pytest

import watchers
from monitor.config import ConfigError, WatcherConfig, load_settings
from watchers.base import Fetched, LayoutChanged, ParseError, PollContext
from watchers.prices import kinds_of


def watcher(fmt: str, **config):
    return watchers.build(
        WatcherConfig(name="p", kind="prices", url="http://127.0.0.1/p", format=fmt, **config)
    )


def parse(fmt: str, body, **config) -> dict:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    fetched = Fetched(
        url="http://127.0.0.1/p",
        status=200,
        headers={},
        body=raw,
        fetched_at=datetime(2026, 10, 20, tzinfo=UTC),
    )
    [item] = watcher(fmt, **config).parse(fetched).items
    return item.data


def litellm(**entries) -> dict:
    return {
        name: {"litellm_provider": "openai", "mode": "chat", **spec}
        for name, spec in entries.items()
    }


O3 = {
    "input_cost_per_token": 2e-06,
    "cache_read_input_token_cost": 5e-07,
    "output_cost_per_token": 8e-06,
}


@pytest.mark.parametrize(
    "model,kinds",
    [
        ("o3-deep-research", {"text"}),
        ("codex-mini-latest", {"text"}),
        ("gpt-4-vision-preview", {"text"}),
        ("gpt-5-search-api", {"search"}),
        ("gpt-4o-mini-tts", {"audio"}),
        ("gpt-4o-transcribe-diarize", {"audio"}),
        ("gpt-realtime-mini", {"audio"}),
        ("whisper-1", {"audio"}),
        ("gpt-image-1", {"image"}),
        ("dall-e-3", {"image"}),
        ("sora-2", {"video"}),
        ("text-embedding-3-small", {"embedding"}),
        ("omni-moderation-latest", {"moderation"}),
        ("ft:gpt-4o-2024-08-06", {"fine-tune"}),
        ("gpt-4o-mini-2024-07-18.ft-", {"fine-tune"}),
    ],
)
def test_kinds_by_name(model, kinds):
    assert kinds_of(model) == kinds


def test_litellm_mode_rules_out_what_the_name_does_not():
    data = litellm(
        **{
            "gpt-4o": O3,
            "text-ada-3": {**O3, "mode": "embedding"},
            "gpt-new-voice": {**O3, "mode": "audio_speech"},
            "gpt-reranker": {**O3, "mode": "rerank"},
            "gpt-no-mode": {**O3, "mode": None},
        }
    )
    assert sorted({k.split(":")[0] for k in parse("litellm", data)["prices"]}) == [
        "gpt-4o",
        "gpt-no-mode",
    ]
    wide = parse("litellm", data, scope=["all"])["prices"]
    assert {"text-ada-3:input", "gpt-new-voice:input", "gpt-reranker:input"} <= set(wide)


def test_scope_widens_to_the_kinds_named():
    data = litellm(
        **{
            "o3": O3,
            "gpt-image-1": {"mode": "image_generation", "input_cost_per_token": 5e-06},
            "gpt-audio": {"input_cost_per_token": 2.5e-06},
            "whisper-1": {"mode": "audio_transcription", "input_cost_per_second": 0.0001},
            "ft:o3": O3,
        }
    )
    models = {
        k.rsplit(":", 1)[0] for k in parse("litellm", data, scope=["text", "image"])["prices"]
    }
    assert models == {"o3", "gpt-image-1"}
    everything = parse("litellm", data, scope=["all"])["prices"]
    assert set(everything) >= {"gpt-audio:input", "ft:o3:input"}
    assert not [k for k in everything if k.startswith("whisper")]


@pytest.mark.parametrize("scope", [["txt"], [], ["text", "everything"]])
def test_unknown_scope_is_a_config_error(scope):
    with pytest.raises(ValueError, match="scope must list some of text, audio"):
        watcher("litellm", scope=scope)


def test_scope_is_read_from_the_config_file(tmp_path):
    config = tmp_path / "c.toml"
    config.write_text(
        '[[watchers]]\nname = "p"\nkind = "prices"\nformat = "litellm"\n'
        'url = "http://127.0.0.1/p"\nscope = ["text", "image"]\n',
        encoding="utf-8",
    )
    assert load_settings(config).watchers[0].scope == ["text", "image"]
    config.write_text(config.read_text().replace('["text", "image"]', '"text"'), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"watchers\[0\]\.scope"):
        load_settings(config)


def test_everything_out_of_scope_is_a_layout_change_not_an_empty_list():
    data = litellm(**{"whisper-1": {"mode": "audio_transcription", "input_cost_per_token": 1e-6}})
    with pytest.raises(LayoutChanged, match=r"no openai prices in scope \(text\)"):
        parse("litellm", data)


def test_dated_alias_with_the_same_prices_joins_its_model():
    data = parse("litellm", litellm(**{"o3-2025-04-16": O3, "o3": O3, "gpt-4-0613": O3}))
    assert data == {
        "prices": {
            "gpt-4-0613:cached_input": 0.5,
            "gpt-4-0613:input": 2.0,
            "gpt-4-0613:output": 8.0,
        }
        | {"o3:cached_input": 0.5, "o3:input": 2.0, "o3:output": 8.0},
        "aliases": {"o3": ["o3-2025-04-16"]},
    }


def test_dated_snapshot_with_other_prices_is_its_own_model():
    dear = {**O3, "input_cost_per_token": 1e-05}
    data = parse("litellm", litellm(**{"o3": O3, "o3-2025-04-16": dear}))
    assert data["prices"]["o3-2025-04-16:input"] == 10.0 and data["aliases"] == {}


def test_a_snapshot_missing_a_field_its_model_has_is_its_own_model():
    bare = {k: v for k, v in O3.items() if k != "cache_read_input_token_cost"}
    data = parse("litellm", litellm(**{"o3": O3, "o3-2025-04-16": bare}))
    assert "o3-2025-04-16:input" in data["prices"]


def test_provider_prefixed_copy_joins_the_model_when_identical():
    data = parse("litellm", litellm(**{"openai/o3": O3, "o3": O3}))
    assert data["aliases"] == {"o3": ["openai/o3"]}
    assert sorted(data["prices"]) == ["o3:cached_input", "o3:input", "o3:output"]


def test_provider_prefixed_copy_with_other_prices_gives_way_to_the_model():
    dear = {**O3, "input_cost_per_token": 1e-05}
    data = parse("litellm", litellm(**{"openai/o3": dear, "o3": O3}))
    assert data["prices"]["o3:input"] == 2.0 and data["aliases"] == {}


def test_models_key_keeps_only_those_models_by_id_or_alias():
    body = litellm(**{"o3": O3, "o3-2025-04-16": O3, "gpt-4o": O3})
    assert set(parse("litellm", body, models=["o3-2025-04-16"])["aliases"]) == {"o3"}
    assert sorted(parse("litellm", body, models=["GPT-4o"])["prices"]) == [
        "gpt-4o:cached_input",
        "gpt-4o:input",
        "gpt-4o:output",
    ]


def test_openrouter_variants_and_per_request_prices_are_not_token_prices():
    body = {
        "data": [
            {"id": "openai/o3", "pricing": {"prompt": "0.000002", "completion": "0.000008"}},
            {"id": "openai/o3:free", "pricing": {"prompt": "0", "completion": "0"}},
            {"id": "openai/o3:online", "pricing": {"prompt": "0.000002", "completion": "0.000008"}},
            {"id": "openai/o3-lookup", "pricing": {"prompt": "0", "request": "0.005"}},
            {"id": "openai/o3-router", "pricing": {"prompt": "-1", "completion": "-1"}},
        ]
    }
    assert parse("openrouter", body)["prices"] == {"o3:input": 2.0, "o3:output": 8.0}


def test_html_cells_priced_per_minute_are_not_token_prices():
    page = b"""<table><tr><th>Model</th><th>Input</th><th>Output</th></tr>
      <tr><td>o3</td><td>$2.00</td><td>$8.00</td></tr>
      <tr><td>dictation-2</td><td>$0.006 / minute</td><td>$0.006 per minute</td></tr>
    </table>"""
    assert parse("html", page)["prices"] == {"o3:input": 2.0, "o3:output": 8.0}


def test_genai_prices_still_reads_the_object_with_providers():
    providers = [{"id": "openai", "models": [{"id": "o3", "prices": {"input_mtok": 2}}]}]
    assert parse("genai-prices", {"providers": providers})["prices"] == {"o3:input": 2.0}
    with pytest.raises(ParseError, match="not an array of providers"):
        parse("genai-prices", {"models": []})


@pytest.mark.parametrize(
    "value,reason",
    [
        (1e308, "outside 0 to 1e\\+06"),
        (-2e-06, "outside 0 to 1e\\+06"),
        (10**400, "is not a price"),
        ("two dollars", "is not a price"),
        (True, "is not a price"),
        ([2e-06], "is not a price"),
        ({"tiers": []}, "is not a price"),
    ],
)
def test_bad_numbers_are_a_parse_error_naming_model_and_field(value, reason):
    body = litellm(**{"o3": {**O3, "output_cost_per_token": value}})
    with pytest.raises(ParseError, match=f"^o3 output: .*{reason}") as error:
        parse("litellm", body)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("literal", [b"NaN", b"Infinity", b"-Infinity", b"1e400"])
def test_non_finite_json_numbers_are_a_parse_error(literal):
    body = b'{"o3": {"litellm_provider": "openai", "mode": "chat", "input_cost_per_token": %s}}'
    with pytest.raises(ParseError, match="^o3 input: "):
        parse("litellm", body % literal)


def test_genai_tiered_price_without_a_base_is_a_parse_error():
    body = [{"id": "openai", "models": [{"id": "o3", "prices": {"input_mtok": {"tiers": []}}}]}]
    with pytest.raises(ParseError, match="^o3 input: "):
        parse("genai-prices", body)


def test_the_excerpt_names_the_aliases_and_the_price_before():
    w = watcher("litellm")
    [item] = w.parse(
        Fetched(
            url="http://127.0.0.1/p",
            status=200,
            headers={},
            body=json.dumps(litellm(**{"o3": O3, "o3-2025-04-16": O3})).encode(),
            fetched_at=datetime(2026, 10, 20, tzinfo=UTC),
        )
    ).items
    previous = {"o3:input": 10.0, "o3:cached_input": 0.5, "o3:output": 40.0, "o1:input": 15.0}
    candidates = {
        c.key: c
        for c in w.extract(
            item,
            PollContext(claims={"openai.api-prices": {"kind": "price-list"}}, previous=previous),
        )
    }
    assert candidates["o3:input"].excerpt == (
        "o3 (also o3-2025-04-16) input: 2 USD per 1M tokens (was 10)"
    )
    assert candidates["o3:input"].signal == "price-cut"
    assert candidates["o3:cached_input"].signal == "price"
    # gone from the list: the writer's removal window decides, not one poll
    assert "o1:input" not in candidates
