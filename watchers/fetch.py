"""The only network I/O of a poll: one shared HTTP client with the manners a polite monitor needs."""

from __future__ import annotations

import threading
import time
import zlib
from contextlib import contextmanager
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from urllib.parse import urljoin, urlsplit

import httpx

from monitor.config import HttpConfig
from watchers.base import BlockedError, Fetched, FetchError, NotModified, TimeoutError_
from watchers.botwall import detect_bot_wall
from watchers.guard import is_public_address


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    now = now or datetime.now(UTC)
    return max(0.0, (when - now).total_seconds())


def host_key(url: str) -> str:
    """What the per-host limit counts by: host and port."""
    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port or (443 if parts.scheme == 'https' else 80)}"


class Fetcher:
    """Thread-safe; one per process. Per-host limits keep one slow host from taking every worker."""

    def __init__(self, config: HttpConfig):
        self.config = config
        self.client = httpx.Client(
            timeout=httpx.Timeout(config.read_timeout, connect=config.connect_timeout),
            headers={"User-Agent": config.user_agent, "Accept-Encoding": "gzip, deflate"},
            follow_redirects=False,
            trust_env=False,
            limits=httpx.Limits(max_connections=max(config.concurrency * 2, 10)),
        )
        self._hosts: dict[str, threading.BoundedSemaphore] = {}
        self._lock = threading.Lock()

    def close(self) -> None:
        self.client.close()

    @contextmanager
    def _host_slot(self, url: str):
        with self._lock:
            slot = self._hosts.setdefault(
                host_key(url), threading.BoundedSemaphore(self.config.per_host)
            )
        with slot:
            yield

    def fetch(
        self,
        url: str,
        *,
        etag: str | None = None,
        last_modified: str | None = None,
        accept: str = "*/*",
        allow_private_redirects: bool = False,
        timeout: float | None = None,
    ) -> Fetched:
        deadline = time.monotonic() + (timeout or self.config.total_timeout)
        headers = {"Accept": accept}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        current = url
        for _hop in range(self.config.max_redirects + 1):
            with self._host_slot(current):
                status, response_headers, body, location = self._get(current, headers, deadline)
            if location is None:
                return self._judge(current, status, response_headers, body)
            target = urljoin(current, location)
            parts = urlsplit(target)
            if parts.scheme not in ("http", "https"):
                raise FetchError(f"{url}: redirect to a non-http(s) URL ({parts.scheme}:) refused")
            if not allow_private_redirects and not is_public_address(parts.hostname or ""):
                raise FetchError(
                    f"{url}: redirect to a private or local address ({parts.hostname}) refused"
                )
            current = target
        raise FetchError(f"{url}: more than {self.config.max_redirects} redirects")

    def _get(self, url: str, headers: dict, deadline: float):
        try:
            with self.client.stream("GET", url, headers=headers) as response:
                if (
                    response.status_code in (301, 302, 303, 307, 308)
                    and "location" in response.headers
                ):
                    return (
                        response.status_code,
                        dict(response.headers),
                        b"",
                        response.headers["location"],
                    )
                body = self._read_body(url, response, deadline)
                headers = {k.lower(): v for k, v in response.headers.items()}
                return response.status_code, headers, body, None
        except httpx.TimeoutException:
            raise TimeoutError_(f"{url}: timed out") from None
        except httpx.UnsupportedProtocol:
            raise FetchError(f"{url}: only http and https URLs are fetched") from None
        except httpx.DecodingError:
            raise FetchError(f"{url}: the response's compression is corrupt") from None
        except httpx.ConnectError as exc:
            raise FetchError(f"{url}: cannot connect ({_reason(exc)})") from None
        except httpx.HTTPError as exc:
            raise FetchError(f"{url}: {type(exc).__name__} ({_reason(exc)})") from None

    def _read_body(self, url: str, response: httpx.Response, deadline: float) -> bytes:
        """Read and decompress with a hard cap on the decoded size: a gzip bomb stops at the cap."""
        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        if encoding in ("gzip", "x-gzip"):
            decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            decoder = zlib.decompressobj()
        elif encoding in ("identity", ""):
            decoder = None
        else:
            raise FetchError(f"{url}: unsupported Content-Encoding {encoding!r}")
        limit, size, chunks = self.config.max_bytes, 0, []
        for raw in response.iter_raw(65536):
            if time.monotonic() > deadline:
                raise TimeoutError_(f"{url}: still sending after the time budget, given up")
            pending = raw
            while pending:
                if decoder is None:
                    out, pending = pending, b""
                else:
                    try:
                        out = decoder.decompress(pending, limit - size + 1)
                    except zlib.error:
                        raise FetchError(f"{url}: the response's compression is corrupt") from None
                    pending = decoder.unconsumed_tail
                size += len(out)
                if size > limit:
                    raise FetchError(f"{url}: response larger than {limit:,} bytes, not read")
                chunks.append(out)
        return b"".join(chunks)

    def _judge(self, url: str, status: int, headers: dict, body: bytes) -> Fetched:
        if status == 304:
            raise NotModified(f"{url}: not modified")
        wall = detect_bot_wall(status, headers, body)
        if wall:
            raise BlockedError(
                f"{url}: {wall}", retry_after=retry_after_seconds(headers.get("retry-after"))
            )
        if status in (429, 503):
            wait = retry_after_seconds(headers.get("retry-after"))
            hint = f", retry after {int(wait)} s" if wait is not None else ""
            raise FetchError(f"{url}: HTTP {status}{hint}", retry_after=wait)
        if status >= 400:
            raise FetchError(f"{url}: HTTP {status}")
        if status >= 300:
            raise FetchError(f"{url}: HTTP {status} without a usable Location")
        return Fetched(
            url=url, status=status, headers=headers, body=body, fetched_at=datetime.now(UTC)
        )


def _reason(exc: Exception) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0][:200]
