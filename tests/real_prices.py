"""Real price lists, and versions derived from them, served on 127.0.0.1 for end-to-end polls.

Derivations change only what tests/data/real/README.md says they change; the real files are
never edited.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

from monitor.config import load_settings
from monitor.service import Poller, open_database

REAL = Path(__file__).parent / "data" / "real"
LITELLM = "litellm-3baa777.json"
OPENROUTER = "openrouter-models-ef05c3b.json"
# o3's prices from its launch in April 2025 to the cut of June 2025, USD per token
O3_BEFORE_CUT = {"input": 1e-05, "cached_input": 2.5e-06, "output": 4e-05}
O3_CUT_LINE = "o3 (also o3-2025-04-16): input 10 → 2, cached 2.5 → 0.5, output 40 → 8 USD/1M"


@cache
def _real(name: str) -> dict:
    return json.loads((REAL / name).read_text(encoding="utf-8"))


def real(name: str) -> dict:
    return copy.deepcopy(_real(name))


# a step between the two real o3 prices, for sequences of three upstream states (not a real price)
O3_MIDWAY = {"input": 5e-06, "cached_input": 1.25e-06, "output": 2e-05}


def litellm_before_o3_cut() -> dict:
    """LiteLLM 3baa777 with o3 and its dated alias at the prices they had before June 2025."""
    return litellm_with_o3_at(O3_BEFORE_CUT)


def litellm_with_o3_at(prices: dict) -> dict:
    """LiteLLM 3baa777 with o3 and its dated alias at these per-token prices."""
    data = real(LITELLM)
    for key in ("o3", "o3-2025-04-16"):
        data[key]["input_cost_per_token"] = prices["input"]
        data[key]["cache_read_input_token_cost"] = prices["cached_input"]
        data[key]["output_cost_per_token"] = prices["output"]
    return data


def openrouter_before_o3_cut() -> dict:
    """OpenRouter ef05c3b with `openai/o3` at the prices it had before June 2025."""
    return openrouter_with_o3_at(O3_BEFORE_CUT)


def openrouter_with_o3_at(prices: dict) -> dict:
    """OpenRouter ef05c3b with `openai/o3` at these per-token prices."""
    data = real(OPENROUTER)
    model = next(m for m in data["data"] if m["id"] == "openai/o3")
    model["pricing"].update(
        prompt=f"{prices['input']:.7f}",
        input_cache_read=f"{prices['cached_input']:.7f}",
        completion=f"{prices['output']:.7f}",
    )
    return data


def churned_litellm() -> tuple[dict, dict, list[str]]:
    """(listed, reorganised, names): LiteLLM d1549c1 as it was, and without the OpenAI entries
    that 3baa777 no longer has; the entries the March 2026 reorganisation removed and put back."""
    before, after = _real("litellm-d1549c1.json"), _real(LITELLM)
    names = [
        key
        for key, spec in before.items()
        if key not in after
        and isinstance(spec, dict)
        and spec.get("litellm_provider") in ("openai", "text-completion-openai")
    ]
    without = {k: v for k, v in before.items() if k not in names}
    return copy.deepcopy(before), copy.deepcopy(without), names


def body(data: dict) -> bytes:
    return json.dumps(data).encode()


class Lists:
    """Price lists on a local server: `serve(path, data)` sets what the next polls of it get."""

    def __init__(self, server):
        self.server = server
        self.bodies: dict[str, bytes] = {}

    def serve(self, path: str, data: dict | bytes) -> str:
        if path not in self.bodies:
            self.server.expect_request(path).respond_with_handler(
                lambda request, path=path: self._answer(path)
            )
        self.bodies[path] = data if isinstance(data, bytes) else body(data)
        return self.server.url_for(path)

    def _answer(self, path: str):
        from werkzeug import Response

        return Response(self.bodies[path], content_type="application/json")


class Clock:
    """The poller's clock: moved by hand, so removal windows pass without waiting."""

    def __init__(self, start: datetime = datetime(2026, 3, 11, tzinfo=UTC)):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


def price_poller(
    database_url: str, watchers: list[dict], clock: Callable[[], datetime], **overrides
) -> tuple[Poller, object]:
    settings = load_settings(
        None,
        environ={},
        overrides={
            "database_url": database_url,
            "watchers": watchers,
            "http": {"connect_timeout": 2, "read_timeout": 2, "total_timeout": 5},
            **overrides,
        },
    )
    engine, _ = open_database(settings)
    return Poller(settings, engine, clock=clock), engine
