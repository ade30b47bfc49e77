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


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """A throwaway certificate for 127.0.0.1, made with the openssl command."""
    import shutil
    import subprocess

    if not shutil.which("openssl"):
        pytest.skip("the openssl command is not installed")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def _server_context(cert, key):
    import ssl

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(cert), str(key))
    return context


def test_starttls_delivers_to_a_server_we_trust(server, make_settings, smtp_server, certificate):
    cert, key = certificate
    handler = Answers()
    port = smtp_server(handler, tls_context=_server_context(cert, key), require_starttls=True)
    settings, engine = setup(server, make_settings, port, security="starttls", ca_file=str(cert))
    assert deliver(engine, settings).sent == 2 and len(handler.accepted) == 1


def test_implicit_tls_delivers(server, make_settings, smtp_server, certificate):
    cert, key = certificate
    handler = Answers()
    port = smtp_server(handler, ssl_context=_server_context(cert, key))
    settings, engine = setup(server, make_settings, port, security="ssl", ca_file=str(cert))
    assert deliver(engine, settings).sent == 2 and len(handler.accepted) == 1


def test_an_untrusted_certificate_is_not_sent_to(server, make_settings, smtp_server, certificate):
    cert, key = certificate
    handler = Answers()
    port = smtp_server(handler, tls_context=_server_context(cert, key), require_starttls=True)
    settings, engine = setup(server, make_settings, port, security="starttls")
    report = deliver(engine, settings)
    assert report.sent == 0 and handler.accepted == []
    assert (
        "the certificate of SMTP server 127.0.0.1 is not trusted" in report.errors[0]
        and "ca_file" in report.errors[0]
    )


def test_starttls_against_a_plain_server_says_what_to_do(server, make_settings, smtp_server):
    port = smtp_server(Answers())
    settings, engine = setup(server, make_settings, port, security="starttls")
    report = deliver(engine, settings)
    assert 'does not support STARTTLS; set security = "ssl" or "none"' in report.errors[0]
