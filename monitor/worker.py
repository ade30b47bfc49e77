"""`claimwatch worker`: runs the cluster's poll and delivery jobs.

A poll job names the lead of a URL group; the worker polls the whole group through the Poller,
so the URL is fetched once for all its watchers. Jobs of one group never run at once (a
Procrastinate lock), and a job whose group is no longer due does nothing: a job run twice, or
again after a crash, polls once. Requests to a host take one of its `per_host` slots, PostgreSQL
advisory locks held by whichever process is fetching, so the limit holds across the cluster.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

from sqlalchemy.engine import Engine

from alerts.deliver import deliver
from monitor import cluster
from monitor.config import Settings
from monitor.scheduler import check_milestones, daily_digest
from monitor.service import Poller, utcnow

log = logging.getLogger("claimwatch.worker")


class ClusterHostSlots:
    """`per_host` request slots per host for the whole cluster. Slot i of a host is an advisory
    lock on this process's own connection: a process that dies releases its slots with it.

    When every slot is taken, requests queue for the host's gate, a blocking advisory lock that
    PostgreSQL grants first come, first served; only the request at the gate polls for a slot,
    so a busy process cannot starve the others and the database sees one poller per host."""

    def __init__(self, conninfo: str, per_host: int):
        self.conninfo = conninfo
        self.per_host = per_host
        self._conn = None
        self._use = asyncio.Lock()
        self._held: set[tuple[int, int]] = set()
        self._local: dict[str, asyncio.Lock] = {}
        self._idle: list = []  # connections for waiting at a gate

    @asynccontextmanager
    async def __call__(self, host: str) -> AsyncIterator[None]:
        async with self._local.setdefault(host, asyncio.Lock()):  # one at the gate per process
            key = await self.try_acquire(host)
            if key is None:
                key = await self._wait_in_line(host)
        try:
            yield
        finally:
            await asyncio.shield(self.release(key))

    async def try_acquire(self, host: str) -> tuple[int, int] | None:
        """A free slot of `host`, now held by this process, or None when all are taken."""
        attempt = asyncio.ensure_future(self._try(host))
        try:
            return await asyncio.shield(attempt)  # never cut a query short on the shared connection
        except asyncio.CancelledError:
            attempt.add_done_callback(self._release_late)
            raise

    def _release_late(self, attempt: asyncio.Future) -> None:
        if not attempt.cancelled() and attempt.exception() is None and attempt.result():
            asyncio.ensure_future(self.release(attempt.result()))

    async def _try(self, host: str) -> tuple[int, int] | None:
        keys = [cluster.lock_key(cluster.HOST_SLOT, f"{host}#{i}") for i in range(self.per_host)]
        free = [k for k in keys if k not in self._held]
        if not free:
            return None
        async with self._use:
            conn = await self._connection()
            # evaluated in order and stopped at the first lock taken, so at most one is taken
            row = await (
                await conn.execute(
                    "SELECT c, o FROM unnest(%s::int[], %s::int[]) AS k(c, o)"
                    " WHERE pg_try_advisory_lock(c, o) LIMIT 1",
                    ([c for c, _ in free], [o for _, o in free]),
                )
            ).fetchone()
        if row is None:
            return None
        self._held.add(tuple(row))
        return tuple(row)

    async def _wait_in_line(self, host: str) -> tuple[int, int]:
        import psycopg

        gate_key = cluster.lock_key(cluster.HOST_SLOT, f"{host}#gate")
        gate = self._idle.pop() if self._idle else None
        if gate is None or gate.closed:
            gate = await psycopg.AsyncConnection.connect(
                self.conninfo, autocommit=True, application_name=cluster.process_name("slots")
            )
        try:
            await gate.execute("SELECT pg_advisory_lock(%s, %s)", gate_key)
            wait = 0.005
            while (key := await self.try_acquire(host)) is None:
                await asyncio.sleep(wait)
                wait = min(2 * wait, 0.05)
            await gate.execute("SELECT pg_advisory_unlock(%s, %s)", gate_key)
        except BaseException:
            with suppress(Exception):  # closing lets go of the gate, whatever state it was in
                await gate.close()
            raise
        self._idle.append(gate)
        return key

    async def release(self, key: tuple[int, int]) -> None:
        if key not in self._held:
            return  # its connection was lost, and the lock with it
        self._held.discard(key)
        async with self._use:
            try:
                await self._conn.execute("SELECT pg_advisory_unlock(%s, %s)", key)
            except Exception as exc:  # the lock went with the connection
                log.warning("host slot connection lost: %s", exc)
                await self._drop()

    async def _connection(self):
        import psycopg

        if self._conn is None or self._conn.closed:
            self._held.clear()
            self._conn = await psycopg.AsyncConnection.connect(
                self.conninfo, autocommit=True, application_name=cluster.process_name("slots")
            )
        return self._conn

    async def _drop(self) -> None:
        self._held.clear()
        if self._conn is not None:
            with suppress(Exception):
                await self._conn.close()
        self._conn = None

    async def close(self) -> None:
        async with self._use:
            if self._conn is not None and not self._conn.closed and self._held:
                # released at once, not when the server notices the session ended (a process
                # that dies still frees them that way)
                with suppress(Exception):
                    await self._conn.execute("SELECT pg_advisory_unlock_all()")
            await self._drop()
        for gate in self._idle:
            with suppress(Exception):
                await gate.close()
        self._idle.clear()


class Runtime:
    """What the jobs of one worker process share: the settings, the engine and one Poller."""

    def __init__(self, settings: Settings, engine: Engine, slots: ClusterHostSlots):
        self.settings = settings
        self.engine = engine
        self.slots = slots
        self.poller = Poller(settings, engine, host_slot=slots, on_alerts=cluster.defer_delivery)
        accepts = {name: w.accept for name, w in self.poller.watchers.items()}
        self.groups = cluster.url_groups(settings, accepts)
        self.configs = {w.name: w for w in settings.watchers}

    async def poll(self, lead: str) -> str:
        names = self.groups.get(lead)
        if names is None:  # the configuration changed since the job was queued
            return f"{lead}: not the lead of any enabled watcher's group here; nothing polled"
        states = await asyncio.to_thread(cluster.read_states, self.engine, names)
        if not cluster.group_due([self.configs[n] for n in names], states, utcnow()):
            return f"{lead}: polled already this interval"
        reports = await self.poller.apoll_many(names, respect_backoff=True)
        changes = sum(r.changes for r in reports)
        return f"{lead}: {len(reports)} polled, {changes} changes"

    async def close(self) -> None:
        await self.poller.fetcher.close()
        self.poller.close()
        await self.slots.close()


# ---------------------------------------------------------------- the tasks


async def poll_task(context, watcher: str) -> str:
    runtime: Runtime = context.additional_context["runtime"]
    return await runtime.poll(watcher)


async def deliver_task(context, timestamp: int = 0) -> str:
    runtime: Runtime = context.additional_context["runtime"]
    report = await asyncio.to_thread(deliver, runtime.engine, runtime.settings)
    if report.errors:
        log.warning("delivery: %s", "; ".join(report.errors[:3]))
    return f"{report.sent} sent, {report.retrying} to retry, {report.given_up} given up"


async def digest_task(context, timestamp: int = 0) -> None:
    runtime: Runtime = context.additional_context["runtime"]
    await asyncio.to_thread(daily_digest, runtime.engine, runtime.settings, utcnow())


async def milestones_task(context, timestamp: int = 0) -> int:
    runtime: Runtime = context.additional_context["runtime"]
    return await asyncio.to_thread(check_milestones, runtime.engine, runtime.settings, utcnow())


# ---------------------------------------------------------------- the process


def run_worker(
    settings: Settings, engine: Engine, *, concurrency: int | None = None, drain: bool = False
) -> None:
    """Run jobs until SIGTERM or SIGINT (with `drain`, until none is waiting); on a signal,
    running jobs get STOP_GRACE seconds to finish, and those still running go back to the queue."""
    concurrency = concurrency or settings.cluster.concurrency
    app = cluster.build_app(settings, role="worker", pool_size=4)

    async def main() -> None:
        slots = ClusterHostSlots(cluster.conninfo(settings), settings.http.per_host)
        runtime = Runtime(settings, engine, slots)
        try:
            async with app.open_async():
                await app.run_worker_async(
                    queues=[cluster.QUEUE],
                    wait=not drain,
                    name="claimwatch",
                    concurrency=concurrency,
                    additional_context={"runtime": runtime},
                    update_heartbeat_interval=cluster.seconds(settings.cluster.heartbeat),
                    stalled_worker_timeout=cluster.seconds(settings.cluster.stalled_after),
                    shutdown_graceful_timeout=cluster.STOP_GRACE,
                    fetch_job_polling_interval=cluster.seconds(settings.cluster.tick),
                )
        finally:
            await runtime.close()

    asyncio.run(main())
