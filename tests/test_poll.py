"""Polls end to end: fixtures served over HTTP on 127.0.0.1, watchers, extraction, judging and storage."""

import json

import pytest
from sqlmodel import Session, select

from db import queries
from db.models import Alert, Item, Observation, WatcherState
from monitor.cli import cli
from monitor.service import Poller, open_database

from .conftest import fixture_bytes


def serve(server, path, name, content_type="application/xml", **headers):
    server.expect_request(path).respond_with_data(
        fixture_bytes(name), content_type=content_type, headers=headers
    )
    return server.url_for(path)


def poller(settings):
    engine, _ = open_database(settings)
    return Poller(settings, engine), engine


def observations(engine, **where):
    with Session(engine) as session:
        query = select(Observation)
        for field, value in where.items():
            query = query.where(getattr(Observation, field) == value)
        return list(session.exec(query.order_by(Observation.id)))


def counts(engine):
    with Session(engine) as session:
        return tuple(len(session.exec(select(m)).all()) for m in (Item, Observation, Alert))


def test_english_retest_changes_the_number_and_verification(server, make_settings):
    url = serve(server, "/en.rss", "feed/retest_en.rss")
    p, engine = poller(make_settings([{"name": "chipnews", "kind": "feed", "url": url}]))
    report = p.poll("chipnews")
    assert (report.outcome, report.items) == ("ok", 4)
    number = observations(engine, claim_id="jalapeno.tokens-per-kw.gpt-oss-120b")
    changed = [o for o in number if o.changed]
    assert len(changed) == 1 and json.loads(changed[0].value) == 80100
    assert changed[0].delta_pct == pytest.approx(-6.258, abs=0.01)
    assert "80,100" in changed[0].excerpt and changed[0].url.endswith("/news/jalapeno-retest")
    assert changed[0].at.isoformat() == "2026-10-02T09:30:00+00:00"
    restatements = [o for o in number if not o.changed]
    assert [json.loads(o.value) for o in restatements] == [85448, 85448]
    verification = observations(engine, claim_id="jalapeno.verification")
    assert [(json.loads(o.value), o.changed) for o in verification] == [
        ("independent partial re-test", True)
    ]


def test_chinese_retest_changes_another_model(server, make_settings):
    url = serve(server, "/zh.atom", "feed/retest_zh.atom", content_type="application/atom+xml")
    p, engine = poller(make_settings([{"name": "xinpian", "kind": "feed", "url": url}]))
    p.poll("xinpian")
    kimi = observations(engine, claim_id="jalapeno.tokens-per-kw.kimi-k2.5")
    assert len(kimi) == 1 and kimi[0].changed
    assert json.loads(kimi[0].value) == 16500 and kimi[0].delta_pct == pytest.approx(
        -9.34, abs=0.01
    )
    assert observations(engine, claim_id="jalapeno.verification")[0].changed


def test_price_cut_after_a_silent_baseline(server, make_settings):
    server.expect_ordered_request("/prices.json").respond_with_data(
        fixture_bytes("prices/litellm_v1.json"), content_type="application/json"
    )
    server.expect_ordered_request("/prices.json").respond_with_data(
        fixture_bytes("prices/litellm_v2.json"), content_type="application/json"
    )
    p, engine = poller(
        make_settings(
            [
                {
                    "name": "litellm",
                    "kind": "prices",
                    "format": "litellm",
                    "url": server.url_for("/prices.json"),
                }
            ]
        )
    )
    first = p.poll("litellm")
    assert (first.observations, first.changes) == (8, 0)
    second = p.poll("litellm")
    assert (second.observations, second.changes) == (1, 1)
    cut = observations(engine, claim_id="openai.api-prices", changed=True)
    assert [(o.key, json.loads(o.value), o.delta_pct, o.signal) for o in cut] == [
        ("gpt-5.5:output", 8.0, -20.0, "price-cut")
    ]
    with Session(engine) as session:
        claim = queries.get_claims(session=session, ids=["openai.api-prices"])[0]
        assert (
            queries.current_value(session=session, claim=claim, key="gpt-5.5:output").value == 8.0
        )


def test_a_second_source_confirming_a_cut_is_not_a_second_change(server, make_settings):
    for path, name in (
        ("/a.json", "prices/litellm_v1.json"),
        ("/b.json", "prices/litellm_v1.json"),
    ):
        server.expect_ordered_request(path).respond_with_data(
            fixture_bytes(name), content_type="application/json"
        )
    for path in ("/a.json", "/b.json"):
        server.expect_ordered_request(path).respond_with_data(
            fixture_bytes("prices/litellm_v2.json"), content_type="application/json"
        )
    watchers = [
        {"name": n, "kind": "prices", "format": "litellm", "url": server.url_for(f"/{n}.json")}
        for n in ("a", "b")
    ]
    p, engine = poller(make_settings(watchers))
    p.poll("a"), p.poll("b"), p.poll("a"), p.poll("b")
    outputs = observations(engine, claim_id="openai.api-prices", key="gpt-5.5:output")
    assert [(o.source, json.loads(o.value), o.changed) for o in outputs] == [
        ("a", 10.0, False),
        ("b", 10.0, False),
        ("a", 8.0, True),
        ("b", 8.0, False),
    ]


def test_agentx_rows_change_agentx(server, make_settings):
    server.expect_ordered_request("/ix").respond_with_data(
        fixture_bytes("benchmark/inferencex_v1.json"), content_type="application/json"
    )
    server.expect_ordered_request("/ix").respond_with_data(
        fixture_bytes("benchmark/inferencex_v2.json"), content_type="application/json"
    )
    p, engine = poller(
        make_settings(
            [
                {
                    "name": "ix",
                    "kind": "benchmark",
                    "format": "inferencex",
                    "url": server.url_for("/ix"),
                }
            ]
        )
    )
    assert p.poll("ix").changes == 0
    second = p.poll("ix")
    assert second.changes >= 3
    agentx = observations(engine, claim_id="jalapeno.agentx")
    assert [(json.loads(o.value), o.changed) for o in agentx] == [("results published", True)]
    hardware = observations(engine, claim_id="inferencex.hardware")
    assert [(o.key, o.role) for o in hardware] == [("jalapeno-a0", "new")]
    listing = observations(engine, claim_id="jalapeno.inferencex")
    assert [(json.loads(o.value), o.changed) for o in listing] == [("listed", True)]
    kw = observations(engine, claim_id="jalapeno.tokens-per-kw.gpt-oss-120b")
    assert kw[0].changed and json.loads(kw[0].value) == 80100


def test_page_text_change(server, make_settings):
    server.expect_ordered_request("/rl").respond_with_data(
        fixture_bytes("page/rate_limits_v1.html"), content_type="text/html"
    )
    server.expect_ordered_request("/rl").respond_with_data(
        fixture_bytes("page/rate_limits_v2.html"), content_type="text/html"
    )
    config = {
        "name": "rl",
        "kind": "page",
        "url": server.url_for("/rl"),
        "selector": "main",
        "claim": "openai.rate-limits",
    }
    p, engine = poller(make_settings([config]))
    assert p.poll("rl").changes == 0
    assert p.poll("rl").changes == 1
    rows = observations(engine, claim_id="openai.rate-limits")
    assert [o.changed for o in rows] == [False, True] and "1,000,000" in json.loads(rows[1].value)


def test_second_poll_over_unchanged_sources_adds_nothing(server, make_settings):
    feed = serve(server, "/en.rss", "feed/retest_en.rss")
    prices = serve(server, "/p.json", "prices/litellm_v1.json", content_type="application/json")
    bench = serve(server, "/ix", "benchmark/inferencex_v2.json", content_type="application/json")
    settings = make_settings(
        [
            {"name": "feed", "kind": "feed", "url": feed},
            {"name": "prices", "kind": "prices", "format": "litellm", "url": prices},
            {"name": "bench", "kind": "benchmark", "format": "inferencex", "url": bench},
        ]
    )
    p, engine = poller(settings)
    p.poll_many(["feed", "prices", "bench"])
    before = counts(engine)
    reports = p.poll_many(["feed", "prices", "bench"])
    assert [(r.items, r.observations, r.changes) for r in reports] == [(0, 0, 0)] * 3
    assert counts(engine) == before


def test_conditional_get_costs_nothing(server, make_settings):
    body = fixture_bytes("feed/retest_en.rss")
    server.expect_ordered_request("/f").respond_with_data(
        body, content_type="application/xml", headers={"ETag": '"v1"'}
    )
    server.expect_ordered_request("/f", headers={"If-None-Match": '"v1"'}).respond_with_data(
        b"", status=304
    )
    p, engine = poller(make_settings([{"name": "f", "kind": "feed", "url": server.url_for("/f")}]))
    p.poll("f")
    assert p.poll("f").outcome == "not-modified"
    server.check_assertions()
    with Session(engine) as session:
        state = session.get(WatcherState, "f")
        assert (state.etag, state.consecutive_failures, state.polls) == ('"v1"', 0, 2)


def test_failing_sources_leave_the_others_unaffected(server, silent_server, make_settings):
    good = serve(server, "/en.rss", "feed/retest_en.rss")
    server.expect_request("/500").respond_with_data("boom", status=500)
    server.expect_request("/wall").respond_with_data(
        fixture_bytes("prices/challenge.html"), status=403, content_type="text/html"
    )
    server.expect_request("/layout").respond_with_data(
        fixture_bytes("prices/layout_changed.html"), content_type="text/html"
    )
    server.expect_request("/garbage").respond_with_data(
        b"\x00\xff not a feed at all", content_type="application/xml"
    )
    settings = make_settings(
        [
            {"name": "good", "kind": "feed", "url": good},
            {"name": "broken", "kind": "feed", "url": server.url_for("/500")},
            {"name": "hung", "kind": "feed", "url": silent_server + "/feed"},
            {"name": "walled", "kind": "prices", "format": "html", "url": server.url_for("/wall")},
            {
                "name": "relaid",
                "kind": "prices",
                "format": "html",
                "url": server.url_for("/layout"),
            },
            {"name": "garbage", "kind": "feed", "url": server.url_for("/garbage")},
        ]
    )
    p, engine = poller(settings)
    reports = {r.watcher: r for r in p.poll_many([w.name for w in settings.watchers])}
    assert reports["good"].outcome == "ok" and reports["good"].changes == 2
    assert {n: reports[n].outcome for n in ("broken", "hung", "walled", "relaid", "garbage")} == {
        "broken": "fetch",
        "hung": "timeout",
        "walled": "blocked",
        "relaid": "layout",
        "garbage": "parse",
    }
    assert "HTTP 500" in reports["broken"].error and "/500" in reports["broken"].error
    with Session(engine) as session:
        states = {s.name: s for s in queries.watchers(session=session)}
        assert (
            states["walled"].last_error_kind == "blocked"
            and states["walled"].consecutive_failures == 1
        )
        assert states["good"].last_success_at is not None and states["good"].last_error is None
        assert (
            session.exec(
                select(Observation).where(Observation.claim_id == "openai.api-prices")
            ).all()
            == []
        )


def test_health_alert_after_repeated_failures_and_recovery(server, make_settings):
    for _ in range(3):
        server.expect_ordered_request("/f").respond_with_data(
            "down", status=503, headers={"Retry-After": "120"}
        )
    server.expect_ordered_request("/f").respond_with_data(
        fixture_bytes("feed/retest_zh.atom"), content_type="application/atom+xml"
    )
    p, engine = poller(
        make_settings(
            [{"name": "f", "kind": "feed", "url": server.url_for("/f")}], failures_alert=3
        )
    )
    for _ in range(4):
        p.poll("f")
    with Session(engine) as session:
        health = session.exec(select(Alert).where(Alert.kind == "health").order_by(Alert.id)).all()
        assert [a.subject for a in health] == ["watcher f is failing", "watcher f recovered"]
        assert session.get(WatcherState, "f").health == "ok"


def test_poll_command_summarises_and_exits_1_with_failures(server, runner, tmp_path, sqlite_url):
    good = serve(server, "/en.rss", "feed/retest_en.rss")
    server.expect_request("/500").respond_with_data("boom", status=500)
    config = tmp_path / "c.toml"
    config.write_text(
        f'database_url = "{sqlite_url}"\n'
        f'[[watchers]]\nname = "good"\nkind = "feed"\nurl = "{good}"\n'
        f'[[watchers]]\nname = "bad"\nkind = "feed"\nurl = "{server.url_for("/500")}"\n',
        encoding="utf-8",
    )
    result = runner.invoke(cli, ["--config", str(config), "poll"])
    assert result.exit_code == 1, result.output
    assert "2 polled: 1 ok, 1 HTTP error; 4 new items" in result.output
    assert "failed: bad" in result.output
    again = runner.invoke(cli, ["--config", str(config), "poll", "good"])
    assert again.exit_code == 0 and "0 new items, 0 observations, 0 changes" in again.output
    unknown = runner.invoke(cli, ["--config", str(config), "poll", "nope"])
    assert unknown.exit_code == 2 and "no watcher named 'nope'" in unknown.output


def test_bad_watcher_kind_is_a_config_error(runner, tmp_path):
    config = tmp_path / "c.toml"
    config.write_text(
        '[[watchers]]\nname = "x"\nkind = "prices"\nurl = "http://127.0.0.1:9/"\nformat = "csv"\n',
        encoding="utf-8",
    )
    result = runner.invoke(cli, ["--config", str(config), "poll"])
    assert result.exit_code == 2
    assert "c.toml: watchers[0] (watcher 'x'): format must be one of" in result.output


def test_watchers_command_shows_health(server, runner, tmp_path, sqlite_url):
    good = serve(server, "/en.rss", "feed/retest_en.rss")
    server.expect_request("/wall").respond_with_data(
        fixture_bytes("prices/challenge.html"), status=403, content_type="text/html"
    )
    config = tmp_path / "c.toml"
    config.write_text(
        f'database_url = "{sqlite_url}"\n'
        f'[[watchers]]\nname = "good"\nkind = "feed"\nurl = "{good}"\n'
        f'[[watchers]]\nname = "walled"\nkind = "prices"\nformat = "html"\nurl = "{server.url_for("/wall")}"\n'
        f'[[watchers]]\nname = "never"\nkind = "feed"\nurl = "{good}"\nenabled = false\n',
        encoding="utf-8",
    )
    runner.invoke(cli, ["--config", str(config), "poll"])
    rows = {
        r["name"]: r
        for r in json.loads(
            runner.invoke(cli, ["--config", str(config), "watchers", "--format", "json"]).output
        )
    }
    assert rows["good"]["status"] == "ok" and rows["good"]["items_seen"] == 4
    assert rows["walled"]["status"] == "blocked" and "bot-wall" in rows["walled"]["last_error"]
    assert rows["never"]["status"] == "disabled"
    table = runner.invoke(cli, ["--config", str(config), "watchers"]).output
    assert table.splitlines()[0].split() == [
        "watcher",
        "state",
        "last",
        "success",
        "next",
        "run",
        "items",
        "reason",
    ]
    assert "blocked" in table and "disabled" in table


def test_a_user_signal_without_code(server, make_settings, tmp_path):
    """extra_signals add phrases to a built-in subject's vocabulary."""
    signals = tmp_path / "mine.toml"
    signals.write_text(
        '[[signals]]\nid = "speculative-switch"\nclaim = "jalapeno.mtp"\nvalue = "enabled"\n'
        "patterns = ['flips? the speculative switch']\n",
        encoding="utf-8",
    )
    body = b"""<rss version="2.0"><channel><title>T</title><item><guid>g1</guid><title>OpenAI flips the speculative switch on its Jalapeno inference chip</title></item></channel></rss>"""
    server.expect_request("/f").respond_with_data(body, content_type="application/xml")
    settings = make_settings(
        [{"name": "f", "kind": "feed", "url": server.url_for("/f")}], extra_signals=[str(signals)]
    )
    p, engine = poller(settings)
    assert p.poll("f").changes == 1
    assert [json.loads(o.value) for o in observations(engine, claim_id="jalapeno.mtp")] == [
        "enabled"
    ]


def test_a_user_ledger_with_its_own_signals_fires(server, make_settings, tmp_path):
    """A subject the engine has never heard of: a ledger and a signal file, no code."""
    ledger = tmp_path / "acme.toml"
    ledger.write_text(
        '[[claims]]\nid = "acme.launch"\ntitle = "Acme widget launch"\nkind = "status"\n'
        'value = "announced"\nladder = ["announced", "launched"]\nverification = "press release"\n'
        'sources = [{ publisher = "Acme", url = "https://acme.example/news", quote = "coming soon" }]\n',
        encoding="utf-8",
    )
    signals = tmp_path / "acme-signals.toml"
    signals.write_text(
        '[subject]\nid = "acme"\nnames = [\'\\bacme\\b\']\n\n[[signals]]\nid = "acme-launched"\n'
        "claim = \"acme.launch\"\nvalue = \"launched\"\npatterns = ['widget (?:has )?launched', 'launched (?:its |the )?widget']\n",
        encoding="utf-8",
    )
    body = b"""<rss version="2.0"><channel><title>T</title>
      <item><guid>a1</guid><title>Acme widget launched today</title></item>
      <item><guid>a2</guid><title>Will the Acme widget launch next year?</title></item>
    </channel></rss>"""
    server.expect_request("/acme").respond_with_data(body, content_type="application/xml")
    settings = make_settings(
        [{"name": "acme", "kind": "feed", "url": server.url_for("/acme")}],
        claims=[str(ledger)],
        extra_signals=[str(signals)],
    )
    p, engine = poller(settings)
    assert p.poll("acme").changes == 1
    got = observations(engine, claim_id="acme.launch")
    assert [(json.loads(o.value), o.changed) for o in got] == [("launched", True)]


def test_a_broken_user_signal_is_a_config_error(make_settings, tmp_path):
    from monitor.config import ConfigError

    signals = tmp_path / "bad.toml"
    signals.write_text(
        '[[signals]]\nid = "x"\nclaim = "a.b"\npatterns = ["(unclosed"]\n', encoding="utf-8"
    )
    settings = make_settings([], extra_signals=[str(signals)])
    with pytest.raises(ConfigError, match=r"extra_signals: .*bad\.toml: signal x: bad pattern"):
        poller(settings)


def test_html_prices_with_configured_selectors(server, make_settings):
    page = b"""<html><body><div class="plans">
      <div class="plan"><h3>gpt-5.5</h3><span class="in">$1.25</span><span class="out">$10.00</span></div>
      <div class="plan"><h3>gpt-4o</h3><span class="in">$2.50</span><span class="out">$10.00</span></div>
    </div></body></html>"""
    server.expect_request("/pricing").respond_with_data(page, content_type="text/html")
    selectors = {"row": "div.plan", "model": "h3", "input": ".in", "output": ".out"}
    settings = make_settings(
        [
            {
                "name": "p",
                "kind": "prices",
                "format": "html",
                "url": server.url_for("/pricing"),
                "selectors": selectors,
            }
        ]
    )
    p, engine = poller(settings)
    assert p.poll("p").observations == 4
    keys = {
        (o.key, json.loads(o.value)) for o in observations(engine, claim_id="openai.api-prices")
    }
    assert keys == {
        ("gpt-5.5:input", 1.25),
        ("gpt-5.5:output", 10.0),
        ("gpt-4o:input", 2.5),
        ("gpt-4o:output", 10.0),
    }


def test_a_watcher_without_new_items_goes_stale(server, make_settings):
    from datetime import UTC, datetime, timedelta

    from monitor.health import health_rows

    server.expect_request("/f").respond_with_data(
        fixture_bytes("feed/retest_zh.atom"), content_type="application/atom+xml"
    )
    settings = make_settings(
        [{"name": "f", "kind": "feed", "url": server.url_for("/f"), "stale_after": "3d"}]
    )
    p, engine = poller(settings)
    p.poll("f")
    with Session(engine) as session:
        states = queries.watchers(session=session)
    now = datetime.now(UTC)
    assert health_rows(settings, states, now=now)[0]["status"] == "ok"
    assert health_rows(settings, states, now=now + timedelta(days=4))[0]["status"] == "stale"


def test_a_poll_that_cannot_be_stored_fails_alone_and_leaves_nothing(
    server, make_settings, monkeypatch
):
    from db import writer

    en = serve(server, "/en.rss", "feed/retest_en.rss")
    zh = serve(server, "/zh.atom", "feed/retest_zh.atom", content_type="application/atom+xml")
    p, engine = poller(
        make_settings(
            [{"name": "en", "kind": "feed", "url": en}, {"name": "zh", "kind": "feed", "url": zh}]
        )
    )
    insert_observation = writer.Writer._insert_observation

    def refused(self, outcome, item, item_id, verdict, seq):
        if outcome.watcher != "en":
            return insert_observation(self, outcome, item, item_id, verdict, seq)
        # its items are in by now; the database refuses what one of them said
        return self.sql.rows("INSERT INTO observations (claim_id) VALUES (?)", ["x"])

    monkeypatch.setattr(writer.Writer, "_insert_observation", refused)
    reports = {r.watcher: r for r in p.poll_many(["en", "zh"])}
    assert reports["en"].outcome == "internal"
    assert "storing the poll failed (IntegrityError)" in reports["en"].error
    assert reports["zh"].outcome == "ok" and reports["zh"].items > 0
    with Session(engine) as session:
        assert {i.watcher for i in session.exec(select(Item))} == {"zh"}
        assert {o.source for o in session.exec(select(Observation))} <= {"zh"}
        state = session.get(WatcherState, "en")
        assert (state.last_error_kind, state.consecutive_failures, state.polls) == (
            "internal",
            1,
            1,
        )
