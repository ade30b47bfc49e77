"""Churn and renames on real LiteLLM lists: nothing is sent while a list is reorganised, a field
rename is no removal, and a model gone for good reaches the digest only."""

import json

from sqlmodel import Session, select

from alerts.deliver import deliver
from db.models import Alert, Observation
from watchers.prices import litellm_entries, price_list

from .real_prices import Clock, Lists, churned_litellm, price_poller, real


def keys(data: dict, scope=("text",)) -> set[str]:
    return set(price_list(litellm_entries(data, ["openai"]), scope)["prices"])


def litellm_watcher(server, webhook, sqlite_url, clock, first, **config):
    lists = Lists(server)
    url = lists.serve("/litellm.json", first)
    watcher = {"name": "litellm", "kind": "prices", "format": "litellm", "url": url, **config}
    poller, engine = price_poller(
        sqlite_url, [watcher], clock, alerts={"slack": {"webhook_url": webhook.url}}
    )
    return lists, poller, engine


def changed(engine) -> list[tuple[str, str]]:
    with Session(engine) as session:
        rows = session.exec(select(Observation).where(Observation.changed)).all()
        return sorted((o.key, o.role) for o in rows)


def change_alerts(engine) -> list[Alert]:
    with Session(engine) as session:
        return list(session.exec(select(Alert).where(Alert.kind == "change")))


def test_the_march_2026_reorganisation_sends_nothing(server, webhook, sqlite_url):
    listed, reorganised, names = churned_litellm()
    assert len(names) == 17 and "o1-mini" in names and "gpt-4.5-preview" in names
    gone = keys(listed) - keys(reorganised)
    assert len({key.split(":")[0] for key in gone}) == 9  # text models; the rest are aliases
    clock = Clock()
    lists, poller, engine = litellm_watcher(server, webhook, sqlite_url, clock, listed)
    # hourly polls for 26 hours: listed, removed, put back, removed again
    for hour in range(27):
        lists.serve("/litellm.json", listed if hour < 4 or 10 <= hour < 16 else reorganised)
        assert poller.poll("litellm").outcome == "ok"
        clock.advance(hours=1)
    assert changed(engine) == [] and change_alerts(engine) == []
    deliver(engine, poller.settings, now=clock.now)
    assert webhook.bodies == []
    # still gone a day after the second removal: removed, in the digest, and still not sent
    for _ in range(14):
        poller.poll("litellm")
        clock.advance(hours=1)
    assert changed(engine) == sorted((key, "removed") for key in gone)
    assert change_alerts(engine) == []
    deliver(engine, poller.settings, now=clock.now)
    assert webhook.bodies == []
    poller.close()


def test_gpt_image_1_renaming_its_output_price_field_is_no_removal(server, webhook, sqlite_url):
    before, after = real("litellm-d1549c1.json"), real("litellm-7c34609.json")
    assert "output_cost_per_token" in before["gpt-image-1"]
    assert "output_cost_per_token" not in after["gpt-image-1"]
    clock = Clock()
    lists, poller, engine = litellm_watcher(
        server, webhook, sqlite_url, clock, before, scope=["text", "image"]
    )
    poller.poll("litellm")
    lists.serve("/litellm.json", after)
    for _ in range(4):  # two days of polls: past any removal window
        clock.advance(hours=12)
        poller.poll("litellm")
    assert not [key for key, role in changed(engine) if role == "removed"]
    assert ("gpt-image-1:cached_input", "new") in changed(engine)  # the list added it
    assert change_alerts(engine) == []
    with Session(engine) as session:
        output = session.exec(
            select(Observation).where(Observation.key == "gpt-image-1:output")
        ).all()
    assert [json.loads(o.value) for o in output] == [40.0]  # its baseline, never moved
    poller.close()


def test_a_field_gone_while_its_model_stays_listed_is_no_removal(server, webhook, sqlite_url):
    listed, _, _ = churned_litellm()
    clock = Clock()
    lists, poller, engine = litellm_watcher(server, webhook, sqlite_url, clock, listed)
    poller.poll("litellm")
    renamed = real("litellm-d1549c1.json")
    for name in ("gpt-4o", "gpt-4o-2024-08-06", "gpt-4o-2024-11-20"):
        spec = renamed[name]
        spec["cache_read_cost_per_token"] = spec.pop("cache_read_input_token_cost")
    lists.serve("/litellm.json", renamed)
    for _ in range(4):
        clock.advance(hours=12)
        poller.poll("litellm")
    assert changed(engine) == [] and change_alerts(engine) == []
    # and back under its old name: the same price, nothing to tell
    lists.serve("/litellm.json", listed)
    clock.advance(hours=12)
    poller.poll("litellm")
    assert changed(engine) == []
    poller.close()
