"""Literal prefilters leave what a pattern matches unchanged: they only skip searches that could
not match."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from watchers.context import cues
from watchers.extract import rules
from watchers.needles import Alternatives, needles, present

PATTERNS = [
    r"independent(?:ly)? re-?test",
    r"(?:outside|third-party) lab",
    r"良率(?:已)?提升",
    r"[ab]cd",
    r"\bB0\b.{0,20}back",
    r"(?:foo)?bar",
    r"x{2,}y",
    r"\d+ ms",
    r"不(?!仅|但)",
    r"\?",
]
WORDS = [
    "independent",
    "re-test",
    "retest",
    "outside",
    "lab",
    "third-party",
    "良率",
    "已",
    "提升",
    "acd",
    "bcd",
    "B0",
    "back",
    "bar",
    "foobar",
    "xxy",
    "12 ms",
    "不",
    "不仅",
    "?",
    " ",
    ".",
]


def test_needles_are_words_every_match_holds():
    assert needles(re.compile(r"independent(?:ly)? re-?test", re.I)) == {"independent"}
    assert needles(re.compile(r"(?:outside|third-party) lab", re.I)) == {"outside", "third-party"}
    assert needles(re.compile(r"[ab]cd", re.I)) == {"cd"}
    assert needles(re.compile(r"\d+ ms|\w+", re.I)) is None  # a branch without a word


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=12).map("".join))
def test_alternatives_match_what_the_whole_alternation_matches(text):
    narrowed = Alternatives(PATTERNS)
    whole = re.compile("|".join(f"(?:{p})" for p in PATTERNS), re.I)
    assert [m.span() for m in narrowed.finditer(text)] == [m.span() for m in whole.finditer(text)]
    assert narrowed.sub("#", text) == whole.sub("#", text)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.sampled_from(WORDS + ["Jalapeño", "OpenAI", "未", "将", "will", "not"]), max_size=16
    ).map(" ".join)
)
def test_the_cue_and_signal_tables_match_as_their_whole_alternations(text):
    tables = [a for entries in cues().by_direction.values() for _, a in entries]
    tables += [s.quick for subject in rules().subjects for s in subject.signals]
    for alternatives in tables:
        whole = alternatives.full
        assert [m.span() for m in alternatives.finditer(text)] == [
            m.span() for m in whole.finditer(text)
        ]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=12).map("".join))
def test_a_part_left_out_for_a_text_matches_nowhere_in_it(text):
    alternatives = Alternatives(PATTERNS)
    lowered = text.lower()
    kept = alternatives.kept(lowered)
    for i, pattern in enumerate(PATTERNS):
        if i not in kept:
            assert re.search(pattern, text, re.I) is None, pattern
    if alternatives.absent(present(lowered)):
        assert alternatives.full.search(text) is None
    assert not alternatives.absent(present("an independent re-test"))


def test_every_needle_in_a_text_is_found_also_inside_and_overlapping_others():
    Alternatives([r"re-test(?:ed)?", r"tested by", r"test\b", r"测试", r"复测试"])
    found = present("re-tested by a lab; 复测试")
    assert {"re-test", "tested by", "test", "测试", "复测试"} <= found
    assert "re-test" not in present("a retest")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=12).map("".join))
def test_the_needles_found_in_a_text_are_those_it_holds(text):
    Alternatives(PATTERNS)
    lowered = text.lower()
    found = present(lowered)
    for words in (needles(re.compile(p, re.I)) for p in PATTERNS):
        for word in words or ():
            assert (word in found) == (word in lowered)


def test_needles_learned_after_a_text_was_read_are_found_in_it():
    """A text read before a new pattern's needles were known is read again for them."""
    text = "zqxj-one and zqxj-two"
    Alternatives([r"zqxj-one"])
    assert "zqxj-one" in present(text)
    later = Alternatives([r"zqxj-two"])
    assert "zqxj-two" in present(text)
    assert later.search(text) is not None


def test_narrowed_alternations_kept_are_bounded(monkeypatch):
    monkeypatch.setattr("watchers.needles._HELD", 8)
    monkeypatch.setattr("watchers.needles._OFTEN", 0)
    words = [f"cue{n:02d}" for n in range(12)]
    alternatives = Alternatives([rf"\b{w}\b" for w in words])
    for n in range(40):  # forty texts, each holding its own set of two cue words
        text = f"{words[n % 12]} and {words[(n * 5 + 1) % 12]}"
        assert alternatives.search(text).group(0) == text.split()[0]
    assert 0 < len(alternatives._subsets) <= 8


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WORDS + ["-", "x"]), max_size=12).map("".join))
def test_parts_searched_one_by_one_or_compiled_together_match_alike(text):
    """A few parts are searched one by one until they are asked for often enough to compile
    together; both ways find what the whole alternation finds, empty matches included."""
    patterns = [*PATTERNS, r"-?", r"x+|(?<=b)"]
    alternatives = Alternatives(patterns)
    whole = re.compile("|".join(f"(?:{p})" for p in patterns), re.I)
    for _ in range(6):
        for pos in range(len(text) + 1):
            assert span(alternatives.search(text, pos)) == span(whole.search(text, pos))
            assert span(alternatives.match(text, pos)) == span(whole.match(text, pos))
            assert span(alternatives.fullmatch(text, pos)) == span(whole.fullmatch(text, pos))
        assert [m.span() for m in alternatives.finditer(text)] == [
            m.span() for m in whole.finditer(text)
        ]
        assert alternatives.sub("<\\g<0>>", text) == whole.sub("<\\g<0>>", text)
        assert alternatives.sub(lambda m: m.group(0).upper(), text, 2) == whole.sub(
            lambda m: m.group(0).upper(), text, 2
        )


def span(found):
    return None if found is None else found.span()


def test_conjuncts_are_every_plain_word_a_match_needs():
    from watchers.needles import conjuncts

    source = r"\bopenai\b[^.;]{0,80}\bthe company(?:'s|’s)\s+(?:chips?|accelerators?)\b"
    assert set(conjuncts(source, re.I)) == {
        frozenset({"openai"}),
        frozenset({"chip", "accelerator"}),
    }  # "the company" holds a space, and "'s" is no word
    assert conjuncts(r"\d+ ms|\w+", re.I) == ()  # a branch without a word


RAW_PATTERNS = [
    r"\bopenai\b.{0,40}\bthe company's (?:chip|asic)",
    r"\ba0\s+(?:boards?|silicon|systems?)\b",
    r"(?:outside|third-party) lab\w*",
    r"良率(?:已)?提升",
]
RAW_WORDS = ["openai", "the company's", "chip", "asic", "a0", "boards", "silicon", "systems"]
RAW_WORDS += ["outside", "third-party", "labs", "良率", "已", "提升", " ", "."]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(RAW_WORDS), max_size=12).map(" ".join))
def test_a_text_said_to_hold_no_match_holds_none(text):
    alternatives = Alternatives(RAW_PATTERNS)
    if not alternatives.may_hold(text.lower()):
        assert alternatives.full.search(text) is None
    assert not alternatives.may_hold("the company's systems are on their way")
    assert alternatives.may_hold("openai said the company's chip is late")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(RAW_WORDS + ["rubin", "vera", "nvidia"]), max_size=12).map(" ".join)
)
def test_words_found_in_one_pass_for_many_alternations_give_each_its_own_answer(text):
    from watchers.needles import automaton

    alternatives = Alternatives(RAW_PATTERNS)
    other = Alternatives([r"\bvera rubin\b", r"\bnvidia\b.{0,20}\brubin\b"])
    words = alternatives.raw_needles() | other.raw_needles()
    found = frozenset(word for _, word in automaton(words).iter(text.lower()))
    assert alternatives.may_hold(text.lower(), found) == alternatives.may_hold(text.lower())
    assert other.may_hold(text.lower(), found) == other.may_hold(text.lower())


@pytest.mark.parametrize(
    "bad", [r"(?<=a+)b", r"(abc", r"\bfoo(?<!x|yz)", r"(?<!a{2,3})x", r"a{3,2}"]
)
def test_a_part_compiling_would_refuse_is_refused_when_the_alternation_is_built(bad):
    with pytest.raises(re.error):
        re.compile(bad)
    with pytest.raises(re.error):
        Alternatives(["fine", bad])


def test_the_whole_alternation_is_compiled_only_when_searched_whole():
    alternatives = Alternatives([r"(?<=ab)c", r"(?<!\bthe )x\w+", r"fine"])
    assert "full" not in vars(alternatives)
    assert alternatives.search("so fine") is not None
    assert alternatives.full.pattern == alternatives.pattern
    assert alternatives.full.search("abc").group(0) == "c"
