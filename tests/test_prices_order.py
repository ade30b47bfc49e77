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
    O3_MIDWAY,
    OPENROUTER,
    Clock,
    Lists,
    body,
    litellm_before_o3_cut,
    litellm_with_o3_at,
    openrouter_before_o3_cut,
    openrouter_with_o3_at,
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


def examples(count: int):
    """Hypothesis settings for a property whose every example polls real lists end to end."""
    return settings(
        max_examples=count,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


def versions():
    """What one source shows at each of its polls: upstream states in order, repeats allowed."""
    return st.lists(st.integers(0, 1), min_size=1, max_size=3).map(sorted)


@st.composite
def schedules(draw):
    """The polls of both sources, each in its own order, interleaved in any way."""
    return interleaved(draw, {name: draw(versions()) for name in STATES})


def interleaved(draw, seen: dict[str, list[int]]) -> list[tuple[str, int]]:
    """Each source's states in its own order, the sources' polls interleaved as drawn."""
    order = draw(st.permutations([n for n, shown in seen.items() for _ in shown]))
    position = dict.fromkeys(seen, 0)
    polls = []
    for name in order:
        polls.append((name, seen[name][position[name]]))
        position[name] += 1
    return polls


def replay(lists, polls, states=STATES):
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
                lists.serve(f"/{name}.json", states[name][state])
                clock.advance(minutes=10)
                assert poller.poll(name).outcome == "ok"
        finally:
            poller.close()
        with Session(engine) as session:
            changes = session.exec(
                select(Observation).where(Observation.role == "change").order_by(Observation.id)
            ).all()
            moved = {(o.key, json.loads(o.previous_value), json.loads(o.value)) for o in changes}
            replay.chain = [
                (o.key, json.loads(o.previous_value), json.loads(o.value)) for o in changes
            ]
            count = len(changes)
            alerts = session.exec(select(Alert.item_id).where(Alert.kind == "change")).all()
            book = load_book(session)
        engine.dispose()
    current = {k: s.value for k, s in book.claims["openai.api-prices"].keys.items()}
    return moved, count, alerts, current


@examples(25)
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


# three upstream states: before the cut, a step part of the way, after the cut
THREE = {
    "litellm": [
        body(litellm_before_o3_cut()),
        body(litellm_with_o3_at(O3_MIDWAY)),
        body(real(LITELLM)),
    ],
    "openrouter": [
        body(openrouter_before_o3_cut()),
        body(openrouter_with_o3_at(O3_MIDWAY)),
        body(real(OPENROUTER)),
    ],
}


@st.composite
def three_state_schedules(draw):
    """Each source shows the states in order, skipping any (a lagging list may jump two steps),
    and the two are interleaved in any way."""
    steps = st.lists(st.integers(0, 2), min_size=1, max_size=4).map(sorted)
    return interleaved(draw, {name: draw(steps) for name in THREE})


@examples(30)
@given(polls=three_state_schedules())
def test_a_lagging_source_never_makes_the_price_flap(lists, polls):
    """A source that shows a step the other skipped is catching up: the price only ever moves
    forward, each move is recorded once, and it ends where the newest list is."""
    moved, count, alerts, current = replay(lists, polls, THREE)
    inputs = [(before, after) for key, before, after in replay.chain if key == "o3:input"]
    assert all(after < before for before, after in inputs)  # a cut, never back up
    assert all(a[1] == b[0] for a, b in zip(inputs, inputs[1:], strict=False))  # one chain
    assert count == len(moved) == len(alerts)
    seen_cut = any(
        {s for n, s in polls if n == name} & {0, 1} and (name, 2) in polls for name in THREE
    )
    if seen_cut:
        assert current["o3:input"] == 2.0


def test_a_list_that_lags_two_steps_behind_catches_up_silently(lists):
    # OpenRouter jumps straight to the cut; LiteLLM then shows the step it made on the way
    polls = [("openrouter", 0), ("openrouter", 2), ("litellm", 0), ("litellm", 1), ("litellm", 2)]
    moved, _, alerts, current = replay(lists, polls, THREE)
    assert {m for m in moved if m[0] == "o3:input"} == {("o3:input", 10.0, 2.0)}
    assert len(set(alerts)) == 1
    assert current["o3:input"] == 2.0


def o3_at(input_per_m: float) -> dict[str, bytes]:
    """Both sources' rendering of o3 at this input price (cached a quarter, output four times)."""
    prices = {
        "input": input_per_m / 1e6,
        "cached_input": input_per_m / 4e6,
        "output": input_per_m * 4 / 1e6,
    }
    return {
        "litellm": body(litellm_with_o3_at(prices)),
        "openrouter": body(openrouter_with_o3_at(prices)),
    }


def along(path: list[float]) -> dict[str, list[bytes]]:
    """Each source's rendering of every upstream state of an o3 input-price path."""
    rendered = [o3_at(price) for price in path]
    return {name: [state[name] for state in rendered] for name in STATES}


def test_a_price_that_returns_is_two_moves_however_far_a_list_lags(lists):
    # OpenRouter shows 10 → 4 → 10; LiteLLM, behind, then shows the 4 and the 10 again
    polls = [
        ("litellm", 0),
        ("openrouter", 0),
        ("openrouter", 1),
        ("openrouter", 2),
        ("litellm", 1),
        ("litellm", 2),
    ]
    _, count, alerts, current = replay(lists, polls, along([10.0, 4.0, 10.0]))
    inputs = [(before, after) for key, before, after in replay.chain if key == "o3:input"]
    assert inputs == [(10.0, 4.0), (4.0, 10.0)]
    assert count == len(alerts) == 6, replay.chain
    assert current["o3:input"] == 10.0


def test_a_price_that_returns_is_reported_by_the_only_list_that_shows_it(lists):
    polls = [("litellm", 0), ("openrouter", 0), ("litellm", 1), ("litellm", 2)]
    _, _, _, current = replay(lists, polls, along([10.0, 4.0, 10.0]))
    inputs = [(before, after) for key, before, after in replay.chain if key == "o3:input"]
    assert inputs == [(10.0, 4.0), (4.0, 10.0)]
    assert current["o3:input"] == 10.0


@st.composite
def price_paths(draw):
    """A price that goes down, back up and down again (a promotion, say): an upstream path
    alternating between two prices. Both sources are first seen at its start; each then shows
    its states in order, skipping any and repeating any, interleaved in any way."""
    path = [10.0, 4.0] * draw(st.integers(1, 2)) + draw(st.sampled_from([[], [10.0]]))
    steps = st.lists(st.integers(0, len(path) - 1), max_size=3).map(lambda s: [0, *sorted(s)])
    return path, interleaved(draw, {name: draw(steps) for name in STATES})


def returns(values: list) -> list[tuple]:
    """Each time a sequence goes back to a value it left: (the value, the one it left for)."""
    return [(v, values[i - 1]) for i, v in enumerate(values) if i > 1 and v in values[: i - 1]]


@examples(40)
@given(case=price_paths())
def test_a_lagging_list_never_makes_a_price_that_returns_flap(lists, case):
    """However far one list lags, the claim moves no more often than the upstream states the
    sources showed, and goes back to a value only where upstream did."""
    path, polls = case
    _, count, alerts, _ = replay(lists, polls, along(path))
    shown = [path[i] for i in sorted({i for _, i in polls})]
    shown = [p for i, p in enumerate(shown) if i == 0 or p != shown[i - 1]]
    inputs = [(before, after) for key, before, after in replay.chain if key == "o3:input"]
    assert all(a[1] == b[0] for a, b in zip(inputs, inputs[1:], strict=False))  # one chain
    values = [inputs[0][0], *(after for _, after in inputs)] if inputs else []
    assert len(inputs) <= len(shown) - 1
    assert set(returns(values)) <= set(returns(shown))
    assert count == len(alerts)


def test_a_list_first_seen_after_the_price_went_down_and_back_is_placed_at_its_start(lists):
    # OpenRouter shows 10, then 4, then 10 again; LiteLLM is first polled only then, still at the
    # first 10, and next shows the 4 it lags with: catching up, not a third move
    polls = [
        ("openrouter", 0),
        ("openrouter", 1),
        ("openrouter", 2),
        ("litellm", 0),
        ("litellm", 1),
    ]
    _, count, alerts, current = replay(lists, polls, along([10.0, 4.0, 10.0]))
    inputs = [(before, after) for key, before, after in replay.chain if key == "o3:input"]
    assert inputs == [(10.0, 4.0), (4.0, 10.0)]
    assert count == len(alerts)
    assert current["o3:input"] == 10.0
