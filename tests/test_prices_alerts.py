"""Price alerts end to end: one line per model and its aliases, one message per poll of a source;
cuts and rises at once, new and removed models in the digest."""

import json
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from alerts.deliver import deliver
from alerts.digest import digest_data, render_text
from alerts.slack import payload
from alerts.text import merge_prices
from db.models import Alert, Observation

from .real_prices import (
    LITELLM,
    O3_CUT_LINE,
    Clock,
    Lists,
    litellm_before_o3_cut,
    price_poller,
    real,
)


def litellm_poller(server, webhook, sqlite_url, clock):
    lists = Lists(server)
    url = lists.serve("/litellm.json", litellm_before_o3_cut())
    watchers = [{"name": "litellm", "kind": "prices", "format": "litellm", "url": url}]
    poller, engine = price_poller(
        sqlite_url, watchers, clock, alerts={"slack": {"webhook_url": webhook.url}}
    )
    return lists, poller, engine


def slack_text(body: dict) -> str:
    return "\n".join(b["text"]["text"] for b in body["blocks"] if b["type"] == "section")


def test_the_o3_cut_is_one_line_in_one_message(server, webhook, sqlite_url):
    clock = Clock()
    lists, poller, engine = litellm_poller(server, webhook, sqlite_url, clock)
    poller.poll("litellm")
    lists.serve("/litellm.json", real(LITELLM))
    clock.advance(hours=1)
    report = poller.poll("litellm")
    assert report.changes == 3
    sent = deliver(engine, poller.settings, now=clock.now)
    assert (sent.sent, sent.messages) == (3, 1)
    [message] = webhook.bodies
    assert O3_CUT_LINE in slack_text(message)
    assert message["blocks"][0]["text"]["text"] == "Claim changed: OpenAI API prices (o3)"
    assert O3_CUT_LINE in message["text"]
    poller.poll("litellm")  # the same list again
    assert deliver(engine, poller.settings, now=clock.now).messages == 0
    poller.close()


def test_many_models_moving_in_one_poll_are_one_message(server, webhook, sqlite_url):
    clock = Clock()
    lists, poller, engine = litellm_poller(server, webhook, sqlite_url, clock)
    poller.poll("litellm")
    halved = real(LITELLM)
    for spec in halved.values():
        openai = isinstance(spec, dict) and spec.get("litellm_provider") == "openai"
        if openai and spec.get("mode") == "chat" and spec.get("input_cost_per_token"):
            spec["input_cost_per_token"] /= 2
    lists.serve("/litellm.json", halved)
    clock.advance(hours=1)
    report = poller.poll("litellm")
    assert report.changes >= 30  # input prices of a few dozen models
    sent = deliver(engine, poller.settings, now=clock.now)
    assert sent.messages == 1 and sent.sent == report.changes
    [message] = webhook.bodies
    assert len(message["blocks"]) <= 50
    assert all(len(b["text"]["text"]) <= 3000 for b in message["blocks"] if "text" in b)
    assert "OpenAI API prices: " in message["blocks"][0]["text"]["text"]
    assert "models changed" in message["blocks"][0]["text"]["text"]
    text = slack_text(message)
    assert O3_CUT_LINE.replace("input 10 → 2", "input 10 → 1") in text
    assert "gpt-4o (also gpt-4o-2024-08-06, gpt-4o-2024-11-20): input 2.5 → 1.25 USD/1M" in text
    poller.close()


def test_new_and_removed_models_go_to_the_digest_not_to_slack(server, webhook, sqlite_url):
    clock = Clock()
    lists, poller, engine = litellm_poller(server, webhook, sqlite_url, clock)
    poller.poll("litellm")
    changed = litellm_before_o3_cut()
    del changed["o3-mini"], changed["o3-mini-2025-01-31"]
    changed["gpt-9"] = dict(changed["gpt-5.5"])
    lists.serve("/litellm.json", changed)
    for _ in range(3):  # two polls and a day: the removal window
        clock.advance(hours=13)
        poller.poll("litellm")
    deliver(engine, poller.settings, now=clock.now)
    assert webhook.bodies == [], webhook.bodies
    with Session(engine) as session:
        roles = {
            (o.key, o.role) for o in session.exec(select(Observation).where(Observation.changed))
        }
        assert roles == {
            *((f"o3-mini:{f}", "removed") for f in ("input", "cached_input", "output")),
            *((f"gpt-9:{f}", "new") for f in ("input", "cached_input", "output")),
        }
        assert session.exec(select(Alert).where(Alert.kind == "change")).all() == []
        days = [(clock.now + timedelta(days=n)).date() for n in (-1, 0, 1)]
        digests = [digest_data(session, poller.settings, day) for day in days]
    told = {c["key"] for d in digests for group in d["changes"] for c in group["changes"]}
    assert {"o3-mini", "gpt-9"} <= told  # a line per model, its fields joined
    poller.close()


def test_the_digest_and_the_atom_feed_give_the_o3_cut_one_line(server, webhook, sqlite_url):
    import feedparser
    from starlette.testclient import TestClient

    from monitor.web import create_app

    clock = Clock()
    lists, poller, engine = litellm_poller(server, webhook, sqlite_url, clock)
    poller.poll("litellm")
    lists.serve("/litellm.json", real(LITELLM))
    clock.advance(hours=1)
    poller.poll("litellm")
    with Session(engine) as session:
        days = [(clock.now + timedelta(days=n)).date() for n in (-1, 0, 1)]
        text = "".join(
            render_text(digest_data(session, poller.settings, d), poller.settings) for d in days
        )
    assert text.count(O3_CUT_LINE) == 1
    assert "o3:input" not in text
    app = create_app(poller.settings, engine, clock=lambda: clock.now)
    feed = feedparser.parse(TestClient(app).get("/alerts.atom").content)
    cut = [e for e in feed.entries if "o3" in e.title]
    assert len(cut) == 1, [e.title for e in feed.entries]
    assert O3_CUT_LINE in cut[0].summary
    poller.close()


VIEW = {
    "event": "change",
    "claim_id": "openai.api-prices",
    "claim_title": "OpenAI API prices",
    "claim_kind": "price-list",
    "unit": "USD/1M tokens",
    "verification": "published price list",
    "source": "litellm",
    "url": "http://127.0.0.1/prices.json",
}


def price_view(key, previous, value, excerpt=""):
    return {**VIEW, "key": key, "previous": previous, "value": value, "excerpt": excerpt}


def test_fields_of_one_model_join_in_field_order_whatever_the_alert_order():
    views = [
        price_view("o3:output", 40, 8, "o3 (also o3-2025-04-16) output: 8 USD per 1M tokens"),
        price_view("gpt-4.1:input", 2, 3, "gpt-4.1 input: 3 USD per 1M tokens (was 2)"),
        price_view("o3:input", 10, 2, "o3 (also o3-2025-04-16) input: 2 USD per 1M tokens"),
        price_view("o3:cached_input", 2.5, 0.5, "o3 (also o3-2025-04-16) cached input: 0.5"),
    ]
    merged = merge_prices(views)
    assert [v["line"] for v in merged] == [O3_CUT_LINE, "gpt-4.1: input 2 → 3 USD/1M"]


def test_other_claims_keep_a_section_each_beside_the_price_lines():
    other = {
        **VIEW,
        "claim_id": "jalapeno.verification",
        "claim_title": "Jalapeño verification",
        "claim_kind": "status",
        "key": "",
        "previous": "self-reported",
        "value": "independent partial re-test",
        "baseline": "self-reported",
        "excerpt": "an independent re-test",
    }
    body = payload([price_view("o3:input", 10, 2), other], None)
    text = slack_text(body)
    assert "o3: input 10 → 2 USD/1M" in text and "independent partial re-test" in text
    assert body["blocks"][0]["text"]["text"] == "2 claims changed"


@pytest.mark.parametrize(
    "name",
    ["<!channel> (also x)", "o3 (also <https://evil.example|click>)"],
)
def test_model_names_and_aliases_are_escaped_in_slack(name):
    view = price_view("o3:input", 10, 2, f"{name} input: 2")
    text = json.dumps(payload([view], None))
    assert "<!channel>" not in text and "<https://evil.example|" not in text
