"""Signal extraction measured end to end: the seed articles change nothing, a second ledger and a
user's own ledger fire through a real poll, and the labelled corpus holds its precision."""

import json
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

from db.ledger import load_ledger
from tests.test_poll import observations, poller
from watchers.corpus import load, predict, score, tally
from watchers.extract import rules

ROOT = Path(__file__).parent.parent
SEEDS = sorted((ROOT / "tests" / "data" / "seeds").glob("*.txt"))


def feed(items: list[tuple[str, str]]) -> bytes:
    entries = "".join(
        f"<item><guid>g{n}</guid><title>{escape(title)}</title><description>{escape(text)}</description></item>"
        for n, (title, text) in enumerate(items)
    )
    return f'<rss version="2.0"><channel><title>T</title>{entries}</channel></rss>'.encode()


def test_the_seed_articles_polled_as_a_feed_change_nothing(server, make_settings):
    assert len(SEEDS) == 4
    items = []
    for path in SEEDS:
        title, _, body = path.read_text(encoding="utf-8").partition("\n")
        items.append((title.strip(), body))
    server.expect_request("/seeds").respond_with_data(
        feed(items), content_type="application/rss+xml"
    )
    p, engine = poller(
        make_settings([{"name": "seeds", "kind": "feed", "url": server.url_for("/seeds")}])
    )
    report = p.poll("seeds")
    assert report.outcome == "ok" and report.items == 4
    assert report.changes == 0
    assert not [o for o in observations(engine) if o.changed]


def test_the_second_ledger_fires_through_a_poll(server, make_settings):
    items = [
        (
            "Nvidia: a gigawatt of Vera Rubin systems is now online",
            "Nvidia said on Wednesday that more than a gigawatt of Vera Rubin capacity is operating at customer sites.",
        ),
        (
            "Will Rubin reach volume production this quarter?",
            "Analysts wonder whether Nvidia's Rubin GPUs can ship in volume.",
        ),
    ]
    server.expect_request("/nv").respond_with_data(feed(items), content_type="application/rss+xml")
    settings = make_settings(
        [{"name": "nv", "kind": "feed", "url": server.url_for("/nv")}], claims=["jalapeno", "rubin"]
    )
    p, engine = poller(settings)
    assert p.poll("nv").changes == 1
    first_gw = observations(engine, claim_id="nvidia.rubin.first-gw")
    assert [(json.loads(o.value), o.changed) for o in first_gw] == [("met", True)]
    assert not observations(engine, claim_id="rubin.volume-production")


FLOORS = [
    ("dev", 1, 1),
    ("holdout", 1, 1),
    ("fresh", 1, 1),
    ("blind", 1, 1),
    ("probe", 1, 0.99),
    ("field", 1, 1),
    ("wire", 1, 0.99),
    ("slate", 1, 1),
    ("ridge", 1, 1),
    ("quay", 1, 1),
    ("tern", 1, 0.98),
    ("vale", 1, 0.98),
    ("wren", 1, 1),
    ("yarrow", 1, 0.98),
    ("aspen", 1, 1),
    ("birch", 1, 0.89),
    ("cedar", 1, 1),
    ("elm", 1, 1),
    ("fir", 1, 0.96),
    ("hazel", 1, 0.95),
    ("ivy", 1, 0.97),
    ("juniper", 1, 1),
    ("larch", 1, 0.93),
    ("maple", 1, 0.98),
    ("rowan", 1, 0.97),
    ("oak", 1, 1),
    ("pine", 0.98, 0.94),
    ("quince", 0.98, 0.94),
    ("umber", 0.98, 0.9),
    ("sumac", 0.97, 0.89),
    ("teak", 0.98, 0.93),
    ("xylem", 0.93, 0.49),
    ("violet", 0.97, 0.85),
    ("zelkova", 0.95, 0.92),
    ("walnut", 0.95, 0.95),
    ("yew", 0.98, 0.87),
    ("alder", 0.97, 0.94),
    ("ash", 0.98, 0.96),
    ("beech", 0.97, 0.96),
    ("cypress", 1, 0.98),
    ("hawthorn", 0.98, 0.9),
    ("dogwood", 0.97, 0.9),
    ("fig", 0.96, 0.92),
    ("gorse", 0.98, 0.91),  # gorse-zh-0042 reads scripts used as a release; other sets do not
    ("myrtle", 0.95, 0.86),
    ("holly", 0.84, 0.88),
    ("willow", 0.98, 0.86),
    ("linden", 0.82, 0.82),
    ("poplar", 0.97, 0.89),
    ("spruce", 0.95, 0.95),
    ("olive", 0.9, 0.92),
    ("hornbeam", 0.97, 0.86),
    ("chestnut", 0.96, 0.85),
    ("laurel", 0.98, 0.98),
    ("acacia", 1, 0.98),
    ("sequoia", 1, 0.89),
    ("cherry", 1, 0.96),
    ("redwood", 0.8, 0.82),
    ("elder", 0.97, 0.95),
    ("banyan", 1, 0.94),
    ("ginkgo", 1, 0.92),
    ("hemlock", 1, 0.94),
    ("magnolia", 0.95, 0.97),
    ("tamarind", 0.98, 0.93),
    ("mulberry", 0.98, 0.97),
    ("palm", 0.96, 0.93),
    ("hickory", 0.98, 0.96),
    ("sassafras", 0.94, 0.9),
    ("catalpa", 0.92, 0.96),
    ("tupelo", 0.96, 0.89),
    ("baobab", 0.98, 1),
    ("sycamore", 0.98, 0.93),
    ("jacaranda", 1, 0.93),
    ("kapok", 0.86, 0.58),
    ("rosewood", 1, 0.91),
    ("boxwood", 1, 0.97),
    ("buckeye", 1, 0.83),
    ("locust", 1, 0.97),
    ("mahogany", 0.95, 0.88),
    ("ebony", 0.98, 0.93),
    ("wisteria", 0.98, 0.93),
    ("camphor", 0.92, 0.91),
    ("cottonwood", 0.94, 0.94),
    ("eucalyptus", 1, 1),
    ("buckthorn", 0.95, 0.8),
    ("hackberry", 0.93, 0.9),
    ("sweetgum", 1, 0.98),
    ("tamarack", 1, 0.88),
    ("persimmon", 0.95, 0.9),
    ("yellowwood", 0.95, 0.8),
    ("silverbell", 0.97, 0.85),
    ("basswood", 0.96, 0.89),
    ("yellowhorn", 0.98, 0.83),
    ("ironwood", 0.99, 0.97),
    ("sandalwood", 1, 0.98),
    ("lacebark", 1, 0.94),
    ("pawpaw", 0.96, 0.98),
    ("mesquite", 0.98, 0.94),
    ("tulipwood", 1, 0.93),
    ("ailanthus", 1, 0.85),
    ("sourwood", 1, 0.97),
    ("ironbark", 0.98, 0.96),
    ("whitebeam", 1, 0.89),
    ("blackthorn", 0.98, 0.92),
    ("paperbark", 1, 0.96),
    ("jarrah", 0.97, 0.95),
    ("karri", 1, 0.94),
    ("quandong", 1, 0.85),
    ("gidgee", 1, 0.9),
    ("mallee", 1, 0.96),
    ("coolabah", 1, 0.91),
    ("marri", 0.97, 0.85),
    ("tuart", 0.94, 0.85),
    ("brigalow", 0.98, 0.91),
    ("myall", 0.97, 0.98),
    ("yate", 0.98, 0.87),
    ("tingle", 1, 0.96),
    ("wandoo", 0.98, 0.89),
    ("boree", 0.91, 0.73),
    ("mulga", 1, 1),
    ("belah", 1, 0.96),
    ("bloodwood", 0.97, 0.9),
    ("gimlet", 1, 0.94),
    ("ghostgum", 0.96, 0.92),
    ("kurrajong", 1, 0.96),
    ("blackbutt", 0.93, 0.8),
    ("grevillea", 1, 0.97),
    ("waratah", 0.95, 0.97),
    ("banksia", 0.96, 0.95),
    ("wattle", 1, 0.96),
    ("boronia", 1, 0.98),
    ("hakea", 0.96, 0.85),
    ("melaleuca", 0.9, 0.8),
    ("correa", 0.7, 0.8),
    ("manuka", 1, 0.97),
    ("totara", 0.93, 0.98),
    ("rimu", 0.97, 0.96),
    ("kowhai", 0.9, 0.8),
    ("harakeke", 0.97, 0.93),
    ("pohutukawa", 0.91, 0.93),
    ("kauri", 0.94, 0.86),
    ("karaka", 0.89, 0.93),
    ("matai", 0.94, 0.88),
    ("kahikatea", 0.94, 0.86),
    ("miro", 0.95, 0.91),
    ("tawa", 0.97, 0.84),
    ("rata", 0.92, 0.88),
    ("kawakawa", 0.96, 0.93),
    ("puriri", 0.94, 0.97),
    ("titoki", 0.92, 0.88),
    ("hinau", 0.96, 0.9),
    ("tanekaha", 0.94, 0.92),
    ("mahoe", 0.91, 0.8),
    ("kamahi", 0.96, 0.96),
    ("kohekohe", 0.91, 0.93),
    ("pukatea", 0.98, 0.96),
    ("rewarewa", 0.97, 0.78),
    ("tarata", 1, 0.95),
    ("kanuka", 1, 0.97),
    ("horoeka", 1, 0.95),
    ("mapou", 1, 0.95),
    ("tawari", 1, 0.96),
    ("toro", 0.92, 0.93),
    ("ramarama", 1, 0.87),
    ("hutu", 0.96, 0.88),
    ("kohuhu", 0.97, 0.91),
    ("tawhero", 0.94, 0.9),
    ("rohutu", 0.83, 0.79),
]


def test_every_labelled_set_is_held_to_a_floor():
    assert {name for name, _, _ in FLOORS} == {
        p.stem for p in (ROOT / "tests" / "corpus").glob("*.toml")
    }


@pytest.mark.parametrize(("name", "precision", "recall"), FLOORS)
def test_the_labelled_corpus_holds(name, precision, recall):
    """Figures bench/signals.py prints; a change that costs precision or recall fails here."""
    specs = {c.id: c.spec for ledger in ("jalapeno", "rubin") for c in load_ledger(ledger).claims}
    items = load(ROOT / "tests" / "corpus" / f"{name}.toml", ROOT)
    outcomes = [score(i, predict(i.item, specs, rules())) for i in items]
    overall = tally(outcomes)["all"]
    assert overall.precision >= precision, f"{name}: precision {overall.precision:.3f}"
    assert overall.recall >= recall, f"{name}: recall {overall.recall:.3f}"
    seeds = [o for o in outcomes if o.item.style == "seed"]
    assert not any(o.predicted for o in seeds)


def test_a_doubled_escape_in_a_signal_file_is_refused(tmp_path):
    from watchers.vocabulary import VocabularyError
    from watchers.vocabulary import rules as load

    path = tmp_path / "typo.toml"
    path.write_text(
        '[[signals]]\nid = "t"\nclaim = "jalapeno.mtp"\nvalue = "enabled"\n'
        "patterns = ['mtp\\\\s+on']\n",
        encoding="utf-8",
    )
    with pytest.raises(
        VocabularyError, match=r"typo\.toml: signal t: pattern .* doubled backslash"
    ):
        load((str(path),))


def test_a_word_is_written_once_and_used_by_name(tmp_path):
    from watchers.vocabulary import rules as load

    path = tmp_path / "words.toml"
    path.write_text(
        "[words]\nstep = '\\bb0\\b|\\bthe respin\\b'\n"
        '[[signals]]\nid = "t"\nclaim = "jalapeno.b0.status"\nvalue = "samples back"\n'
        "patterns = ['{{step}}\\s+(?:is\\s+)?back']\n",
        encoding="utf-8",
    )
    (signal,) = [s for s in load((str(path),)).subjects[0].signals if s.id == "t"]
    assert signal.patterns[0].search("the respin is back")
    assert signal.patterns[0].search("B0 back from TSMC")
    assert not signal.patterns[0].search("the second stepping is back")


def test_a_word_not_in_the_words_table_is_refused(tmp_path):
    from watchers.vocabulary import VocabularyError
    from watchers.vocabulary import rules as load

    path = tmp_path / "missing.toml"
    path.write_text(
        '[[signals]]\nid = "t"\nclaim = "jalapeno.mtp"\nvalue = "enabled"\n'
        "patterns = ['{{step}} on']\n",
        encoding="utf-8",
    )
    with pytest.raises(VocabularyError, match=r"missing\.toml: \{\{step\}\} is not in \[words\]"):
        load((str(path),))
