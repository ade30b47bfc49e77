"""Words, numbers, tables and charts for people: pure functions, no database."""

import json
import math
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from monitor import charts, render
from monitor.health import counts_line, reason, state_word

NOW = datetime(2027, 1, 2, 12, tzinfo=UTC)
HOSTILE = "\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07\x1b[2J\x1b[31mred\x07\x9b31m\u202eevil"


@pytest.mark.parametrize(
    ("count", "expected"),
    [(0, "0 entries"), (1, "1 entry"), (2, "2 entries"), (1500, "1,500 entries")],
)
def test_plural(count, expected):
    assert render.plural(count, "entry", "entries") == expected


@pytest.mark.parametrize(
    ("when", "expected"),
    [
        (NOW - timedelta(seconds=20), "just now"),
        (NOW - timedelta(minutes=1), "1 minute ago"),
        (NOW - timedelta(hours=5), "5 hours ago"),
        (NOW - timedelta(days=3), "3 days ago"),
        (NOW - timedelta(days=400), "2025-11-28"),
        (NOW + timedelta(days=3), "2027-01-05 12:00"),  # ahead of the clock: a date, never "ago"
        (None, "never"),
    ],
)
def test_relative_times_only_for_the_past(when, expected):
    assert render.ago(when, NOW, ZoneInfo("UTC")) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (float("nan"), "not a number"),
        (float("inf"), "infinity"),
        (float("-inf"), "minus infinity"),
        (1e308, "1e+308"),
        (85448, "85,448"),
        (40_000_000_000, "40B"),
        (0.125, "0.125"),
    ],
)
def test_numbers_never_raise(value, expected):
    assert render.number(value) == expected


def test_values_of_every_shape_render_as_text():
    assert render.value_text(float("inf"), "USD") == "infinity USD"
    assert render.value_text([1.5, float("nan")], "×") == "1.5–not a number ×"
    assert render.value_text({"a": 1}) == "a: 1"
    assert render.value_text({str(i): i for i in range(5)}) == "5 entries"
    assert render.value_text({}) == "(first observation)"


def test_plain_strips_escape_sequences_and_controls():
    text = render.plain(HOSTILE)
    assert text == "clickredevil"
    assert render.plain("tab\tand\nnewline stay") == "tab\tand\nnewline stay"
    assert "\x1b" not in render.clip(HOSTILE, 80)


def test_json_is_valid_whatever_is_stored():
    text = render.to_json([{"value": float("inf"), "delta": float("nan"), "x": [float("-inf")]}])
    data = json.loads(text, parse_constant=lambda token: pytest.fail(f"{token} in JSON"))
    assert data == [{"value": None, "delta": None, "x": [None]}]
    assert "\\u009b" in render.to_json(["\x9b2J"])  # C1 controls stay escaped


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'=1"),
        ("plain", "plain"),
        (-6.3, -6.3),  # a number is not a formula
    ],
)
def test_csv_cells_cannot_start_a_formula(cell, expected):
    assert render.csv_cell(cell) == expected


def test_table_fits_the_width_and_keeps_cjk_columns():
    rows = [
        [
            "jalapeno.tokens-per-kw.kimi-k2.5",
            "芯东西 via Explainer citing 芯东西, DeepTech, 华尔街见闻",
            "x" * 90,
        ],
        ["a", "b", "http://127.0.0.1:9/a-very-long-path/that-goes-on: cannot connect (refused)"],
    ]
    out = render.table(["claim", "source", "reason"], rows, width=70, wrap=("source", "reason"))
    from rich.cells import cell_len

    assert max(cell_len(line) for line in out.splitlines()) <= 70
    assert "refused)" in out.replace("\n", " ") or "refused" in out
    assert "jalapeno.tokens-per-kw.kimi-k2.5" in out  # ids are not cut while others can wrap


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(
            st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=14),
            min_size=3,
            max_size=3,
        ),
        max_size=8,
    )
)
def test_a_table_that_fits_draws_the_same_lines_without_rich(rows):
    headers = ["watcher", "outcome", "reason"]
    drawn = render.table(headers, rows, width=200)
    cells = [[render.plain(c).replace("\t", " ") for c in row] for row in rows]
    natural = [max([len(h)] + [len(row[i]) for row in cells]) for i, h in enumerate(headers)]
    assert drawn == render._rich_table(headers, cells, natural, ("reason",))


def test_tables_show_no_markup_or_escapes():
    out = render.table(["a"], [["[bold]x[/bold] :smile: " + HOSTILE]], width=80)
    assert "[bold]x[/bold] :smile:" in out and "\x1b" not in out and "\x07" not in out


@pytest.mark.parametrize(
    ("kind", "error", "word"),
    [
        (None, None, "ok"),
        ("not-modified", None, "not modified"),
        ("fetch", "http://h/: cannot connect (refused)", "unreachable"),
        ("fetch", "http://h/: HTTP 503", "HTTP error"),
        ("timeout", "", "timed out"),
        ("blocked", "", "blocked"),
        ("layout", "", "layout changed"),
        ("parse", "", "parse error"),
    ],
)
def test_one_vocabulary_for_poll_outcomes(kind, error, word):
    assert state_word(kind, error) == word


def test_counts_follow_the_vocabulary_order():
    words = ["blocked", "ok", "unreachable", "ok", "unreachable"]
    assert counts_line(words) == "2 ok, 2 unreachable, 1 blocked"
    assert reason("http://h/x: HTTP 404", "http://h/x") == "HTTP 404"


@pytest.mark.parametrize(
    ("low", "high"), [(79_700, 85_448), (0.69, 0.713), (8, 10), (1.2e9, 4.1e10), (5, 5)]
)
def test_value_ticks_are_round_and_cover_the_range(low, high):
    first, last, ticks = charts.value_ticks(low, high)
    step = ticks[1] - ticks[0]
    assert first <= low and last >= high and 3 <= len(ticks) <= 11
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert round(mantissa, 6) in (1, 2, 2.5, 5)
    labels = [charts.tick_label(t, step) for t in ticks]
    assert len(set(labels)) == len(labels)


def test_time_ticks_show_the_span_with_years():
    utc = ZoneInfo("UTC")
    month = charts.time_ticks(
        datetime(2026, 8, 25, tzinfo=UTC), datetime(2027, 1, 2, tzinfo=UTC), utc
    )
    assert [label for _, label in month] == ["Sep 2026", "Oct", "Nov", "Dec", "Jan 2027"]
    weeks = charts.time_ticks(
        datetime(2026, 12, 3, tzinfo=UTC), datetime(2027, 1, 2, tzinfo=UTC), utc
    )
    assert (
        len(weeks) >= 4 and weeks[0][1].endswith("2026") and all(t.weekday() == 0 for t, _ in weeks)
    )


def test_price_rows_group_aliases_and_keep_the_history():
    current = {
        "gpt-4o:input": 2.5,
        "gpt-4o:output": 10,
        "gpt-4o-2024-08-06:input": 2.5,
        "gpt-4o-2024-08-06:output": 10,
        "gpt-5.5:output": 8,
    }
    changes = [
        {
            "key": "gpt-5.5:output",
            "previous": 10,
            "value": 8,
            "delta_pct": -20.0,
            "at": datetime(2026, 12, 17, tzinfo=UTC),
            "source": "litellm",
        }
    ]
    rows = charts.price_rows(current, changes, ZoneInfo("UTC"))
    assert [(r["model"], r["aliases"]) for r in rows] == [
        ("gpt-4o", ["gpt-4o-2024-08-06"]),
        ("gpt-5.5", []),
    ]
    assert rows[1]["history"] == ["output 10 → 8 (-20.0%), 17 Dec 2026, litellm"]
    assert charts.price_fields(rows) == ["input", "output"]


def test_console_alerts_print_no_escape_sequences(settings):
    import io

    from alerts.console import ConsoleAlerter

    alerter = ConsoleAlerter(settings)
    alerter.stream = io.StringIO()
    view = {
        "event": "change",
        "claim_id": "c",
        "claim_title": "T",
        "key": "",
        "unit": "",
        "baseline": 1,
        "previous": None,
        "value": 2,
        "delta_pct": 100.0,
        "source": "news",
        "title": HOSTILE,
        "url": "http://x.example/" + HOSTILE,
    }
    alerter.send([view, {"event": "health", "subject": HOSTILE, "watcher": "w", "state": "ok"}])
    printed = alerter.stream.getvalue()
    assert "\x1b" not in printed and "\x07" not in printed and "\x9b" not in printed
    assert "http://x.example/clickredevil" in printed
