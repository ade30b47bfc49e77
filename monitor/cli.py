"""The command line: thin wrappers over monitor.service, db.queries and alerts.

Each command imports what it uses when it runs, so `--help` and light commands start fast."""

from __future__ import annotations

import sys

import click

FORMATS = click.Choice(["table", "json"])
CREATES_DATABASE = ("init", "poll", "run", "demo")


class App:
    """What a command needs: the settings and the database, each opened on first use."""

    def __init__(self, config: str | None = None, db: str | None = None):
        self.config = config
        self.db = db
        self.command = ""
        self._settings = None
        self._engine = None

    @property
    def settings(self):
        if self._settings is None:
            from monitor.config import config_path, load_settings

            overrides = {"database_url": self.db} if self.db else {}
            self._settings = load_settings(config_path(self.config), overrides=overrides)
        return self._settings

    @property
    def engine(self):
        if self._engine is None:
            self._engine, _ = self.open()
        return self._engine

    def open(self):
        """Upgrade the schema and load the ledgers; only some commands may create a database."""
        from db.engine import sqlite_file
        from monitor.service import open_database

        url = self.settings.database_url
        path = sqlite_file(url)
        if path is not None and not path.exists():
            if self.command not in CREATES_DATABASE:
                _fail(
                    f"no database at {path} (from {'--db' if self.db else 'database_url'}); "
                    "create it with 'claimwatch init' or check the path"
                )
            if self.command != "init":
                click.echo(f"claimwatch: creating a new database at {path}", err=True)
        return open_database(self.settings)


def _remember(ctx: click.Context, param: click.Parameter, value):
    """`--db` and `--config` given after the command count as if given before it."""
    if value is not None:
        setattr(ctx.ensure_object(App), param.name, value)
    return value


def _shared_options() -> list[click.Option]:
    return [
        click.Option(
            ["--config"],
            metavar="PATH",
            expose_value=False,
            callback=_remember,
            help="TOML config (else $CLAIMWATCH_CONFIG, else ./claimwatch.toml).",
        ),
        click.Option(
            ["--db"],
            metavar="URL",
            expose_value=False,
            callback=_remember,
            help="Database URL, e.g. sqlite:///claims.db or postgresql://user@host/db.",
        ),
    ]


class Command(click.Command):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.params.extend(_shared_options())

    def invoke(self, ctx: click.Context):
        ctx.ensure_object(App).command = self.name
        return super().invoke(ctx)


class Group(click.Group):
    """Turns expected failures into one line on stderr and exit 2, never a traceback."""

    command_class = Command

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except Exception as exc:
            message = _expected_failure(exc)
            if message is None:
                raise
            _fail(message)


def _expected_failure(exc: Exception) -> str | None:
    """The one line for a failure a user can fix; None for anything else (a bug: traceback)."""
    if isinstance(exc, click.ClickException | click.exceptions.Exit | click.Abort):
        return None
    from db.engine import DatabaseUrlError
    from db.ledger import LedgerError
    from monitor.config import ConfigError

    if isinstance(exc, ConfigError | LedgerError | DatabaseUrlError):
        return str(exc)
    sa_exc = sys.modules.get("sqlalchemy.exc")
    if sa_exc and isinstance(exc, sa_exc.OperationalError):
        first = str(exc.orig).strip().splitlines()[0] if str(exc.orig).strip() else "unavailable"
        return f"database error: {first} (check database_url or --db)"
    if sa_exc and isinstance(exc, sa_exc.SQLAlchemyError):
        return f"database error: {str(exc).splitlines()[0]}"
    return None


def _fail(message: str, code: int = 2):
    from monitor.render import plain

    click.echo(f"claimwatch: error: {plain(message)}", err=True)
    sys.exit(code)


def _note(message: str) -> None:
    """Why a result is empty, on stderr so that JSON on stdout stays parseable."""
    click.echo(message, err=True)


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
    app = ctx.ensure_object(App)
    app.config, app.db = config, db


@cli.command()
@click.pass_obj
def init(app: App):
    """Create or upgrade the database and load the configured ledgers.

    Example: claimwatch --db sqlite:///claims.db init
    """
    _, report = app.open()
    click.echo(
        f"database ready; claims: {report.added} added, {report.edited} edited, "
        f"{report.unchanged} unchanged"
    )


def _check_kind(kind: str | None) -> None:
    from difflib import get_close_matches

    from db.ledger import KINDS

    if kind and kind not in KINDS:
        close = get_close_matches(kind, KINDS, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise click.BadParameter(
            f"unknown kind {kind!r} (kinds: {', '.join(KINDS)}){hint}", param_hint="--kind"
        )


def _check_subject(session, subject: str | None) -> None:
    from db import queries

    if not subject:
        return
    subjects = queries.subjects(session=session)
    if subject not in subjects:
        raise click.BadParameter(
            f"no claim has subject {subject!r} (subjects: {', '.join(subjects)})",
            param_hint="--subject",
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
    from sqlmodel import Session

    from db import queries
    from monitor import render

    _check_kind(kind)
    with Session(app.engine) as session:
        _check_subject(session, subject)
        rows = queries.claim_summaries(session=session, subject=subject, kind=kind)
    if fmt == "json":
        click.echo(render.to_json(render.claims_payload(rows)))
    if not rows:
        filters = " and ".join(
            f"{name} {value!r}" for name, value in (("kind", kind), ("subject", subject)) if value
        )
        message = f"no claims with {filters}" if filters else "no claims: the ledgers are empty"
        (_note if fmt == "json" else click.echo)(message)
        return
    if fmt == "json":
        return
    tz = app.settings.tz
    wide = render.terminal_width() >= 120  # the kind only where there is room for it
    headers = ["claim", *(["kind"] if wide else []), "baseline", "current", "verification"]
    table = [
        [
            r["id"],
            *([r["kind"]] if wide else []),
            render.value_text(r["baseline"]["value"], r["baseline"]["unit"], 60),
            render.value_text(r["current"]["value"], r["current"]["unit"], 60),
            render.clip(r["verification"] or "", 40),
            render.local(r["changed_at"], tz) if r["changed_at"] else "-",
        ]
        for r in rows
    ]
    click.echo(
        render.table([*headers, "changed"], table, wrap=("baseline", "current", "verification"))
    )


def _when(text: str | None, tz, name: str, *, end: bool = False):
    from datetime import UTC, datetime, time

    if not text:
        return None
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise click.BadParameter(
            f"{text!r} is not a date (YYYY-MM-DD) or ISO 8601 time", param_hint=name
        ) from None
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
    from sqlmodel import Session

    from db import queries
    from monitor import render

    tz = app.settings.tz
    start, end = _when(since, tz, "--since"), _when(until, tz, "--until", end=True)
    if start and end and start > end:
        raise click.BadParameter(
            f"--since {since} is after --until {until}: no event can match", param_hint="--since"
        )
    with Session(app.engine) as session:
        known = {c.id for c in queries.get_claims(session=session, ids=list(claim_ids) or None)}
        missing = [c for c in claim_ids if c not in known]
        if missing:
            raise click.BadParameter(f"unknown claim id {missing[0]!r} (see 'claimwatch claims')")
        _check_subject(session, subject)
        events = queries.timeline(
            session=session,
            claim_ids=list(claim_ids) or None,
            subject=subject,
            since=start,
            until=end,
        )
    if fmt == "json":
        click.echo(render.to_json(render.timeline_payload(events)))
    elif fmt == "csv":
        click.echo(render.to_csv(events, list(render.TIMELINE_FIELDS)), nl=False)
    elif events:
        click.echo(render.timeline_table(events, tz, show_all))
    if not events:
        window = " ".join(
            part for part in (since and f"since {since}", until and f"until {until}") if part
        )
        chosen = ", ".join(claim_ids) or (f"subject {subject!r}" if subject else "any claim")
        message = f"no events for {chosen}" + (f" {window}" if window else "")
        (click.echo if fmt == "table" else _note)(message)


@cli.command()
@click.argument("names", nargs=-1)
@click.option("-v", "--verbose", is_flag=True, help="Log each step.")
@click.pass_obj
def poll(app: App, names, verbose):
    """Run the named watchers (all enabled ones when none) once, now, and deliver due alerts.

    Exit 1 when a watcher failed. Example: claimwatch poll openai-news litellm-prices
    """
    import logging

    from monitor import render
    from monitor.service import Poller

    _logging(logging.DEBUG if verbose else logging.WARNING)
    settings = app.settings
    poller = Poller(settings, app.engine)
    try:
        wanted = poller.names(names)
        reports = _with_progress(poller, wanted)
    finally:
        poller.close()
    urls = {w.name: w.url for w in settings.watchers}
    click.echo(render.poll_table(reports, urls))
    line, any_failed = render.poll_line(reports)
    click.echo(f"\n{line}")
    if _outbox_waiting(app):  # the channels (and their HTTP and SMTP clients) load only then
        _deliver_due(app)
    if any_failed:
        sys.exit(1)


def _with_progress(poller, names: list[str]):
    """A bar on a terminal, one plain line per watcher otherwise."""
    from monitor.health import state_word
    from monitor.render import plain

    if sys.stderr.isatty():
        with click.progressbar(length=len(names), label="polling", file=sys.stderr) as bar:
            return poller.poll_many(names, on_done=lambda _r: bar.update(1))
    done = []

    def line(report):
        done.append(report)
        word = state_word(report.outcome, report.error)
        click.echo(f"[{len(done)}/{len(names)}] {plain(report.watcher)}: {word}", err=True)

    return poller.poll_many(names, on_done=line)


@cli.command()
@click.option("-v", "--verbose", is_flag=True, help="Log every poll, not just the failures.")
@click.pass_obj
def run(app: App, verbose):
    """Run the service: every watcher on its schedule, alerts, the daily digest. Stop with Ctrl-C.

    Example: claimwatch --config claimwatch.toml run
    """
    import logging

    from monitor.scheduler import run_forever

    _logging(logging.INFO if verbose else logging.WARNING)
    settings, engine = app.settings, app.engine
    for line in _startup_lines(settings, engine):
        click.echo(line)
    ticker = Ticker(settings, engine)
    ticker.start()
    try:
        run_forever(settings, engine)
    finally:
        ticker.stop()
    click.echo("Claimwatch stopped.")


def _startup_lines(settings, engine) -> list[str]:
    from datetime import UTC, datetime

    from sqlmodel import Session

    from alerts import enabled_channels
    from db import queries
    from monitor import render
    from monitor.scheduler import first_runs

    now = datetime.now(UTC)
    with Session(engine) as session:
        states = {s.name: s for s in queries.watchers(session=session)}
    starts = first_runs(settings, states, now)
    email = settings.alerts.email
    where = {
        "console": "this terminal (no Slack webhook or immediate email configured)",
        "slack": "Slack",
        "email": f"email to {', '.join(email.recipients)}",
    }
    mailed = email.smtp_host and email.recipients
    return render.startup_lines(
        watchers=sum(w.enabled for w in settings.watchers),
        database=_safe_url(settings.database_url),
        channels=[where.get(c, c) for c in enabled_channels(settings)],
        digest=(
            f"mailed at {email.digest_at} {settings.timezone} to {', '.join(email.recipients)}"
            if mailed
            else "not mailed (set [alerts.email] smtp_host and recipients)"
        ),
        next_poll=min(starts.items(), key=lambda kv: kv[1]) if starts else None,
        now=now,
        tz=settings.tz,
    )


def _safe_url(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


class Ticker:
    """Under `run`: a line a minute while polling, and each new failure logged as a warning."""

    def __init__(self, settings, engine, *, every: float = 60.0, echo=click.echo):
        import threading
        from datetime import UTC, datetime

        self.settings, self.engine, self.every, self.echo = settings, engine, every, echo
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="ticker", daemon=True)
        self.since = datetime.now(UTC)
        self.polls: dict[str, tuple[int, int]] | None = None

    def start(self) -> None:
        self.tick(self.since)  # the counts so far, so the first line covers only this run
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(5)

    def _loop(self) -> None:
        import logging
        from datetime import UTC, datetime

        while not self.stopped.wait(self.every):
            try:
                self.tick(datetime.now(UTC))
            except Exception as exc:  # a database hiccup must not end the service; it shows here
                logging.getLogger("claimwatch").warning("activity summary failed: %s", exc)

    def tick(self, now) -> str | None:
        """Read what happened since the last tick; say it in one line when anything did."""
        import logging

        from sqlmodel import Session

        from db import queries
        from monitor import render
        from monitor.health import reason, state_word

        with Session(self.engine) as session:
            seen = queries.activity(session=session, since=self.since)
        first, self.since = self.polls is None, now
        before = self.polls or {}
        self.polls = {s.name: (s.polls, s.consecutive_failures) for s in seen["states"]}
        if first:
            return None
        polls, words = 0, []
        for state in seen["states"]:
            polled, failing = state.polls - before.get(state.name, (0, 0))[0], 0
            if polled <= 0:
                continue
            polls += polled
            if state.consecutive_failures:
                earlier = before.get(state.name, (0, 0))[1]
                new = state.consecutive_failures - earlier
                failing = min(polled, new if new > 0 else state.consecutive_failures)
            if failing:
                word = state_word(state.last_error_kind, state.last_error)
                words += [word] * failing
                logging.getLogger("claimwatch").warning(
                    "watcher %s: %s: %s",
                    render.plain(state.name),
                    word,
                    render.clip(reason(state.last_error, state.url), 300),
                )
        if not (polls or seen["alerts_sent"]):
            return None
        line = render.minute_line(
            now, self.settings.tz, polls=polls, failures=words, sent=seen["alerts_sent"]
        )
        self.echo(line)
        return line


@cli.command()
@click.option(
    "--out",
    default="claimwatch-demo",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Folder for the daily digest HTML files.",
)
@click.option(
    "--force", is_flag=True, help="Replay into a --db database that already holds polled data."
)
@click.pass_obj
def demo(app: App, out, force):
    """Replay a month of the Jalapeño story offline: real watchers, alerts, digests, timeline.

    Uses a throwaway database unless --db is given. Example: claimwatch demo --out /tmp/demo
    """
    import tempfile
    import time
    from pathlib import Path

    from monitor import render
    from monitor.demo import has_data, run_demo

    started = time.monotonic()
    if app.db and has_data(app.db) and not force:
        _fail(
            f"{app.db} already holds polled data; a replay would add a second story to it "
            "(use a new database, or --force)"
        )
    with tempfile.TemporaryDirectory() as tmp:
        url = app.db or f"sqlite:///{Path(tmp) / 'demo.db'}"
        where = "--db" if app.db else "throwaway"
        click.echo(f"Replaying the story on a local server; database {where}.\n")
        result = run_demo(url, Path(out), sys.stdout, bar=sys.stdout.isatty())
    digests = result["digests"]
    click.echo(
        f"\n{render.plural(result['changes'], 'change')}, {render.plural(result['alerts'], 'alert')}, "
        f"{render.plural(len(digests), 'digest')} in {out}/ (open {digests[-1]}), "
        f"{time.monotonic() - started:.1f} s.\n"
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

    web = create_app(app.settings, app.engine)
    click.echo(f"Claimwatch dashboard on http://{host}:{port}/ (Ctrl-C to stop)")
    uvicorn.run(web, host=host, port=port, log_level="warning")


@cli.command("watchers")
@click.option("--format", "fmt", type=FORMATS, default="table", show_default=True)
@click.pass_obj
def watchers_command(app: App, fmt):
    """Watcher health: state, last success, failures in a row, next run, items seen, the reason.

    Example: claimwatch watchers --format json
    """
    from datetime import UTC, datetime

    from sqlmodel import Session

    from db import queries
    from monitor import render
    from monitor.health import health_rows, state_text

    now = datetime.now(UTC)
    with Session(app.engine) as session:
        rows = health_rows(app.settings, queries.watchers(session=session), now=now)
    if fmt == "json":
        click.echo(render.to_json(rows))
        return
    if not rows:
        click.echo("no watchers configured")
        return
    tz = app.settings.tz
    table = [
        [
            r["name"],
            state_text(r),
            render.ago(r["last_success_at"], now, tz),
            render.local(r["next_run_at"], tz, True) if r["next_run_at"] else "-",
            str(r["items_seen"]),
            render.clip(r["reason"] or r["warning"] or "", 300),
        ]
        for r in rows
    ]
    click.echo(
        render.table(
            ["watcher", "state", "last success", "next run", "items", "reason"],
            table,
            wrap=("watcher", "reason"),
        )
    )


@cli.command()
@click.option("--concurrency", type=click.IntRange(1, 256), help="Jobs run at once ([cluster]).")
@click.option("--drain", is_flag=True, help="Exit once no job is waiting.")
@click.option("-v", "--verbose", is_flag=True, help="Log every job.")
@click.pass_obj
def worker(app: App, concurrency, drain, verbose):
    """Run poll and delivery jobs of a cluster on PostgreSQL; start as many as you like.

    SIGTERM lets running jobs finish (or returns them to the queue). Example:
    claimwatch --db postgresql://claimwatch@db.example.org/claimwatch worker
    """
    from monitor.cluster import prepare
    from monitor.worker import run_worker

    _cluster_logging(verbose)
    engine = prepare(app.settings)
    click.echo(f"Claimwatch worker on {_safe_url(app.settings.database_url)} (Ctrl-C to stop)")
    run_worker(app.settings, engine, concurrency=concurrency, drain=drain)
    click.echo("Claimwatch worker stopped.")


@cli.command()
@click.option("-v", "--verbose", is_flag=True, help="Log every round.")
@click.pass_obj
def scheduler(app: App, verbose):
    """Queue the cluster's jobs: due polls, delivery, the digest, the milestone check.

    Run two for availability: one is active, the other takes over when it dies. Example:
    claimwatch --db postgresql://claimwatch@db.example.org/claimwatch scheduler
    """
    from monitor.cluster import prepare
    from monitor.leader import run_scheduler

    _cluster_logging(verbose)
    engine = prepare(app.settings)
    click.echo(f"Claimwatch scheduler on {_safe_url(app.settings.database_url)} (Ctrl-C to stop)")
    run_scheduler(app.settings, engine)
    click.echo("Claimwatch scheduler stopped.")


@cli.command("workers")
@click.option("--format", "fmt", type=FORMATS, default="table", show_default=True)
@click.pass_obj
def workers_command(app: App, fmt):
    """Cluster health: workers (last heartbeat, jobs running), queue depth, oldest waiting job.

    Example: claimwatch workers --format json
    """
    from monitor import render
    from monitor.cluster import cluster_health, health_lines

    health = cluster_health(app.settings)
    if fmt == "json":
        click.echo(render.to_json(health))
    else:
        click.echo("\n".join(health_lines(health)))


def _cluster_logging(verbose: bool) -> None:
    import logging

    _logging(logging.INFO)
    if not verbose:  # a line per job is too much by default
        logging.getLogger("procrastinate").setLevel(logging.WARNING)


def _outbox_waiting(app: App) -> bool:
    from sqlmodel import Session

    from db.queries import outbox_waiting

    with Session(app.engine) as session:
        return outbox_waiting(session=session)


def _deliver_due(app: App, *, ignore_schedule: bool = False):
    from alerts.deliver import deliver
    from monitor.render import plain, plural

    report = deliver(app.engine, app.settings, ignore_schedule=ignore_schedule)
    if report.sent or report.retrying or report.given_up:
        click.echo(
            f"alerts: {report.sent} sent in {plural(report.messages, 'message')}, "
            f"{report.retrying} to retry, {report.given_up} given up"
        )
    for error in report.errors[:5]:
        click.echo(f"claimwatch: delivery failed: {plain(error)}", err=True)
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
    from datetime import date, datetime
    from pathlib import Path

    from sqlmodel import Session

    from alerts.base import DeliveryError
    from alerts.digest import digest_data, render_html, render_text, send_digest
    from monitor.render import plain

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
        click.echo(text if html else "\n".join(plain(line) for line in text.split("\n")), nl=False)


def _logging(level: int) -> None:
    import logging

    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # the HTTP libraries log full URLs, and a webhook URL is a secret; APScheduler is chatty
    for noisy in ("httpx", "httpcore", "apscheduler", "hpack", "sqlalchemy", "alembic"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def main():
    cli(prog_name="claimwatch")


if __name__ == "__main__":
    main()
