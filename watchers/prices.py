"""`prices`: price lists in six formats, normalised to USD per 1M tokens, keyed `<model>:<field>`."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from bs4 import BeautifulSoup

from watchers.base import (
    Candidate,
    Fetched,
    LayoutChanged,
    Parsed,
    ParsedItem,
    ParseError,
    PollContext,
    Watcher,
)

CLAIM = "openai.api-prices"
FIELDS = ("input", "cached_input", "output")
PER_TOKEN = 1_000_000


def _price(value, scale: float = 1.0) -> float | None:
    """A non-negative price, or None for missing, variable (-1) or unreadable values."""
    if isinstance(value, dict):  # tiered prices: the base tier
        value = value.get("base", value.get("price"))
    if isinstance(value, str):
        value = value.replace("$", "").replace(",", "").strip()
        if not re.fullmatch(r"\d+(?:\.\d+)?(?:e-?\d+)?", value, re.I):
            return None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    number = float(value) * scale
    return round(number, 6) if number >= 0 else None


MODEL_NAME = re.compile(r"^[a-z0-9][a-z0-9._:\-]{0,99}$")


def _model(name: str) -> str:
    """The model id: the first word, lower case, without a provider prefix; '' when it is not an id."""
    words = name.strip().lower().split()
    model = words[0].removeprefix("openai/") if words else ""
    return model if MODEL_NAME.match(model) else ""


def _rows(entries) -> dict[str, float]:
    """{"gpt-4o:input": 2.5, ...} from (model, input, cached_input, output) tuples; first row of a model wins."""
    out: dict[str, float] = {}
    seen: set[str] = set()
    for model, *prices in entries:
        model = _model(model)
        if not model or model in seen:
            continue
        seen.add(model)
        for field, price in zip(FIELDS, prices, strict=True):
            if price is not None:
                out[f"{model}:{field}"] = price
    return out


def parse_litellm(data, providers) -> dict[str, float]:
    if not isinstance(data, dict):
        raise ParseError("LiteLLM price list is not a JSON object")
    entries = []
    for key, spec in data.items():
        if key == "sample_spec" or not isinstance(spec, dict):
            continue
        if spec.get("litellm_provider") not in providers:
            continue
        entries.append(
            (
                key,
                _price(spec.get("input_cost_per_token"), PER_TOKEN),
                _price(spec.get("cache_read_input_token_cost"), PER_TOKEN),
                _price(spec.get("output_cost_per_token"), PER_TOKEN),
            )
        )
    return _rows(entries)


def parse_openrouter(data, providers) -> dict[str, float]:
    if not isinstance(data, dict) or not isinstance(data.get("data"), list):
        raise ParseError("OpenRouter model list has no 'data' array")
    entries = []
    for model in data["data"]:
        if not isinstance(model, dict) or "/" not in str(model.get("id", "")):
            continue
        provider, name = str(model["id"]).split("/", 1)
        pricing = model.get("pricing") or {}
        if provider in providers:
            entries.append(
                (
                    name,
                    _price(pricing.get("prompt"), PER_TOKEN),
                    _price(pricing.get("input_cache_read"), PER_TOKEN),
                    _price(pricing.get("completion"), PER_TOKEN),
                )
            )
    return _rows(entries)


def parse_genai_prices(data, providers, today: str) -> dict[str, float]:
    if not isinstance(data, dict) or not isinstance(data.get("providers"), list):
        raise ParseError("genai-prices data has no 'providers' array")
    entries = []
    for provider in data["providers"]:
        if not isinstance(provider, dict) or provider.get("id") not in providers:
            continue
        for model in provider.get("models") or []:
            prices = model.get("prices")
            if isinstance(prices, list):  # conditional prices: the latest that has started
                started = [
                    p
                    for p in prices
                    if str((p.get("constraint") or {}).get("start_date", "")) <= today
                ]
                started.sort(key=lambda p: str((p.get("constraint") or {}).get("start_date", "")))
                prices = started[-1].get("prices") if started else None
            if isinstance(prices, dict):
                entries.append(
                    (
                        str(model.get("id", "")),
                        _price(prices.get("input_mtok")),
                        _price(prices.get("cache_read_mtok")),
                        _price(prices.get("output_mtok")),
                    )
                )
    return _rows(entries)


def parse_llm_prices(data, providers) -> dict[str, float]:
    if not isinstance(data, dict) or not isinstance(data.get("prices"), list):
        raise ParseError("llm-prices data has no 'prices' array")
    return _rows(
        (
            str(p.get("id", "")),
            _price(p.get("input")),
            _price(p.get("input_cached")),
            _price(p.get("output")),
        )
        for p in data["prices"]
        if isinstance(p, dict) and p.get("vendor") in providers
    )


MD_ROW = re.compile(
    r'\[\s*"([^"\n]{1,100})"\s*,\s*([\d.]+|null|None|"[^"]*")\s*,\s*([\d.]+|null|None|"[^"]*")\s*,\s*([\d.]+|null|None|"[^"]*")\s*\]'
)
MD_TABLE = re.compile(
    r"^\|\s*`?([a-z0-9][\w.\-]*)`?\s*\|\s*\$?([\d.]+|-)\s*\|\s*\$?([\d.]+|-)\s*\|\s*\$?([\d.]+|-)\s*\|",
    re.M | re.I,
)


def parse_openai_markdown(text: str) -> dict[str, float]:
    rows = [
        (m[0], _price(m[1].strip('"')), _price(m[2].strip('"')), _price(m[3].strip('"')))
        for m in MD_ROW.findall(text)
    ]
    rows += [(m[0], _price(m[1]), _price(m[2]), _price(m[3])) for m in MD_TABLE.findall(text)]
    return _rows(rows)


def parse_html(markup: bytes, selectors: dict[str, str] | None) -> dict[str, float]:
    soup = BeautifulSoup(markup, "html.parser")
    entries = []
    if selectors and "row" in selectors:
        for row in soup.select(selectors["row"]):
            cells = {f: row.select_one(selectors[f]) for f in ("model", *FIELDS) if f in selectors}
            text = {f: c.get_text(" ", strip=True) if c else "" for f, c in cells.items()}
            entries.append((text.get("model", ""), *(_money(text.get(f, "")) for f in FIELDS)))
        return _rows(entries)
    for table in soup.find_all("table"):
        header = [th.get_text(" ", strip=True).lower() for th in table.find_all("th")]
        if not header or not any("model" in h for h in header):
            continue
        column = {f: _column(header, f) for f in FIELDS}
        for tr in table.find_all("tr"):
            cells = [td.get_text(" ", strip=True) for td in tr.find_all(["td", "th"])]
            if len(cells) != len(header) or cells[0].lower() == header[0]:
                continue
            entries.append(
                (
                    cells[0],
                    *(_money(cells[column[f]]) if column[f] is not None else None for f in FIELDS),
                )
            )
    return _rows(entries)


def _column(header: list[str], field: str) -> int | None:
    for i, h in enumerate(header):
        if field == "cached_input" and "cache" in h:
            return i
        if field == "input" and "input" in h and "cache" not in h:
            return i
        if field == "output" and "output" in h:
            return i
    return None


def _money(text: str) -> float | None:
    match = re.search(r"\$\s*([\d,]+(?:\.\d+)?)", text)
    return _price(match.group(1)) if match else None


class PricesWatcher(Watcher, kind="prices"):
    snapshot = True
    formats = ("litellm", "openrouter", "genai-prices", "llm-prices", "openai-markdown", "html")

    def check_config(self) -> None:
        if self.config.format not in self.formats:
            raise ValueError(f"format must be one of {', '.join(self.formats)}")

    @property
    def providers(self) -> list[str]:
        return self.config.providers or ["openai"]

    def parse(self, fetched: Fetched) -> Parsed:
        fmt = self.config.format
        if fmt == "html":
            prices = parse_html(fetched.body, self.config.selectors)
        elif fmt == "openai-markdown":
            prices = parse_openai_markdown(fetched.body.decode("utf-8", "replace"))
        else:
            try:
                data = json.loads(fetched.body)
            except ValueError:
                raise ParseError(
                    f"{fetched.url}: not JSON (got {fetched.content_type or 'no content type'})"
                ) from None
            today = fetched.fetched_at.date().isoformat()
            prices = {
                "litellm": lambda: parse_litellm(data, self.providers),
                "openrouter": lambda: parse_openrouter(data, self.providers),
                "genai-prices": lambda: parse_genai_prices(data, self.providers, today),
                "llm-prices": lambda: parse_llm_prices(data, self.providers),
            }[fmt]()
        if not prices:
            raise LayoutChanged(
                f"{fetched.url}: no {'/'.join(self.providers)} prices found; the format or layout may have changed"
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
                    data=dict(sorted(prices.items())),
                    snapshot=True,
                )
            ]
        )

    def extract(self, item: ParsedItem, context: PollContext) -> list[Candidate]:
        previous = context.previous
        out = []
        for key, price in item.data.items():
            before = None if previous is None else previous.get(key)
            if previous is None:
                signal = "price-list"
            elif before is None:
                signal = "new-model"
            else:
                signal = (
                    "price-cut" if price < before else "price-rise" if price > before else "price"
                )
            out.append(self._candidate(key, price, signal, before))
        for key in sorted(set(previous or {}) - set(item.data)):
            if previous[key] is not None:
                out.append(self._candidate(key, None, "model-removed", previous[key]))
        return out

    def _candidate(
        self, key: str, price: float | None, signal: str, before: float | None
    ) -> Candidate:
        model, field = key.rsplit(":", 1)
        was = f" (was {before:g})" if before is not None and price != before else ""
        now = "removed" if price is None else f"{price:g} USD per 1M tokens"
        return Candidate(
            claim_id=CLAIM,
            key=key,
            value=price,
            unit="USD/1M tokens",
            signal=signal,
            excerpt=f"{model} {field.replace('_', ' ')}: {now}{was}",
            first_is_baseline=True,
        )


def _http_date(value: str | None) -> datetime | None:
    try:
        return parsedate_to_datetime(value).astimezone(UTC) if value else None
    except (TypeError, ValueError):
        return None
