"""`benchmark`: InferenceX API results. New hardware, rows of a tracked subject's hardware and its
AgentX rows become observations. Which hardware keys name a subject, which InferenceX model keys
are which tracked model, and which claim a figure lands on all come from the ledgers' data
(`[subject] hardware`, `[models.*] inferencex`, each claim's `conditions`); nothing here names a
chip, a model or a claim."""

from __future__ import annotations

import json
import operator
from dataclasses import dataclass

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
from watchers.quantities import UNITS
from watchers.vocabulary import ClaimIndex, Subject

SOURCE = "inferencex"  # the model-key table this watcher reads in the signal files
METRICS = (
    "tput_per_gpu",
    "output_tput_per_gpu",
    "median_ttft",
    "median_e2el",
    "median_tpot",
    "median_intvty",
    "avg_power_w",
)


@dataclass(frozen=True)
class Reading:
    """How a row's metrics become a figure of one ledger metric, in that metric's base unit."""

    metric: str
    better: object  # operator.gt: higher is better; operator.lt: lower is better
    unit: str  # what `value` returns


def _per_kw(m: dict) -> float | None:
    if m.get("tput_per_gpu") and m.get("avg_power_w"):
        return m["tput_per_gpu"] / (m["avg_power_w"] / 1000)
    return None


READINGS = {
    Reading("tokens-per-kw", operator.gt, "tok/s/kW"): _per_kw,
    Reading("tokens-per-user", operator.gt, "tok/s/user"): lambda m: m.get("median_intvty"),
    Reading("e2e-latency", operator.lt, "s"): lambda m: m.get("median_e2el"),
    Reading("tbt", operator.lt, "s"): lambda m: m.get("median_tpot"),  # the API gives seconds
}


def _scale(unit: str, wanted: str) -> float | None:
    """The factor from one unit to another of the same quantity (s → ms: 1000); None: unlike."""
    have, want = UNITS.get(unit), UNITS.get(wanted)
    if have is None or want is None or have[0] != want[0]:
        return None
    return have[1] / want[1]


def _rows(data) -> list[dict]:
    if isinstance(data, dict):
        for key in ("data", "benchmarks", "rows", "results"):
            if isinstance(data.get(key), list):
                return data[key]
        raise ParseError("InferenceX response has no list of rows (data/benchmarks/rows/results)")
    if isinstance(data, list):
        return data
    raise ParseError("InferenceX response is neither a list nor an object")


def _num(value) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = float(value)
        return value if value == value and abs(value) != float("inf") and value >= 0 else None
    return None


def parse_inferencex(body: bytes) -> dict:
    """The parts of the response that matter: the hardware keys and every row, reduced."""
    try:
        rows = _rows(json.loads(body))
    except (ValueError, RecursionError):  # RecursionError: nested deeper than Python recurses
        raise ParseError("InferenceX response is not JSON (or nested too deep)") from None
    rows = [r for r in rows if isinstance(r, dict) and r.get("hardware")]
    if not rows:
        raise LayoutChanged("InferenceX response holds no benchmark rows")
    reduced = []
    for row in rows:
        metrics = row.get("metrics") if isinstance(row.get("metrics"), dict) else {}
        reduced.append(
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
    reduced.sort(key=lambda r: json.dumps(r, sort_keys=True, default=str))
    return {"hardware": sorted({r["hardware"] for r in reduced}), "rows": reduced}


def subject_of(hardware: str, subjects) -> Subject | None:
    """The tracked subject whose `hardware` patterns name this key, if any."""
    for subject in subjects:
        if subject.hardware is not None and subject.hardware.search(hardware):
            return subject
    return None


def model_of(key: str, subject: Subject) -> str | None:
    """The tracked model whose InferenceX keys hold this database key exactly; None: untracked."""
    for model in subject.models:
        if key in model.keys.get(SOURCE, ()):
            return model.id
    return None


def figures(rows: list[dict], subject: Subject, index: ClaimIndex) -> dict[str, tuple[float, str]]:
    """Per claim, the best figure of the subject's rows at exactly the claim's conditions."""
    best: dict[str, tuple[float, str]] = {}
    for row in rows:
        model = model_of(row["model"], subject)
        if row["agentic"] or model is None:
            continue
        for reading, value_of in READINGS.items():
            value = value_of(row["metrics"])
            if value is None:
                continue
            for ref in index.find(subject.id, reading.metric, model):
                wanted = (ref.conditions.get("isl"), ref.conditions.get("osl"))
                if ref.conditions.get("model") != model or wanted != (row["isl"], row["osl"]):
                    continue
                scale = _scale(reading.unit, ref.unit)
                if scale is None:
                    continue
                scaled = round(value * scale, 4)
                held = best.get(ref.id)
                if held is None or reading.better(scaled, held[0]):
                    best[ref.id] = (scaled, ref.unit)
    return best


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
        from watchers.extract import claim_index, rules

        subjects = (context.rules or rules()).subjects
        data = item.data
        hardware = claim_for(context.claims, self.config.claim, role="benchmark-hardware")
        out = self._hardware(data["hardware"], subjects, context.claims, hardware)
        index = claim_index(context.claims)
        for subject in subjects:
            rows = [r for r in data["rows"] if subject_of(r["hardware"], subjects) is subject]
            if not rows:
                continue
            out += self._agentic(rows, subject, context.claims)
            for claim, (value, unit) in sorted(figures(rows, subject, index).items()):
                out.append(
                    Candidate(
                        claim_id=claim,
                        value=value,
                        unit=unit,
                        signal="inferencex-result",
                        excerpt=f"InferenceX best {claim}: {value:g} {unit}",
                        measured=True,
                    )
                )
        return [c for c in out if c.claim_id in context.claims]

    @staticmethod
    def _hardware(keys, subjects, claims, hardware_claim) -> list[Candidate]:
        """A key the ledger does not know: evidence; one that names a subject: its listing."""
        known = claims.get(hardware_claim, {}).get("value", []) if hardware_claim else []
        out = []
        for hardware in keys:
            if hardware in known:
                continue
            subject = subject_of(hardware, subjects)
            out.append(
                Candidate(
                    claim_id=hardware_claim or "",
                    key=hardware,
                    value="listed",
                    signal="new-hardware",
                    excerpt=f"new hardware in InferenceX results: {hardware}",
                )
            )
            if subject is not None and subject.hardware_claim:
                out.append(
                    Candidate(
                        claim_id=subject.hardware_claim,
                        value="listed",
                        signal="subject-hardware",
                        excerpt=f"{subject.id} hardware in InferenceX results: {hardware}",
                    )
                )
        return out

    @staticmethod
    def _agentic(rows, subject, claims) -> list[Candidate]:
        agentic = [r for r in rows if r["agentic"]]
        if not agentic:
            return []
        excerpt = (
            f"{len(agentic)} AgentX row(s) for {agentic[0]['hardware']} ({agentic[0]['model']})"
        )
        return [
            Candidate(claim_id=claim, value=value, signal="agentx-rows", excerpt=excerpt)
            for claim, value in subject.agentic_claims
        ]
