"""The only network I/O of a poll: one asyncio HTTP client with the manners a polite monitor needs.

One deadline covers the whole fetch (connect, headers, body, every redirect hop), whatever the
server does. Redirects are followed by hand; after the first hop only global addresses may be
reached, checked on the address each socket is about to connect to and on the peer of a reused
connection, so a second DNS answer cannot smuggle a private address in.
"""

from __future__ import annotations

import asyncio
import contextvars
import ipaddress
import socket
import zlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from urllib.parse import urljoin, urlsplit

import aiohttp

from monitor.config import HttpConfig
from watchers.base import BlockedError, Fetched, FetchError, NotModified, TimeoutError_
from watchers.botwall import detect_bot_wall
from watchers.guard import is_global_ip

MAX_RETRY_AFTER = 7 * 24 * 3600.0  # a server asking for more than a week is clamped to a week
CHUNK = 65536
_GUARDED: contextvars.ContextVar[bool] = contextvars.ContextVar("guarded", default=False)


class RefusedAddress(OSError):
    """A guarded connection would have reached a non-global address."""


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (seconds or HTTP date), clamped to a week."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return min(float(value[:12]), MAX_RETRY_AFTER)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, OverflowError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    now = now or datetime.now(UTC)
    return min(max(0.0, (when - now).total_seconds()), MAX_RETRY_AFTER)


def host_key(url: str) -> str:
    """What the per-host limit counts by: host and port."""
    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port or (443 if parts.scheme == 'https' else 80)}"


def _guarded_socket(addr_info) -> socket.socket:
    """Creates the socket for a connection; under a guard, only to a global address."""
    family, kind, proto, _, sockaddr = addr_info
    if _GUARDED.get() and not is_global_ip(sockaddr[0]):
        raise RefusedAddress(f"private or local address ({sockaddr[0]})")
    sock = socket.socket(family=family, type=kind, proto=proto)
    sock.setblocking(False)
    return sock


HostSlot = Callable[[str], AbstractAsyncContextManager]


class Fetcher:
    """One per process and event loop. `host_slot(host)` limits concurrent requests per host;
    the default counts in this process, a cluster passes one that counts across processes."""

    def __init__(self, config: HttpConfig, *, host_slot: HostSlot | None = None):
        self.config = config
        self._session: aiohttp.ClientSession | None = None
        self._hosts: dict[str, asyncio.Semaphore] = {}
        self._all: asyncio.Semaphore | None = None
        self.host_slot = host_slot or self._local_slot

    @asynccontextmanager
    async def _local_slot(self, host: str) -> AsyncIterator[None]:
        slot = self._hosts.setdefault(host, asyncio.Semaphore(self.config.per_host))
        async with slot:
            yield

    def _slots(self) -> asyncio.Semaphore:
        if self._all is None:
            self._all = asyncio.Semaphore(self.config.concurrency)
        return self._all

    def _open(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            config = self.config
            connector = aiohttp.TCPConnector(
                limit=max(config.concurrency * 2, 10),
                use_dns_cache=False,  # every new connection resolves, and is checked, afresh
                socket_factory=_guarded_socket,
            )
            self._session = aiohttp.ClientSession(
                connector=connector,
                timeout=aiohttp.ClientTimeout(
                    total=None, sock_connect=config.connect_timeout, sock_read=config.read_timeout
                ),
                headers={"User-Agent": config.user_agent, "Accept-Encoding": "gzip, deflate"},
                auto_decompress=False,
                cookie_jar=aiohttp.DummyCookieJar(),
                trust_env=False,
            )
        return self._session

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session, self._all = None, None
        self._hosts.clear()

    async def fetch(
        self,
        url: str,
        *,
        etag: str | None = None,
        last_modified: str | None = None,
        accept: str = "*/*",
        allow_private_redirects: bool = False,
        timeout: float | None = None,
    ) -> Fetched:
        """The response, or a typed WatchError; never longer than the time budget."""
        budget = timeout or self.config.total_timeout
        headers = {"Accept": accept}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        try:
            async with asyncio.timeout(budget):
                return await self._follow(url, headers, allow_private_redirects)
        except TimeoutError:
            raise TimeoutError_(
                f"{url}: no complete answer within {budget:g} s, given up"
            ) from None

    async def _follow(self, url: str, headers: dict, allow_private: bool) -> Fetched:
        current, guarded = url, False
        for _hop in range(self.config.max_redirects + 1):
            parts = urlsplit(current)
            if parts.scheme not in ("http", "https"):
                raise FetchError(f"{url}: only http and https URLs are fetched ({parts.scheme}:)")
            if guarded:
                _refuse_literal(url, parts.hostname or "")
            # a host's slot first, then one of all: a slow host never holds what others wait for
            async with self.host_slot(host_key(current)), self._slots():
                status, response_headers, body, location = await self._get(
                    url, current, headers, guarded
                )
            if location is None:
                return _judge(current, status, response_headers, body)
            target = urljoin(current, location)
            scheme = urlsplit(target).scheme
            if scheme not in ("http", "https"):
                raise FetchError(f"{url}: redirect to a non-http(s) URL ({scheme}:) refused")
            current, guarded = target, not allow_private
        raise FetchError(f"{url}: more than {self.config.max_redirects} redirects")

    async def _get(self, url: str, current: str, headers: dict, guarded: bool):
        session = self._open()
        token = _GUARDED.set(guarded)
        try:
            async with session.get(current, headers=headers, allow_redirects=False) as response:
                if guarded:
                    _refuse_peer(url, response)
                status = response.status
                found = {k.lower(): v for k, v in response.headers.items()}
                if status in (301, 302, 303, 307, 308) and "location" in found:
                    return status, found, b"", found["location"]
                body = await self._read_body(url, response, found.get("content-encoding", ""))
                return status, found, body, None
        except aiohttp.ServerTimeoutError:
            raise TimeoutError_(f"{url}: timed out waiting for the server") from None
        except aiohttp.ClientConnectorError as exc:
            if isinstance(exc.os_error, RefusedAddress):
                raise FetchError(f"{url}: redirect to a {exc.os_error} refused") from None
            raise FetchError(f"{url}: cannot connect ({_reason(exc.os_error or exc)})") from None
        except (aiohttp.InvalidURL, ValueError) as exc:
            raise FetchError(f"{url}: not a valid URL ({_reason(exc)})") from None
        except aiohttp.ClientPayloadError:
            raise FetchError(f"{url}: the response body is corrupt or was cut off") from None
        except aiohttp.ServerDisconnectedError:
            raise FetchError(f"{url}: the server closed the connection early") from None
        except aiohttp.ClientResponseError as exc:
            raise FetchError(f"{url}: malformed response ({_reason(exc)})") from None
        except (aiohttp.ClientError, OSError) as exc:
            raise FetchError(f"{url}: {type(exc).__name__} ({_reason(exc)})") from None
        finally:
            _GUARDED.reset(token)

    async def _read_body(self, url: str, response: aiohttp.ClientResponse, encoding: str) -> bytes:
        """Read and decompress with a hard cap on the decoded size: a gzip bomb stops at the cap."""
        encoding = encoding.strip().lower()
        if encoding in ("gzip", "x-gzip"):
            decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            decoder = zlib.decompressobj()
        elif encoding in ("identity", ""):
            decoder = None
        else:
            raise FetchError(f"{url}: unsupported Content-Encoding {encoding!r}")
        limit, size, chunks = self.config.max_bytes, 0, []
        async for raw in response.content.iter_chunked(CHUNK):
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


def _refuse_literal(url: str, host: str) -> None:
    """A redirect to an address written out (10.0.0.1, [::1]) is refused before any packet."""
    try:
        ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return  # a name: checked on the address it resolves to, when the socket is made
    if not is_global_ip(host.strip("[]")):
        raise FetchError(f"{url}: redirect to a private or local address ({host}) refused")


def _refuse_peer(url: str, response: aiohttp.ClientResponse) -> None:
    """A pooled connection made for another request is checked on the address it really reached."""
    transport = response.connection.transport if response.connection else None
    peer = transport.get_extra_info("peername") if transport else None
    if peer and not is_global_ip(peer[0]):
        raise FetchError(f"{url}: redirect to a private or local address ({peer[0]}) refused")


def _judge(url: str, status: int, headers: dict, body: bytes) -> Fetched:
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
    return Fetched(url=url, status=status, headers=headers, body=body, fetched_at=datetime.now(UTC))


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0][:200]
