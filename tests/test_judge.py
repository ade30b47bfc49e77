"""Judging keyed values (prices) from snapshot sources: pure functions on a claim's state."""

from datetime import UTC, datetime, timedelta

import pytest

from watchers.base import Candidate
from watchers.judge import RemovalWindow, judge_keyed, judge_missing
from watchers.state import ClaimState, KeyState, SourceKey

KEY = "o3:input"
T0 = datetime(2026, 3, 11, tzinfo=UTC)


def claim(*history, seq=None) -> ClaimState:
    keys = {}
    if history:
        seq = len(history) - 1 if seq is None else seq
        keys[KEY] = KeyState(value=history[-1], seq=seq, history=list(history))
    return ClaimState(id="openai.api-prices", spec={"kind": "price-list"}, keys=keys)


def said(value) -> SourceKey:
    return SourceKey(value=value, group="o3")


def price(value) -> Candidate:
    return Candidate(claim_id="openai.api-prices", key=KEY, value=value, signal="price", excerpt="")


def role(verdict):
    return None if verdict is None else (verdict.role, verdict.changed, verdict.notify)


def test_the_first_source_sets_the_baseline_silently():
    assert role(judge_keyed(price(10), claim(), None, new_source=True)) == (
        "baseline",
        False,
        False,
    )


def test_a_key_new_to_a_source_seen_before_is_new_for_the_digest():
    assert role(judge_keyed(price(10), claim(), None, new_source=False)) == ("new", True, False)


def test_a_move_of_the_source_at_the_current_value_is_a_change():
    verdict = judge_keyed(price(2), claim(10, seq=0), said(10), new_source=False)
    assert role(verdict) == ("change", True, True)
    assert (verdict.previous, verdict.delta_pct) == (10, -80.0)


def test_a_second_source_reporting_a_recorded_cut_confirms_it():
    verdict = judge_keyed(price(2), claim(10, 2), said(10), new_source=False)
    assert role(verdict) == ("confirms", False, False)


def test_a_cut_a_source_polled_first_already_showed_is_still_a_change():
    # OpenRouter's first poll showed 2; LiteLLM said 10 and now says 2: the cut is recorded once
    state = claim(2, seq=0)
    verdict = judge_keyed(price(2), state, said(10), new_source=False)
    assert role(verdict) == ("change", True, True)
    assert (verdict.previous, verdict.delta_pct) == (10, -80.0)
    state.keys[KEY].apply_change(2, 1, "", T0)
    # a third source making the same move afterwards confirms it
    assert role(judge_keyed(price(2), state, said(10), new_source=False))[0] == "confirms"


def test_a_lagging_source_passing_through_recorded_values_catches_up():
    state = claim(10, 5, 2)
    assert role(judge_keyed(price(5), state, said(10), new_source=False))[0] == "catch-up"
    assert role(judge_keyed(price(2), state, said(5), new_source=False))[0] == "confirms"


def test_a_source_repeating_itself_says_nothing():
    assert judge_keyed(price(10), claim(10, 2), said(10), new_source=False) is None


def test_a_source_first_word_that_differs_changes_nothing():
    verdict = judge_keyed(price(10), claim(2, seq=0), None, new_source=False)
    assert role(verdict) == ("differs", False, False)


def test_a_field_back_in_its_source_is_a_first_word_again():
    state = claim(10, seq=0)
    assert role(judge_keyed(price(10), state, said(None), new_source=False))[0] == "confirms"
    assert role(judge_keyed(price(8), state, said(None), new_source=False))[0] == "differs"


def test_a_model_listed_again_after_its_removal_is_new():
    state = claim(10, None)
    assert role(judge_keyed(price(10), state, said(None), new_source=False)) == (
        "new",
        True,
        False,
    )


WINDOW = RemovalWindow()  # the default: two polls and 24 hours


def missing(state, source, now, *, elsewhere=False, window=WINDOW):
    return judge_missing(
        state, KEY, source, now=now, window=window, elsewhere=elsewhere, source="litellm"
    )


@pytest.mark.parametrize(
    "polls_at",
    [
        [timedelta(0)],  # one poll
        [timedelta(0), timedelta(hours=23)],  # two polls within a day
        [timedelta(0), timedelta(hours=1), timedelta(hours=2)],  # many polls, a few hours
    ],
)
def test_a_missing_key_is_not_removed_within_the_window(polls_at):
    state, source = claim(10, seq=0), said(10)
    assert all(missing(state, source, T0 + at) is None for at in polls_at)
    assert source.value == 10 and source.missing_polls == len(polls_at)


def test_a_key_missing_for_two_polls_and_a_day_is_removed_for_the_digest():
    state, source = claim(10, seq=0), said(10)
    assert missing(state, source, T0) is None
    verdict = missing(state, source, T0 + timedelta(hours=24))
    assert role(verdict) == ("removed", True, False)
    assert verdict.candidate.excerpt == "o3 is no longer listed by litellm"
    assert (source.value, source.missing_polls, source.missing_since) == (None, 0, None)


def test_a_key_another_source_still_lists_is_not_removed_from_the_claim():
    state, source = claim(10, seq=0), said(10)
    missing(state, source, T0, elsewhere=True)
    verdict = missing(state, source, T0 + timedelta(days=2), elsewhere=True)
    assert role(verdict) == ("evidence", False, False)


def test_the_window_is_a_setting():
    window = RemovalWindow(polls=3, after=timedelta(hours=1))
    state, source = claim(10, seq=0), said(10)
    assert missing(state, source, T0, window=window) is None
    assert missing(state, source, T0 + timedelta(hours=2), window=window) is None
    assert missing(state, source, T0 + timedelta(hours=3), window=window).role == "removed"
