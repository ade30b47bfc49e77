"""The extraction table: one parametrised test over tests/data/extraction.toml."""

import tomllib
from pathlib import Path

import pytest

from db.ledger import load_ledger
from watchers.base import ParsedItem
from watchers.extract import extract_item, is_relevant

DATA = Path(__file__).parent / "data"

CASES = tomllib.loads((DATA / "extraction.toml").read_text(encoding="utf-8"))["case"]
CLAIMS = {c.id: c.spec for c in load_ledger("jalapeno").claims}


def _norm(value) -> str:
    if isinstance(value, list):
        return repr([float(v) for v in value])
    return repr(float(value)) if isinstance(value, int | float) else repr(value)


def test_the_table_is_large_and_bilingual():
    assert len(CASES) >= 60
    assert (
        sum(any("\u4e00" <= ch <= "\u9fff" for ch in c["title"] + c.get("text", "")) for c in CASES)
        >= 25
    )


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_extraction(case):
    item = ParsedItem(dedupe_key="k", title=case["title"], text=case.get("text", ""))
    found = extract_item(item, CLAIMS)
    got = sorted((c.claim_id, _norm(c.value)) for c in found)
    expected = sorted((claim, _norm(value)) for claim, value in case["expect"])
    assert got == expected
    if "measured" in case:
        assert all(c.measured == case["measured"] for c in found if c.signal == "figures")
    for candidate in found:
        assert candidate.excerpt and len(candidate.excerpt) <= 400


def test_signals_can_be_limited():
    item = ParsedItem(
        dedupe_key="k",
        title="Independent re-test puts OpenAI's Jalapeño at 80,100 tokens/s/kW on GPT-OSS 120B",
    )
    found = extract_item(item, CLAIMS, only=["figures"])
    assert [c.claim_id for c in found] == ["jalapeno.tokens-per-kw.gpt-oss-120b"]


@pytest.mark.parametrize(
    ("text", "relevant"),
    [
        ("OpenAI Jalapeño chip", True),
        ("jalapeno ASIC from OpenAI", True),
        ("Jalapeno poppers", False),
        ("OpenAI's custom inference chip", True),
        ("OpenAI 自研推理芯片", True),
        ("OpenAI raises prices", False),
    ],
)
def test_relevance(text, relevant):
    assert is_relevant(text) is relevant
