"""The dashboard through the app's test client: the board, claim pages, the API and the Atom feed."""

import io
import json
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta

import feedparser
import pytest
from click.testing import CliRunner
from sqlalchemy import insert
from sqlmodel import Session, select
from starlette.testclient import TestClient

from db.engine import make_engine, upgrade
from db.models import Alert, Item, Observation, WatcherState
from monitor.cli import cli
from monitor.config import load_settings
from monitor.demo import run_demo
from monitor.service import open_database
from monitor.web import create_app

CLAIM = "jalapeno.tokens-per-kw.gpt-oss-120b"
AFTER = datetime(2027, 1, 2, 12, tzinfo=UTC)  # the day after the story
BEFORE = datetime(2026, 12, 2, 12, tzinfo=UTC)  # a clock behind the stored data


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("demo")
    url = f"sqlite:///{folder / 'demo.db'}"
    run_demo(url, folder / "digests", io.StringIO())
    return url


def make_client(url: str, now: datetime) -> TestClient:
    settings = load_settings(None, environ={}, overrides={"database_url": url})
    return TestClient(create_app(settings, make_engine(url), clock=lambda: now))


@pytest.fixture
def client(demo_db):
    return make_client(demo_db, AFTER)


def cli_json(demo_db, *args):
    result = CliRunner().invoke(
        cli, ["--db", demo_db, *args, "--format", "json"], env={"CLAIMWATCH_CONFIG": ""}
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_board_leads_with_changes_then_claims_by_theme(client, demo_db):
    text = client.get("/").text
    assert text.index('id="changes"') < text.index('id="milestones"') < text.index('id="claims"')
    ids = {c["id"] for c in cli_json(demo_db, "claims")}
    assert text.count('class="claim-row"') == len(ids)
    themes = re.findall(r'<h3 class="theme">([^<]+)', text)
    assert {"performance", "verification", "roadmap", "silicon", "prices and market"} <= {
        t.strip() for t in themes
    }
    dates = re.findall(r'<tr class="change-row">\s*<td class="when"[^>]*title="([^"]+)"', text)
    assert dates and dates == sorted(dates, reverse=True)
    assert "independent partial re-test" in text and "10 USD/1M tokens → 8 USD/1M tokens" in text
    filtered = client.get("/", params={"subject": "nvidia", "kind": "milestone"}).text
    assert filtered.count('class="claim-row"') == 1 and "nvidia.rubin.first-gw" in filtered


def test_words_on_the_board(client):
    text = client.get("/").text
    assert "overdue since 2026-12-31" in text
    assert "23 watchers: 23 not polled yet" in text
    assert not re.search(r"\b1 (entries|claims|changes|days)\b", text)
    counted = re.findall(r"\b(\d+) (claims?|changes?|watchers?)\b", text)
    assert counted and all((n == "1") == (not word.endswith("s")) for n, word in counted)


def test_a_clock_behind_the_data_never_says_ago_or_days_left_for_an_alerted_milestone(demo_db):
    text = make_client(demo_db, BEFORE).get("/").text
    changes = text[text.index('id="changes"') : text.index('id="milestones"')]
    assert " ago" not in changes and "just now" not in changes
    assert "2026-12-27" in changes  # future to this clock: the date
    milestones = text[text.index('id="milestones"') : text.index('id="health"')]
    assert "overdue since 2026-12-31" in milestones and "days left" not in milestones


def test_claim_page_chart_has_round_ticks_steps_and_the_baseline(client, demo_db):
    text = client.get(f"/claims/{CLAIM}").text
    observed = [e for e in cli_json(demo_db, "timeline", CLAIM) if e["kind"] == "observation"]
    assert text.count('<circle class="point') == len(observed)
    assert text.count('<circle class="point changed"') == sum(e["changed"] for e in observed)
    assert 'class="baseline"' in text and "baseline 85,448 tok/s/kW" in text
    assert '<path class="step"' in text and " V" in text  # a step: vertical jump at the change
    wide = text[text.index('<svg class="chart"') :]
    wide = wide[: wide.index("</svg>")]
    ticks = re.findall(r'<text class="y-tick"[^>]*>([^<]+)</text>', wide)
    assert ticks[-1].endswith(" tok/s/kW")
    numbers = [float(t.split()[0].replace(",", "")) for t in ticks]
    steps = {round(b - a, 6) for a, b in zip(numbers, numbers[1:], strict=False)}
    assert len(steps) == 1
    step = steps.pop()
    assert all(n % step == 0 for n in numbers)
    months = re.findall(r'<text class="x-tick"[^>]*>([^<]+)</text>', wide)
    assert len(months) >= 3 and any(re.search(r"20\d\d", m) for m in months)


def test_price_claim_is_one_row_per_model_with_each_cut(client, demo_db):
    text = client.get("/claims/openai.api-prices").text
    models = re.findall(r'<tr class="price-row" data-model="([^"]+)"', text)
    assert models == ["gpt-4o", "gpt-5.5", "gpt-5.5-mini"]  # realtime is out of the default scope
    assert "output 10 → 8 (-20.0%), 17 Dec 2026, litellm" in text
    assert "<circle" not in text and "3 models, 8 prices" in text


def test_sources_are_named_by_publisher_not_seed(client):
    text = client.get("/claims/nvidia.openai-deal").text
    assert "(source 0" not in text and "seed" not in text.lower()
    assert "微博 (via Digest of Weibo / Bilibili / Zhihu coverage (22 authors))" in text


def test_api_equals_the_cli_json(client, demo_db):
    assert client.get("/api/claims").json() == cli_json(demo_db, "claims")
    assert client.get(f"/api/claims/{CLAIM}/timeline").json() == cli_json(
        demo_db, "timeline", CLAIM
    )


def test_unknown_ids_are_plain_404s(client):
    for path in ("/claims/no.such.claim", "/api/claims/no.such.claim/timeline", "/nope"):
        response = client.get(path)
        assert response.status_code == 404 and response.headers["content-type"].startswith(
            "text/plain"
        )
        assert "Traceback" not in response.text


def test_database_error_is_503(tmp_path):
    settings = load_settings(
        None, environ={}, overrides={"database_url": "postgresql://nobody@127.0.0.1:1/none"}
    )
    app = create_app(settings, make_engine(settings.database_url))
    response = TestClient(app, raise_server_exceptions=False).get("/")
    assert response.status_code == 503 and "database is not available" in response.text


def test_alerts_atom_is_utf8_and_lists_the_alerts(client, demo_db):
    response = client.get("/alerts.atom")
    assert response.headers["content-type"] == "application/atom+xml; charset=utf-8"
    feed = feedparser.parse(response.content)
    assert not feed.bozo
    engine = make_engine(demo_db)
    with Session(engine) as session:
        keys = {a.event_key for a in session.exec(select(Alert))}
    assert len(feed.entries) == len(keys) >= 10
    titles = " ".join(e.title for e in feed.entries)
    assert (
        "Peak throughput per kW, GPT-OSS 120B changed" in titles
        and "watcher openai-pricing is failing" in titles
    )
    assert "第三方独立复测" in response.content.decode("utf-8")


def _hostile_change(url: str, *, link: str, title: str, value: float = 99.0) -> None:
    engine = make_engine(url)
    now = datetime(2026, 12, 30, tzinfo=UTC)
    with Session(engine) as session:
        if session.get(WatcherState, "hostile") is None:
            session.add(WatcherState(name="hostile", kind="feed", url="http://127.0.0.1:9/"))
            session.flush()
        item = Item(watcher="hostile", dedupe_key=title, content_hash="h", seen_at=now)
        session.add(item)
        session.flush()
        obs = Observation(
            claim_id="nvidia.gross-margin",
            value=json.dumps(value),
            value_num=value,
            unit="%",
            at=now,
            seen_at=now,
            source="hostile",
            url=link,
            title=title,
            excerpt=title,
            changed=True,
            delta_pct=value,
            item_id=item.id,
        )
        session.add(obs)
        session.flush()
        session.add(
            Alert(
                event_key=f"change:{obs.id}",
                channel="console",
                kind="change",
                observation_id=obs.id,
                claim_id="nvidia.gross-margin",
                created_at=now,
                next_attempt_at=now,
            )
        )
        session.commit()
    engine.dispose()


@pytest.fixture
def own_db(tmp_path):
    url = f"sqlite:///{tmp_path / 'own.db'}"
    open_database(load_settings(None, environ={}, overrides={"database_url": url}))[0].dispose()
    return url


def test_atom_escapes_attributes_and_drops_invalid_characters(own_db):
    _hostile_change(
        own_db,
        link='http://x.example/a" rel="enclosure" type="text/html',
        title="bell\x07 and \x1b[2J escape <b>",
    )
    body = make_client(own_db, AFTER).get("/alerts.atom").content
    root = ET.fromstring(body)  # well-formed, or this raises
    ns = {"a": "http://www.w3.org/2005/Atom"}
    entry = root.find("a:entry", ns)
    link = entry.find("a:link", ns)
    assert set(link.attrib) == {"rel", "href"} and link.attrib["rel"] == "alternate"
    assert link.attrib["href"] == 'http://x.example/a" rel="enclosure" type="text/html'
    assert (
        entry.find("a:title", ns).text == "Nvidia gross margin, FY2025 GAAP (company-wide) changed"
    )
    assert "bell and [2J escape <b>" not in body.decode() and "\x07" not in body.decode()


def test_absurd_values_render_everywhere(own_db):
    _hostile_change(own_db, link="http://x.example/", title="inf", value=float("inf"))
    _hostile_change(own_db, link="http://x.example/", title="nan", value=float("nan"))
    client = make_client(own_db, AFTER)
    for path in ("/", "/claims/nvidia.gross-margin", "/alerts.atom", "/api/claims"):
        response = client.get(path)
        assert response.status_code == 200, path
    assert "not a number %" in client.get("/claims/nvidia.gross-margin").text
    json.loads(client.get("/api/claims").text, parse_constant=lambda t: pytest.fail(t))


def test_web_text_is_escaped(client, demo_db):
    engine = make_engine(demo_db)
    with Session(engine) as session:
        obs = session.exec(
            select(Observation).where(Observation.claim_id == CLAIM, Observation.changed)
        ).first()
        original, obs_id = obs.excerpt, obs.id
        obs.excerpt = '<script>alert("x")</script> & <b>bold</b>'
        session.add(obs)
        session.commit()
    try:
        text = client.get(f"/claims/{CLAIM}").text
        assert "<script>alert" not in text and "&lt;script&gt;alert" in text
    finally:
        with Session(engine) as session:
            obs = session.get(Observation, obs_id)
            obs.excerpt = original
            session.add(obs)
            session.commit()


def test_a_long_history_is_summarised_and_paged(own_db):
    engine = make_engine(own_db)
    upgrade(engine)
    start = datetime(2026, 9, 1, tzinfo=UTC)
    with Session(engine) as session:
        session.add(WatcherState(name="bulk", kind="feed", url="http://127.0.0.1:9/"))
        session.commit()
    count = 100_000
    with engine.begin() as connection:
        connection.execute(
            insert(Item),
            [
                {"watcher": "bulk", "dedupe_key": f"b{i}", "content_hash": "h", "seen_at": start}
                for i in range(count)
            ],
        )
        first = connection.execute(select(Item.id).where(Item.dedupe_key == "b0")).scalar_one()
        connection.execute(
            insert(Observation),
            [
                {
                    "claim_id": CLAIM,
                    "key": "",
                    "value": "85448",
                    "value_num": 85448.0,
                    "unit": "tok/s/kW",
                    "at": start + timedelta(minutes=i),
                    "seen_at": start + timedelta(minutes=i),
                    "source": "bulk",
                    "url": "",
                    "title": "restated",
                    "excerpt": "85,448 tok/s/kW again",
                    "signal": "",
                    "changed": False,
                    "item_id": first + i,
                }
                for i in range(count)
            ],
        )
    engine.dispose()
    client = make_client(own_db, AFTER)
    page = client.get(f"/claims/{CLAIM}")
    assert page.status_code == 200
    assert len(page.content) < 400_000
    assert "100,000 restatements" in page.text and "page 1 of 2,000" in page.text
    assert page.text.count('<tr class="restatement">') == 50
    last = client.get(f"/claims/{CLAIM}", params={"page": "2000"}).text
    assert "page 2,000 of 2,000" in last and "← newer" in last


def test_verification_follows_the_current_value(client, demo_db):
    """A figure an independent lab re-measured says so; one nobody re-measured stays self-reported."""
    rows = {r["id"]: r for r in cli_json(demo_db, "claims")}
    retested = rows["jalapeno.tokens-per-kw.gpt-oss-120b"]
    assert retested["current"]["value"] != retested["baseline"]["value"]
    assert retested["verification"] == "independent partial re-test"
    assert rows["jalapeno.tokens-per-user.gpt-oss-120b"]["verification"] == "self-reported"
    page = client.get("/claims/jalapeno.tokens-per-user.gpt-oss-120b").text
    assert "self-reported" in page and "independent partial re-test" not in page
    assert (
        "independent partial re-test"
        in client.get("/claims/jalapeno.tokens-per-kw.gpt-oss-120b").text
    )
