"""Ledger files: TOML lists of baseline claims. Parsing and validation are pure."""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

BUILTIN_DIR = Path(__file__).parent / "ledgers"
KINDS = ("number", "range", "status", "milestone", "price-list", "text")
CLAIM_FIELDS = {
    "id",
    "role",
    "title",
    "kind",
    "value",
    "unit",
    "comparator",
    "conditions",
    "sources",
    "verification",
    "due",
    "due_text",
    "ladder",
    "tolerance",
    "variants",
    "note",
    "qualifier",
    "stated_at",
    "ladder_moves",
    "theme",
}
UNDISCLOSED = "not disclosed"  # a number claim whose figure is not yet known
SOURCE_FIELDS = {"seed", "publisher", "title", "date", "url", "via", "quote", "language"}
TOP_FIELDS = {
    "name",
    "title",
    "stated_at",
    "defaults",
    "conditions",
    "seeds",
    "claims",
    "verification_levels",
}


class LedgerError(ValueError):
    """A malformed ledger; the message names the file, the claim and the field."""


@dataclass(frozen=True)
class ClaimSpec:
    id: str
    kind: str
    title: str
    value: Any
    unit: str
    spec: dict  # the whole normalised definition

    @property
    def subject(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def spec_hash(self) -> str:
        canonical = json.dumps(self.spec, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True)
class Ledger:
    name: str
    path: str
    stated_at: date | None
    claims: list[ClaimSpec]


def resolve(name_or_path: str) -> Path:
    """A built-in ledger name (`jalapeno`) or a path to a TOML file."""
    builtin = BUILTIN_DIR / f"{name_or_path}.toml"
    if "/" not in name_or_path and not name_or_path.endswith(".toml") and builtin.exists():
        return builtin
    path = Path(name_or_path).expanduser()
    if not path.exists():
        known = ", ".join(
            sorted(p.stem for p in BUILTIN_DIR.glob("*.toml") if not p.stem.endswith(".signals"))
        )
        raise LedgerError(
            f"{name_or_path}: no such ledger file or built-in ledger (built-in: {known})"
        )
    return path


def signal_file(name_or_path: str) -> Path | None:
    """The vocabulary beside a ledger (`jalapeno.toml` → `jalapeno.signals.toml`), if it has one."""
    path = resolve(name_or_path)
    beside = path.with_name(f"{path.stem}.signals.toml")
    return beside if beside.exists() else None


def load_ledger(name_or_path: str) -> Ledger:
    path = resolve(name_or_path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise LedgerError(f"{path}: not valid TOML: {exc}") from None
    return parse_ledger(data, str(path))


def parse_ledger(data: dict, where: str) -> Ledger:
    unknown = set(data) - TOP_FIELDS
    if unknown:
        raise LedgerError(f"{where}: unknown top-level key {sorted(unknown)[0]!r}")
    name = data.get("name") or Path(where).stem
    if not isinstance(name, str):
        raise LedgerError(f"{where}: field 'name' must be a string")
    stated_at = _date(data.get("stated_at"), f"{where}: field 'stated_at'")
    defaults = data.get("defaults", {})
    conditions = data.get("conditions", {})
    seeds = data.get("seeds", {})
    for label, table in (("defaults", defaults), ("conditions", conditions), ("seeds", seeds)):
        if not isinstance(table, dict):
            raise LedgerError(f"{where}: [{label}] must be a table")
    claims_raw = data.get("claims")
    if not isinstance(claims_raw, list) or not claims_raw:
        raise LedgerError(f"{where}: no [[claims]] in the ledger")
    levels = data.get("verification_levels", [])
    if not isinstance(levels, list) or not all(isinstance(v, str) for v in levels):
        raise LedgerError(f"{where}: field 'verification_levels' must be a list of strings")
    claims: list[ClaimSpec] = []
    seen: set[str] = set()
    for index, raw in enumerate(claims_raw):
        claim = _parse_claim(raw, index, where, defaults, conditions, seeds, stated_at)
        if levels:
            claim.spec["verification_levels"] = levels
        if claim.id in seen:
            raise LedgerError(f"{where}: claim {claim.id}: field 'id': duplicate id")
        seen.add(claim.id)
        claims.append(claim)
    return Ledger(name=name, path=where, stated_at=stated_at, claims=claims)


def _parse_claim(raw, index, where, defaults, conditions, seeds, stated_at) -> ClaimSpec:
    if not isinstance(raw, dict):
        raise LedgerError(f"{where}: claims[{index}]: must be a table")
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid.strip() or " " in cid:
        raise LedgerError(
            f"{where}: claims[{index}]: field 'id': a non-empty id without spaces is required"
        )

    def fail(field: str, message: str):
        raise LedgerError(f"{where}: claim {cid}: field '{field}': {message}")

    unknown = set(raw) - CLAIM_FIELDS
    if unknown:
        fail(sorted(unknown)[0], "unknown field")
    kind = raw.get("kind")
    if kind not in KINDS:
        fail("kind", f"must be one of {', '.join(KINDS)}")
    title = raw.get("title")
    if not isinstance(title, str) or not title.strip():
        fail("title", "a non-empty string is required")
    if "value" not in raw:
        fail("value", "a baseline value is required")
    value = raw["value"]
    unit = raw.get("unit", "")
    if not isinstance(unit, str):
        fail("unit", "must be a string")
    _check_value(kind, value, fail)
    spec: dict[str, Any] = {"id": cid, "title": title, "kind": kind, "value": value, "unit": unit}

    tolerance = raw.get("tolerance", defaults.get("tolerance", 0.02))
    if kind in ("number", "range"):
        if not _is_number(tolerance) or not 0 <= tolerance < 1:
            fail("tolerance", "must be a fraction between 0 and 1 (0.02 = ±2 %)")
        spec["tolerance"] = tolerance
    ladder = raw.get("ladder")
    if ladder is not None:
        if (
            not isinstance(ladder, list)
            or not all(isinstance(s, str) for s in ladder)
            or len(ladder) < 2
        ):
            fail("ladder", "must be a list of at least two strings")
        if value not in ladder:
            fail("value", f"{value!r} is not a step of the ladder")
        spec["ladder"] = ladder
        moves = raw.get("ladder_moves", "forward")
        if moves not in ("forward", "any"):
            fail("ladder_moves", "must be 'forward' (a later step never goes back) or 'any'")
        if moves != "forward":
            spec["ladder_moves"] = moves
    for field in ("due",):
        if field in raw:
            if kind != "milestone":
                fail(field, "only milestones have a due date")
            spec["due"] = _date(raw[field], None, fail, field).isoformat()
    for field in ("due_text", "note", "qualifier", "theme", "role"):
        if field in raw:
            if not isinstance(raw[field], str):
                fail(field, "must be a string")
            spec[field] = raw[field]
    verification = raw.get("verification", defaults.get("verification", "self-reported"))
    if not isinstance(verification, str):
        fail("verification", "must be a string")
    spec["verification"] = verification
    spec["stated_at"] = (
        _date(raw.get("stated_at"), None, fail, "stated_at") if "stated_at" in raw else stated_at
    )
    spec["stated_at"] = spec["stated_at"].isoformat() if spec["stated_at"] else None

    comparator = raw.get("comparator")
    if comparator is not None:
        if not isinstance(comparator, dict) or "name" not in comparator:
            fail("comparator", "must be a table with a name (and a value)")
        spec["comparator"] = comparator
    cond = raw.get("conditions", {})
    if not isinstance(cond, dict):
        fail("conditions", "must be a table")
    cond = dict(cond)
    if "use" in cond:
        named = conditions.get(cond.pop("use"))
        if named is None:
            fail("conditions", f"unknown named conditions {raw['conditions']['use']!r}")
        cond = {**named, **cond}
    spec["conditions"] = cond
    spec["sources"] = [
        _parse_source(s, seeds, fail) for s in _list(raw.get("sources", []), "sources", fail)
    ]
    if not spec["sources"]:
        fail("sources", "at least one source is required")
    variants = []
    for variant in _list(raw.get("variants", []), "variants", fail):
        if not isinstance(variant, dict) or "value" not in variant:
            fail("variants", "each variant is a table with a value")
        if "seed" in variant and variant["seed"] not in seeds:
            fail("variants", f"unknown seed {variant['seed']!r}")
        variants.append(variant)
    spec["variants"] = variants
    return ClaimSpec(id=cid, kind=kind, title=title, value=value, unit=unit, spec=spec)


def _parse_source(source, seeds, fail) -> dict:
    if not isinstance(source, dict):
        fail("sources", "each source is a table")
    unknown = set(source) - SOURCE_FIELDS
    if unknown:
        fail("sources", f"unknown source field {sorted(unknown)[0]!r}")
    out = dict(source)
    if "seed" in source:
        seed = seeds.get(source["seed"])
        if seed is None:
            fail("sources", f"unknown seed {source['seed']!r}")
        out = {
            "publisher": seed.get("publisher", ""),
            "title": seed.get("title", ""),
            "seed_file": seed.get("file", ""),
            "language": seed.get("language", ""),
            **out,
        }
    if not out.get("publisher") and not out.get("seed_file"):
        fail("sources", "each source needs a publisher or a seed")
    if not isinstance(out.get("quote", ""), str):
        fail("sources", "a quote must be a string")
    return out


def _check_value(kind, value, fail) -> None:
    if kind == "number" and not _is_number(value) and value != UNDISCLOSED:
        fail("value", f"a number claim needs a numeric value (or {UNDISCLOSED!r})")
    if kind == "range" and not (
        isinstance(value, list)
        and len(value) == 2
        and all(_is_number(v) for v in value)
        and value[0] <= value[1]
    ):
        fail("value", "a range claim needs [low, high] with low <= high")
    if kind in ("status", "milestone") and (not isinstance(value, str) or not value.strip()):
        fail("value", f"a {kind} claim needs a non-empty string")
    if kind == "price-list" and not isinstance(value, dict):
        fail("value", "a price-list claim needs a table (empty for 'first observation')")
    if kind == "text" and not (
        isinstance(value, str)
        or (isinstance(value, list) and all(isinstance(v, str) for v in value))
    ):
        fail("value", "a text claim needs a string or a list of strings")


def _list(value, field, fail) -> list:
    if not isinstance(value, list):
        fail(field, "must be a list")
    return value


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _date(value, prefix, fail=None, field=None) -> date | None:
    if value is None:
        return None
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        if fail:
            fail(field, f"{value!r} is not a date (YYYY-MM-DD)")
        raise LedgerError(f"{prefix}: {value!r} is not a date (YYYY-MM-DD)") from None
