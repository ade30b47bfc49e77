"""Opening the database and running the flow: fetch → parse → extract → judge → store.

Fetching is asyncio: every fetch of a batch runs at once, bounded per host and in all. Parsing,
extraction, judging and storing run on one worker thread (the writer), which takes whatever has
been fetched as one batch and stores it in one transaction; so the event loop only ever waits for
the network, and hands work over once per batch rather than once per poll.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, select

import watchers
from alerts import enabled_channels
from db.engine import make_engine, upgrade
from db.ledger import load_ledger
from db.models import WatcherState
from db.store import LoadReport, load_ledgers
from db.writer import BookCache, PollOutcome, PollReport, Writer, WriterSettings, retryable
from monitor.config import ConfigError, Settings, parse_duration
from watchers.base import Fetched, NotModified, Parsed, PollContext, WatchError
from watchers.fetch import Fetcher, HostSlot
from watchers.judge import RemovalWindow

log = logging.getLogger("claimwatch")
Clock = Callable[[], datetime]
BATCH = 200  # outcomes stored in one transaction at most
LINGER = 0.05  # seconds a batch waits for more outcomes after its first
STORE_ATTEMPTS = 5


def utcnow() -> datetime:
    return datetime.now(UTC)


def open_database(settings: Settings) -> tuple[Engine, LoadReport]:
    """An engine on an up-to-date schema with the configured ledgers loaded."""
    ledgers = [load_ledger(name) for name in settings.claims]  # parse all before writing any
    build_watchers(settings)  # and every watcher's kind-specific settings
    engine = make_engine(settings.database_url)
    upgrade(engine)
    return engine, load_ledgers(engine, ledgers)


def build_watchers(settings: Settings) -> dict[str, watchers.Watcher]:
    out = {}
    for index, config in enumerate(settings.watchers):
        try:
            out[config.name] = watchers.build(config)
        except ValueError as exc:
            raise ConfigError(
                f"{settings.source}: watchers[{index}] (watcher {config.name!r}): {exc}"
            ) from None
    return out


@dataclass
class Fetch:
    """One request that serves every watcher of the same URL."""

    url: str
    accept: str
    allow_private: bool
    timeout: float | None
    names: list[str] = field(default_factory=list)


@dataclass
class Polled:
    """What a fetch gave one watcher: parsed items, or a typed error; not yet stored."""

    name: str
    started_at: datetime
    parsed: Parsed | None = None
    fetched: Fetched | None = None
    not_modified: bool = False
    error: WatchError | None = None
    internal: str | None = None
    elapsed: float = 0.0


def signal_files(settings: Settings) -> tuple[str, ...]:
    """The vocabularies extraction reads: each ledger's own, then the user's `extra_signals`."""
    from db.ledger import signal_file

    beside = [signal_file(name) for name in settings.claims]
    return tuple(str(p) for p in beside if p is not None) + tuple(settings.extra_signals)


class Poller:
    """Runs polls; one per process. `poll` and `poll_many` run their own event loop; a service
    with a loop of its own awaits `apoll_many`."""

    def __init__(
        self,
        settings: Settings,
        engine: Engine,
        *,
        fetcher: Fetcher | None = None,
        clock: Clock = utcnow,
        host_slot: HostSlot | None = None,
        on_alerts: Callable[[Session], None] | None = None,
    ):
        self.settings = settings
        self.engine = engine
        self.fetcher = fetcher or Fetcher(settings.http, host_slot=host_slot)
        self.clock = clock
        self.watchers = build_watchers(settings)
        self.channels = enabled_channels(settings)
        self._rules = None
        if settings.extra_signals:
            _ = self.rules  # the user's own signal files are checked now, not at the first news
        self.cache = BookCache()
        self.writer_settings = WriterSettings(
            channels=tuple(self.channels),
            failures_alert=settings.failures_alert,
            window=RemovalWindow(
                polls=settings.removal_polls, after=parse_duration(settings.removal_after)
            ),
            on_alerts=on_alerts,
        )
        self._write_pool = ThreadPoolExecutor(1, thread_name_prefix="store")

    @property
    def rules(self):
        """The signal tables, read when first needed: a round of 304s never needs them."""
        if self._rules is None:
            from watchers.vocabulary import rules

            try:
                self._rules = rules(signal_files(self.settings))
            except ValueError as exc:
                raise ConfigError(f"{self.settings.source}: extra_signals: {exc}") from None
        return self._rules

    def close(self) -> None:
        self._write_pool.shutdown(wait=True)

    def names(self, wanted: Iterable[str] = ()) -> list[str]:
        wanted = list(wanted)
        for name in wanted:
            self.settings.watcher(name)  # raises with the known names
        return wanted or [w.name for w in self.settings.watchers if w.enabled]

    def poll(self, name: str) -> PollReport:
        """One poll of one watcher. Never raises for what a source does; the error goes to health."""
        return self.poll_many([name])[0]

    def poll_many(
        self, names: list[str], on_done: Callable[[PollReport], None] | None = None
    ) -> list[PollReport]:
        async def run() -> list[PollReport]:
            try:
                return await self.apoll_many(names, on_done)
            finally:
                await self.fetcher.close()

        return asyncio.run(run())

    async def apoll_many(
        self,
        names: list[str],
        on_done: Callable[[PollReport], None] | None = None,
        *,
        respect_backoff: bool = False,
    ) -> list[PollReport]:
        """Poll concurrently; each URL is fetched once for all its watchers in the batch.
        With `respect_backoff`, a failing watcher whose retry is not yet due is left out."""
        loop = asyncio.get_running_loop()
        states = await loop.run_in_executor(self._write_pool, self._states, names)
        if respect_backoff:
            now = self.clock()
            names = [n for n in names if not _backing_off(states.get(n), now)]
        results: asyncio.Queue = asyncio.Queue()
        fetches = [
            asyncio.create_task(self._fetch(group, states, results))
            for group in self._groups(names, states)
        ]
        writer = asyncio.create_task(self._store_all(len(names), results, states, on_done))
        try:
            await asyncio.gather(*fetches)
            reports = await writer
        except BaseException:
            for task in [*fetches, writer]:
                task.cancel()
            raise
        order = {name: i for i, name in enumerate(names)}
        return sorted(reports, key=lambda r: order[r.watcher])

    # ------------------------------------------------------------ fetch and parse

    def _states(self, names: list[str]) -> dict[str, tuple]:
        with Session(self.engine) as session:
            rows = session.exec(
                select(
                    WatcherState.name,
                    WatcherState.etag,
                    WatcherState.last_modified,
                    WatcherState.consecutive_failures,
                    WatcherState.next_due_at,
                ).where(col(WatcherState.name).in_(names))
            )
            return {name: tuple(rest) for name, *rest in rows}

    def _groups(self, names: list[str], states: dict) -> list[Fetch]:
        groups: dict[tuple, Fetch] = {}
        for name in dict.fromkeys(names):
            watcher = self.watchers[name]
            config = watcher.config
            key = (config.url, watcher.accept, config.allow_private_redirects, config.timeout)
            groups.setdefault(key, Fetch(*key)).names.append(name)
        return list(groups.values())

    async def _fetch(self, group: Fetch, states: dict, results: asyncio.Queue) -> None:
        started, now = time.monotonic(), self.clock()
        conditions = {states.get(name, (None, None))[:2] for name in group.names}
        etag, modified = conditions.pop() if len(conditions) == 1 else (None, None)
        outcome = dict(started_at=now)
        try:
            fetched = await self.fetcher.fetch(
                group.url,
                etag=etag,
                last_modified=modified,
                accept=group.accept,
                allow_private_redirects=group.allow_private,
                timeout=group.timeout,
            )
            # the poller's clock says when Claimwatch saw it (a virtual clock in the demo)
            outcome["fetched"] = replace(fetched, fetched_at=now)
        except NotModified:
            outcome["not_modified"] = True
        except WatchError as exc:
            outcome["error"] = exc
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug must not stop the batch; it shows in health
            log.exception("fetch of %s failed unexpectedly", group.url)
            outcome["internal"] = f"{group.url}: {type(exc).__name__}: {exc}"[:500]
        for name in group.names:
            result = Polled(name=name, **outcome)
            result.elapsed = time.monotonic() - started
            results.put_nowait(result)  # parsed on the writer's thread, with its batch

    def _parse(self, result: Polled) -> Polled:
        watcher = self.watchers[result.name]
        try:
            result.parsed = watcher.parse(result.fetched)
        except WatchError as exc:
            result.error = exc
        except Exception as exc:  # a parser bug: health shows it, the service goes on
            log.exception("watcher %s: parser failed", result.name)
            result.internal = f"{watcher.config.url}: {type(exc).__name__}: {exc}"[:500]
        return result

    # ------------------------------------------------------------ extract, judge, store

    async def _store_all(self, count: int, results: asyncio.Queue, states: dict, on_done):
        loop = asyncio.get_running_loop()
        reports: list[PollReport] = []
        while len(reports) < count:
            batch = await _gather_batch(results, count - len(reports))
            stored = await loop.run_in_executor(self._write_pool, self._store, batch, states)
            for report, result in zip(stored, batch, strict=True):
                _log(report, result.elapsed)
                if on_done:
                    on_done(report)
            reports.extend(stored)
        return reports

    def _store(self, batch: list[Polled], states: dict) -> list[PollReport]:
        """Parse what was fetched, then one transaction for the batch, in watcher order (writers
        lock rows in the same order); a deadlock with another process's writer stores the batch
        again."""
        for result in batch:
            unread = result.parsed is None and result.error is None and result.internal is None
            if result.fetched is not None and unread:
                self._parse(result)
        for attempt in range(STORE_ATTEMPTS):
            try:
                with Writer(self.engine, self.cache, self.writer_settings) as writer:
                    ordered = sorted(batch, key=lambda r: r.name)
                    outcomes = [self._outcome(writer, r, states) for r in ordered]
                    writer.lock_watchers(outcomes)
                    reports = {o.watcher: writer.record(o) for o in outcomes}
                return [reports[r.name] for r in batch]
            except DBAPIError as exc:
                if not retryable(exc) or attempt == STORE_ATTEMPTS - 1:
                    raise
                log.info("storing polls met another writer (%s); again", type(exc.orig).__name__)
                time.sleep(random.uniform(0.05, 0.3) * (attempt + 1))
        raise AssertionError("unreachable")

    def _outcome(self, writer: Writer, result: Polled, states: dict) -> PollOutcome:
        watcher = self.watchers[result.name]
        config = watcher.config
        outcome = PollOutcome(
            watcher=result.name,
            kind=config.kind,
            url=config.url,
            started_at=result.started_at,
            snapshot=watcher.snapshot,
            next_due_at=result.started_at + config.interval,
        )
        failures = states.get(result.name, (None, None, 0, None))[2]
        if result.not_modified:
            outcome.not_modified = True
        elif result.error is not None or result.internal is not None:
            error = result.error
            message = str(error) if error is not None else result.internal
            if "://" not in message:  # every error names the URL it is about
                message = f"{config.url}: {message}"
            outcome.error_kind = error.kind if error is not None else "internal"
            outcome.error = message
            retry_after = error.retry_after if error is not None else None
            outcome.next_due_at = result.started_at + self._backoff(
                config.interval, failures + 1, retry_after
            )
        else:
            try:
                self._extract(writer, watcher, result, outcome)
            except Exception as exc:  # an extraction bug: health shows it
                log.exception("watcher %s: extraction failed", result.name)
                outcome.items = []
                outcome.error_kind = "internal"
                outcome.error = f"{config.url}: {type(exc).__name__}: {exc}"[:500]
        return outcome

    def _extract(self, writer: Writer, watcher, result: Polled, outcome: PollOutcome) -> None:
        book = writer.book
        said = book.sources.get(result.name)
        context = PollContext(
            claims=book.specs,
            previous={key: s.value for (_, key), s in said.items()} if said else None,
            rules=self.rules,
        )
        outcome.items = writer.new_items(result.name, result.parsed.items)
        for draft in outcome.items:
            draft.candidates = watcher.extract(draft.item, context)
        fetched = result.fetched
        outcome.etag = fetched.headers.get("etag")
        outcome.last_modified = fetched.headers.get("last-modified")
        outcome.warning = result.parsed.warning

    def _backoff(self, interval: timedelta, failures: int, retry_after: float | None) -> timedelta:
        cap = parse_duration(self.settings.http.backoff_max)
        wait = min(interval * (2 ** min(failures - 1, 16)), cap) * random.uniform(0.8, 1.2)
        wait = max(wait, min(interval, timedelta(minutes=5)))
        return max(wait, timedelta(seconds=retry_after)) if retry_after else wait


async def _gather_batch(results: asyncio.Queue, left: int) -> list[Polled]:
    """The next batch: what is ready, and what arrives within LINGER of the first, up to BATCH
    (a transaction per batch costs more than the wait)."""
    batch = [await results.get()]
    deadline = asyncio.get_running_loop().time() + LINGER
    while len(batch) < min(BATCH, left):
        if not results.empty():
            batch.append(results.get_nowait())
            continue
        wait = deadline - asyncio.get_running_loop().time()
        if wait <= 0:
            break
        try:
            async with asyncio.timeout(wait):
                batch.append(await results.get())
        except TimeoutError:
            break
    return batch


def _backing_off(state: tuple | None, now: datetime) -> bool:
    if state is None:
        return False
    _, _, failures, due = state
    if due is not None and due.tzinfo is None:
        due = due.replace(tzinfo=UTC)
    return bool(failures) and due is not None and due > now


def _log(report: PollReport, elapsed: float) -> None:
    level = logging.INFO if report.outcome in ("ok", "not-modified") else logging.WARNING
    log.log(
        level,
        "poll %s: %s, %d new items, %d observations, %d changes, %.2fs%s",
        report.watcher,
        report.outcome,
        report.items,
        report.observations,
        report.changes,
        elapsed,
        f" ({report.error})" if report.error else "",
    )
