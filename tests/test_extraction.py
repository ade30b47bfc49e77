"""The extraction table: one parametrised test over tests/data/extraction.toml."""

import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path

import pytest

from db.ledger import load_ledger
from watchers.base import ParsedItem
from watchers.extract import extract_item, is_relevant, rules
from watchers.quantities import quantities
from watchers.text import normalise

DATA = Path(__file__).parent / "data"

CASES = tomllib.loads((DATA / "extraction.toml").read_text(encoding="utf-8"))["case"]
CLAIMS = {c.id: c.spec for c in load_ledger("jalapeno").claims}


@cache
def _claims(ledgers: tuple[str, ...]) -> dict[str, dict]:
    """The claims of the ledgers a case reads against (the `jalapeno` ledger unless it says)."""
    return {c.id: c.spec for name in ledgers for c in load_ledger(name).claims}


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
    found = extract_item(item, _claims(tuple(case.get("ledgers", ["jalapeno"]))))
    got = sorted((c.claim_id, _norm(c.value)) for c in found)
    expected = sorted((claim, _norm(value)) for claim, value in case["expect"])
    assert got == expected
    if "measured" in case:
        assert all(c.measured == case["measured"] for c in found if c.signal == "figures")
    for candidate in found:
        assert candidate.excerpt and len(candidate.excerpt) <= 400
        assert candidate.mismatch == case.get("mismatch", {}).get(candidate.claim_id, "")


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


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("单用户每秒六百三十个token", "单用户每秒 630 个 token"),
        # token counts said aloud: "eight k in one k out", "the eight k one k scenario"
        ("eight k in one k out", "8k in 1k out"),
        ("at the eight k one k scenario", "at the 8k 1k scenario"),
        ("thirty two k context", "32k context"),
        ("a k of", "a k of"),
        ("持续功耗五百八十六瓦", "持续功耗 586 瓦"),
        ("每千瓦一万四千六百token", "每千瓦 14600token"),
        ("一点九倍", "1.9 倍"),
        ("B0良率六成五", "B0 良率 65%"),
        # numerals that are no figure stay words
        ("第二代芯片", "第二代芯片"),
        ("三款模型", "三款模型"),
        ("领先一成", "领先一成"),
        # a share of parts said as a fraction is a percentage; of anything else it stays words
        ("four of every five dies pass", "80% of dies pass"),
        ("nine in ten chips", "90% of chips"),
        ("3 out of 4 B0 parts", "75% of B0 parts"),
        ("two of the three models", "two of the three models"),
        ("four in five analysts", "four in five analysts"),
        # a tens word is a figure before its unit; a small number word stays
        ("forty-one times", "41 times"),
        ("fifty-four percent", "54 percent"),
        ("three times", "three times"),
        # a span in words: both ends are figures; "and" joins words only after a scale
        ("between one point eight and three point five times", "between 1.8 and 3.5 times"),
        ("two and three models", "two and three models"),
        # a half said after a tens word
        ("forty-four and a half times the work", "44.5 times the work"),
        ("twenty and a half tokens a second", "20.5 tokens a second"),
        ("four and a half times faster", "4.5 times faster"),
        ("the first half of 2027", "the first half of 2027"),
    ],
)
def test_chinese_numerals_before_a_unit_become_figures(text, normal):
    from watchers.text import normalise

    assert normalise(text) == normal


def test_a_figure_in_chinese_numerals_is_read():
    item = ParsedItem(
        dedupe_key="cn",
        title="独立实验室实测 Jalapeño",
        text="一家与 OpenAI 无关的独立实验室实测 Jalapeño 跑 Kimi K2.5，单用户每秒六百三十个 token。",
    )
    found = {(c.claim_id, c.value) for c in extract_item(item, CLAIMS)}
    assert ("jalapeno.tokens-per-user.kimi-k2.5", 630.0) in found


def test_a_markdown_table_reads_a_row_a_sentence_with_its_column_units():
    from watchers.text import normalise

    table = (
        "| Model | Jalapeño (tok/s per W) | GB300 (tok/s per W) |\n"
        "|---|---:|---:|\n"
        "| DeepSeek R1 | 18.7 | 12.3 |"
    )
    assert normalise(table) == "DeepSeek R1: Jalapeño 18.7 tok/s per W; GB300 12.3 tok/s per W."
    item = ParsedItem(
        dedupe_key="t",
        title="An independent lab re-tested Jalapeño",
        text="Researchers at an independent lab measured Jalapeño themselves.\n\n" + table,
    )
    found = {(c.claim_id, c.value) for c in extract_item(item, CLAIMS)}
    assert ("jalapeno.tokens-per-kw.deepseek-r1", 18700.0) in found
    assert not any(value == 12300.0 for _, value in found)  # the comparator's column


def test_a_plain_text_table_reads_like_a_markdown_one():
    from watchers.text import normalise

    table = (
        "Model          Jalapeño           Nvidia system\n"
        "-------------  -----------------  ----------------\n"
        "DeepSeek R1    9,800 tok/s/kW     121 (GB300)\n"
    )
    assert normalise(table) == "DeepSeek R1: Jalapeño 9,800 tok/s/kW; Nvidia system 121 (GB300).\n"


def test_a_list_under_a_per_user_heading_reads_per_user():
    item = ParsedItem(
        dedupe_key="h",
        title="独立实验室复测 Jalapeño",
        text="上海一家独立实验室自行复测了 Jalapeño。单用户生成速度：\nGPT-OSS 120B：1380 tokens/s\nKimi K2.5：720 tokens/s",
    )
    found = {(c.claim_id, c.value) for c in extract_item(item, CLAIMS)}
    assert ("jalapeno.tokens-per-user.gpt-oss-120b", 1380.0) in found
    assert ("jalapeno.tokens-per-user.kimi-k2.5", 720.0) in found


def test_a_long_line_of_columns_without_a_table_is_left_as_text():
    from watchers.text import normalise

    line = "a  " * 30000  # columns apart by two spaces, 90,000 characters, no rule under them
    assert normalise(line + "\n---  ---") == "a " * 29999 + "a \n--- ---"


@pytest.mark.parametrize(
    ("text", "word", "expected"),
    [
        # a negation inside an aside stops before the main verb after it
        (
            "Harbor Labs, which has no commercial ties to either company, has now released a study.",
            "released",
            None,
        ),
        ("The lab has not released a study.", "released", "negated"),
        # "That was incorrect." withdraws the sentence before it
        ("A story said the lab re-tested it. That was incorrect.", "re-tested", "retracted"),
    ],
)
def test_how_far_a_cue_reaches(text, word, expected):
    from watchers.context import looking_back, scopes, status
    from watchers.text import sentences

    split = sentences(text)
    back = [looking_back(s) for s in split[1:]] + [frozenset()]
    for sentence, given in zip(split, back, strict=True):
        at = sentence.text.find(word)
        if at >= 0:
            assert status(scopes(sentence, whole=given), at) == expected


def test_a_header_that_is_a_unit_follows_its_cells():
    from watchers.text import normalise

    table = (
        "| Model | System | Peak tok/s/kW | tok/s/user |\n"
        "|---|---|---:|---:|\n"
        "| Kimi K2.5 | Jalapeño | 17,100 | 702 |\n"
    )
    assert (
        normalise(table).strip()
        == "Kimi K2.5: System Jalapeño; Peak 17,100 tok/s/kW; 702 tok/s/user."
    )


def test_an_aligned_table_without_a_rule_reads_like_one_with_it():
    from watchers.text import normalise

    table = (
        "模型              端到端延迟        单用户速度\n"
        "GPT-OSS 120B      1,180 毫秒        1,452 token/s\n"
        "DeepSeek R1       2.41 秒           738 token/s\n"
        "说明：五次运行中位数。"
    )
    assert normalise(table).splitlines()[:2] == [
        "GPT-OSS 120B: 端到端延迟 1,180 毫秒; 单用户速度 1,452 token/s.",
        "DeepSeek R1: 端到端延迟 2.41 秒; 单用户速度 738 token/s.",
    ]


def test_prose_with_double_spaces_is_no_table():
    from watchers.text import normalise

    text = "OpenAI said  the chip  shipped.\nIt ran  three  models  in  August."
    assert normalise(text) == "OpenAI said the chip shipped.\nIt ran three models in August."


def test_a_pipe_table_without_outer_pipes_or_a_rule_gives_bare_cells_the_row_labels_unit():
    from watchers.text import normalise

    table = (
        "metric                   | Lab measured | OpenAI\n"
        "tok/s per user, single   | 733          | 700\n"
        "tok/s per kW, peak       | 19,100       | 19,600\n"
    )
    assert normalise(table).splitlines()[:2] == [
        "tok/s per user, single: Lab measured 733 tok/s per user; OpenAI 700 tok/s per user.",
        "tok/s per kW, peak: Lab measured 19,100 tok/s per kW; OpenAI 19,600 tok/s per kW.",
    ]


def test_a_metric_column_gives_its_unit_to_the_rows_bare_figures():
    from watchers.text import normalise

    table = (
        "| model | metric | Jalapeño | GB300 |\n"
        "|---|---|---:|---:|\n"
        "| Kimi K2.5 | tok/s/kW (peak) | 17.2k | 11.9k |\n"
    )
    assert normalise(table).strip() == (
        "Kimi K2.5: metric tok/s/kW (peak); Jalapeño 17.2k tok/s/kW; GB300 11.9k tok/s/kW."
    )


def test_the_quick_test_passes_over_only_items_about_no_subject():
    """The test on raw text before normalising never drops an item a subject is relevant to."""
    from watchers.corpus import load
    from watchers.text import normalise

    table = rules()
    root = Path(__file__).parent.parent
    texts = [
        (i.item.title, i.item.text)
        for path in sorted((root / "tests" / "corpus").glob("*.toml"))
        for i in load(path, root)
    ]
    texts += [(c["title"], c.get("text", "")) for c in CASES]
    texts += [
        ("ＪＡＬＡＰＥÑＯ ＯｐｅｎＡＩ 芯片", ""),
        ("OpenAI\u00a0B0  part", ""),
        ("Rubin ships", ""),
    ]
    texts += [
        (f"{firm} ships version 4.{n} of its {product}", "Faster builds, lower prices.")
        for n, (firm, product) in enumerate(
            [("Cobalt Cloud", "database"), ("Ember Networks", "edge router"), ("某公司", "数据库")]
            * 4
        )
    ]
    alone = [  # a subject's words, each without the others its pattern needs
        ("Arcturus Systems ships version 14.8", "The company said the release was tested."),
        ("The company's chip team grew", "Hiring at the firm doubled this year."),
    ]
    assert not any(table.may_concern(f"{title}\n{text}") for title, text in alone)
    texts += alone
    passed_over = 0
    for title, text in texts:
        if table.may_concern(f"{title}\n{text}"):
            continue
        passed_over += 1
        whole = f"{normalise(title)}.\n{normalise(text)}"
        assert not any(s.relevant(whole) for s in table.subjects), title
    assert passed_over >= 14  # the test does pass over the items about something else


def test_a_slip_said_as_no_longer_expected_before_a_deadline_moves_the_milestone():
    """'No longer expects … online before the end of 2026', then 'the milestone would be reached
    early in 2027': a deadline is no condition, and a milestone reached is no watch-list."""
    claims = {c.id: c.spec for name in ("jalapeno", "rubin") for c in load_ledger(name).claims}
    item = ParsedItem(
        dedupe_key="k",
        title="Nvidia pushes Rubin's first gigawatt",
        text="Nvidia no longer expects the first gigawatt of Vera Rubin systems to be online before "
        "the end of 2026, its finance chief said, adding that the milestone would be reached in "
        "early 2027.",
    )
    found = {(c.claim_id, c.value) for c in extract_item(item, claims)}
    assert ("nvidia.rubin.first-gw", "slipped") in found


def test_html_left_in_an_item_reads_as_lines_and_its_tables_as_rows():
    from watchers.text import normalise

    markup = (
        "<p>Runs by Wrenfield Labs.</p><table><caption>Tokens/s per kW</caption>"
        "<tr><th>Model</th><th>Jalapeño</th></tr><tr><td>DeepSeek R1</td><td>18,900</td></tr>"
        "</table><ul><li>MTP off &amp; rated power</li></ul>"
    )
    assert normalise(markup).splitlines() == [
        "Runs by Wrenfield Labs.",
        "Tokens/s per kW",
        "DeepSeek R1: Jalapeño 18,900 Tokens/s per kW.",
        "- MTP off & rated power",
    ]


@pytest.mark.parametrize(
    ("text", "value", "quantity"),
    [
        ("a lone user got 84,600 tokens per minute", 1410.0, "throughput-per-user"),
        ("一个用户独占整机，一分钟下来能收到约 7.87 万个 token", 1311.667, "throughput-per-user"),
        ("每分钟 78,700 个 token", 1311.667, "throughput"),
        ("per kW, 4.8 million tokens a minute", 80000.0, "throughput-per-power"),
        ("每秒 730 个 token", 730.0, "throughput"),  # a second stays a second
    ],
)
def test_tokens_counted_over_a_minute_are_a_sixtieth_of_them_a_second(text, value, quantity):
    (found,) = quantities(normalise(text))
    assert found.quantity == quantity
    assert found.value == pytest.approx(value, rel=1e-3)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("about 55 millijoules per token", 18181.818),
        ("0.054 J/token", 18518.519),
        ("each DeepSeek R1 token cost about fifty-five millijoules", 18181.818),
    ],
)
def test_energy_for_each_token_is_the_inverse_of_tokens_per_joule(text, value):
    (found,) = quantities(normalise(text))
    assert found.quantity == "throughput-per-power"
    assert found.value == pytest.approx(value, rel=1e-4)


def test_energy_with_no_token_is_no_throughput():
    assert quantities(normalise("the board drew 55 mJ in the idle state")) == ()


def test_an_energy_per_token_gives_no_denominator_to_the_throughput_after_it():
    found = quantities(
        normalise("each token cost about 55 millijoules, and it served 1,400 tokens/s")
    )
    assert [q.quantity for q in found] == ["throughput-per-power", "throughput"]
    assert found[1].value == 1400.0


def test_a_minute_before_a_rate_said_per_second_leaves_it_per_second():
    (found,) = quantities(normalise("a minute later it hit 1,400 tokens/s"))
    assert found.value == 1400.0


def test_a_story_read_before_is_not_read_again(monkeypatch):
    """The same wire story in many feeds is read once; other claims or other signals read it anew."""
    from watchers import extract

    reads = []
    real = extract._read_item
    monkeypatch.setattr(extract, "_read_item", lambda *a: reads.append(a[0].title) or real(*a))
    extract.forget_read()
    item = ParsedItem(
        dedupe_key="k",
        title="Independent re-test puts OpenAI's Jalapeño at 80,100 tokens/s/kW on GPT-OSS 120B",
    )
    first = extract_item(item, CLAIMS)
    again = extract_item(ParsedItem(dedupe_key="other", title=item.title), CLAIMS)
    assert again == first and len(reads) == 1
    extract_item(item, dict(CLAIMS))  # equal claims, another dict: the same reading
    assert len(reads) == 1
    changed = {**CLAIMS, "jalapeno.tokens-per-kw.gpt-oss-120b": {}}
    assert extract_item(item, changed) != first and len(reads) == 2
    extract_item(item, CLAIMS, only=["figures"])
    assert len(reads) == 3


def test_a_table_without_outer_pipes_reads_a_row_a_sentence_with_its_column_names():
    text = normalise(
        "指标 | 实验室实测 | OpenAI 官方\n---|---|---\nGPT-OSS 120B 单用户速度 | 1441 | 1459\n"
        "Kimi K2.5 单用户速度 | 641 | 694"
    )
    assert "GPT-OSS 120B 单用户速度: 实验室实测 1441; OpenAI 官方 1459." in text
    assert "Kimi K2.5 单用户速度: 实验室实测 641; OpenAI 官方 694." in text


def test_traditional_text_is_read_without_loading_pkg_resources():
    code = (
        "import sys\nfrom watchers.text import normalise\n"
        "print(normalise('台積電法說會：B0 良率傳出達 78%'))\n"
        "print('pkg_resources' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["台积电法说会:B0 良率传出达 78%", "False"]
