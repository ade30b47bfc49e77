"""The needle store: what the regex parser reads of a pattern, kept between processes, gives the
same needles as reading it anew, and a store that is missing, broken or unwritable changes
nothing but the time."""

import json
import re

import pytest

from watchers import needle_store, needles

PATTERNS = [r"independent(?:ly)? re-?test", r"良率(?:已)?提升", r"\d+ ms", r"(?:foo)?bar"]


@pytest.fixture
def fresh(monkeypatch):
    """An empty memory of patterns read, as in a new process."""
    monkeypatch.setattr(needles, "_READS", {})
    monkeypatch.setattr(needles, "_KEPT", set())


def read_all() -> list:
    return [needles._needles(p, re.I) for p in PATTERNS]


def test_a_stored_pattern_gives_the_needles_of_reading_it_anew(fresh, tmp_path, monkeypatch):
    store = tmp_path / "needles.json"
    expected = read_all()
    assert needle_store.save(store)
    monkeypatch.setattr(needles, "_READS", {})
    monkeypatch.setattr(needles, "_KEPT", set())
    assert needle_store.load(store) == len(PATTERNS)
    monkeypatch.setattr(needles, "_parsed", lambda *a: pytest.fail("read anew, not from store"))
    assert read_all() == expected
    assert expected[0] == frozenset({"independent"})


def test_nothing_new_writes_nothing(fresh, tmp_path):
    store = tmp_path / "needles.json"
    read_all()
    assert needle_store.save(store)
    assert not needle_store.save(store)  # nothing read since
    needles._needles(r"quarterly yield", re.I)
    assert needle_store.save(store)
    assert "2:quarterly yield" in json.loads(store.read_text(encoding="utf-8"))


def test_a_pattern_that_is_no_pattern_is_never_stored(fresh, tmp_path):
    store = tmp_path / "needles.json"
    with pytest.raises(re.error):
        needles.checked(r"(?<=a+)b", re.I)
    needles._needles("ok", re.I)
    assert needle_store.save(store)
    assert list(json.loads(store.read_text(encoding="utf-8"))) == ["2:ok"]


@pytest.mark.parametrize(
    "content",
    ["not json", "[1, 2]", '{"2:x": [[1]]}', '{"x:y": null}', '{"2:x": "words"}', ""],
)
def test_a_broken_store_is_passed_over(fresh, tmp_path, content):
    store = tmp_path / "needles.json"
    store.write_text(content, encoding="utf-8")
    assert needle_store.load(store) == 0
    assert read_all()[0] == frozenset({"independent"})


def test_an_oversized_store_is_not_read(fresh, tmp_path, monkeypatch):
    store = tmp_path / "needles.json"
    store.write_text('{"2:x": null}', encoding="utf-8")
    monkeypatch.setattr(needle_store, "LIMIT", 4)
    assert needle_store.load(store) == 0


def test_an_unwritable_store_is_passed_over(fresh, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    read_all()
    assert not needle_store.save(blocker / "sub" / "needles.json")
    assert not list(tmp_path.glob("**/.needles-*"))


def test_where_the_store_lives(tmp_path):
    assert needle_store.location({"CLAIMWATCH_CACHE_DIR": ""}) is None
    mine = needle_store.location({"CLAIMWATCH_CACHE_DIR": str(tmp_path)})
    assert mine.parent == tmp_path and mine.name.startswith("needles-py3")
    xdg = needle_store.location({"XDG_CACHE_HOME": str(tmp_path)})
    assert xdg.parent == tmp_path / "claimwatch"


def test_no_home_keeps_nothing(monkeypatch):
    def no_home():
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(needle_store.Path, "home", staticmethod(no_home))
    assert needle_store.location({}) is None
