"""`benchmark`: InferenceX API results. New hardware, Jalapeño rows and AgentX rows become observations."""

from __future__ import annotations

import json
import operator
import re

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
from watchers.figures import MODELS

JALAPENO_HW = re.compile(r"jalape|openai|\boai\b", re.I)
HARDWARE_CLAIM = "inferencex.hardware"
LISTING_CLAIM = "jalapeno.inferencex"
METRICS = (
    "tput_per_gpu",
    "output_tput_per_gpu",
    "median_ttft",
    "median_e2el",
    "median_tpot",
    "median_intvty",
    "avg_power_w",
)


def _rows(data) -> list[dict]:
    if isinstance(data, dict):
        for key in ("data", "benchmarks", "rows", "results"):
            if isinstance(data.get(key), list):
                return data[key]
        raise ParseError("InferenceX response has no list of rows (data/benchmarks/rows/results)")
    if isinstance(data, list):
        return data
    raise ParseError("InferenceX response is neither a list nor an object")


def _model(name: str) -> str | None:
    for model, pattern in MODELS.items():
        if pattern.search(name or ""):
            return model
    return None


def _num(value) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def parse_inferencex(body: bytes) -> dict:
    """The parts of the response that matter: the hardware keys and every Jalapeño row."""
    try:
        rows = _rows(json.loads(body))
    except ValueError:
        raise ParseError("InferenceX response is not JSON") from None
    rows = [r for r in rows if isinstance(r, dict) and r.get("hardware")]
    if not rows:
        raise LayoutChanged("InferenceX response holds no benchmark rows")
    jalapeno = []
    for row in rows:
        if not JALAPENO_HW.search(str(row["hardware"])):
            continue
        metrics = row.get("metrics") or {}
        jalapeno.append(
            {
                "hardware": str(row["hardware"]),
                "model": str(row.get("model", "")),
                "isl": row.get("isl"),
                "osl": row.get("osl"),
                "conc": row.get("conc"),
                "date": row.get("date"),
                "agentic": "agentic"
                in str(row.get("scenario_type", "")) + str(row.get("benchmark_type", "")),
                "run_url": row.get("run_url"),
                "metrics": {k: _num(metrics.get(k)) for k in METRICS},
            }
        )
    jalapeno.sort(key=lambda r: json.dumps(r, sort_keys=True, default=str))
    return {"hardware": sorted({str(r["hardware"]) for r in rows}), "jalapeno": jalapeno}


def figures(rows: list[dict]) -> dict[str, float]:
    """Per claim, the best Jalapeño figure at 8k/1k: peak tok/s/kW and tok/s/user, lowest latencies."""
    best: dict[str, float] = {}

    def keep(claim: str, value: float | None, better) -> None:
        if value is not None and (claim not in best or better(value, best[claim])):
            best[claim] = round(value, 4)

    for row in rows:
        model = _model(row["model"])
        if row["agentic"] or model is None or (row["isl"], row["osl"]) != (8192, 1024):
            continue
        m = row["metrics"]
        if m["tput_per_gpu"] and m["avg_power_w"]:
            keep(
                f"jalapeno.tokens-per-kw.{model}",
                m["tput_per_gpu"] / (m["avg_power_w"] / 1000),
                operator.gt,
            )
        keep(f"jalapeno.tokens-per-user.{model}", m["median_intvty"], operator.gt)
        keep(f"jalapeno.e2e-latency.{model}", m["median_e2el"], operator.lt)
        tpot = m["median_tpot"]
        if tpot is not None:  # the API gives seconds; the ledger has milliseconds
            keep(f"jalapeno.tbt.{model}", tpot * 1000 if tpot < 1 else tpot, operator.lt)
    return best


UNITS = {
    "tokens-per-kw": "tok/s/kW",
    "tokens-per-user": "tok/s/user",
    "e2e-latency": "s",
    "tbt": "ms",
}


class BenchmarkWatcher(Watcher, kind="benchmark"):
    snapshot = True
    accept = "application/json"
    formats = ("inferencex",)

    def parse(self, fetched: Fetched) -> Parsed:
        data = parse_inferencex(fetched.body)
        return Parsed(
            items=[
                ParsedItem(
                    dedupe_key="",
                    title="InferenceX results",
                    url=fetched.url,
                    published_at=fetched.fetched_at,
                    source=self.name,
                    data=data,
                    snapshot=True,
                )
            ]
        )

    def extract(self, item: ParsedItem, context: PollContext) -> list[Candidate]:
        data = item.data
        out = []
        known = context.claims.get(HARDWARE_CLAIM, {}).get("value", [])
        for hardware in data["hardware"]:
            if hardware in known:
                continue
            ours = bool(JALAPENO_HW.search(hardware))
            out.append(
                Candidate(
                    claim_id=HARDWARE_CLAIM,
                    key=hardware,
                    value="listed",
                    signal="new-hardware",
                    excerpt=f"{'Jalapeño' if ours else 'new'} hardware in InferenceX results: {hardware}",
                )
            )
            if ours:
                out.append(
                    Candidate(
                        claim_id=LISTING_CLAIM,
                        value="listed",
                        signal="subject-hardware",
                        excerpt=f"Jalapeño hardware in InferenceX results: {hardware}",
                    )
                )
        agentic = [r for r in data["jalapeno"] if r["agentic"]]
        if agentic:
            excerpt = (
                f"{len(agentic)} AgentX row(s) for {agentic[0]['hardware']} ({agentic[0]['model']})"
            )
            out.append(
                Candidate(
                    claim_id="jalapeno.agentx",
                    value="results published",
                    signal="agentx-rows",
                    excerpt=excerpt,
                )
            )
            out.append(
                Candidate(
                    claim_id="jalapeno.workload-coverage",
                    value="long-context or multi-turn results",
                    signal="agentx-rows",
                    excerpt=excerpt,
                )
            )
        for claim, value in figures(data["jalapeno"]).items():
            metric = claim.split(".")[1]
            out.append(
                Candidate(
                    claim_id=claim,
                    value=value,
                    unit=UNITS[metric],
                    signal="inferencex-result",
                    excerpt=f"InferenceX 8k/1k best {metric} for {claim.split('.')[2]}: {value:g} {UNITS[metric]}",
                )
            )
        return out
