"""The writer of polls: one transaction for a batch of poll outcomes, a savepoint for each.

Judging happens here, against the Book, inside the transaction that stores the result: a change is
stored with the next number of its claim's key, and the unique key (claim, key, number) makes the
second of two writers who judged the same change lose the insert; it then judges again against
what won, which makes its observation a confirmation instead of a second alert.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, select

from db.engine import writing
from db.models import Alert, Observation, SourceKey, WatcherState
from db.state import better_verification, book_version, load_book
from watchers.base import Candidate, ParsedItem, snapshot_key
from watchers.judge import (
    RemovalWindow,
    Verdict,
    judge,
    judge_keyed,
    judge_missing,
    standing,
)
from watchers.state import Book, ClaimState, KeyState
from watchers.state import SourceKey as SourceKeyState

log = logging.getLogger("claimwatch.store")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
TEXT_LIMIT = 2000


def clean(text: str | None, limit: int = TEXT_LIMIT) -> str:
    """Text fit to store: no NUL or other control characters (PostgreSQL refuses NUL), capped."""
    return CONTROL.sub("", str(text or ""))[:limit]


def dumps(value) -> str:
    """JSON for storage; a non-finite number is refused (it is not JSON)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False)


STATE_COLUMNS = (
    "kind",
    "url",
    "etag",
    "last_modified",
    "last_polled_at",
    "last_success_at",
    "last_new_item_at",
    "last_error",
    "last_error_kind",
    "last_error_at",
    "warning",
    "consecutive_failures",
    "next_due_at",
    "items_seen",
    "polls",
    "health",
)
ITEM_COLUMNS = (
    "watcher",
    "dedupe_key",
    "content_hash",
    "title",
    "url",
    "published_at",
    "seen_at",
    "relevant",
)
OBSERVATION_COLUMNS = (
    "claim_id",
    "key",
    "value",
    "value_num",
    "unit",
    "at",
    "seen_at",
    "source",
    "url",
    "title",
    "excerpt",
    "signal",
    "changed",
    "change_seq",
    "role",
    "verification",
    "mismatch",
    "delta_pct",
    "previous_value",
    "item_id",
)
ROWS_PER_INSERT = 200  # SQLite allows 32,766 parameters in one statement


class Sql:
    """Plain SQL on the connection the session's transaction runs on, for the statements a batch
    runs per poll and per item: the ORM would cost more than the database. Placeholders are
    written `?`; times are bound as SQLAlchemy binds them (SQLite: its text format); a driver's
    error is raised as SQLAlchemy's, so retrying and typed failures work as for ORM statements."""

    def __init__(self, session: Session):
        connection = session.connection()
        self.sqlite = connection.dialect.name == "sqlite"
        self.raw = connection.connection.dbapi_connection
        self.error = connection.dialect.loaded_dbapi.Error
        self._texts: dict[str, str] = {}

    def _text(self, sql: str) -> str:
        if self.sqlite:
            return sql
        if sql not in self._texts:
            self._texts[sql] = sql.replace("?", "%s")
        return self._texts[sql]

    def _bind(self, values) -> list:
        if not self.sqlite:
            return list(values)
        return [sqlite_time(v) if isinstance(v, datetime) else v for v in values]

    def rows(self, sql: str, values=()) -> list[tuple]:
        text = self._text(sql)
        cursor = self.raw.cursor()
        try:
            cursor.execute(text, self._bind(values))
            return cursor.fetchall() if cursor.description else []
        except self.error as exc:  # parameters stay out of the message: they are web text
            raise DBAPIError.instance(text, None, exc, self.error) from exc
        finally:
            cursor.close()

    def many(self, sql: str, rows: list) -> None:
        text = self._text(sql)
        cursor = self.raw.cursor()
        try:
            cursor.executemany(text, [self._bind(r) for r in rows])
        except self.error as exc:
            raise DBAPIError.instance(text, None, exc, self.error) from exc
        finally:
            cursor.close()


def sqlite_time(value: datetime) -> str:
    """A time as SQLAlchemy stores it in SQLite: its fields, without the offset (all are UTC)."""
    return value.replace(tzinfo=None).isoformat(" ", "microseconds")


def placeholders(count: int, width: int = 1) -> str:
    row = "(" + ", ".join(["?"] * width) + ")" if width > 1 else "?"
    return ", ".join([row] * count)


@dataclass
class ItemDraft:
    """A fetched item that is new to its watcher, with what extraction found in it."""

    item: ParsedItem
    dedupe_key: str
    candidates: list[Candidate] = field(default_factory=list)


@dataclass
class PollOutcome:
    """What one poll learned; `error_kind` None means the poll succeeded (or was not modified)."""

    watcher: str
    kind: str
    url: str
    started_at: datetime
    items: list[ItemDraft] = field(default_factory=list)
    snapshot: bool = False  # the watcher reads a whole list each time (prices, benchmarks, pages)
    etag: str | None = None
    last_modified: str | None = None
    not_modified: bool = False
    error_kind: str | None = None
    error: str | None = None
    warning: str | None = None
    next_due_at: datetime | None = None


@dataclass
class PollReport:
    watcher: str
    outcome: str  # ok | not-modified | a failure kind
    items: int = 0
    observations: int = 0
    changes: int = 0
    error: str | None = None


@dataclass(frozen=True)
class WriterSettings:
    channels: tuple[str, ...]
    failures_alert: int
    window: RemovalWindow = RemovalWindow()
    # run in the transaction that queued alerts, before it commits: a cluster queues its
    # delivery job there, so the job exists exactly when the alerts do (a transactional outbox)
    on_alerts: Callable[[Session], None] | None = None


class BookCache:
    """The Book one process judges with, reloaded when another process has written since."""

    def __init__(self):
        self.book: Book | None = None

    def get(self, session: Session) -> Book:
        if self.book is None or self.book.version != book_version(session):
            self.book = load_book(session)
        return self.book

    def invalidate(self) -> None:
        self.book = None


class Writer:
    """`with Writer(engine, cache, settings) as w:` then `w.new_items(...)`, `w.lock_watchers(...)`
    and `w.record(...)`.

    A poll that stores nothing but its watcher's state (a 304, a failure, a feed without news) is
    one row of an `executemany` at the end of the batch; a poll with items gets a savepoint."""

    def __init__(self, engine: Engine, cache: BookCache, settings: WriterSettings):
        self.engine = writing(engine)
        self.cache = cache
        self.settings = settings
        self.session: Session | None = None
        self._book: Book | None = None
        self.sql: Sql | None = None
        self._states: dict[str, dict] = {}  # watcher rows as stored in this transaction
        self._pending: dict[str, dict] = {}  # watcher rows to write at the end of the batch
        self._alerted = False  # this transaction queued alerts

    def __enter__(self) -> Writer:
        self.session = Session(self.engine)
        self.session.begin()
        self.sql = Sql(self.session)
        return self

    @property
    def book(self) -> Book:
        """The claims and sources judged against, loaded at first use: a batch of 304s never needs
        them."""
        if self._book is None:
            self._book = self.cache.get(self.session)
        return self._book

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            if exc_type is None:
                self._write_pending()
                if self._alerted and self.settings.on_alerts is not None:
                    self.settings.on_alerts(self.session)
                # read inside the transaction: after the commit it could count another
                # process's rows this Book has not seen (and costs SQLite a second write lock)
                version = book_version(self.session) if self._book is not None else None
                self.session.commit()
                if self._book is not None:
                    self._book.version = version
            else:
                self.session.rollback()
                self.cache.invalidate()
        except Exception:
            self.cache.invalidate()
            raise
        finally:
            self.session.close()

    # ------------------------------------------------------------ items not seen before

    def new_items(self, watcher: str, items: list[ParsedItem]) -> list[ItemDraft]:
        """The items of a poll not stored before, oldest first, each with its dedupe key."""
        fresh: list[ItemDraft] = []
        entries = [i for i in items if not i.snapshot]
        keys = [clean(i.dedupe_key, 300) for i in entries]
        seen = self._seen(watcher, keys)
        for item, key in zip(entries, keys, strict=True):
            if key not in seen:
                seen.add(key)
                fresh.append(ItemDraft(item=item, dedupe_key=key))
        for item in (i for i in items if i.snapshot):
            latest = self.book.latest_items.get(watcher)
            if latest is None or latest[1] != item.content_hash:
                fresh.append(ItemDraft(item, snapshot_key(item.content_hash, latest and latest[0])))
        fresh.sort(key=lambda d: d.item.published_at or datetime.max.replace(tzinfo=UTC))
        return fresh

    def _seen(self, watcher: str, keys: list[str]) -> set[str]:
        found: set[str] = set()
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            found.update(
                key
                for (key,) in self.sql.rows(
                    "SELECT dedupe_key FROM items WHERE watcher = ? AND dedupe_key IN "
                    f"({placeholders(len(chunk))})",
                    [watcher, *chunk],
                )
            )
        return found

    # ------------------------------------------------------------ watcher rows

    def lock_watchers(self, outcomes: Iterable[PollOutcome]) -> None:
        """Load (and on PostgreSQL lock, in name order) the rows of a batch's watchers, creating
        the missing ones; another process creating the same row at once is left to the key."""
        wanted = {o.watcher: o for o in outcomes if o.watcher not in self._states}
        self._load_states(sorted(wanted))
        missing = sorted(name for name in wanted if name not in self._states)
        if missing:
            self.sql.many(
                "INSERT INTO watchers (name, kind, url, consecutive_failures, items_seen, polls, "
                "health) VALUES (?, ?, ?, 0, 0, 0, 'new') ON CONFLICT DO NOTHING",
                [(name, wanted[name].kind, wanted[name].url) for name in missing],
            )
            self._load_states(missing)

    def _load_states(self, names: list[str]) -> None:
        lock = "" if self.sql.sqlite else " FOR UPDATE"
        for start in range(0, len(names), 500):
            chunk = names[start : start + 500]
            for name, *values in self.sql.rows(
                f"SELECT name, {', '.join(STATE_COLUMNS)} FROM watchers "
                f"WHERE name IN ({placeholders(len(chunk))}) ORDER BY name{lock}",
                chunk,
            ):
                self._states[name] = dict(zip(STATE_COLUMNS, values, strict=True))

    def _write_pending(self) -> None:
        if self._pending:
            self.sql.many(_UPDATE_STATE, [_state_values(n, r) for n, r in self._pending.items()])
            self._pending.clear()

    # ------------------------------------------------------------ one poll

    def record(self, outcome: PollOutcome) -> PollReport:
        """Store one poll; a failure to store it becomes its own typed outcome."""
        if outcome.watcher not in self._states:
            self.lock_watchers([outcome])
        if not outcome.items and not (outcome.snapshot and not outcome.error_kind):
            state, report, alert = self._next_state(outcome, 0)
            if alert is None:  # nothing that can fail: the row waits for the batch's update
                self._states[outcome.watcher] = self._pending[outcome.watcher] = state
                return report
        try:
            with self.session.begin_nested():
                return self._record(outcome)
        except DBAPIError as exc:
            if retryable(exc):
                raise  # the whole batch is stored again, in a fresh transaction
            return self._record_failure(outcome, exc)
        except Exception as exc:
            return self._record_failure(outcome, exc)

    def _record_failure(self, outcome: PollOutcome, exc: Exception) -> PollReport:
        """The poll is lost, not the batch; health shows why."""
        log.error("watcher %s: storing the poll failed: %r", outcome.watcher, exc)
        self.cache.invalidate()
        self._book = None
        failed = PollOutcome(
            watcher=outcome.watcher,
            kind=outcome.kind,
            url=outcome.url,
            started_at=outcome.started_at,
            error_kind="internal",
            error=f"{outcome.url}: storing the poll failed ({type(exc).__name__})",
            next_due_at=outcome.next_due_at,
        )
        with self.session.begin_nested():
            return self._record(failed)

    def _record(self, outcome: PollOutcome) -> PollReport:
        """Inside the poll's savepoint: its items, what they said, its alerts and its row."""
        self.session.connection()  # emits the SAVEPOINT now: the plain statements run inside it
        report = PollReport(watcher=outcome.watcher, outcome="ok")
        ids = self._insert_items(outcome)
        for draft in outcome.items:
            self._record_item(outcome, draft, ids.get(draft.dedupe_key), report)
        if outcome.snapshot and not outcome.error_kind:
            self._pending_removals(outcome, report)
        state, report_, alert = self._next_state(outcome, report.items)
        report.outcome, report.error = report_.outcome, report_.error
        if alert is not None:
            self._health_alert(outcome.watcher, state, outcome.started_at, alert)
        self.session.flush()
        self.sql.many(_UPDATE_STATE, [_state_values(outcome.watcher, state)])
        self._pending.pop(outcome.watcher, None)
        self._states[outcome.watcher] = state
        return report

    def _next_state(self, outcome: PollOutcome, new_items: int) -> tuple[dict, PollReport, str]:
        """The watcher's row after this poll, its report, and the health alert it raises, if any."""
        now = outcome.started_at
        state = dict(self._states[outcome.watcher])
        report = PollReport(watcher=outcome.watcher, outcome="ok")
        alert = None
        state["kind"], state["url"] = outcome.kind, outcome.url
        state["last_polled_at"], state["next_due_at"] = now, outcome.next_due_at
        state["polls"] += 1
        if outcome.error_kind:
            report.outcome, report.error = outcome.error_kind, clean(outcome.error, 500)
            state["last_error"] = clean(outcome.error, 500)
            state["last_error_kind"], state["last_error_at"] = outcome.error_kind, now
            state["consecutive_failures"] += 1
            alarm = state["consecutive_failures"] >= self.settings.failures_alert
            if alarm and state["health"] not in ("failing", "blocked"):
                state["health"] = "blocked" if outcome.error_kind == "blocked" else "failing"
                alert = "failing"
        else:
            if outcome.not_modified:
                report.outcome = "not-modified"
            if state["health"] in ("failing", "blocked"):
                alert = "recovered"
            state["health"], state["consecutive_failures"] = "ok", 0
            state["last_success_at"] = now
            state["warning"] = clean(outcome.warning, 500) or None
            if outcome.etag is not None or outcome.last_modified is not None:
                state["etag"] = clean(outcome.etag, 500) or None
                state["last_modified"] = clean(outcome.last_modified, 200) or None
        if new_items:
            state["items_seen"] += new_items
            state["last_new_item_at"] = now
        return state, report, alert

    def _insert_items(self, outcome: PollOutcome) -> dict[str, int]:
        """Insert the poll's new items, a few statements in all: the id of each by dedupe key;
        an item another process stored first has none (it stored what that item said too)."""
        ids: dict[str, int] = {}
        rows = [self._item_row(outcome, draft) for draft in outcome.items]
        for start in range(0, len(rows), ROWS_PER_INSERT):
            chunk = rows[start : start + ROWS_PER_INSERT]
            returned = self.sql.rows(
                f"INSERT INTO items ({', '.join(ITEM_COLUMNS)}) VALUES "
                f"{placeholders(len(chunk), len(ITEM_COLUMNS))} "
                "ON CONFLICT DO NOTHING RETURNING id, dedupe_key",
                [value for row in chunk for value in row],
            )
            ids.update((key, item_id) for item_id, key in returned)
        return ids

    def _item_row(self, outcome: PollOutcome, draft: ItemDraft) -> tuple:
        item = draft.item
        relevant = any(c.claim_id in self.book.claims for c in draft.candidates)
        return (
            outcome.watcher,
            draft.dedupe_key,
            item.content_hash,
            clean(item.title),
            clean(item.url or outcome.url),
            item.published_at,
            outcome.started_at,
            relevant,
        )

    def _record_item(
        self, outcome: PollOutcome, draft: ItemDraft, item_id: int | None, report: PollReport
    ) -> None:
        if item_id is None:
            return  # another process stored this item, and what it said, first
        report.items += 1
        if draft.item.snapshot:
            first = outcome.watcher not in self.book.latest_items
            self.book.latest_items[outcome.watcher] = (item_id, draft.item.content_hash)
            verdicts = self._judge_snapshot(outcome, draft.candidates, first)
        else:
            verdicts = [v for v in map(self._judge_one, draft.candidates) if v is not None]
        for verdict in verdicts:
            self._store_verdict(outcome, draft.item, item_id, verdict, report)

    def _insert_ignore(self, table: str, row: dict):
        """INSERT … ON CONFLICT DO NOTHING RETURNING id: None when a unique key already holds it."""
        columns = ", ".join(_quoted(c) for c in row)
        found = self.sql.rows(
            f"INSERT INTO {table} ({columns}) VALUES ({placeholders(len(row))}) "
            "ON CONFLICT DO NOTHING RETURNING id",
            list(row.values()),
        )
        return found[0][0] if found else None

    # ------------------------------------------------------------ judging

    def _judge_one(self, candidate: Candidate) -> Verdict | None:
        claim = self.book.claims.get(candidate.claim_id)
        if claim is None or not _storable(candidate.value):
            return None
        if candidate.key:
            return judge_keyed(candidate, claim, None, new_source=False)
        return judge(candidate, claim)

    def _judge_snapshot(
        self, outcome: PollOutcome, candidates: list[Candidate], new_source: bool
    ) -> list[Verdict]:
        said = self.book.source(outcome.watcher)
        verdicts, present = [], set()
        for candidate in candidates:
            claim = self.book.claims.get(candidate.claim_id)
            if claim is None or not _storable(candidate.value):
                continue
            slot = (candidate.claim_id, candidate.key)
            present.add(slot)
            before = said.get(slot)
            if candidate.key:
                verdict = judge_keyed(candidate, claim, before, new_source)
            elif before is not None and before.value == candidate.value:
                verdict = None  # this source's word has not moved
            else:
                verdict = judge(candidate, claim)
            said[slot] = SourceKeyState(
                value=candidate.value,
                group=candidate.group,
                seq=_place(claim, slot, before, verdict),
            )
            self._save_source_key(outcome, slot, said[slot])
            if verdict is not None:
                verdicts.append(verdict)
        groups = {c.group for c in candidates if c.group}
        for slot, before in list(said.items()):
            claim = self.book.claims.get(slot[0])
            if slot in present or before.value is None or claim is None or not claim.keyed:
                continue
            if before.group and before.group in groups:
                before.value = None  # a field dropped or renamed while the model stays listed
                self._save_source_key(outcome, slot, before)
                continue
            verdict = self._miss(outcome, claim, slot, before)
            if verdict is not None:
                verdicts.append(verdict)
        return verdicts

    def _pending_removals(self, outcome: PollOutcome, report: PollReport) -> None:
        """A poll that brought no new snapshot still counts towards a pending removal."""
        if any(d.item.snapshot for d in outcome.items):
            return
        latest = self.book.latest_items.get(outcome.watcher)
        said = self.book.sources.get(outcome.watcher, {})
        for slot, before in list(said.items()):
            claim = self.book.claims.get(slot[0])
            if latest is None or claim is None or before.value is None or not before.missing_polls:
                continue
            verdict = self._miss(outcome, claim, slot, before)
            if verdict is not None:
                item = ParsedItem(dedupe_key="", title="", url=outcome.url, snapshot=True)
                self._store_verdict(outcome, item, latest[0], verdict, report)

    def _miss(self, outcome, claim: ClaimState, slot, before: SourceKeyState) -> Verdict | None:
        verdict = judge_missing(
            claim,
            slot[1],
            before,
            now=outcome.started_at,
            window=self.settings.window,
            elsewhere=self.book.listed_elsewhere(outcome.watcher, *slot),
            source=outcome.watcher,
        )
        self._save_source_key(outcome, slot, before)
        return verdict

    # ------------------------------------------------------------ storing a verdict

    def _store_verdict(
        self, outcome: PollOutcome, item: ParsedItem, item_id: int, verdict: Verdict, report
    ) -> None:
        for _attempt in range(3):
            claim = self.book.claims[verdict.candidate.claim_id]
            seq = None
            if verdict.changed:
                state = claim.keys.get(verdict.candidate.key)
                seq = (state.seq if state else 0) + 1
            obs_id = self._insert_observation(outcome, item, item_id, verdict, seq)
            if obs_id is not None:
                break
            if seq is None:
                return  # this item already holds an observation on that claim and key
            verdict = self._rejudge(verdict)  # another writer stored that change first
            if verdict is None:
                return
        else:
            raise RuntimeError(f"claim {verdict.candidate.claim_id}: change kept conflicting")
        report.observations += 1
        self._apply(claim, verdict, seq, item.published_at or outcome.started_at)
        self._place_change(outcome, verdict, seq)
        if verdict.changed:
            report.changes += 1
        if verdict.notify:
            self._queue_alerts(obs_id, item_id, verdict, outcome.started_at)

    def _insert_observation(self, outcome, item: ParsedItem, item_id, verdict: Verdict, seq):
        candidate = verdict.candidate
        claim = self.book.claims[candidate.claim_id]
        value = candidate.value
        row = {
            "claim_id": candidate.claim_id,
            "key": clean(candidate.key, 200),
            "value": dumps(value),
            "value_num": float(value) if _plain_number(value) else None,
            "unit": clean(candidate.unit or claim.spec.get("unit", ""), 100),
            "at": item.published_at or outcome.started_at,
            "seen_at": outcome.started_at,
            "source": outcome.watcher,
            "url": clean(item.url or outcome.url),
            "title": clean(item.title),
            "excerpt": clean(candidate.excerpt),
            "signal": clean(candidate.signal, 100),
            "changed": verdict.changed,
            "change_seq": seq,
            "role": verdict.role,
            "verification": clean(candidate.verification, 100),
            "mismatch": clean(candidate.mismatch),
            "delta_pct": verdict.delta_pct,
            "previous_value": None if verdict.previous is None else dumps(verdict.previous),
            "item_id": item_id,
        }
        return self._insert_ignore("observations", row)

    def _rejudge(self, verdict: Verdict) -> Verdict | None:
        """Reload one claim key from the database and judge the candidate again."""
        candidate = verdict.candidate
        claim = self.book.claims[candidate.claim_id]
        self._reload_key(claim, candidate.key)
        if verdict.role == "removed":
            return None  # the other writer's word on this key stands
        if candidate.key:
            fresh = judge_keyed(
                candidate, claim, SourceKeyState(value=verdict.previous), new_source=False
            )
        else:
            fresh = judge(candidate, claim)
        return fresh

    def _reload_key(self, claim: ClaimState, key: str) -> None:
        rows = self.session.exec(
            select(Observation.change_seq, Observation.value, Observation.verification)
            .where(
                Observation.claim_id == claim.id,
                Observation.key == key,
                col(Observation.change_seq).is_not(None),
            )
            .order_by(Observation.change_seq)
        ).all()
        claim.keys.pop(key, None)
        state = claim.key(key) or KeyState(value=None, history=[None])
        for seq, value, verification in rows:
            state.apply_change(json.loads(value), seq, verification, None)
        claim.keys[key] = state

    def _apply(self, claim: ClaimState, verdict: Verdict, seq: int | None, at) -> None:
        """Keep the Book current with what was just stored."""
        candidate = verdict.candidate
        if verdict.role == "baseline":
            claim.keys[candidate.key] = KeyState(value=candidate.value, history=[candidate.value])
        elif verdict.changed:
            state = claim.key(candidate.key) or claim.keys.setdefault(
                candidate.key, KeyState(value=None, history=[None])
            )
            level = candidate.verification or claim.spec.get("verification", "")
            state.apply_change(candidate.value, seq, level, at)
        elif verdict.role == "confirms" and candidate.verification:
            state = claim.key(candidate.key)
            if state is not None:
                state.verification = better_verification(
                    claim.spec, state.verification, candidate.verification
                )

    def _place_change(self, outcome: PollOutcome, verdict: Verdict, seq: int | None) -> None:
        """The source that made a change stands at it."""
        candidate = verdict.candidate
        slot = (candidate.claim_id, candidate.key)
        said = self.book.sources.get(outcome.watcher, {}).get(slot)
        if seq is not None and said is not None and said.value == candidate.value:
            said.seq = seq
            self._save_source_key(outcome, slot, said)

    def _save_source_key(self, outcome: PollOutcome, slot, said: SourceKeyState) -> None:
        self.session.merge(
            SourceKey(
                source=outcome.watcher,
                claim_id=slot[0],
                key=clean(slot[1], 200),
                grp=clean(said.group, 200),
                value=None if said.value is None else dumps(said.value),
                missing_since=said.missing_since,
                missing_polls=said.missing_polls,
                seq=said.seq,
                updated_at=outcome.started_at,
            )
        )

    # ------------------------------------------------------------ the outbox

    def _queue_alerts(self, obs_id: int, item_id: int, verdict: Verdict, now: datetime) -> None:
        self._alerted = self._alerted or bool(self.settings.channels)
        for channel in self.settings.channels:
            self.session.add(
                Alert(
                    event_key=f"obs:{obs_id}",
                    channel=channel,
                    kind="change",
                    observation_id=obs_id,
                    item_id=item_id,
                    claim_id=verdict.candidate.claim_id,
                    created_at=now,
                    next_attempt_at=now,
                )
            )

    def _health_alert(self, name: str, state: dict, now: datetime, what: str) -> None:
        body = dumps(
            {
                "watcher": name,
                "state": what,
                "error": state["last_error"],
                "kind": state["last_error_kind"],
                "failures": state["consecutive_failures"],
            }
        )
        self._alerted = self._alerted or bool(self.settings.channels)
        for channel in self.settings.channels:
            self.session.add(
                Alert(
                    event_key=f"health:{name}:{what}:{now.isoformat()}",
                    channel=channel,
                    kind="health",
                    subject=f"watcher {name} {'is failing' if what == 'failing' else 'recovered'}",
                    body=body,
                    created_at=now,
                    next_attempt_at=now,
                )
            )


_UPDATE_STATE = f"UPDATE watchers SET {', '.join(f'{c} = ?' for c in STATE_COLUMNS)} WHERE name = ?"


def _state_values(name: str, state: dict) -> tuple:
    return (*(state[c] for c in STATE_COLUMNS), name)


def _quoted(column: str) -> str:
    return f'"{column}"'


def retryable(exc: DBAPIError) -> bool:
    """A deadlock or serialization failure between writers: the same work succeeds when retried."""
    code = getattr(exc.orig, "sqlstate", None) or ""
    return code in ("40P01", "40001") or "database is locked" in str(exc.orig)


def _plain_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _storable(value) -> bool:
    """Finite numbers only, in whatever structure: a value that is not JSON is never stored."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list | tuple):
        return all(_storable(v) for v in value)
    if isinstance(value, dict):
        return all(_storable(v) for v in value.values())
    return True


def mark_watchers(engine: Engine, names: Iterable[str], **values) -> None:
    """Set columns of several watcher rows at once (e.g. next_due_at after a restart)."""
    with Session(engine) as session:
        session.exec(
            update(WatcherState).where(col(WatcherState.name).in_(list(names))).values(**values)
        )
        session.commit()


def _place(claim: ClaimState, slot, before: SourceKeyState | None, verdict) -> int | None:
    """Where a snapshot source's new word stands in its claim key's history; a change is placed
    once it is stored (its number is known then)."""
    if verdict is None:  # the source's word has not moved
        return before.seq if before is not None else None
    state = claim.keys.get(slot[1])
    if verdict.role == "baseline":
        return 0
    if not slot[1] or state is None or verdict.changed:
        return None
    placed = before is not None and before.value is not None and before.seq is not None
    start = before.seq + 1 if placed else None
    found = standing(state.history, start, verdict.candidate.value)
    return found if found is not None else (before.seq if before is not None else None)
