"""The dashboard: routes through the app's test client, and one end-to-end run in headless Chromium."""

import io
import json
import os
import threading
import time
from datetime import UTC, datetime

import feedparser
import pytest
from click.testing import CliRunner
from sqlmodel import Session, select
from starlette.testclient import TestClient

from db.engine import make_engine
from db.models import Alert, Observation
from monitor.cli import cli
from monitor.config import load_settings
from monitor.demo import run_demo
from monitor.web import create_app

from .conftest import free_port

CHROMIUM = "/usr/bin/chromium"
CLAIM = "jalapeno.tokens-per-kw.gpt-oss-120b"


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("demo")
    url = f"sqlite:///{folder / 'demo.db'}"
    run_demo(url, folder / "digests", io.StringIO())
    return url


@pytest.fixture
def client(demo_db):
    settings = load_settings(None, environ={}, overrides={"database_url": demo_db})
    engine = make_engine(demo_db)
    yield TestClient(
        create_app(settings, engine, clock=lambda: datetime(2027, 1, 2, 12, tzinfo=UTC))
    )
    engine.dispose()


def cli_json(demo_db, *args):
    result = CliRunner().invoke(
        cli, ["--db", demo_db, *args, "--format", "json"], env={"CLAIMWATCH_CONFIG": ""}
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_board_shows_every_claim_with_filters(client, demo_db):
    response = client.get("/")
    assert response.status_code == 200
    ids = {c["id"] for c in cli_json(demo_db, "claims")}
    assert response.text.count('class="claim-row"') == len(ids)
    assert "Milestones" in response.text and "overdue since 2026-12-31" in response.text
    assert '<svg class="sparkline"' in response.text
    filtered = client.get("/", params={"subject": "nvidia", "kind": "milestone"})
    assert (
        filtered.text.count('class="claim-row"') == 1 and "nvidia.rubin.first-gw" in filtered.text
    )


def test_claim_page_chart_matches_the_timeline(client, demo_db):
    response = client.get(f"/claims/{CLAIM}")
    assert response.status_code == 200
    events = cli_json(demo_db, "timeline", CLAIM)
    observed = [e for e in events if e["kind"] == "observation"]
    assert response.text.count('<circle class="point') == len(observed)
    assert response.text.count('<circle class="point changed"') == sum(
        e["changed"] for e in observed
    )
    assert 'class="baseline"' in response.text and "80,100 tok/s/kW" in response.text


def test_price_list_has_a_series_per_key(client):
    response = client.get("/claims/openai.api-prices")
    assert response.status_code == 200
    assert (
        'data-key="gpt-5.5:output"' in response.text and 'data-key="gpt-4o:input"' in response.text
    )
    assert 'class="legend"' in response.text


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


def test_alerts_atom_parses_and_lists_the_alerts(client, demo_db):
    feed = feedparser.parse(client.get("/alerts.atom").content)
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


def test_web_text_is_escaped(client, demo_db):
    engine = make_engine(demo_db)
    with Session(engine) as session:
        obs = session.exec(
            select(Observation).where(Observation.claim_id == CLAIM, Observation.changed)
        ).first()
        obs.excerpt = '<script>alert("x")</script> & <b>bold</b>'
        session.add(obs)
        session.commit()
    text = client.get(f"/claims/{CLAIM}").text
    assert "<script>alert" not in text and "&lt;script&gt;alert" in text


@pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is not installed (Debian package chromium)"
)
def test_board_and_chart_in_headless_chromium(demo_db, tmp_path):
    import uvicorn
    from playwright.sync_api import sync_playwright

    settings = load_settings(None, environ={}, overrides={"database_url": demo_db})
    engine = make_engine(demo_db)
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(settings, engine), host="127.0.0.1", port=port, log_level="warning"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    expected = [e for e in cli_json(demo_db, "timeline", CLAIM) if e["kind"] == "observation"]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM,
                args=[
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                ],
            )
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"http://127.0.0.1:{port}/")
            assert page.locator("tr.claim-row").count() == len(cli_json(demo_db, "claims"))
            page.click(f'a[href="/claims/{CLAIM}"]')
            page.wait_for_selector("svg.chart")
            assert page.locator("svg.chart circle.point").count() == len(expected)
            values = sorted(
                float(v)
                for v in page.locator("svg.chart circle.point").evaluate_all(
                    "els => els.map(e => e.dataset.value)"
                )
            )
            assert values == sorted(float(e["value"]) for e in expected)
            shot = tmp_path / "claim.png"
            os.environ.get("CLAIMWATCH_KEEP_SCREENSHOT") and page.screenshot(
                path=os.environ["CLAIMWATCH_KEEP_SCREENSHOT"], full_page=True
            )
            page.screenshot(path=str(shot), full_page=True)
            browser.close()
        assert shot.stat().st_size > 10_000
    finally:
        server.should_exit = True
        thread.join(10)
        engine.dispose()
