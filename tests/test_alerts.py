"""Alerts end to end: the outbox, Slack webhook, SMTP, the digest and the timeline."""

import email
import json
import os
import re
import signal
import subprocess
import sys
import time
from datetime import UTC, date, datetime, timedelta

from sqlmodel import Session, select

from alerts.deliver import STALE_SENDING, deliver
from db.models import Alert
from monitor.cli import cli
from monitor.service import Poller, open_database

from .conftest import fixture_bytes

HOSTILE = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>Hostile</title>
<item><title>&lt;!channel&gt; Independent re-test of OpenAI's Jalapeno: 70,000 tokens/s/kW on GPT-OSS 120B &lt;script&gt;alert(1)&lt;/script&gt;</title>
<link>http://127.0.0.1/x?a=1&amp;b=2</link><guid>hostile-1</guid><pubDate>Mon, 05 Oct 2026 10:00:00 GMT</pubDate>
<description>&lt;@U123&gt; &lt;https://evil.example|click me&gt; &amp; more</description></item></channel></rss>"""


def config_file(tmp_path, sqlite_url, watchers, extra=""):
    lines = [f'database_url = "{sqlite_url}"', 'timezone = "UTC"', extra]
    for w in watchers:
        lines.append("[[watchers]]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in w.items()]
    path = tmp_path / "claimwatch.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def env(webhook_url=None):
    return {"CLAIMWATCH_SLACK_WEBHOOK_URL": webhook_url} if webhook_url else {}


def test_changes_reach_slack_once(server, webhook, runner, tmp_path, sqlite_url):
    server.expect_request("/en.rss").respond_with_data(
        fixture_bytes("feed/retest_en.rss"), content_type="application/xml"
    )
    config = config_file(
        tmp_path,
        sqlite_url,
        [{"name": "chipnews", "kind": "feed", "url": server.url_for("/en.rss")}],
    )
    first = runner.invoke(cli, ["--config", config, "poll"], env=env(webhook.url))
    assert first.exit_code == 0, first.output
    assert "alerts: 2 sent in 1 message," in first.output
    assert len(webhook.bodies) == 1
    text = json.dumps(webhook.bodies[0], ensure_ascii=False)
    assert (
        "jalapeno.tokens-per-kw.gpt-oss-120b" in text
        and "80,100 tok/s/kW" in text
        and "-6.3%" in text
    )
    assert "jalapeno.verification" in text and "independent partial re-test" in text
    assert "baseline 85,448 tok/s/kW" in text
    blocks = webhook.bodies[0]["blocks"]
    assert blocks[0]["type"] == "header" and len(blocks) <= 50
    assert all(len(b.get("text", {}).get("text", "")) <= 3000 for b in blocks)
    runner.invoke(cli, ["--config", config, "poll"], env=env(webhook.url))
    assert len(webhook.bodies) == 1


def test_webhook_outage_then_deliver_sends_each_alert_once(
    server, webhook, runner, tmp_path, sqlite_url
):
    server.expect_request("/en.rss").respond_with_data(
        fixture_bytes("feed/retest_en.rss"), content_type="application/xml"
    )
    server.expect_request("/zh.atom").respond_with_data(
        fixture_bytes("feed/retest_zh.atom"), content_type="application/atom+xml"
    )
    config = config_file(
        tmp_path,
        sqlite_url,
        [
            {"name": "en", "kind": "feed", "url": server.url_for("/en.rss")},
            {"name": "zh", "kind": "feed", "url": server.url_for("/zh.atom")},
        ],
    )
    webhook.status[:] = [500, 500, 500, 200]
    down = runner.invoke(cli, ["--config", config, "poll"], env=env(webhook.url))
    assert "delivery failed: slack: Slack answered HTTP 500" in down.output
    assert webhook.bodies == []
    webhook.status[:] = [200]
    up = runner.invoke(cli, ["--config", config, "deliver"], env=env(webhook.url))
    assert up.exit_code == 0
    assert "3 sent in 2 messages" in up.output
    named = sorted(
        re.findall(r"\(`([a-z0-9.\-]+)`\)", json.dumps(webhook.bodies, ensure_ascii=False))
    )
    assert named == [
        "jalapeno.tokens-per-kw.gpt-oss-120b",
        "jalapeno.tokens-per-kw.kimi-k2.5",
        "jalapeno.verification",
    ]
    again = runner.invoke(cli, ["--config", config, "deliver"], env=env(webhook.url))
    assert "nothing pending" in again.output and len(webhook.bodies) == 2
    assert webhook.url not in down.output + up.output  # the webhook URL is a secret


def test_hostile_text_is_escaped_in_slack_and_email(
    server, webhook, smtp, runner, tmp_path, sqlite_url
):
    server.expect_request("/h.rss").respond_with_data(HOSTILE, content_type="application/xml")
    extra = f'[alerts.email]\nsmtp_host = "127.0.0.1"\nsmtp_port = {smtp.port}\nsecurity = "none"\nrecipients = ["ops@example.org"]\nimmediate = true\n'
    config = config_file(
        tmp_path,
        sqlite_url,
        [{"name": "h", "kind": "feed", "url": server.url_for("/h.rss")}],
        extra,
    )
    result = runner.invoke(cli, ["--config", config, "poll"], env=env(webhook.url))
    assert result.exit_code == 0, result.output
    slack = json.dumps(webhook.bodies[0])
    assert "<!channel>" not in slack and "&lt;!channel&gt;" in slack
    assert (
        "<script>" not in slack and "<@U123>" not in slack and "<https://evil.example|" not in slack
    )
    assert "<http://127.0.0.1/x?a=1&b=2|" in slack  # the real source link stays a link
    message = email.message_from_bytes(smtp.messages[0].content)
    html = (
        next(p for p in message.walk() if p.get_content_type() == "text/html")
        .get_payload(decode=True)
        .decode()
    )
    assert "<script>" not in html and "&lt;script&gt;" in html and "&lt;!channel&gt;" in html


def polled_with_slack(server, webhook, make_settings, **alerts):
    """A database that has polled the English re-test feed, with Slack as the channel."""
    server.expect_request("/en.rss").respond_with_data(
        fixture_bytes("feed/retest_en.rss"), content_type="application/xml"
    )
    settings = make_settings(
        [{"name": "en", "kind": "feed", "url": server.url_for("/en.rss")}],
        alerts={"slack": {"webhook_url": webhook.url}, **alerts},
    )
    engine, _ = open_database(settings)
    Poller(settings, engine).poll("en")
    return settings, engine


def test_slack_429_is_retried_after_retry_after(server, webhook, tmp_path, make_settings):
    settings, engine = polled_with_slack(server, webhook, make_settings, retry_base="1s")
    webhook.status[:] = [429, 200]
    now = datetime.now(UTC)
    first = deliver(engine, settings, now=now)
    assert (first.sent, first.retrying) == (0, 2)
    assert deliver(engine, settings, now=now).sent == 0  # not due yet
    later = deliver(engine, settings, now=now + timedelta(seconds=2))
    assert later.sent == 2 and len(webhook.bodies) == 1


def test_alerts_are_given_up_after_their_age_and_reported(
    server, webhook, runner, tmp_path, make_settings
):
    settings, engine = polled_with_slack(server, webhook, make_settings, give_up_after="1h")
    webhook.status[:] = [500]
    report = deliver(engine, settings, now=datetime.now(UTC) + timedelta(hours=2))
    assert report.given_up == 2
    with Session(engine) as session:
        assert {a.status for a in session.exec(select(Alert))} == {"given_up"}
    from alerts.digest import digest_data, render_text

    with Session(engine) as session:
        text = render_text(
            digest_data(session, settings, datetime.now(UTC).date() + timedelta(days=1)), settings
        )
    assert "Alerts that could not be delivered:" in text and "Slack answered HTTP 500" in text


def test_killed_between_sending_and_marking_repeats_at_most_that_message(
    server, tmp_path, sqlite_url
):
    """The documented case: a deliverer killed after Slack got the message but before it marked it."""
    received = []

    def slow_hook(request):
        from werkzeug import Response

        received.append(json.loads(request.get_data()))
        time.sleep(30)  # the deliverer is killed while it waits for this answer
        return Response("ok")

    server.expect_request("/en.rss").respond_with_data(
        fixture_bytes("feed/retest_en.rss"), content_type="application/xml"
    )
    server.expect_request("/slow", method="POST").respond_with_handler(slow_hook)
    config = config_file(
        tmp_path, sqlite_url, [{"name": "en", "kind": "feed", "url": server.url_for("/en.rss")}]
    )
    settings_env = {**os.environ, "CLAIMWATCH_SLACK_WEBHOOK_URL": server.url_for("/slow")}
    poll = subprocess.Popen(
        [sys.executable, "-m", "monitor", "--config", config, "poll"],
        env=settings_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while not received and time.monotonic() < deadline:
        time.sleep(0.05)
    poll.send_signal(signal.SIGKILL)
    poll.wait(5)
    assert len(received) == 1
    from monitor.config import load_settings

    settings = load_settings(config, environ={})
    engine, _ = open_database(settings)
    with Session(engine) as session:
        assert {a.status for a in session.exec(select(Alert))} == {"sending"}
    hook = []
    server.clear()
    server.expect_request("/fast", method="POST").respond_with_handler(
        lambda r: (hook.append(1), __import__("werkzeug").Response("ok"))[1]
    )
    settings = load_settings(
        config, environ={"CLAIMWATCH_SLACK_WEBHOOK_URL": server.url_for("/fast")}
    )
    assert deliver(engine, settings).sent == 0  # still inside the grace period: no duplicate yet
    report = deliver(engine, settings, now=datetime.now(UTC) + STALE_SENDING + timedelta(seconds=1))
    assert report.sent == 2 and len(hook) == 1  # the unconfirmed message, once more; nothing lost
    with Session(engine) as session:
        assert {a.status for a in session.exec(select(Alert))} == {"sent"}


def test_digest_send_once_per_period(server, smtp, runner, tmp_path, sqlite_url):
    server.expect_request("/en.rss").respond_with_data(
        fixture_bytes("feed/retest_en.rss"), content_type="application/xml"
    )
    extra = (
        f'[alerts.email]\nsmtp_host = "127.0.0.1"\nsmtp_port = {smtp.port}\nsecurity = "none"\n'
        f'sender = "claimwatch@example.org"\nrecipients = ["analyst@example.org"]\ndigest_at = "23:59"\n'
    )
    config = config_file(
        tmp_path,
        sqlite_url,
        [{"name": "chipnews", "kind": "feed", "url": server.url_for("/en.rss")}],
        extra,
    )
    runner.invoke(cli, ["--config", config, "poll"])
    today = datetime.now(UTC).date().isoformat()
    sent = runner.invoke(cli, ["--config", config, "digest", "--date", today, "--send"])
    assert sent.exit_code == 0, sent.output
    assert f"digest for {today}: sent" in sent.output
    assert len(smtp.messages) == 1
    message = email.message_from_bytes(smtp.messages[0].content)
    assert message.is_multipart() and {p.get_content_type() for p in message.walk()} >= {
        "text/plain",
        "text/html",
    }
    plain = (
        next(p for p in message.walk() if p.get_content_type() == "text/plain")
        .get_payload(decode=True)
        .decode()
    )
    assert (
        "CHANGED  Peak throughput per kW, GPT-OSS 120B" in plain
        and "now 80,100 tok/s/kW (-6.3%)" in plain
    )
    due = (date(2026, 12, 31) - date.fromisoformat(today)).days
    countdown = (
        f"{due} days left" if due > 0 else "overdue since 2026-12-31" if due < 0 else "due today"
    )
    assert (
        f"Initial small-scale deployment in OpenAI's own infrastructure (jalapeno.deployment.initial): {countdown}"
        in plain
    )
    assert "Evidence that changed nothing:" in plain
    again = runner.invoke(cli, ["--config", config, "digest", "--date", today, "--send"])
    assert f"digest for {today}: already sent" in again.output and len(smtp.messages) == 1
    forced = runner.invoke(
        cli, ["--config", config, "digest", "--date", today, "--send", "--force"]
    )
    assert "sent" in forced.output and len(smtp.messages) == 2


def test_digest_to_file_and_quiet_day(runner, tmp_path, sqlite_url):
    out = tmp_path / "d.html"
    assert runner.invoke(cli, ["--db", sqlite_url, "init"]).exit_code == 0
    result = runner.invoke(
        cli, ["--db", sqlite_url, "digest", "--date", "2026-12-02", "--output", str(out)]
    )
    assert result.exit_code == 0
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and "No claim changed in these 24 hours." in html
    assert "29 days left" in html
    text = runner.invoke(cli, ["--db", sqlite_url, "digest", "--date", "2027-01-05"]).output
    assert "overdue since 2026-12-31" in text


def test_digest_send_failure_is_one_line_and_retriable(runner, tmp_path, sqlite_url):
    config = config_file(
        tmp_path,
        sqlite_url,
        [{"name": "x", "kind": "feed", "url": "http://127.0.0.1:9/x"}],
        '[alerts.email]\nsmtp_host = "127.0.0.1"\nsmtp_port = 9\nsecurity = "none"\nrecipients = ["a@example.org"]\n',
    )
    assert runner.invoke(cli, ["--config", config, "init"]).exit_code == 0
    result = runner.invoke(cli, ["--config", config, "digest", "--date", "2026-12-02", "--send"])
    assert result.exit_code == 1
    assert (
        "claimwatch: error: digest for 2026-12-02 not sent: cannot reach SMTP server 127.0.0.1:9"
        in result.output
    )


def test_timeline_folds_restatements(server, runner, tmp_path, sqlite_url):
    server.expect_request("/en.rss").respond_with_data(
        fixture_bytes("feed/retest_en.rss"), content_type="application/xml"
    )
    config = config_file(
        tmp_path,
        sqlite_url,
        [{"name": "chipnews", "kind": "feed", "url": server.url_for("/en.rss")}],
    )
    runner.invoke(cli, ["--config", config, "poll"])
    table = runner.invoke(
        cli, ["--config", config, "timeline", "jalapeno.tokens-per-kw.gpt-oss-120b"]
    ).output
    assert "2026-10-02 change 80,100 tok/s/kW -6.3%" in " ".join(table.split())
    assert "(+2 restatements that changed nothing; --all lists them)" in table
    events = json.loads(
        runner.invoke(
            cli,
            [
                "--config",
                config,
                "timeline",
                "jalapeno.tokens-per-kw.gpt-oss-120b",
                "--format",
                "json",
                "--since",
                "2026-09-15",
            ],
        ).output
    )
    assert [(e["kind"], e["value"], e["changed"]) for e in events] == [
        ("observation", 85448, False),
        ("observation", 80100, True),
    ]
