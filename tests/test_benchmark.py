"""InferenceX rows land on claims by the ledgers' data: exact model keys, exact conditions,
hardware keys the ledger knows. Rows are the real row of tests/data/real with fields varied."""

import copy
import json
from datetime import UTC, datetime
from pathlib import Path

from db.ledger import load_ledger
from monitor.config import WatcherConfig
from watchers import build
from watchers.base import Fetched, PollContext

REAL = json.loads((Path(__file__).parent / "data/real/inferencex-benchmarks-row.json").read_text())[
    0
]
CLAIMS = {c.id: c.spec for name in ("jalapeno", "rubin") for c in load_ledger(name).claims}


def row(hardware, model, isl=8192, osl=1024, agentic=False, **metrics):
    out = copy.deepcopy(REAL)
    out.update(hardware=hardware, model=model, isl=isl, osl=osl)
    out["benchmark_type"] = "agentic_traces" if agentic else "fixed_seq_len"
    out["metrics"].update(metrics)
    return out


def candidates(rows):
    watcher = build(
        WatcherConfig(name="ix", kind="benchmark", format="inferencex", url="http://127.0.0.1/ix")
    )
    body = json.dumps(rows).encode()
    parsed = watcher.parse(
        Fetched(
            url="http://127.0.0.1/ix",
            status=200,
            headers={},
            body=body,
            fetched_at=datetime(2026, 12, 1, tzinfo=UTC),
        )
    )
    found = watcher.extract(parsed.items[0], PollContext(claims=CLAIMS))
    return {(c.claim_id, c.key): c.value for c in found}


def test_model_keys_map_exactly():
    got = candidates(
        [
            row("h100", "gptoss120b"),
            row("jalapeno-a0", "kimik2.6", median_intvty=700.0),  # not Kimi K2.5
            row("jalapeno-a0", "kimik3", median_intvty=710.0),
            row("jalapeno-a0", "dsr1", median_intvty=180.0),
            row("jalapeno-a0", "kimik2.5", median_intvty=650.0),
        ]
    )
    assert got[("jalapeno.tokens-per-user.deepseek-r1", "")] == 180.0
    assert got[("jalapeno.tokens-per-user.kimi-k2.5", "")] == 650.0
    assert not any("kimik2.6" in str(v) or v in (700.0, 710.0) for v in got.values())


def test_other_workloads_and_agentic_rows_move_no_8k_1k_claim():
    got = candidates(
        [
            row("jalapeno-a0", "gptoss120b", isl=1024, osl=8192, median_intvty=2000.0),
            row("jalapeno-a0", "gptoss120b", isl=None, osl=None, agentic=True),
        ]
    )
    assert ("jalapeno.tokens-per-user.gpt-oss-120b", "") not in got
    assert got[("jalapeno.agentx", "")] == "results published"


def test_known_hardware_is_quiet_and_a_new_key_is_evidence_not_a_listing():
    got = candidates([row("vr200", "gptoss120b"), row("rtx6000pro", "dsr1"), row("tpu8x", "dsr1")])
    assert set(got) == {("inferencex.hardware", "tpu8x")}


def test_a_key_that_names_the_subject_lists_it():
    got = candidates([row("jalapeno-b0", "gptoss120b", median_tpot=0.0007)])
    assert got[("jalapeno.inferencex", "")] == "listed"
    assert got[("jalapeno.tbt.gpt-oss-120b", "")] == 0.7  # the API's seconds in the claim's ms
