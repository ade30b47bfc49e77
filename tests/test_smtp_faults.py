"""SMTP faults against a real aiosmtpd server: refused, 4xx, 5xx, bad credentials."""

import logging
from datetime import UTC, datetime, timedelta

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult
from sqlmodel import Session, select

from alerts.deliver import deliver
from db.models import Alert
from monitor.service import Poller, open_database

from .conftest import fixture_bytes, free_port

SECRET = "hunter2-not-for-logs"


class Answers:
    """Answers DATA with the next code in line, then 250."""

    def __init__(self, *codes):
        self.codes, self.accepted = list(codes), []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        if self.codes:
            return self.codes.pop(0)
        self.accepted.append(envelope)
        return "250 OK"


@pytest.fixture
def smtp_server():
    controllers = []

    def start(handler, **kwargs):
        controller = Controller(handler, hostname="127.0.0.1", port=free_port(), **kwargs)
        controller.start()
        controllers.append(controller)
        return controller.port

    yield start
    for controller in controllers:
        controller.stop()


def setup(server, make_settings, port, **email):
    server.expect_request("/en.rss").respond_with_data(
        fixture_bytes("feed/retest_en.rss"), content_type="application/xml"
    )
    settings = make_settings(
        [{"name": "en", "kind": "feed", "url": server.url_for("/en.rss")}],
        alerts={
            "email": {
                "smtp_host": "127.0.0.1",
                "smtp_port": port,
                "security": "none",
                "immediate": True,
                "recipients": ["ops@example.org"],
                **email,
            },
            "retry_base": "1s",
            "give_up_after": "1h",
        },
    )
    engine, _ = open_database(settings)
    Poller(settings, engine).poll("en")
    return settings, engine


def statuses(engine):
    with Session(engine) as session:
        return sorted(
            (a.status, a.attempts)
            for a in session.exec(select(Alert).where(Alert.channel == "email"))
        )


def test_connection_refused_is_retried(server, make_settings):
    settings, engine = setup(server, make_settings, free_port())
    report = deliver(engine, settings)
    assert report.retrying == 2 and "cannot reach SMTP server 127.0.0.1" in report.errors[0]
    assert statuses(engine) == [("pending", 1), ("pending", 1)]


def test_temporary_4xx_is_retried_then_delivered_once(server, make_settings, smtp_server):
    handler = Answers("451 4.3.0 Try again later")
    settings, engine = setup(server, make_settings, smtp_server(handler))
    now = datetime.now(UTC)
    first = deliver(engine, settings, now=now)
    assert first.retrying == 2 and "SMTP error 451" in first.errors[0]
    second = deliver(engine, settings, now=now + timedelta(seconds=5))
    assert second.sent == 2 and len(handler.accepted) == 1
    assert deliver(engine, settings, now=now + timedelta(minutes=5)).sent == 0


def test_permanent_5xx_is_given_up_after_the_configured_age_and_reported(
    server, make_settings, smtp_server
):
    handler = Answers(*["550 5.1.1 No such user"] * 10)
    settings, engine = setup(server, make_settings, smtp_server(handler))
    now = datetime.now(UTC)
    assert deliver(engine, settings, now=now).retrying == 2
    late = deliver(engine, settings, now=now + timedelta(hours=2))
    assert late.given_up == 2 and "SMTP error 550" in late.errors[0]
    assert statuses(engine) == [("given_up", 2), ("given_up", 2)]


def test_authentication_failure_is_clear_and_keeps_the_secret(
    server, make_settings, smtp_server, caplog
):
    def refuse(server_, session, envelope, mechanism, auth_data):
        return AuthResult(success=False, handled=False)

    port = smtp_server(Answers(), authenticator=refuse, auth_require_tls=False)
    settings, engine = setup(server, make_settings, port, username="claimwatch", password=SECRET)
    caplog.set_level(logging.DEBUG)
    report = deliver(engine, settings)
    assert report.retrying == 2
    assert (
        "SMTP authentication failed for user 'claimwatch' (code 535); check CLAIMWATCH_SMTP_PASSWORD"
        in report.errors[0]
    )
    with Session(engine) as session:
        stored = " ".join(a.last_error or "" for a in session.exec(select(Alert)))
    assert (
        SECRET not in stored and SECRET not in caplog.text and SECRET not in " ".join(report.errors)
    )
