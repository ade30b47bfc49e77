"""`prices`: price lists in six formats, normalised to USD per 1M tokens, keyed `<model>:<field>`.

Each format reader turns a source into entries (a name, what the source says the model is, raw
prices); `price_list` keeps the entries in scope, validates every number and groups aliases.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from watchers.base import (
    Candidate,
    Fetched,
    LayoutChanged,
    Parsed,
    ParsedItem,
    ParseError,
    PollContext,
    Watcher,
    claim_for,
)
from watchers.markup import soup as html_soup

FIELDS = ("input", "cached_input", "output")
PER_TOKEN = 1_000_000
# USD per 1M tokens: a dollar a token, about twice the dearest entry of any real list
# (LiteLLM's wandb DeepSeek-R1 output, 0.54 USD a token); 1e308 a token is garbage
MAX_PRICE = 1_000_000.0
KINDS = ("text", "audio", "image", "video", "embedding", "moderation", "search", "fine-tune")
SCOPES = (*KINDS, "other", "all")
DEFAULT_SCOPE = ("text",)

MODEL_NAME = re.compile(r"^[a-z0-9][a-z0-9._:\-]{0,99}$")
LISTED_NAME = re.compile(r"^[a-z0-9][a-z0-9._:/\-]{0,99}$")
# OpenRouter's other products: `:free`, `:extended`, `:online`, `:batch`, `:thinking`...
VARIANT = re.compile(r"^(?!ft:)[^:]+(?::[^:]+)*:[a-z][a-z-]*$")
# `o3-2025-04-16` of `o3`, `gpt-4-0613` of `gpt-4`
DATED = re.compile(r"^(.+?)-(\d{4}-\d{2}-\d{2}|(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))$")
NAME_KINDS = {
    "audio": {"audio", "realtime", "speech", "tts", "transcribe", "transcription", "whisper"},
    "image": {"image", "images", "dall", "imagen"},
    "video": {"video", "sora", "veo"},
    "embedding": {"embedding", "embeddings", "embed"},
    "moderation": {"moderation"},
    "search": {"search"},
    "fine-tune": {"ft"},
}


@dataclass(frozen=True)
class Entry:
    """One row of a source: its name, what the source says it is, and its raw price per field."""

    name: str
    prices: dict[str, Any]
    scale: float = 1.0  # raw value × scale = USD per 1M tokens
    kinds: frozenset[str] = frozenset()  # from the source's metadata: LiteLLM mode, modalities
    prefix: str = "openai/"  # a provider prefix that names the same model


def price_list(
    entries: Iterable[Entry], scope: Iterable[str] = DEFAULT_SCOPE, models: list[str] | None = None
) -> dict:
    """{"prices": {"o3:input": 2.0, ...}, "aliases": {"o3": ["o3-2025-04-16"]}}: canonical models only."""
    scope = set(scope)
    rows = []
    for entry in entries:
        model, listed = _ids(entry)
        if not model or VARIANT.match(model) or not in_scope(kinds_of(model, entry.kinds), scope):
            continue
        prices = {f: _price(v, entry.scale, model, f) for f, v in entry.prices.items()}
        prices = {f: p for f, p in prices.items() if p is not None}
        if prices:
            rows.append((model, listed, prices))
    canonical, aliases = _group(rows)
    if models:
        wanted = {m.strip().lower() for m in models}
        canonical = {m: p for m, p in canonical.items() if m in wanted or aliases[m] & wanted}
    flat = {f"{m}:{f}": p[f] for m, p in canonical.items() for f in FIELDS if f in p}
    return {
        "prices": dict(sorted(flat.items())),
        "aliases": {m: sorted(aliases[m]) for m in sorted(canonical) if aliases[m]},
    }


def _group(rows: list[tuple[str, str, dict]]) -> tuple[dict[str, dict], dict[str, set[str]]]:
    """Copies and dated snapshots with their model's prices join it; different prices stay apart."""
    canonical: dict[str, dict] = {}
    aliases: dict[str, set[str]] = {}
    # the unprefixed entry is the model itself; of several with one name, the first wins
    for model, listed, prices in sorted(rows, key=lambda row: row[1] != row[0]):
        if model not in canonical:
            canonical[model], aliases[model] = prices, set()
        elif listed != model and canonical[model] == prices:
            aliases[model].add(listed)
    # longest first, so a snapshot's snapshot follows it into the base
    for model in sorted(canonical, key=lambda m: (-len(m), m)):
        dated = DATED.match(model)
        base = dated and dated[1]
        if base in canonical and canonical[base] == canonical[model]:
            aliases[base] |= {model} | aliases.pop(model)
            del canonical[model]
    return canonical, aliases


def _ids(entry: Entry) -> tuple[str, str]:
    """(model id, name as listed): the first word, lower case; the id without a provider prefix."""
    words = entry.name.strip().lower().split()
    listed = words[0] if words else ""
    model = listed.removeprefix(entry.prefix) if entry.prefix else listed
    if not MODEL_NAME.match(model):
        return "", ""
    return model, listed if LISTED_NAME.match(listed) else model


def kinds_of(model: str, hints: Iterable[str] = ()) -> set[str]:
    """What a model is: from its name (`gpt-4o-mini-tts`: audio) and the source's hints."""
    words = set(re.split(r"[-_.:/]", model))
    found = {kind for kind, names in NAME_KINDS.items() if words & names} | set(hints)
    found.discard("text")
    return found or {"text"}


def in_scope(kinds: set[str], scope: set[str]) -> bool:
    return "all" in scope or kinds <= scope


def _price(value: Any, scale: float, model: str, field: str) -> float | None:
    """USD per 1M tokens; None where the source gives none; ParseError for anything else."""
    if isinstance(value, dict) and "base" in value:  # tiered by context length: the base tier
        value = value["base"]
    if value is None:
        return None
    try:
        if isinstance(value, str):
            number = float(value.replace("$", "").replace(",", "").strip())
        elif isinstance(value, int | float) and not isinstance(value, bool):
            number = float(value)
        else:
            raise TypeError
    except (TypeError, ValueError, OverflowError):
        raise ParseError(f"{model} {field}: {repr(value)[:40]} is not a price") from None
    number *= scale
    if not (math.isfinite(number) and 0 <= number <= MAX_PRICE):
        raise ParseError(
            f"{model} {field}: {repr(value)[:40]} is {number:g} USD per 1M tokens,"
            f" outside 0 to {MAX_PRICE:g}"
        )
    return float(f"{number:.9g}")


def _positive(value: Any) -> bool:
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return False
    return math.isfinite(number) and number > 0


# ---- formats

LITELLM_MODES = {
    "chat": "text",
    "responses": "text",
    "completion": "text",
    "image_generation": "image",
    "image_edit": "image",
    "audio_transcription": "audio",
    "audio_speech": "audio",
    "realtime": "audio",
    "video_generation": "video",
    "embedding": "embedding",
    "moderation": "moderation",
    "search": "search",
}
LITELLM_PROVIDERS = {"text-completion-openai": "openai"}  # OpenAI's completions endpoint


def litellm_entries(data: Any, providers: list[str]) -> list[Entry]:
    if not isinstance(data, dict):
        raise ParseError("LiteLLM price list is not a JSON object")
    entries = []
    for key, spec in data.items():
        if key == "sample_spec" or not isinstance(spec, dict):
            continue
        provider = spec.get("litellm_provider")
        provider = LITELLM_PROVIDERS.get(provider, provider) if isinstance(provider, str) else None
        if provider not in providers:
            continue
        kind = _litellm_kind(spec.get("mode"))
        output = spec.get("output_cost_per_token")
        if output is None and kind == "image":  # gpt-image-1 renamed this field in 2026-01
            output = spec.get("output_cost_per_image_token")
        prices = {
            "input": spec.get("input_cost_per_token"),
            "cached_input": spec.get("cache_read_input_token_cost"),
            "output": output,
        }
        hints = frozenset({kind} if kind else ())
        entries.append(Entry(key, prices, PER_TOKEN, hints, prefix=f"{provider}/"))
    return entries


def _litellm_kind(mode: Any) -> str | None:
    """The kind a LiteLLM mode names; None without a mode (the name decides), "other" if unknown."""
    if mode is None:
        return None
    return LITELLM_MODES.get(mode, "other") if isinstance(mode, str) else "other"


OPENROUTER_FIELDS = {"input": "prompt", "cached_input": "input_cache_read", "output": "completion"}
OPENROUTER_OUTPUTS = {
    "image": "image",
    "audio": "audio",
    "video": "video",
    "embeddings": "embedding",
}


def openrouter_entries(data: Any, providers: list[str]) -> list[Entry]:
    if not isinstance(data, dict) or not isinstance(data.get("data"), list):
        raise ParseError("OpenRouter model list has no 'data' array")
    entries = []
    for model in data["data"]:
        ident = model.get("id") if isinstance(model, dict) else None
        if not isinstance(ident, str) or "/" not in ident or ident.split("/")[0] not in providers:
            continue
        pricing = model.get("pricing") if isinstance(model.get("pricing"), dict) else {}
        # -1: a router's price, set per request by the model it picks
        prices = {f: pricing.get(k) for f, k in OPENROUTER_FIELDS.items()}
        prices = {f: None if v in ("-1", -1) else v for f, v in prices.items()}
        others = [v for k, v in pricing.items() if k not in OPENROUTER_FIELDS.values()]
        if not any(map(_positive, prices.values())) and any(map(_positive, others)):
            continue  # priced per request, image or second: no token price to store
        architecture = model.get("architecture")
        outputs = architecture.get("output_modalities") if isinstance(architecture, dict) else None
        outputs = outputs if isinstance(outputs, list) else []
        hints = frozenset(
            OPENROUTER_OUTPUTS.get(o, "other") if isinstance(o, str) else "other"
            for o in outputs
            if o != "text"
        )
        entries.append(Entry(ident, prices, PER_TOKEN, hints, prefix=f"{ident.split('/')[0]}/"))
    return entries


def genai_prices_entries(data: Any, providers: list[str], today: str) -> list[Entry]:
    # a top-level array of providers; early versions wrapped it in {"providers": [...]}
    listed = data.get("providers") if isinstance(data, dict) else data
    if not isinstance(listed, list):
        raise ParseError("genai-prices data is not an array of providers")
    entries = []
    for provider in listed:
        if not isinstance(provider, dict) or provider.get("id") not in providers:
            continue
        models = provider.get("models")
        for model in models if isinstance(models, list) else []:
            if not isinstance(model, dict):
                continue
            prices = _in_force(model.get("prices"), today)
            fields = {
                "input": "input_mtok",
                "cached_input": "cache_read_mtok",
                "output": "output_mtok",
            }
            entries.append(
                Entry(str(model.get("id", "")), {f: prices.get(k) for f, k in fields.items()})
            )
    return entries


def _in_force(prices: Any, today: str) -> dict:
    """The prices on the fetch date: of conditional prices, the latest start_date that has come;
    time-of-day windows (off-peak discounts) are passed over, so a poll's hour never moves a price."""
    if not isinstance(prices, list):
        return prices if isinstance(prices, dict) else {}
    chosen, chosen_start = {}, ""
    for option in prices:
        if not isinstance(option, dict) or not isinstance(option.get("prices"), dict):
            continue
        constraint = option.get("constraint") or {}
        if not isinstance(constraint, dict) or set(constraint) - {"start_date", "end_date"}:
            continue
        start = str(constraint.get("start_date") or "")[:10]
        end = str(constraint.get("end_date") or "")[:10]
        if start <= today and (not end or today < end) and start >= chosen_start:
            chosen, chosen_start = option["prices"], start
    return chosen


TIER_ROW = re.compile(r">\s*\d+\s*k\b", re.I)  # "GPT-5.4 >272k": a long-context tier of gpt-5.4


def llm_prices_entries(data: Any, providers: list[str]) -> list[Entry]:
    if not isinstance(data, dict) or not isinstance(data.get("prices"), list):
        raise ParseError("llm-prices data has no 'prices' array")
    return [
        Entry(
            str(p.get("id", "")),
            {
                "input": p.get("input"),
                "cached_input": p.get("input_cached"),
                "output": p.get("output"),
            },
        )
        for p in data["prices"]
        if isinstance(p, dict)
        and p.get("vendor") in providers
        and not TIER_ROW.search(str(p.get("name", "")))
    ]


MD_VALUE = r'(\d+(?:\.\d+)?|null|None|"[^"\n]*")'
MD_ROW = re.compile(
    rf'\[\s*"([^"\n]{{1,100}})"\s*,\s*{MD_VALUE}\s*,\s*{MD_VALUE}\s*,\s*{MD_VALUE}\s*\]'
)
MD_TABLE = re.compile(
    r"^\|\s*`?([a-z0-9][\w.\-]*)`?\s*\|\s*\$?([\d.]+|-)\s*\|\s*\$?([\d.]+|-)\s*\|\s*\$?([\d.]+|-)\s*\|",
    re.M | re.I,
)
MD_HEADING = re.compile(r"^#{1,6}[ \t]+(.+)$", re.M)
# batch, flex and priority tables price the same models another way
MD_OTHER_TIER = re.compile(r'<PricingTable\b[^>]*?\btier="(?!standard")[^"]*".*?/>', re.S | re.I)
SECTION_KINDS = {
    "fine-tune": r"fine[- ]?tun",
    "image": r"image",
    "audio": r"audio|speech|transcri|realtime",
    "video": r"video",
    "embedding": r"embedding",
    "moderation": r"moderation",
    "search": r"search",
    "other": r"\btools?\b",
}


def openai_markdown_entries(text: str) -> list[Entry]:
    entries = []
    for heading, body in _sections(text):
        hints = frozenset(k for k, p in SECTION_KINDS.items() if re.search(p, heading, re.I))
        body = MD_OTHER_TIER.sub("", body)
        for name, *values in MD_ROW.findall(body) + MD_TABLE.findall(body):
            prices = dict(zip(FIELDS, map(_md_value, values), strict=True))
            entries.append(Entry(name, prices, kinds=hints))
    return entries


def _sections(text: str) -> list[tuple[str, str]]:
    marks = [(0, "")] + [(m.start(), m[1]) for m in MD_HEADING.finditer(text)]
    ends = [start for start, _ in marks[1:]] + [len(text)]
    return [(title, text[start:end]) for (start, title), end in zip(marks, ends, strict=True)]


def _md_value(value: str) -> str | None:
    value = value.strip('"').strip()
    return value if re.fullmatch(r"\$?\d+(?:\.\d+)?", value) else None


# a cell priced per minute, image or request is not a token price
NON_TOKEN_UNIT = re.compile(
    r"\b(minutes?|min|seconds?|sec|hours?|images?|requests?|calls?|characters?|pages?|quer(?:y|ies)|sessions?|gb)\b",
    re.I,
)


def html_entries(markup: bytes, selectors: dict[str, str] | None) -> list[Entry]:
    soup = html_soup(markup)
    entries = []
    if selectors and "row" in selectors:
        for row in soup.select(selectors["row"]):
            cells = {f: row.select_one(selectors[f]) for f in ("model", *FIELDS) if f in selectors}
            text = {f: c.get_text(" ", strip=True) if c else "" for f, c in cells.items()}
            entries.append(
                Entry(text.get("model", ""), {f: _money(text.get(f, "")) for f in FIELDS})
            )
        return entries
    for table in soup.find_all("table"):
        header = [th.get_text(" ", strip=True).lower() for th in table.find_all("th")]
        if not header or not any("model" in h for h in header):
            continue
        column = {f: _column(header, f) for f in FIELDS}
        for tr in table.find_all("tr"):
            cells = [td.get_text(" ", strip=True) for td in tr.find_all(["td", "th"])]
            if len(cells) != len(header) or cells[0].lower() == header[0]:
                continue
            prices = {f: _money(cells[i]) if i is not None else None for f, i in column.items()}
            entries.append(Entry(cells[0], prices))
    return entries


def _column(header: list[str], field: str) -> int | None:
    for i, h in enumerate(header):
        if field == "cached_input" and "cache" in h:
            return i
        if field == "input" and "input" in h and "cache" not in h:
            return i
        if field == "output" and "output" in h:
            return i
    return None


def _money(text: str) -> str | None:
    match = re.search(r"\$\s*([\d,]+(?:\.\d+)?)", text)
    return match.group(1) if match and not NON_TOKEN_UNIT.search(text) else None


class PricesWatcher(Watcher, kind="prices"):
    snapshot = True
    formats = ("litellm", "openrouter", "genai-prices", "llm-prices", "openai-markdown", "html")

    def check_config(self) -> None:
        if self.config.format not in self.formats:
            raise ValueError(f"format must be one of {', '.join(self.formats)}")
        scope = self.config.scope
        if scope is not None and (not scope or set(scope) - set(SCOPES)):
            raise ValueError(f"scope must list some of {', '.join(SCOPES)}")

    @property
    def providers(self) -> list[str]:
        return self.config.providers or ["openai"]

    @property
    def scope(self) -> tuple[str, ...]:
        return tuple(self.config.scope or DEFAULT_SCOPE)

    def entries(self, fetched: Fetched) -> list[Entry]:
        fmt = self.config.format
        if fmt == "html":
            return html_entries(fetched.body, self.config.selectors)
        if fmt == "openai-markdown":
            return openai_markdown_entries(fetched.body.decode("utf-8", "replace"))
        try:
            data = json.loads(fetched.body)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than Python recurses
            raise ParseError(
                f"{fetched.url}: not JSON, or nested too deep"
                f" (got {fetched.content_type or 'no content type'})"
            ) from None
        if fmt == "litellm":
            return litellm_entries(data, self.providers)
        if fmt == "openrouter":
            return openrouter_entries(data, self.providers)
        if fmt == "llm-prices":
            return llm_prices_entries(data, self.providers)
        return genai_prices_entries(data, self.providers, fetched.fetched_at.date().isoformat())

    def parse(self, fetched: Fetched) -> Parsed:
        data = price_list(self.entries(fetched), self.scope, self.config.models)
        if not data["prices"]:
            raise LayoutChanged(
                f"{fetched.url}: no {'/'.join(self.providers)} prices in scope"
                f" ({', '.join(self.scope)}); the format or layout may have changed"
            )
        modified = fetched.headers.get("last-modified")
        return Parsed(
            items=[
                ParsedItem(
                    dedupe_key="",
                    title="price list",
                    url=fetched.url,
                    published_at=_http_date(modified) or fetched.fetched_at,
                    source=self.name,
                    data=data,
                    snapshot=True,
                )
            ]
        )

    def extract(self, item: ParsedItem, context: PollContext) -> list[Candidate]:
        claim = claim_for(context.claims, self.config.claim, kind="price-list")
        if claim is None:
            return []
        prices, aliases = item.data["prices"], item.data["aliases"]
        previous = context.previous
        out = []
        for key, price in prices.items():
            before = None if previous is None else previous.get(key)
            if previous is None:
                signal = "price-list"
            elif before is None:
                signal = "new-model"
            else:
                signal = (
                    "price-cut" if price < before else "price-rise" if price > before else "price"
                )
            out.append(self._candidate(claim, key, price, signal, before, aliases))
        # a key gone from the list is no candidate: the writer's removal window judges it, so a
        # list reorganised for a few hours removes nothing
        return out

    def _candidate(
        self,
        claim: str,
        key: str,
        price: float,
        signal: str,
        before: float | None,
        aliases: dict[str, list[str]],
    ) -> Candidate:
        model, field = key.rsplit(":", 1)
        also = f" (also {', '.join(aliases[model])})" if aliases.get(model) else ""
        was = f" (was {before:g})" if before is not None and price != before else ""
        now = f"{price:g} USD per 1M tokens"
        return Candidate(
            claim_id=claim,
            key=key,
            value=price,
            unit="USD/1M tokens",
            signal=signal,
            excerpt=f"{model}{also} {field.replace('_', ' ')}: {now}{was}",
            group=model,  # a field gone while its model stays listed is a rename, not a removal
            first_is_baseline=True,
        )


def _http_date(value: str | None) -> datetime | None:
    try:
        return parsedate_to_datetime(value).astimezone(UTC) if value else None
    except (TypeError, ValueError):
        return None
