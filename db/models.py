"""Tables of Claimwatch. Timestamps are aware UTC datetimes; JSON is stored as text."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Index, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


class ClaimBase(SQLModel):
    id: str = Field(primary_key=True, max_length=200)
    subject: str = Field(index=True, max_length=100)
    ledger: str = Field(max_length=200)
    title: str
    kind: str = Field(max_length=20)
    unit: str = ""
    value: str = Field(sa_column=Column(Text, nullable=False))  # JSON of the baseline value
    spec: str = Field(sa_column=Column(Text, nullable=False))  # JSON of the whole definition
    spec_hash: str = Field(max_length=64)


class Claim(ClaimBase, table=True):
    __tablename__ = "claims"
    loaded_at: datetime


class ClaimEvent(SQLModel, table=True):
    """The baseline of a claim and each later edit of it in the ledger file."""

    __tablename__ = "claim_events"
    __table_args__ = (UniqueConstraint("claim_id", "seq"),)
    id: int | None = Field(default=None, primary_key=True)
    claim_id: str = Field(foreign_key="claims.id", index=True, max_length=200)
    seq: int
    kind: str = Field(max_length=20)  # baseline | edit
    at: datetime
    value: str = Field(sa_column=Column(Text, nullable=False))
    unit: str = ""
    previous_value: str | None = Field(default=None, sa_column=Column(Text))
    spec_hash: str = Field(max_length=64)
    source: str = ""
    url: str = ""
    excerpt: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))


class WatcherState(SQLModel, table=True):
    __tablename__ = "watchers"
    name: str = Field(primary_key=True, max_length=200)
    kind: str = Field(max_length=40)
    url: str = Field(sa_column=Column(Text, nullable=False))
    etag: str | None = None
    last_modified: str | None = None
    last_polled_at: datetime | None = None
    last_success_at: datetime | None = None
    last_new_item_at: datetime | None = None
    last_error: str | None = Field(default=None, sa_column=Column(Text))
    last_error_kind: str | None = None
    last_error_at: datetime | None = None
    warning: str | None = Field(default=None, sa_column=Column(Text))
    consecutive_failures: int = 0
    next_due_at: datetime | None = None
    items_seen: int = 0
    polls: int = 0
    health: str = "new"  # new | ok | failing | blocked (the state health alerts were raised for)


class Item(SQLModel, table=True):
    """One thing a watcher fetched: a feed entry, a price-list snapshot, a benchmark snapshot."""

    __tablename__ = "items"
    __table_args__ = (UniqueConstraint("watcher", "dedupe_key"),)
    id: int | None = Field(default=None, primary_key=True)
    watcher: str = Field(foreign_key="watchers.name", index=True, max_length=200)
    dedupe_key: str = Field(max_length=300)
    content_hash: str = Field(max_length=64)
    title: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    url: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    published_at: datetime | None = None
    seen_at: datetime
    relevant: bool = False


class Observation(SQLModel, table=True):
    __tablename__ = "observations"
    __table_args__ = (
        UniqueConstraint("item_id", "claim_id", "key"),
        # one change of a claim's key is one row, whichever process judged it first
        UniqueConstraint("claim_id", "key", "change_seq", name="uq_observations_change"),
        Index("ix_observations_claim_at", "claim_id", "key", "seen_at"),
        Index("ix_observations_claim_changed", "claim_id", "key", "changed", "id"),
    )
    id: int | None = Field(default=None, primary_key=True)
    claim_id: str = Field(foreign_key="claims.id", max_length=200)
    key: str = Field(default="", max_length=200)
    value: str = Field(sa_column=Column(Text, nullable=False))  # JSON
    value_num: float | None = None
    unit: str = ""
    at: datetime
    seen_at: datetime = Field(index=True)
    source: str = Field(max_length=200)
    url: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    title: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    excerpt: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    signal: str = Field(default="", max_length=100)
    changed: bool = False
    change_seq: int | None = None  # 1, 2, ... for the changes of a claim's key; None otherwise
    role: str = Field(
        default="", max_length=20
    )  # baseline | change | confirms | restates | evidence ...
    verification: str = Field(default="", max_length=100)  # how this observation was verified
    mismatch: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    delta_pct: float | None = None
    previous_value: str | None = Field(default=None, sa_column=Column(Text))
    item_id: int = Field(foreign_key="items.id", index=True)


class SourceKey(SQLModel, table=True):
    """What one snapshot source (a price list, a benchmark API, a page) last said per claim and key,
    and since when a key it used to list has been missing from it."""

    __tablename__ = "source_keys"
    source: str = Field(primary_key=True, max_length=200)
    claim_id: str = Field(primary_key=True, max_length=200)
    key: str = Field(primary_key=True, max_length=200)
    grp: str = Field(default="", max_length=200)  # the model a price field belongs to
    value: str | None = Field(default=None, sa_column=Column(Text))  # JSON; None: no longer listed
    missing_since: datetime | None = None
    missing_polls: int = 0
    seq: int | None = None  # the change of the claim's key its value stands at (0: the first)
    updated_at: datetime


class Alert(SQLModel, table=True):
    """The outbox: one row per event per channel; the unique key makes a repeat a no-op."""

    __tablename__ = "alerts"
    __table_args__ = (
        UniqueConstraint("event_key", "channel"),
        Index("ix_alerts_due", "status", "next_attempt_at"),
    )
    id: int | None = Field(default=None, primary_key=True)
    event_key: str = Field(max_length=300)
    channel: str = Field(max_length=40)
    kind: str = Field(max_length=20)  # change | health | milestone
    observation_id: int | None = Field(default=None, foreign_key="observations.id", index=True)
    item_id: int | None = Field(default=None, foreign_key="items.id")
    claim_id: str | None = Field(default=None, max_length=200)
    subject: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    body: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))  # JSON
    status: str = Field(default="pending", max_length=20)  # pending | sending | sent | given_up
    attempts: int = 0
    created_at: datetime
    next_attempt_at: datetime
    sent_at: datetime | None = None
    last_error: str | None = Field(default=None, sa_column=Column(Text))


class Digest(SQLModel, table=True):
    __tablename__ = "digests"
    __table_args__ = (UniqueConstraint("period"),)
    id: int | None = Field(default=None, primary_key=True)
    period: str = Field(max_length=20)  # the local date the digest is for, YYYY-MM-DD
    status: str = Field(default="sending", max_length=20)  # sending | sent
    created_at: datetime
    sent_at: datetime | None = None
    recipients: str = ""
    changes: int = 0
