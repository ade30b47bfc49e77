"""One absurd value never poisons alerting: refused at the parser, and a non-finite value already
stored renders everywhere, so no row is left `sending` and JSON output stays JSON."""

import json

from sqlalchemy import update
from sqlmodel import Session, select

from alerts.deliver import deliver
from db.models import Alert, Observation
from monitor.cli import cli
from monitor.service import Poller, open_database

from .conftest import fixture_bytes

ABSURD = {
    "o3": {
        "litellm_provider": "openai",
        "mode": "chat",
        "input_cost_per_token": 2e-06,
        "output_cost_per_token": 1e308,
    }
}


def strict_json(text: str):
    """The parsed document; NaN or Infinity, which are not JSON, fail the test."""

    def refuse(token):
        raise AssertionError(f"{token} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_a_1e308_price_is_a_parse_error_and_stores_nothing(server, make_settings):
    server.expect_request("/prices.json").respond_with_json(ABSURD)
    settings = make_settings(
        [
            {
                "name": "p",
                "kind": "prices",
                "format": "litellm",
                "url": server.url_for("/prices.json"),
            }
        ]
    )
    engine, _ = open_database(settings)
    poller = Poller(settings, engine)
    report = poller.poll("p")
    poller.close()
    assert report.outcome == "parse" and "o3 output" in report.error
    with Session(engine) as session:
        assert session.exec(select(Observation)).all() == []
        assert session.exec(select(Alert)).all() == []


def test_a_stored_infinity_is_delivered_and_printed_as_valid_json(
    server, webhook, make_settings, runner, sqlite_url
):
    server.expect_request("/en.rss").respond_with_data(
        fixture_bytes("feed/retest_en.rss"), content_type="application/xml"
    )
    settings = make_settings(
        [{"name": "en", "kind": "feed", "url": server.url_for("/en.rss")}],
        alerts={"slack": {"webhook_url": webhook.url}},
    )
    engine, _ = open_database(settings)
    poller = Poller(settings, engine)
    poller.poll("en")
    poller.close()
    with Session(engine) as session:  # as an older version stored it
        session.exec(update(Observation).values(value="Infinity", delta_pct=float("inf")))
        session.commit()
    report = deliver(engine, settings)
    assert report.sent == 2 and report.given_up == 0
    with Session(engine) as session:
        assert {a.status for a in session.exec(select(Alert))} == {"sent"}
    assert "infinity" in json.dumps(webhook.bodies)
    for args in (["claims", "--format", "json"], ["timeline", "--format", "json"]):
        result = runner.invoke(cli, ["--db", sqlite_url, *args])
        assert result.exit_code == 0, result.output
        assert strict_json(result.stdout) is not None, args
    csv = runner.invoke(cli, ["--db", sqlite_url, "timeline", "--format", "csv"])
    assert csv.exit_code == 0 and "Infinity" not in csv.stdout
