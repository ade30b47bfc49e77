"""Settings: one object, built from a TOML file and the environment, passed down explicitly."""

from __future__ import annotations

import os
import re
import tomllib
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

BUILTIN_WATCHERS = Path(__file__).parent / "watchers.toml"
DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h|d|w)\s*$")
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
MAX_DURATION = timedelta(days=3660)  # ten years: anything longer is a typo
MIN_INTERVAL = timedelta(seconds=1)  # a watcher polled more often would hammer its source
ENV = {
    "CLAIMWATCH_DATABASE_URL": "database_url",
    "CLAIMWATCH_TIMEZONE": "timezone",
}


class ConfigError(ValueError):
    """Bad configuration; the message is one line naming the file and the key."""


def parse_duration(text: str) -> timedelta:
    match = DURATION.match(str(text))
    if not match:
        raise ValueError(f"{text!r} is not a duration like '45s', '30m', '6h' or '2d'")
    seconds = float(match.group(1)) * UNITS[match.group(2)]
    if seconds <= 0:
        raise ValueError(f"{text!r} must be longer than zero")
    if seconds > MAX_DURATION.total_seconds():
        raise ValueError(f"{text!r} is longer than ten years")
    return timedelta(seconds=seconds)


class Strict(BaseModel):
    # strict: TOML has real types, so "3" for a number is a mistake to report, not to coerce
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def _duration(value: Any) -> str:
    parse_duration(value)
    return value


def _interval(value: Any) -> str:
    if parse_duration(value) < MIN_INTERVAL:
        raise ValueError(f"{value!r} is shorter than the shortest interval, 1s")
    return value


def _selector(value: str) -> str:
    """A CSS selector soupsieve (BeautifulSoup's engine) compiles, else its first error line."""
    import soupsieve

    try:
        soupsieve.compile(value)
    except Exception as exc:  # soupsieve raises its own SelectorSyntaxError and others
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"{value!r} is not a valid CSS selector: {reason}") from None
    return value


def time_limit(*, default: float, le: float):
    """A time limit in seconds: positive, finite, at most `le`."""
    return Field(default=default, gt=0, le=le, allow_inf_nan=False)


class WatcherConfig(Strict):
    name: str = Field(pattern=r"^[A-Za-z0-9_.:-]{1,100}$")
    kind: str
    url: str
    every: str | None = None
    cron: str | None = None
    enabled: bool = True
    signals: list[str] | None = None
    stale_after: str | None = None
    allow_private_redirects: bool = False
    timeout: float | None = Field(default=None, gt=0, le=600, allow_inf_nan=False)
    # kind-specific keys; each watcher kind checks the ones it needs
    format: str | None = None
    providers: list[str] | None = None
    models: list[str] | None = None
    scope: list[str] | None = None
    selector: str | None = None
    selectors: dict[str, str] | None = None
    claim: str | None = None
    key: str | None = None

    _every = field_validator("every")(lambda v: v if v is None else _interval(v))
    _stale = field_validator("stale_after")(lambda v: v if v is None else _duration(v))

    @field_validator("selector")
    @classmethod
    def _css(cls, value: str | None) -> str | None:
        return value if value is None else _selector(value)

    @field_validator("selectors")
    @classmethod
    def _css_each(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        for selector in (value or {}).values():
            _selector(selector)
        return value

    @field_validator("url")
    @classmethod
    def _http_only(cls, value: str) -> str:
        if not re.match(r"^https?://[^/\s]+", value):
            raise ValueError(f"{value!r} is not an http(s) URL")
        return value

    @field_validator("cron")
    @classmethod
    def _cron(cls, value: str | None) -> str | None:
        if value is not None:
            from apscheduler.triggers.cron import CronTrigger

            CronTrigger.from_crontab(value)
        return value

    @model_validator(mode="after")
    def _schedule(self):
        if self.every and self.cron:
            raise ValueError("give 'every' or 'cron', not both")
        return self

    @property
    def interval(self) -> timedelta:
        return parse_duration(self.every or "1h")


class SlackConfig(Strict):
    webhook_url: str | None = None  # a secret: never shown, not even in an error about it
    enabled: bool = True

    @field_validator("webhook_url")
    @classmethod
    def _webhook(cls, value: str | None) -> str | None:
        value = (value or "").strip()  # a secrets file's trailing newline
        if not value:
            return None
        if not re.fullmatch(r"https?://[^/\s]+(/\S*)?", value) or not value.isprintable():
            raise ValueError("not an http(s) URL without spaces (value not shown: it is a secret)")
        return value


class EmailConfig(Strict):
    smtp_host: str | None = None
    smtp_port: int = Field(default=587, gt=0, lt=65536)
    security: Literal["starttls", "ssl", "none"] = "starttls"
    username: str | None = None
    password: str | None = None  # from CLAIMWATCH_SMTP_PASSWORD; never in the file
    sender: str = "claimwatch@localhost"
    recipients: list[str] = []
    digest_at: str = Field(default="08:00", pattern=r"^([01]\d|2[0-3]):[0-5]\d$")
    immediate: bool = False
    timeout: float = time_limit(default=30, le=600)
    ca_file: str | None = None  # trust this CA bundle too (an internal mail server)


class AlertsConfig(Strict):
    slack: SlackConfig = SlackConfig()
    email: EmailConfig = EmailConfig()
    retry_base: str = "1m"
    retry_max: str = "1h"
    give_up_after: str = "2d"
    _durations = field_validator("retry_base", "retry_max", "give_up_after")(_duration)


class HttpConfig(Strict):
    user_agent: str = "Claimwatch/0.1 (+https://github.com/claimwatch/claimwatch)"
    connect_timeout: float = time_limit(default=10, le=600)
    read_timeout: float = time_limit(default=30, le=600)
    total_timeout: float = time_limit(default=60, le=3600)
    max_bytes: int = Field(default=20 * 1024 * 1024, gt=0)
    max_redirects: int = Field(default=5, ge=0, le=20)
    per_host: int = Field(default=2, ge=1, le=64)
    concurrency: int = Field(default=8, ge=1, le=256)
    backoff_max: str = "6h"
    _durations = field_validator("backoff_max")(_duration)


class ClusterConfig(Strict):
    """The cluster on PostgreSQL (`claimwatch worker`, `claimwatch scheduler`)."""

    concurrency: int = Field(default=8, ge=1, le=256)  # jobs one worker runs at once
    tick: str = "5s"  # how often the scheduler queues due polls; a standby's takeover time
    heartbeat: str = "10s"  # how often a worker says it is alive
    stalled_after: str = "30s"  # a worker silent this long is dead; its jobs run again
    _durations = field_validator("tick", "heartbeat", "stalled_after")(_duration)

    @model_validator(mode="after")
    def _order(self):
        if parse_duration(self.stalled_after) <= parse_duration(self.heartbeat):
            raise ValueError("stalled_after must be longer than heartbeat")
        return self


class Settings(Strict):
    database_url: str = "sqlite:///claimwatch.db"
    timezone: str = "UTC"
    claims: list[str] = ["jalapeno", "rubin"]
    rsshub_url: str = "https://rsshub.app"
    extra_signals: list[str] = []
    failures_alert: int = Field(default=3, ge=1)
    stale_after: str = "14d"
    removal_polls: int = Field(default=2, ge=1, le=1000)
    removal_after: str = "24h"
    watchers: list[WatcherConfig] = []
    alerts: AlertsConfig = AlertsConfig()
    http: HttpConfig = HttpConfig()
    cluster: ClusterConfig = ClusterConfig()
    source: str = "built-in defaults"  # where the settings came from, for messages

    _durations = field_validator("stale_after", "removal_after")(_duration)

    @field_validator("timezone")
    @classmethod
    def _tz(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"{value!r} is not a known time zone (e.g. 'Europe/Berlin')") from None
        return value

    @field_validator("watchers")
    @classmethod
    def _unique_names(cls, value: list[WatcherConfig]) -> list[WatcherConfig]:
        names = [w.name for w in value]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"watcher name {dupes[0]!r} is used twice")
        return value

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    def watcher(self, name: str) -> WatcherConfig:
        for watcher in self.watchers:
            if watcher.name == name:
                return watcher
        known = ", ".join(w.name for w in self.watchers)
        raise ConfigError(f"no watcher named {name!r} (configured: {known})")


def config_path(explicit: str | None, environ: dict | None = None) -> Path | None:
    environ = os.environ if environ is None else environ
    if explicit:
        return Path(explicit)
    if environ.get("CLAIMWATCH_CONFIG"):
        return Path(environ["CLAIMWATCH_CONFIG"])
    local = Path("claimwatch.toml")
    return local if local.exists() else None


def load_settings(
    path: str | Path | None = None, *, environ: dict | None = None, overrides: dict | None = None
) -> Settings:
    """Settings from `path` (or none), the environment and explicit overrides (CLI flags)."""
    environ = os.environ if environ is None else environ
    data: dict[str, Any] = {}
    where = "built-in defaults"
    if path is not None:
        where = str(path)
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"{where}: no such config file") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{where}: not valid TOML: {exc}") from None
        if "source" in data:
            raise ConfigError(f"{where}: source: unknown key")
    for env_name, key in ENV.items():
        if environ.get(env_name):
            data[key] = environ[env_name]
    alerts = data.setdefault("alerts", {}) if isinstance(data.get("alerts", {}), dict) else None
    if alerts is not None:
        if environ.get("CLAIMWATCH_SLACK_WEBHOOK_URL"):
            _table(alerts, "slack")["webhook_url"] = environ["CLAIMWATCH_SLACK_WEBHOOK_URL"]
        if isinstance(alerts.get("email"), dict) and "password" in alerts["email"]:
            raise ConfigError(
                f"{where}: alerts.email.password: keep the SMTP password in CLAIMWATCH_SMTP_PASSWORD, not in the file"
            )
        if environ.get("CLAIMWATCH_SMTP_PASSWORD"):
            _table(alerts, "email")["password"] = environ["CLAIMWATCH_SMTP_PASSWORD"]
    data.update(overrides or {})
    if not data.get("watchers"):
        data["watchers"] = builtin_watchers(data.get("rsshub_url", Settings().rsshub_url))
    try:
        return Settings(**data, source=where)
    except ValidationError as exc:
        raise ConfigError(_one_line(where, exc, data)) from None


def builtin_watchers(rsshub_url: str) -> list[dict]:
    table = tomllib.loads(BUILTIN_WATCHERS.read_text(encoding="utf-8"))
    watchers = []
    for watcher in table["watchers"]:
        watcher = dict(watcher)
        watcher["url"] = watcher["url"].replace("{rsshub}", rsshub_url.rstrip("/"))
        watchers.append(watcher)
    return watchers


def _table(parent: dict, key: str) -> dict:
    if not isinstance(parent.get(key), dict):
        parent[key] = {}
    return parent[key]


def _one_line(where: str, exc: ValidationError, data: dict) -> str:
    error = exc.errors()[0]
    parts = []
    for loc in error["loc"]:
        if isinstance(loc, int):
            parts[-1:] = [f"{parts[-1]}[{loc}]"] if parts else [f"[{loc}]"]
        else:
            parts.append(str(loc))
    key = ".".join(parts) or "(top level)"
    if key.startswith("watchers[") and isinstance(data.get("watchers"), list):
        index = error["loc"][1]
        if (
            isinstance(index, int)
            and index < len(data["watchers"])
            and isinstance(data["watchers"][index], dict)
        ):
            name = data["watchers"][index].get("name")
            if name:
                key = f"{key} (watcher {name!r})"
    message = error["msg"].removeprefix("Value error, ")
    if error["type"] == "extra_forbidden":
        message = "unknown key"
    return f"{where}: {key}: {message}"
