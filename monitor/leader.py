"""`claimwatch scheduler`: queues the cluster's jobs. Start two or more for availability.

The active scheduler holds a PostgreSQL advisory lock on a connection of its own; the others
try to take it every tick, so when the active one dies (and its connection with it) a standby
takes over within one tick. Whatever two schedulers might do at once is harmless: a poll job has
a queueing lock per group, and the periodic jobs are queued once per period by Procrastinate.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy.engine import Engine

from monitor import cluster
from monitor.config import Settings
from monitor.service import build_watchers, utcnow

log = logging.getLogger("claimwatch.scheduler")
DELIVER_EVERY = 30  # seconds; a poll that found a change queues a delivery at once as well
MILESTONES_EVERY = 3600
DIGEST_GRACE = timedelta(hours=6)  # a digest not queued by then (no scheduler ran) is skipped
JOBS_KEPT = 1  # hours finished jobs are kept for


@dataclass
class Scheduler:
    settings: Settings
    engine: Engine
    app: object
    groups: dict[str, list[str]] = field(default_factory=dict)
    last_cleanup: int = 0

    @classmethod
    def build(cls, settings: Settings, engine: Engine, app) -> Scheduler:
        accepts = {name: w.accept for name, w in build_watchers(settings).items()}
        return cls(settings, engine, app, cluster.url_groups(settings, accepts))

    async def tick(self, now: datetime) -> int:
        """One round of the active scheduler; returns the number of polls queued."""
        await self.release_stalled()
        queued = await self.queue_due_polls(now)
        await self.queue_periodic(now)
        if int(now.timestamp()) // 3600 != self.last_cleanup:
            self.last_cleanup = int(now.timestamp()) // 3600
            await self.app.job_manager.delete_old_jobs(nb_hours=JOBS_KEPT, include_aborted=True)
        return queued

    async def queue_due_polls(self, now: datetime) -> int:
        from procrastinate.exceptions import AlreadyEnqueued

        states = await asyncio.to_thread(cluster.read_states, self.engine)
        rows = await self.app.connector.execute_query_all_async(
            "SELECT args ->> 'watcher' AS lead FROM procrastinate_jobs"
            " WHERE task_name = %(task)s AND status IN ('todo', 'doing')",
            task=cluster.POLL,
        )
        busy = {row["lead"] for row in rows}
        configs = {w.name: w for w in self.settings.watchers}
        queued = 0
        for lead, names in self.groups.items():
            if lead in busy or not cluster.group_due([configs[n] for n in names], states, now):
                continue
            deferrer = self.app.configure_task(
                cluster.POLL, queue=cluster.QUEUE, queueing_lock=f"poll:{lead}", lock=f"poll:{lead}"
            )
            with suppress(AlreadyEnqueued):
                await deferrer.defer_async(watcher=lead)
                queued += 1
        return queued

    async def queue_periodic(self, now: datetime) -> None:
        stamp = int(now.timestamp())
        await self._once(cluster.DELIVER, stamp - stamp % DELIVER_EVERY, **cluster.DELIVERY)
        await self._once(cluster.MILESTONES, stamp - stamp % MILESTONES_EVERY)
        hour, minute = (int(x) for x in self.settings.alerts.email.digest_at.split(":"))
        local = now.astimezone(self.settings.tz)
        at = local.replace(hour=hour, minute=minute, second=0, microsecond=0)
        if at <= local < at + DIGEST_GRACE:
            await self._once(cluster.DIGEST, int(at.timestamp()))

    async def _once(self, task: str, stamp: int, **options) -> None:
        """Queue `task` for the period starting at `stamp`, once whoever asks."""
        from procrastinate.exceptions import AlreadyEnqueued

        options = {"queue": cluster.QUEUE, "queueing_lock": task, "lock": task, **options}
        job = self.app.configure_task(task, **options).job.evolve(task_kwargs={"timestamp": stamp})
        with suppress(AlreadyEnqueued):  # one is waiting: this period is asked for next tick
            await self.app.job_manager.defer_periodic_job(
                job, periodic_id="", defer_timestamp=stamp
            )

    async def release_stalled(self) -> None:
        """Jobs of a worker that stopped sending heartbeats go back to the queue."""
        from procrastinate.exceptions import ConnectorException
        from procrastinate.jobs import Status

        manager = self.app.job_manager
        after = cluster.seconds(self.settings.cluster.stalled_after)
        for job in await manager.get_stalled_jobs(seconds_since_heartbeat=after):
            try:
                await manager.retry_job(job)
                log.warning("job %s (%s) of a dead worker queued again", job.id, job.call_string)
            except ConnectorException:  # a twin is already waiting: it does the work
                await manager.finish_job_by_id_async(
                    job_id=job.id, status=Status.ABORTED, delete_job=False
                )
        await manager.prune_stalled_workers(after)


async def lead_or_wait(settings: Settings, engine: Engine, stop: asyncio.Event) -> None:
    """Be the active scheduler while this process holds the lock; stand by otherwise."""
    import psycopg

    tick = cluster.seconds(settings.cluster.tick)
    app = cluster.build_app(settings, role="scheduler", pool_size=2)
    scheduler = Scheduler.build(settings, engine, app)
    key = cluster.lock_key(cluster.LEADER, "scheduler")
    async with app.open_async():
        while not stop.is_set():
            try:
                async with await psycopg.AsyncConnection.connect(
                    cluster.conninfo(settings),
                    autocommit=True,
                    application_name=cluster.process_name("scheduler"),
                ) as conn:
                    await _standby(conn, key, tick, stop)
                    if not stop.is_set():
                        await _active(conn, key, scheduler, tick, stop)
            except psycopg.OperationalError as exc:
                log.error("scheduler lost the database (%s); trying again", exc)
                await _wait(stop, tick)


async def _standby(conn, key, tick: float, stop: asyncio.Event) -> None:
    announced = False
    while not stop.is_set():
        row = await (await conn.execute("SELECT pg_try_advisory_lock(%s, %s)", key)).fetchone()
        if row[0]:
            return
        if not announced:
            log.info("standing by: another scheduler is active")
            announced = True
        await _wait(stop, tick)


async def _active(conn, key, scheduler: Scheduler, tick: float, stop: asyncio.Event) -> None:
    log.info("active: queueing due polls every %g s", tick)
    while not stop.is_set():
        # the lock lives as long as this connection: check it before acting on it
        await conn.execute("SELECT 1")
        try:
            queued = await scheduler.tick(utcnow())
            if queued:
                log.info("queued %d polls", queued)
        except Exception:  # one bad round must not stop the scheduler; the next tries again
            log.exception("scheduler round failed")
        await _wait(stop, tick)
    await conn.execute("SELECT pg_advisory_unlock(%s, %s)", key)


async def _wait(stop: asyncio.Event, seconds: float) -> None:
    with suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


def run_scheduler(settings: Settings, engine: Engine) -> None:
    """Run until SIGTERM or SIGINT."""

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        await lead_or_wait(settings, engine, stop)

    asyncio.run(main())
