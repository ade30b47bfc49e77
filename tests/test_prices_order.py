"""Poll order does not change what changed: two sources (LiteLLM and OpenRouter, real lists) go
through the same upstream states, the o3 cut of June 2025, polled in any interleaving."""

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import Session, select

from db.models import Alert, Observation
from db.state import load_book

from .real_prices import (
    LITELLM,
    OPENROUTER,
    Clock,
    Lists,
    body,
    litellm_before_o3_cut,
    openrouter_before_o3_cut,
    price_poller,
    real,
)

# each source's rendering of the two upstream states: before the o3 cut, after it
STATES = {
    "litellm": [body(litellm_before_o3_cut()), body(real(LITELLM))],
    "openrouter": [body(openrouter_before_o3_cut()), body(real(OPENROUTER))],
}
FORMATS = {"litellm": "litellm", "openrouter": "openrouter"}
O3_CUT = {("o3:input", 10.0, 2.0), ("o3:cached_input", 2.5, 0.5), ("o3:output", 40.0, 8.0)}


@pytest.fixture(scope="module")
def lists():
    from pytest_httpserver import HTTPServer

    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    yield Lists(server)
    server.clear()
    server.stop()


def versions():
    """What one source shows at each of its polls: upstream states in order, repeats allowed."""
    return st.lists(st.integers(0, 1), min_size=1, max_size=3).map(sorted)


@st.composite
def schedules(draw):
    """The polls of both sources, each in its own order, interleaved in any way."""
    seen = {name: draw(versions()) for name in STATES}
    order = draw(st.permutations([n for n, shown in seen.items() for _ in shown]))
    position = dict.fromkeys(STATES, 0)
    polls = []
    for name in order:
        polls.append((name, seen[name][position[name]]))
        position[name] += 1
    return polls


def replay(lists, polls):
    """Poll in the given order on a fresh database; what changed, alerts, and current values."""
    with tempfile.TemporaryDirectory() as tmp:
        watchers = [
            {"name": n, "kind": "prices", "format": f, "url": lists.serve(f"/{n}.json", b"")}
            for n, f in FORMATS.items()
        ]
        clock = Clock()
        poller, engine = price_poller(f"sqlite:///{Path(tmp) / 'c.db'}", watchers, clock)
        try:
            for name, state in polls:
                lists.serve(f"/{name}.json", STATES[name][state])
                clock.advance(minutes=10)
                assert poller.poll(name).outcome == "ok"
        finally:
            poller.close()
        with Session(engine) as session:
            changes = session.exec(select(Observation).where(Observation.role == "change")).all()
            moved = {(o.key, json.loads(o.previous_value), json.loads(o.value)) for o in changes}
            count = len(changes)
            alerts = session.exec(select(Alert.item_id).where(Alert.kind == "change")).all()
            book = load_book(session)
        engine.dispose()
    current = {k: s.value for k, s in book.claims["openai.api-prices"].keys.items()}
    return moved, count, alerts, current


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(polls=schedules())
def test_any_poll_order_records_the_same_changes(lists, polls):
    moved, count, alerts, current = replay(lists, polls)
    shown = {name: {s for n, s in polls if n == name} for name in STATES}
    cut_seen = any(states == {0, 1} for states in shown.values())
    # the cut is one change per field when a source was seen making it, else nothing changed
    assert moved == (O3_CUT if cut_seen else set())
    assert count == len(moved)
    # its alerts come from one poll of one source: one message
    assert len(alerts) == len(moved) and len(set(alerts)) <= 1
    if cut_seen:
        assert (current["o3:input"], current["o3:output"]) == (2.0, 8.0)


@pytest.mark.parametrize(
    "polls",
    [
        # the order that lost the cut: OpenRouter after it, then LiteLLM before and after it
        [("openrouter", 1), ("litellm", 0), ("litellm", 1)],
        [("litellm", 0), ("openrouter", 1), ("litellm", 1)],
        [("litellm", 0), ("litellm", 1), ("openrouter", 1)],
        [("openrouter", 0), ("litellm", 0), ("litellm", 1), ("openrouter", 1)],
    ],
)
def test_the_real_o3_cut_is_one_change_whichever_source_is_polled_first(lists, polls):
    moved, _, alerts, current = replay(lists, polls)
    assert moved == O3_CUT and len(set(alerts)) == 1
    assert current["o3:cached_input"] == 0.5
