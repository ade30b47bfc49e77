"""Golden fixtures: parse and extract each file in tests/data/<kind>/, compare with <file>.expected.json.

Set CLAIMWATCH_UPDATE_GOLDEN=1 to rewrite the expected files, then review the diff.
"""

import json
import os
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest

import watchers
from db.ledger import load_ledger
from monitor.config import WatcherConfig
from watchers.base import Fetched, PollContext

DATA = Path(__file__).parent / "data"
GOLDEN = tomllib.loads((DATA / "golden.toml").read_text(encoding="utf-8"))["golden"]
CLAIMS = {c.id: c.spec for c in load_ledger("jalapeno").claims}
FETCHED_AT = datetime(2026, 10, 20, tzinfo=UTC)


def run(entry: dict) -> dict:
    config = WatcherConfig(name="golden", url="http://127.0.0.1/fixture", **entry["watcher"])
    watcher = watchers.build(config)
    body = (DATA / entry["file"]).read_bytes()
    parsed = watcher.parse(
        Fetched(url=config.url, status=200, headers={}, body=body, fetched_at=FETCHED_AT)
    )
    context = PollContext(claims=CLAIMS, previous=None)
    return {
        "warning": parsed.warning is not None,
        "items": [
            {
                "dedupe_key": i.dedupe_key,
                "title": i.title,
                "url": i.url,
                "published_at": i.published_at.isoformat() if i.published_at else None,
                "data": i.data,
                "candidates": [
                    [c.claim_id, c.key, c.value, c.signal] for c in watcher.extract(i, context)
                ],
            }
            for i in parsed.items
        ],
    }


@pytest.mark.parametrize("entry", GOLDEN, ids=[g["file"] for g in GOLDEN])
def test_golden(entry):
    got = json.loads(json.dumps(run(entry), ensure_ascii=False))
    expected_path = DATA / f"{entry['file']}.expected.json"
    if os.environ.get("CLAIMWATCH_UPDATE_GOLDEN"):
        expected_path.write_text(
            json.dumps(got, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
    assert got == json.loads(expected_path.read_text(encoding="utf-8"))


def test_every_kind_has_a_golden_fixture():
    assert {g["watcher"]["kind"] for g in GOLDEN} == set(watchers.KINDS)
