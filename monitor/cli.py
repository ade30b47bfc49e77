"""The command line: thin wrappers over monitor.service, db.queries and alerts."""

from __future__ import annotations

import logging
import sys
import time as time_module
from datetime import UTC, date, datetime, time
from pathlib import Path

import click
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlmodel import Session

from alerts.base import DeliveryError
from alerts.deliver import DeliveryReport, deliver
from alerts.digest import digest_data, render_html, render_text, send_digest
from db import queries
from db.ledger import LedgerError
from monitor import render
from monitor.config import ConfigError, Settings, config_path, load_settings
from monitor.health import health_rows
from monitor.service import Poller, open_database

FORMATS = click.Choice(["table", "json"])


class App:
    """What a command needs: the settings, and the database opened on first use."""

    def __init__(self, config: str | None, db: str | None):
        overrides = {"database_url": db} if db else {}
        self.settings: Settings = load_settings(config_path(config), overrides=overrides)
        self.db = db
        self._engine = None

    @property
    def engine(self):
        if self._engine is None:
            self._engine, _ = open_database(self.settings)
        return self._engine


class Group(click.Group):
    """Turns expected failures into one line on stderr and exit 2, never a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (ConfigError, LedgerError) as exc:
            _fail(str(exc))
        except OperationalError as exc:
            _fail(f"database error: {str(exc.orig).splitlines()[0]} (check database_url or --db)")
        except SQLAlchemyError as exc:
            _fail(f"database error: {str(exc).splitlines()[0]}")


def _fail(message: str, code: int = 2):
    click.echo(f"claimwatch: error: {message}", err=True)
    sys.exit(code)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--config",
    "config",
    metavar="PATH",
    help="TOML config (else $CLAIMWATCH_CONFIG, else ./claimwatch.toml).",
)
@click.option(
    "--db",
    "db",
    metavar="URL",
    help="Database URL, e.g. sqlite:///claims.db or postgresql://user@host/db.",
)
@click.version_option(package_name="claimwatch")
@click.pass_context
def cli(ctx, config, db):
    """Claimwatch keeps public claims and the evidence that confirms, revises or refutes them.

    Example: claimwatch init && claimwatch claims
    """
    ctx.obj = App(config, db)


@cli.command()
@click.pass_obj
def init(app: App):
    """Create or upgrade the database and load the configured ledgers.

    Example: claimwatch --db sqlite:///claims.db init
    """
    _, report = open_database(app.settings)
    click.echo(
        f"database ready; claims: {report.added} added, {report.edited} edited, "
        f"{report.unchanged} unchanged"
    )


@cli.command()
@click.option("--format", "fmt", type=FORMATS, default="table", show_default=True)
@click.option("--subject", help="Only claims of this subject, e.g. jalapeno.")
@click.option(
    "--kind", help="Only claims of this kind (number, range, status, milestone, price-list, text)."
)
@click.pass_obj
def claims(app: App, fmt, subject, kind):
    """List claims with their baseline and current value.

    Example: claimwatch claims --subject jalapeno --format json
    """
    with Session(app.engine) as session:
        rows = queries.claim_summaries(session=session, subject=subject, kind=kind)
    if fmt == "json":
        click.echo(render.to_json(render.claims_payload(rows)))
        return
    tz = app.settings.tz
    table = [
        [
            r["id"],
            r["kind"],
            render.value_text(r["baseline"]["value"], r["baseline"]["unit"], 34),
            render.value_text(r["current"]["value"], r["current"]["unit"], 34),
            render.clip(r["verification"] or "", 28),
            render.local(r["changed_at"], tz) if r["changed_at"] else "-",
        ]
        for r in rows
    ]
    click.echo(
        render.table(["claim", "kind", "baseline", "current", "verification", "changed"], table)
    )


def _when(text: str | None, tz, *, end: bool = False) -> datetime | None:
    if not text:
        return None
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a date (YYYY-MM-DD) or ISO 8601 time") from None
    if len(text) == 10 and end:  # --until 2026-12-01 includes that whole day
        parsed = datetime.combine(parsed.date(), time.max)
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=tz)).astimezone(UTC)


@cli.command()
@click.argument("claim_ids", nargs=-1)
@click.option("--subject", help="All claims of a subject, e.g. jalapeno.")
@click.option("--since", metavar="DATE", help="Events at or after this date (local time zone).")
@click.option("--until", metavar="DATE", help="Events up to and including this date.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "csv"]),
    default="table",
    show_default=True,
)
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help="Table: list restatements one by one instead of counting them.",
)
@click.pass_obj
def timeline(app: App, claim_ids, subject, since, until, fmt, show_all):
    """How claims evolved: baseline, ledger edits and every observation, oldest first.

    Example: claimwatch timeline jalapeno.tokens-per-kw.gpt-oss-120b --format json
    """
    tz = app.settings.tz
    with Session(app.engine) as session:
        known = {c.id for c in queries.get_claims(session=session, ids=list(claim_ids) or None)}
        missing = [c for c in claim_ids if c not in known]
        if missing:
            raise click.BadParameter(f"unknown claim id {missing[0]!r} (see 'claimwatch claims')")
        events = queries.timeline(
            session=session,
            claim_ids=list(claim_ids) or None,
            subject=subject,
            since=_when(since, tz),
            until=_when(until, tz, end=True),
        )
    if fmt == "json":
        click.echo(render.to_json(render.timeline_payload(events)))
    elif fmt == "csv":
        click.echo(render.to_csv(events, list(render.TIMELINE_FIELDS)), nl=False)
    else:
        click.echo(render.timeline_table(events, tz, show_all))


@cli.command()
@click.argument("names", nargs=-1)
@click.option("-v", "--verbose", is_flag=True, help="Log each step.")
@click.pass_obj
def poll(app: App, names, verbose):
    """Run the named watchers (all enabled ones when none) once, now, and deliver due alerts.

    Example: claimwatch poll openai-news litellm-prices
    """
    _logging(verbose)
    poller = Poller(app.settings, app.engine)
    try:
        wanted = poller.names(names)
        reports = _with_progress(poller, wanted)
    finally:
        poller.close()
    click.echo(render.poll_summary(reports))
    _deliver_due(app)


def _with_progress(poller, names: list[str]):
    """A bar on a terminal, one plain line per watcher otherwise."""
    if sys.stderr.isatty():
        with click.progressbar(length=len(names), label="polling", file=sys.stderr) as bar:
            return poller.poll_many(names, on_done=lambda _r: bar.update(1))
    done = []

    def line(report):
        done.append(report)
        click.echo(f"[{len(done)}/{len(names)}] {report.watcher}: {report.outcome}", err=True)

    return poller.poll_many(names, on_done=line)


@cli.command()
@click.option("-v", "--verbose", is_flag=True, help="Log every step, not just one line per poll.")
@click.pass_obj
def run(app: App, verbose):
    """Run the service: every watcher on its schedule, alerts, the daily digest. Stop with Ctrl-C.

    Example: claimwatch --config claimwatch.toml run
    """
    from monitor.scheduler import run_forever

    _logging(verbose, level=logging.INFO)
    run_forever(app.settings, app.engine)


@cli.command()
@click.option(
    "--out",
    default="claimwatch-demo",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Folder for the daily digest HTML files.",
)
@click.pass_obj
def demo(app: App, out):
    """Replay a month of the Jalapeño story offline: real watchers, alerts, digests, timeline.

    Uses a throwaway database unless --db is given. Example: claimwatch demo --out /tmp/demo
    """
    import tempfile

    from monitor.demo import run_demo

    started = time_module.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        url = app.db or f"sqlite:///{Path(tmp) / 'demo.db'}"
        click.echo(
            f"Replaying the story on a local server; database {'--db' if app.db else 'throwaway'}.\n"
        )
        result = run_demo(url, Path(out), sys.stdout, bar=sys.stdout.isatty())
    click.echo(
        f"\n{result['changes']} changes, {result['alerts']} alerts, {len(result['digests'])} digests in {out}/ "
        f"(open {result['digests'][-1]}), {time_module.monotonic() - started:.1f} s.\n"
    )
    click.echo("Timeline of every claim that changed:\n")
    click.echo(render.timeline_table(result["timeline"], app.settings.tz))


@cli.command()
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to bind (loopback by default)."
)
@click.option("--port", default=8080, show_default=True, type=click.IntRange(1, 65535))
@click.pass_obj
def serve(app: App, host, port):
    """Serve the read-only dashboard: the claims board, claim timelines, /alerts.atom and a JSON API.

    Example: claimwatch serve --port 8080
    """
    import uvicorn

    from monitor.web import create_app

    click.echo(f"Claimwatch dashboard on http://{host}:{port}/ (Ctrl-C to stop)")
    uvicorn.run(create_app(app.settings, app.engine), host=host, port=port, log_level="warning")


@cli.command("watchers")
@click.option("--format", "fmt", type=FORMATS, default="table", show_default=True)
@click.pass_obj
def watchers_command(app: App, fmt):
    """Watcher health: last success, last error, failures in a row, next run, items seen.

    Example: claimwatch watchers --format json
    """
    with Session(app.engine) as session:
        rows = health_rows(app.settings, queries.watchers(session=session), now=datetime.now(UTC))
    if fmt == "json":
        click.echo(render.to_json(rows))
        return
    tz = app.settings.tz
    table = [
        [
            r["name"],
            r["kind"],
            r["status"],
            render.local(r["last_success_at"], tz, True),
            str(r["consecutive_failures"]),
            render.local(r["next_run_at"], tz, True),
            str(r["items_seen"]),
            render.clip(r["last_error"] or r["warning"] or "", 60),
        ]
        for r in rows
    ]
    click.echo(
        render.table(
            [
                "watcher",
                "kind",
                "status",
                "last success",
                "fails",
                "next run",
                "items",
                "last error",
            ],
            table,
        )
    )


def _deliver_due(app: App, *, ignore_schedule: bool = False) -> DeliveryReport:
    report = deliver(app.engine, app.settings, ignore_schedule=ignore_schedule)
    if report.sent or report.retrying or report.given_up:
        click.echo(
            f"alerts: {report.sent} sent in {report.messages} message(s), {report.retrying} to retry, "
            f"{report.given_up} given up"
        )
    for error in report.errors[:5]:
        click.echo(f"claimwatch: delivery failed: {error}", err=True)
    return report


@cli.command("deliver")
@click.pass_obj
def deliver_command(app: App):
    """Send every pending alert now, ignoring the retry schedule (for after an outage).

    Example: claimwatch deliver
    """
    report = _deliver_due(app, ignore_schedule=True)
    if not (report.sent or report.retrying or report.given_up):
        click.echo("alerts: nothing pending")


@cli.command()
@click.option(
    "--date", "day", metavar="YYYY-MM-DD", help="The digest's date (default: today, local time)."
)
@click.option("--send", is_flag=True, help="Mail it to [alerts.email] recipients (once per date).")
@click.option(
    "--force", is_flag=True, help="With --send: send again even if this date's digest was sent."
)
@click.option(
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    help="Write it to FILE (.html for HTML).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "html"]), default="text", show_default=True
)
@click.pass_obj
def digest(app: App, day, send, force, output, fmt):
    """The daily digest: changes, restatements, milestones, watcher health, undelivered alerts.

    Example: claimwatch digest --date 2026-12-02 --output digest.html
    """
    settings = app.settings
    try:
        when = date.fromisoformat(day) if day else datetime.now(settings.tz).date()
    except ValueError:
        raise click.BadParameter(
            f"{day!r} is not a date (YYYY-MM-DD)", param_hint="--date"
        ) from None
    if send:
        try:
            outcome = send_digest(app.engine, settings, when, force=force)
        except DeliveryError as exc:
            _fail(f"digest for {when} not sent: {exc}", code=1)
        click.echo(f"digest for {when}: {outcome}")
        return
    with Session(app.engine) as session:
        data = digest_data(session, settings, when)
    html = fmt == "html" or (output or "").endswith((".html", ".htm"))
    text = render_html(data, settings) if html else render_text(data, settings)
    if output:
        Path(output).write_text(text, encoding="utf-8")
        click.echo(f"digest for {when} written to {output}")
    else:
        click.echo(text, nl=False)


def _logging(verbose: bool, level: int = logging.WARNING) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # the HTTP libraries log full URLs, and a webhook URL is a secret; APScheduler is chatty
    for noisy in ("httpx", "httpcore", "apscheduler", "hpack", "sqlalchemy", "alembic"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def main():
    cli(prog_name="claimwatch")


if __name__ == "__main__":
    main()
