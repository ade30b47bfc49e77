"""The service: one APScheduler 3 scheduler with a job per watcher, the deliverer, the digest and
the milestone check. Job functions are module-level and take only names, so a job could run in any
process that holds a Service."""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from datetime import UTC, datetime, timedelta

from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_MISSED, JobExecutionEvent
from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from alerts import enabled_channels
from alerts.deliver import deliver
from alerts.digest import milestones, send_digest
from db.models import Claim, WatcherState
from db.store import record_milestone_alerts
from monitor.config import Settings
from monitor.service import Clock, Poller, utcnow

log = logging.getLogger("claimwatch.service")
_service: Service | None = None  # the Service the job functions act on
SPREAD = timedelta(seconds=60)  # first runs are spread over at most this window
STOP_GRACE = 5.0  # seconds running polls get to finish on SIGTERM before they are cancelled


class PollLoop:
    """An asyncio loop on a thread of its own, where every poll of the service runs. Scheduler
    jobs hand it watcher names and return at once; a watcher already being polled is skipped."""

    def __init__(self, poller: Poller):
        self.poller = poller
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="polls", daemon=True)
        self.running: dict[str, asyncio.Task] = {}
        self.on_report = None  # called with each PollReport, e.g. to print a summary

    def start(self) -> None:
        self.thread.start()

    def submit(self, name: str) -> None:
        """From any thread: poll this watcher soon, unless a poll of it is under way."""
        self.loop.call_soon_threadsafe(self._start, name)

    def _start(self, name: str) -> None:
        if name in self.running:
            log.debug("watcher %s: previous poll still running, skipped", name)
            return
        task = self.loop.create_task(
            self.poller.apoll_many([name], self.on_report, respect_backoff=True)
        )
        self.running[name] = task
        task.add_done_callback(lambda t, n=name: self._done(n, t))

    def _done(self, name: str, task: asyncio.Task) -> None:
        self.running.pop(name, None)
        if not task.cancelled() and task.exception() is not None:
            log.error("poll of %s failed: %r", name, task.exception())

    def stop(self, grace: float) -> None:
        """Let running polls finish for up to `grace` seconds, cancel the rest, then stop."""
        asyncio.run_coroutine_threadsafe(self._drain(grace), self.loop).result(grace + 30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)
        self.loop.close()

    async def _drain(self, grace: float) -> None:
        tasks = list(self.running.values())
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=grace)
            for task in pending:
                task.cancel()  # nothing of a cancelled poll is stored; the next run polls again
            if pending:
                await asyncio.wait(pending, timeout=10)
        await self.poller.fetcher.close()


class Service:
    def __init__(self, settings: Settings, engine: Engine, *, clock: Clock = utcnow):
        self.settings = settings
        self.engine = engine
        self.clock = clock
        self.poller = Poller(settings, engine, clock=clock)
        self.polls = PollLoop(self.poller)

    def poll_watcher(self, name: str) -> None:
        self.polls.submit(name)

    def deliver_due(self) -> None:
        report = deliver(self.engine, self.settings, now=self.clock())
        if report.sent or report.errors:
            log.info(
                "alerts: %d sent, %d to retry, %d given up",
                report.sent,
                report.retrying,
                report.given_up,
            )

    def send_digest(self) -> None:
        daily_digest(self.engine, self.settings, self.clock())

    def check_milestones(self) -> int:
        return check_milestones(self.engine, self.settings, self.clock())

    def close(self) -> None:
        self.poller.close()


def daily_digest(engine: Engine, settings: Settings, now: datetime) -> None:
    """Mail today's digest when email is configured; once per date, whoever asks."""
    email = settings.alerts.email
    if not (email.smtp_host and email.recipients):
        return
    today = now.astimezone(settings.tz).date()
    try:
        log.info("digest for %s: %s", today, send_digest(engine, settings, today, now=now))
    except Exception as exc:  # retried by the next run of the job; the error shows in the log
        log.error("digest for %s not sent: %s", today, exc)


def check_milestones(engine: Engine, settings: Settings, now: datetime) -> int:
    """Raise an alert for each milestone overdue and not yet met or slipped (once each)."""
    today = now.astimezone(settings.tz).date()
    with Session(engine) as session:
        due = milestones(session, session.exec(select(Claim)).all(), today)
    overdue = [m for m in due if m["days_left"] < 0 and m["state"] not in ("met", "slipped")]
    added = record_milestone_alerts(engine, overdue, channels=enabled_channels(settings), now=now)
    if added:
        log.info("milestones: %d overdue alert(s) raised", added)
    return added


def poll_job(name: str) -> None:
    _service.poll_watcher(name)


def deliver_job() -> None:
    _service.deliver_due()


def digest_job() -> None:
    _service.send_digest()


def milestone_job() -> None:
    _service.check_milestones()


def first_runs(
    settings: Settings, states: dict[str, WatcherState], now: datetime
) -> dict[str, datetime]:
    """Spread first runs over a short window; a watcher not yet due (after a restart) waits its turn."""
    names = [w.name for w in settings.watchers if w.enabled]
    shortest = min((w.interval for w in settings.watchers if w.enabled), default=SPREAD)
    window = min(SPREAD, shortest)
    out = {}
    for index, name in enumerate(names):
        start = now + window * (index / max(len(names), 1))
        state = states.get(name)
        if state and state.next_due_at and state.next_due_at > start:
            start = state.next_due_at
        out[name] = start
    return out


def build_scheduler(settings: Settings, service: Service) -> BackgroundScheduler:
    global _service
    _service = service
    # polls only hand a name to the poll loop; delivery, the digest and the milestone check have
    # threads of their own, so they never wait behind a slow source
    scheduler = BackgroundScheduler(
        executors={"default": ThreadPoolExecutor(3), "polls": ThreadPoolExecutor(1)},
        job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": 300},
        timezone=settings.tz,
    )
    now = datetime.now(UTC)
    with Session(service.engine) as session:
        states = {s.name: s for s in session.exec(select(WatcherState))}
    starts = first_runs(settings, states, now)
    for config in settings.watchers:
        if not config.enabled:
            continue
        if config.cron:
            trigger = CronTrigger.from_crontab(config.cron, timezone=settings.tz)
            first = None
        else:
            seconds = config.interval.total_seconds()
            trigger = IntervalTrigger(
                seconds=seconds, jitter=min(seconds * 0.1, 300) or None, timezone=settings.tz
            )
            first = starts[config.name]
        scheduler.add_job(
            poll_job,
            trigger,
            args=[config.name],
            executor="polls",
            id=f"watch:{config.name}",
            name=f"watch {config.name}",
            replace_existing=True,
            **({"next_run_time": first} if first else {}),
        )
    scheduler.add_job(
        deliver_job,
        IntervalTrigger(seconds=30),
        id="deliver",
        name="deliver alerts",
        replace_existing=True,
        next_run_time=now + timedelta(seconds=5),
    )
    hour, minute = (int(x) for x in settings.alerts.email.digest_at.split(":"))
    scheduler.add_job(
        digest_job,
        CronTrigger(hour=hour, minute=minute, timezone=settings.tz),
        id="digest",
        name="daily digest",
        replace_existing=True,
        misfire_grace_time=6 * 3600,
    )
    scheduler.add_job(
        milestone_job,
        IntervalTrigger(hours=1),
        id="milestones",
        name="milestone check",
        replace_existing=True,
        next_run_time=now + timedelta(seconds=2),
    )
    scheduler.add_listener(_on_event, EVENT_JOB_ERROR | EVENT_JOB_MISSED)
    return scheduler


def _on_event(event: JobExecutionEvent) -> None:
    if event.code == EVENT_JOB_MISSED:
        log.warning("job %s missed its run at %s", event.job_id, event.scheduled_run_time)
    else:
        log.error("job %s failed: %r", event.job_id, event.exception)


def run_forever(settings: Settings, engine: Engine, stop: threading.Event | None = None) -> None:
    """Run until SIGINT or SIGTERM, then let running polls finish their transaction and stop."""
    stop = stop or threading.Event()
    service = Service(settings, engine)
    scheduler = build_scheduler(settings, service)

    def request_stop(signum, _frame):
        log.info("received %s: stopping after the running jobs finish", signal.Signals(signum).name)
        stop.set()

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, request_stop)
        signal.signal(signal.SIGINT, request_stop)
    enabled = sum(w.enabled for w in settings.watchers)
    log.info(
        "claimwatch running: %d watchers, ledgers %s, database %s",
        enabled,
        ", ".join(settings.claims),
        _safe_url(settings.database_url),
    )
    service.polls.start()
    scheduler.start()
    try:
        while not stop.wait(1):
            pass
    finally:
        scheduler.shutdown(wait=True)  # poll jobs only hand over names; delivery finishes its send
        service.polls.stop(grace=STOP_GRACE)
        service.close()
        log.info("stopped cleanly")


def _safe_url(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
