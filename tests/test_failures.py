"""Fault injection: every misbehaviour of the hostile server ends in a typed, readable error,
bounded memory, no observation, and recovery on the next healthy answer."""

import json
import tracemalloc
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from db.models import Item, Observation, WatcherState
from monitor.service import Poller, open_database

from .conftest import fixture_bytes
from .hostile import BEHAVIOURS, HostileServer

EXPECTED = {
    "500": ("fetch", "HTTP 500"),
    "502": ("fetch", "HTTP 502"),
    "503": ("fetch", "HTTP 503"),
    "429": ("fetch", "HTTP 429, retry after 3600 s"),
    "reset": ("fetch", "cut off"),
    "silent": ("timeout", "timed out"),
    "trickle": ("timeout", ""),
    "huge": ("fetch", "response larger than 1,048,576 bytes"),
    "gzip-bomb": ("fetch", "response larger than 1,048,576 bytes"),
    "redirect-loop": ("fetch", "more than 5 redirects"),
    "redirect-file": ("fetch", "redirect to a non-http(s) URL (file:) refused"),
    "redirect-metadata": (
        "fetch",
        "redirect to a private or local address (169.254.169.254) refused",
    ),
    "redirect-private": ("fetch", "redirect to a private or local address (10.0.0.1) refused"),
    "wrong-type": ("parse", "not a readable feed"),
    "billion-laughs": ("parse", "feed declares XML entities"),
    "external-entity": ("parse", "feed declares XML entities"),
    "bot-wall": ("blocked", "Cloudflare challenge"),
}
HTTP = {
    "connect_timeout": 2,
    "read_timeout": 1,
    "total_timeout": 3,
    "max_bytes": 1024 * 1024,
    "per_host": 2,
}


@pytest.fixture(scope="module")
def hostile():
    with HostileServer(hang_seconds=20) as server:
        yield server


def settings_for(make_settings, watchers):
    return make_settings(watchers, http=HTTP)


@pytest.mark.parametrize("behaviour", sorted(EXPECTED))
def test_misbehaviour_is_a_typed_error_and_stores_nothing(
    behaviour, hostile, server, make_settings
):
    # a loop on 127.0.0.1 would be refused as a local redirect first; allow those to reach the cap
    allow = behaviour == "redirect-loop"
    watcher = {
        "name": "w",
        "kind": "feed",
        "url": hostile.url(behaviour),
        "allow_private_redirects": allow,
    }
    settings = settings_for(make_settings, [watcher])
    engine, _ = open_database(settings)
    poller = Poller(settings, engine)
    tracemalloc.start()
    report = poller.poll("w")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    kind, words = EXPECTED[behaviour]
    assert report.outcome == kind, report.error
    assert words in report.error and hostile.url("").rstrip("/") in report.error
    assert peak < 48 * 1024 * 1024, f"peak {peak / 1e6:.0f} MB"
    with Session(engine) as session:
        assert session.exec(select(Observation)).all() == []
        state = session.get(WatcherState, "w")
        assert (state.consecutive_failures, state.last_error_kind) == (1, kind)
    # the next healthy answer recovers the watcher
    server.expect_request("/ok").respond_with_data(
        fixture_bytes("feed/retest_en.rss"), content_type="application/xml"
    )
    poller.watchers["w"].config.__dict__["url"] = server.url_for("/ok")
    assert poller.poll("w").outcome == "ok"
    with Session(engine) as session:
        state = session.get(WatcherState, "w")
        assert (state.consecutive_failures, state.health) == (0, "ok")
    poller.close()


def test_every_behaviour_is_covered():
    assert set(EXPECTED) | {"bad-utf8", "truncated"} == set(BEHAVIOURS)


def test_retry_after_defers_the_next_poll(hostile, make_settings):
    settings = settings_for(
        make_settings, [{"name": "w", "kind": "feed", "url": hostile.url("429"), "every": "5m"}]
    )
    engine, _ = open_database(settings)
    Poller(settings, engine).poll("w")
    with Session(engine) as session:
        state = session.get(WatcherState, "w")
        assert state.next_due_at - state.last_polled_at >= timedelta(seconds=3600)


def test_unresolvable_host(make_settings):
    settings = settings_for(
        make_settings, [{"name": "w", "kind": "feed", "url": "http://claimwatch-test.invalid/feed"}]
    )
    engine, _ = open_database(settings)
    report = Poller(settings, engine).poll("w")
    assert (
        report.outcome == "fetch" and "claimwatch-test.invalid/feed: cannot connect" in report.error
    )


@pytest.mark.parametrize("behaviour", ["bad-utf8", "truncated"])
def test_damaged_feeds_keep_what_parsed_with_a_warning(behaviour, hostile, make_settings):
    settings = settings_for(
        make_settings, [{"name": "w", "kind": "feed", "url": hostile.url(behaviour)}]
    )
    engine, _ = open_database(settings)
    report = Poller(settings, engine).poll("w")
    assert report.outcome == "ok" and report.items >= 1
    with Session(engine) as session:
        assert "feed parsed with errors" in session.get(WatcherState, "w").warning


def test_external_entities_are_never_resolved(hostile, make_settings):
    settings = settings_for(
        make_settings, [{"name": "w", "kind": "feed", "url": hostile.url("external-entity")}]
    )
    engine, _ = open_database(settings)
    Poller(settings, engine).poll("w")
    with Session(engine) as session:
        stored = json.dumps([(i.title, i.url) for i in session.exec(select(Item))])
        stored += json.dumps([(o.excerpt, o.title) for o in session.exec(select(Observation))])
    assert "root:" not in stored


def test_a_misbehaving_host_does_not_hold_up_another(hostile, server, make_settings):
    server.expect_request("/ok").respond_with_data(
        fixture_bytes("feed/retest_en.rss"), content_type="application/xml"
    )
    slow = [{"name": f"slow{i}", "kind": "feed", "url": hostile.url("silent")} for i in range(10)]
    settings = settings_for(
        make_settings, [*slow, {"name": "healthy", "kind": "feed", "url": server.url_for("/ok")}]
    )
    engine, _ = open_database(settings)
    finished = []
    Poller(settings, engine).poll_many(
        [w.name for w in settings.watchers], on_done=lambda r: finished.append(r.watcher)
    )
    assert finished[0] == "healthy"  # started at once, though ten slow polls were queued before it


def test_redirects_to_local_addresses_need_the_watcher_to_allow_them(hostile, make_settings):
    url = hostile.url("redirect-local")
    settings = settings_for(
        make_settings,
        [
            {"name": "strict", "kind": "feed", "url": url},
            {"name": "lenient", "kind": "feed", "url": url, "allow_private_redirects": True},
        ],
    )
    engine, _ = open_database(settings)
    poller = Poller(settings, engine)
    assert "private or local address (127.0.0.1)" in poller.poll("strict").error
    assert poller.poll("lenient").outcome == "ok"


def test_a_challenge_page_is_recognised_by_its_body_in_any_letter_case():
    from watchers.botwall import detect_bot_wall

    challenge = fixture_bytes("prices/challenge.html")
    assert detect_bot_wall(403, {}, challenge) == "bot-wall: Cloudflare challenge (HTTP 403)"
    shouted = b"<html><title>JUST A MOMENT...</title></html>"
    assert detect_bot_wall(200, {}, shouted) == "bot-wall: Cloudflare challenge (HTTP 200)"
    assert detect_bot_wall(200, {}, b"<rss><item>a moment of calm</item></rss>") is None
