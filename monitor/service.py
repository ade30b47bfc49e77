"""Opening the database and running the flow: fetch → parse → extract → judge → store."""

from __future__ import annotations

import json
import logging
import random
import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, func, select

import watchers
from alerts import enabled_channels
from db import queries
from db.engine import make_engine, upgrade
from db.ledger import load_ledger
from db.models import Claim, Observation, WatcherState
from db.store import (
    ItemDraft,
    LoadReport,
    ObservationDraft,
    PollOutcome,
    PollReport,
    load_ledgers,
    record_poll,
)
from monitor.config import ConfigError, Settings, parse_duration
from watchers.base import Fetched, NotModified, ParsedItem, PollContext, WatchError, snapshot_key
from watchers.extract import rules
from watchers.fetch import Fetcher, host_key
from watchers.judge import MISSING, judge

log = logging.getLogger("claimwatch")
Clock = Callable[[], datetime]


def utcnow() -> datetime:
    return datetime.now(UTC)


def open_database(settings: Settings) -> tuple[Engine, LoadReport]:
    """An engine on an up-to-date schema with the configured ledgers loaded."""
    ledgers = [load_ledger(name) for name in settings.claims]  # parse all before writing any
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


class Poller:
    """Runs polls; safe to call from many threads. One per process, sharing one HTTP client."""

    def __init__(
        self,
        settings: Settings,
        engine: Engine,
        *,
        fetcher: Fetcher | None = None,
        clock: Clock = utcnow,
    ):
        self.settings = settings
        self.engine = engine
        self.fetcher = fetcher or Fetcher(settings.http)
        self.clock = clock
        self.watchers = build_watchers(settings)
        self.channels = enabled_channels(settings)
        try:
            self.rules = rules(tuple(settings.extra_signals))
        except ValueError as exc:
            raise ConfigError(f"{settings.source}: extra_signals: {exc}") from None

    def close(self) -> None:
        self.fetcher.close()

    def names(self, wanted: Iterable[str] = ()) -> list[str]:
        wanted = list(wanted)
        for name in wanted:
            self.settings.watcher(name)  # raises with the known names
        return wanted or [w.name for w in self.settings.watchers if w.enabled]

    def poll_many(
        self, names: list[str], on_done: Callable[[PollReport], None] | None = None
    ) -> list[PollReport]:
        """Poll concurrently; no host gets more than `per_host` workers, so a slow host never holds
        the workers that other hosts' watchers are waiting for."""
        limit, per_host = self.settings.http.concurrency, self.settings.http.per_host
        queues: dict[str, deque[str]] = {}
        for name in names:
            queues.setdefault(host_key(self.watchers[name].config.url), deque()).append(name)
        active: dict[str, int] = dict.fromkeys(queues, 0)
        running: dict[Future, str] = {}
        reports: list[PollReport] = []
        with ThreadPoolExecutor(max_workers=limit, thread_name_prefix="poll") as pool:
            while queues or running:
                for host in list(queues):  # round-robin: one start per host per pass
                    if len(running) >= limit:
                        break
                    if active[host] < per_host:
                        running[pool.submit(self.poll, queues[host].popleft())] = host
                        active[host] += 1
                        if not queues[host]:
                            del queues[host]
                if not running:
                    continue
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    active[running.pop(future)] -= 1
                    reports.append(future.result())
                    if on_done:
                        on_done(reports[-1])
        order = {name: i for i, name in enumerate(names)}
        return sorted(reports, key=lambda r: order[r.watcher])

    def poll(self, name: str) -> PollReport:
        """One poll of one watcher. Never raises for what a source does; the error goes to health."""
        started = time.monotonic()
        watcher = self.watchers[name]
        config = watcher.config
        now = self.clock()
        outcome = PollOutcome(
            watcher=name, kind=config.kind, url=config.url, started_at=now, items=[]
        )
        with Session(self.engine) as session:
            state = session.get(WatcherState, name)
        failures = state.consecutive_failures if state else 0
        try:
            fetched = self.fetcher.fetch(
                config.url,
                etag=state.etag if state else None,
                last_modified=state.last_modified if state else None,
                accept=watcher.accept,
                allow_private_redirects=config.allow_private_redirects,
                timeout=config.timeout,
            )
            # the poller's clock says when Claimwatch saw it (a virtual clock in the demo)
            fetched = replace(fetched, fetched_at=now)
            parsed = watcher.parse(fetched)
            outcome.items = self._judge_items(watcher, parsed.items, fetched, now)
            outcome.etag, outcome.last_modified = (
                fetched.headers.get("etag"),
                fetched.headers.get("last-modified"),
            )
            outcome.warning = parsed.warning
            outcome.next_due_at = now + config.interval
        except NotModified:
            outcome.not_modified = True
            outcome.next_due_at = now + config.interval
        except WatchError as exc:
            # every error names the URL it is about
            message = str(exc) if "://" in str(exc) else f"{config.url}: {exc}"
            outcome.error_kind, outcome.error = exc.kind, message
            outcome.next_due_at = now + self._backoff(
                config.interval, failures + 1, exc.retry_after
            )
        except Exception as exc:  # a parser bug must not stop the service; it shows in health
            log.exception("watcher %s: unexpected error", name)
            outcome.error_kind, outcome.error = (
                "internal",
                f"{config.url}: {type(exc).__name__}: {exc}"[:500],
            )
            outcome.next_due_at = now + self._backoff(config.interval, failures + 1, None)
        report = record_poll(
            self.engine,
            outcome,
            channels=self.channels,
            failures_alert=self.settings.failures_alert,
        )
        log.info(
            "poll %s: %s, %d new items, %d observations, %d changes, %.2fs%s",
            name,
            report.outcome,
            report.items,
            report.observations,
            report.changes,
            time.monotonic() - started,
            f" ({report.error})" if report.error else "",
        )
        return report

    def _backoff(self, interval: timedelta, failures: int, retry_after: float | None) -> timedelta:
        cap = parse_duration(self.settings.http.backoff_max)
        wait = min(interval * (2 ** min(failures - 1, 16)), cap) * random.uniform(0.8, 1.2)
        wait = max(wait, min(interval, timedelta(minutes=5)))
        return max(wait, timedelta(seconds=retry_after)) if retry_after else wait

    def _judge_items(
        self, watcher, items: list[ParsedItem], fetched: Fetched, now: datetime
    ) -> list[ItemDraft]:
        name = watcher.name
        drafts: list[ItemDraft] = []
        with Session(self.engine) as session:
            claims = {c.id: c for c in session.exec(select(Claim))}
            specs = {cid: json.loads(c.spec) for cid, c in claims.items()}
            source_state = _source_state(session, name)
            overlay: dict[tuple[str, str], object] = {}  # changes judged earlier in this poll
            fresh = self._new_items(session, name, items)
            for item, dedupe_key in fresh:
                context = PollContext(
                    claims=specs,
                    previous={k: v for (_, k), v in source_state.items()} or None,
                    rules=self.rules,
                )
                first_word = not source_state  # this source has never said anything: its baseline
                observations = []
                for candidate in watcher.extract(item, context):
                    slot = (candidate.claim_id, candidate.key)
                    if candidate.claim_id not in claims:
                        continue
                    if (
                        item.snapshot
                        and slot in source_state
                        and source_state[slot] == candidate.value
                    ):
                        continue  # a snapshot reports only what moved since this source's last word
                    if slot in overlay:
                        current = overlay[slot]
                    else:
                        current = queries.current_value(
                            session=session, claim=claims[candidate.claim_id], key=candidate.key
                        ).value
                    previous = MISSING if first_word else source_state.get(slot)
                    verdict = judge(
                        candidate, specs[candidate.claim_id], current, source_previous=previous
                    )
                    if verdict is None:
                        continue
                    if verdict.changed:
                        overlay[slot] = candidate.value
                    source_state[slot] = candidate.value
                    observations.append(
                        ObservationDraft(
                            claim_id=candidate.claim_id,
                            key=candidate.key,
                            value=candidate.value,
                            unit=candidate.unit or claims[candidate.claim_id].unit,
                            signal=candidate.signal,
                            excerpt=candidate.excerpt,
                            changed=verdict.changed,
                            delta_pct=verdict.delta_pct,
                            previous=verdict.previous,
                        )
                    )
                drafts.append(
                    ItemDraft(
                        dedupe_key=dedupe_key,
                        content_hash=item.content_hash,
                        title=item.title,
                        url=item.url or fetched.url,
                        published_at=item.published_at,
                        relevant=bool(observations),
                        observations=observations,
                    )
                )
        return drafts

    def _new_items(
        self, session: Session, name: str, items: list[ParsedItem]
    ) -> list[tuple[ParsedItem, str]]:
        """Items not stored before, oldest first, each with its dedupe key."""
        fresh: list[tuple[ParsedItem, str]] = []
        feed_items = [i for i in items if not i.snapshot]
        seen = queries.seen_keys(
            session=session, watcher=name, keys=[i.dedupe_key for i in feed_items]
        )
        keys: set[str] = set()
        for item in feed_items:
            if item.dedupe_key not in seen and item.dedupe_key not in keys:
                keys.add(item.dedupe_key)
                fresh.append((item, item.dedupe_key))
        for item in (i for i in items if i.snapshot):
            latest = queries.latest_item(session=session, watcher=name)
            if latest is None or latest.content_hash != item.content_hash:
                fresh.append((item, snapshot_key(item.content_hash, latest.id if latest else None)))
        fresh.sort(key=lambda pair: pair[0].published_at or datetime.max.replace(tzinfo=UTC))
        return fresh


def _source_state(session: Session, source: str) -> dict[tuple[str, str], object]:
    """What this source said last, per claim and key."""
    latest = (
        select(func.max(Observation.id))
        .where(Observation.source == source)
        .group_by(Observation.claim_id, Observation.key)
    )
    rows = session.exec(select(Observation).where(col(Observation.id).in_(latest)))
    return {(o.claim_id, o.key): json.loads(o.value) for o in rows}
