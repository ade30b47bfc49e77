"""Delivery under hostile answers: only Slack's `ok` delivers, a redirect is never followed, the
webhook URL never shows in an error, and one bad row never stops or strands the others."""

import json
import logging
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session, select
from werkzeug import Response

from alerts.console import ConsoleAlerter
from alerts.deliver import deliver
from alerts.digest import digest_data, render_text
from db.models import Alert, Observation
from monitor.config import ConfigError, load_settings
from monitor.service import Poller, open_database

from .conftest import fixture_bytes

SECRET = "/services/T0ABCDEFG/B0HIJKLMN/s3cr3tT0k3nXXXXXXXXXXXX"


def polled(server, make_settings, webhook_url=None):
    """A database that polled the English re-test feed: two change alerts of one item."""
    server.expect_request("/en.rss").respond_with_data(
        fixture_bytes("feed/retest_en.rss"), content_type="application/xml"
    )
    alerts = {"slack": {"webhook_url": webhook_url}} if webhook_url else {}
    settings = make_settings(
        [{"name": "en", "kind": "feed", "url": server.url_for("/en.rss")}], alerts=alerts
    )
    engine, _ = open_database(settings)
    poller = Poller(settings, engine)
    poller.poll("en")
    poller.close()
    return settings, engine


def statuses(engine) -> list[tuple[str, str | None]]:
    with Session(engine) as session:
        return [(a.status, a.last_error) for a in session.exec(select(Alert).order_by(Alert.id))]


def hook(server, status: int, body: str = "", headers: dict | None = None) -> tuple[str, list]:
    """A webhook at SECRET answering `status` with `body`; returns its URL and the requests
    any redirect target received."""
    followed = []
    server.expect_request(SECRET, method="POST").respond_with_response(
        Response(body, status=status, headers=headers or {})
    )
    server.expect_request("/elsewhere").respond_with_handler(
        lambda request: followed.append(request.url) or Response("ok")
    )
    return server.url_for(SECRET), followed


@pytest.mark.parametrize(
    ("status", "body", "says"),
    [
        (301, "", "redirect (HTTP 301), not followed"),
        (302, "", "redirect (HTTP 302), not followed"),
        (307, "ok", "redirect (HTTP 307), not followed"),
        (308, "", "redirect (HTTP 308), not followed"),
        (200, "", "Slack answered HTTP 200"),
        (200, "<html>captive portal</html>", "Slack answered HTTP 200"),
        (204, "", "Slack answered HTTP 204"),
    ],
)
def test_only_2xx_with_ok_is_delivered(server, make_settings, status, body, says):
    url, followed = hook(server, status, body, {"Location": server.url_for("/elsewhere")})
    settings, engine = polled(server, make_settings, url)
    report = deliver(engine, settings)
    assert (report.sent, report.retrying) == (0, 2)
    assert followed == []  # the webhook body never went to where a redirect pointed
    for state, error in statuses(engine):
        assert state == "pending" and says in error


def test_the_webhook_url_never_shows_in_errors_digest_or_logs(server, make_settings, caplog):
    echo = f"invalid_token for https://hooks.example{SECRET} (path {SECRET}, {json.dumps(SECRET)})"
    url, _ = hook(server, 400, echo)
    settings, engine = polled(server, make_settings, url)
    # the CLI quiets httpx; here it logs each request, as a library user's logging may let it
    with caplog.at_level(logging.DEBUG), caplog.at_level(logging.DEBUG, logger="httpx"):
        report = deliver(engine, settings)
    assert report.given_up == 2 and "invalid_token" in report.errors[0]
    with Session(engine) as session:
        day = datetime.now(UTC).date() + timedelta(days=1)
        digest = render_text(digest_data(session, settings, day), settings)
    logged = [r.getMessage() for r in caplog.records if not r.name.startswith("werkzeug")]
    assert any("HTTP Request: POST" in line for line in logged)  # httpx did log the request
    shown = json.dumps([statuses(engine), report.errors, digest, logged])
    assert "invalid_token" in digest
    for secret in ("s3cr3tT0k3n", "B0HIJKLMN", SECRET):
        assert secret not in shown


@pytest.mark.parametrize(
    "retry_after", ["99999999999999", "1e309", "-5", "Fri, 31 Dec 9999 23:59:59 GMT"]
)
def test_an_absurd_retry_after_waits_a_week_at_most(server, make_settings, retry_after):
    url, _ = hook(server, 429, "rate limited", {"Retry-After": retry_after})
    settings, engine = polled(server, make_settings, url)
    now = datetime.now(UTC)
    report = deliver(engine, settings, now=now)
    assert report.retrying == 2
    with Session(engine) as session:
        for alert in session.exec(select(Alert)):
            due = alert.next_attempt_at.replace(tzinfo=UTC)
            assert alert.status == "pending" and due <= now + timedelta(days=7, seconds=1)


def test_a_webhook_url_with_a_trailing_newline_is_trimmed(server, make_settings):
    url, _ = hook(server, 200, "ok")
    settings = load_settings(None, environ={"CLAIMWATCH_SLACK_WEBHOOK_URL": url + "\n"})
    assert settings.alerts.slack.webhook_url == url
    settings, engine = polled(server, make_settings, url + "\n")
    assert deliver(engine, settings).sent == 2


@pytest.mark.parametrize("bad", ["http://x/a b", "http://x/\x07", "file:///etc/passwd"])
def test_a_webhook_url_that_is_no_url_is_a_config_error_that_hides_it(bad):
    with pytest.raises(ConfigError, match="alerts.slack.webhook_url") as info:
        load_settings(None, environ={"CLAIMWATCH_SLACK_WEBHOOK_URL": bad})
    assert bad not in str(info.value)


def test_an_invalid_webhook_url_gives_up_without_stranding_rows(server, make_settings):
    settings, engine = polled(server, make_settings, "http://127.0.0.1:1/hook")
    settings = settings.model_copy(
        update={
            "alerts": settings.alerts.model_copy(
                update={
                    "slack": type(settings.alerts.slack).model_construct(
                        webhook_url="http://[::1/hook", enabled=True
                    )
                }
            )
        }
    )
    report = deliver(engine, settings)
    assert report.given_up == 2
    assert {s for s, _ in statuses(engine)} == {"given_up"}
    assert "not a valid URL" in statuses(engine)[0][1]


def test_a_row_that_cannot_be_rendered_is_given_up_and_the_rest_go(server, make_settings):
    settings, engine = polled(server, make_settings)
    now = datetime.now(UTC)
    with Session(engine) as session:
        session.add(
            Alert(
                event_key="health:corrupt",
                channel="console",
                kind="health",
                body="{not json",
                created_at=now,
                next_attempt_at=now,
            )
        )
        poisoned = session.exec(select(Observation).order_by(Observation.id)).first().claim_id
        session.commit()
    printed = []
    console = ConsoleAlerter(settings)

    def send(views):  # a channel that cannot render one claim's change
        if any(v.get("claim_id") == poisoned for v in views):
            raise OverflowError("cannot convert float infinity to integer")
        printed.extend(views)

    console.send = send
    report = deliver(engine, settings, now=now, alerters={"console": console})
    rows = statuses(engine)
    assert "sending" not in {s for s, _ in rows}
    assert report.sent == len(printed) == 1 and report.given_up == 2
    given_up = [e for s, e in rows if s == "given_up"]
    assert any("OverflowError: cannot convert float infinity" in e for e in given_up)
    assert any("JSONDecodeError" in e for e in given_up)
    # later runs do not pick them up again
    assert (
        deliver(engine, settings, now=now + timedelta(hours=1), alerters={"console": console}).sent
        == 0
    )


def test_the_console_alerter_prints_no_terminal_escapes(settings):
    import io

    hostile = "\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07\x1b[2J\x1b[31mred\x9b31m\u202eevil"
    console = ConsoleAlerter(settings)
    console.stream = io.StringIO()
    view = {
        "event": "change",
        "claim_id": "c" + hostile,
        "claim_title": hostile,
        "key": "",
        "value": hostile,
        "baseline": 1,
        "source": hostile,
        "title": hostile,
        "url": "http://x.example/" + hostile,
    }
    console.send(
        [view, {"event": "health", "watcher": hostile, "state": "failing", "error": hostile}]
    )
    printed = console.stream.getvalue()
    assert "click" in printed and "red" in printed
    for control in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert control not in printed
