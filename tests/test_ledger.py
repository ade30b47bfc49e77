import re
from pathlib import Path

import pytest

from db.ledger import LedgerError, load_ledger, parse_ledger

SHARED = Path(__file__).resolve().parents[2] / "shared"


def seed_claim_ids() -> list[str]:
    text = (SHARED / "claims-from-seeds.md").read_text(encoding="utf-8")
    return re.findall(r"^\| ([a-z0-9]+\.[a-z0-9.\-]+) \|", text, flags=re.M)


@pytest.fixture(scope="module")
def ledger():
    return load_ledger("jalapeno")


@pytest.mark.skipif(
    not (SHARED / "claims-from-seeds.md").exists(),
    reason="shared/claims-from-seeds.md is not beside the checkout",
)
def test_builtin_ledger_has_every_claim_of_the_seeds(ledger):
    ids = seed_claim_ids()
    assert len(ids) >= 45
    assert set(ids) <= {c.id for c in ledger.claims}


@pytest.mark.skipif(
    not (SHARED / "seeds").exists(), reason="shared/seeds is not beside the checkout"
)
def test_every_quote_stands_in_its_seed(ledger):
    for claim in ledger.claims:
        for source in claim.spec["sources"]:
            if not source.get("seed_file"):
                continue
            text = (SHARED / "seeds" / source["seed_file"]).read_text(encoding="utf-8")
            for part in source["quote"].split("…"):
                part = part.strip(" ()")
                assert not part or part in text, (
                    f"{claim.id}: {part!r} not in {source['seed_file']}"
                )


def test_baseline_figures(ledger):
    by_id = {c.id: c for c in ledger.claims}
    gpt = by_id["jalapeno.tokens-per-kw.gpt-oss-120b"]
    assert (gpt.value, gpt.unit) == (85448, "tok/s/kW")
    assert gpt.spec["comparator"] == {"name": "GB200", "value": 44960}
    assert gpt.spec["conditions"]["workload"] == "8k input / 1k output, single-turn"
    assert gpt.spec["tolerance"] == 0.02
    assert by_id["jalapeno.iso-interactivity.deepseek-r1"].spec["comparator"]["value"] == 118
    assert by_id["jalapeno.perf-per-watt.range"].value == [1.5, 1.9]
    assert by_id["jalapeno.deployment.initial"].spec["due"] == "2026-12-31"
    assert by_id["jalapeno.verification"].spec["ladder"][0] == "self-reported"


def test_disagreements_are_kept_as_variants(ledger):
    by_id = {c.id: c for c in ledger.claims}
    kimi = by_id["jalapeno.e2e-latency.kimi-k2.5"]
    assert kimi.value == 1.56
    assert {repr(v["value"]) for v in kimi.spec["variants"]} == {"[1.03, 1.65]", "1.65"}
    assert len(by_id["nvidia.openai-deal"].spec["variants"]) == 2
    assert len(by_id["jalapeno.architecture"].spec["variants"]) == 2


def minimal(**claim):
    base = {
        "id": "x.a",
        "title": "A",
        "kind": "number",
        "value": 1,
        "sources": [{"publisher": "P"}],
    }
    base.update(claim)
    return {"name": "t", "claims": [base]}


@pytest.mark.parametrize(
    ("claim", "field"),
    [
        ({"kind": "volume"}, "kind"),
        ({"value": "many"}, "value"),
        ({"kind": "range", "value": [3, 1]}, "value"),
        ({"tolerance": 2}, "tolerance"),
        ({"kind": "status", "value": "b", "ladder": ["a", "c"]}, "value"),
        ({"kind": "milestone", "value": "planned", "due": "end of year"}, "due"),
        ({"sources": []}, "sources"),
        ({"colour": "red"}, "colour"),
        ({"title": ""}, "title"),
    ],
)
def test_malformed_claim_names_file_claim_and_field(claim, field):
    with pytest.raises(LedgerError) as info:
        parse_ledger(minimal(**claim), "my.toml")
    message = str(info.value)
    assert message.startswith("my.toml: claim x.a: field ")
    assert f"'{field}'" in message
    assert "\n" not in message


def test_duplicate_ids_rejected():
    data = minimal()
    data["claims"].append(dict(data["claims"][0]))
    with pytest.raises(LedgerError, match="duplicate id"):
        parse_ledger(data, "dup.toml")


def test_unknown_ledger_name_lists_builtins():
    with pytest.raises(LedgerError, match="built-in: jalapeno"):
        load_ledger("no-such-ledger")


def test_invalid_toml_names_file(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("name = [", encoding="utf-8")
    with pytest.raises(LedgerError, match=r"bad\.toml: not valid TOML"):
        load_ledger(str(path))
