"""A hostile HTTP server on 127.0.0.1: every misbehaviour a real source shows, one path each."""

from __future__ import annotations

import gzip
import socket
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

DATA = Path(__file__).parent / "data"
FEED = (DATA / "feed/retest_en.rss").read_bytes()
BOMB = gzip.compress(b"\0" * (64 * 1024 * 1024), compresslevel=9)  # 64 MiB of zeros in ~64 KiB
BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<rss version="2.0"><channel><title>&lol9;</title>
<item><guid>laughs</guid><title>OpenAI Jalapeno chip independently re-tested &lol9;</title></item></channel></rss>"""
EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<rss version="2.0"><channel><title>x</title>
<item><guid>xxe</guid><title>Independent re-test of OpenAI's Jalapeno chip &xxe;</title>
<description>&xxe;</description></item></channel></rss>"""
CHALLENGE = (DATA / "prices/challenge.html").read_bytes()

# path -> what the source does; each is named in the failure test's table
BEHAVIOURS = (
    "500",
    "502",
    "503",
    "429",
    "reset",
    "silent",
    "trickle",
    "huge",
    "gzip-bomb",
    "redirect-loop",
    "redirect-file",
    "redirect-metadata",
    "redirect-private",
    "wrong-type",
    "bad-utf8",
    "truncated",
    "billion-laughs",
    "external-entity",
    "bot-wall",
)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status: int, body: bytes, content_type: str = "application/rss+xml", **headers):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):  # noqa: N802, C901 (one branch per behaviour reads best as a table)
        path = self.path.strip("/").split("?")[0]
        if path == "healthy":
            self.send(200, FEED)
        elif path in ("500", "502", "503"):
            self.send(int(path), b"<h1>server error</h1>", "text/html")
        elif path == "429":
            self.send(429, b"slow down", "text/plain", Retry_After="3600")
        elif path == "reset":
            self.send_response(200)
            self.send_header("Content-Type", "application/rss+xml")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(FEED[:300])
            self.wfile.flush()
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.wfile.close()
            self.rfile.close()
            self.connection.close()  # the last reference: the kernel sends RST mid-body
        elif path == "silent":
            time.sleep(self.server.hang_seconds)
        elif path == "trickle":
            self.send_response(200)
            self.send_header("Content-Type", "application/rss+xml")
            self.send_header("Content-Length", str(len(FEED)))
            self.end_headers()
            for byte in FEED[: self.server.hang_seconds]:
                if self.server.stopping.is_set():
                    break
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(1)
        elif path == "huge":
            size = 100 * 1024 * 1024
            self.send_response(200)
            self.send_header("Content-Type", "application/rss+xml")
            self.send_header("Content-Length", str(size))
            self.end_headers()
            chunk = b"<" * 65536
            try:
                for _ in range(size // len(chunk)):
                    self.wfile.write(chunk)
            except OSError:
                pass  # the client hung up once it had enough: that is the point
        elif path == "gzip-bomb":
            self.send(200, BOMB, Content_Encoding="gzip")
        elif path == "redirect-loop":
            self.send(302, b"", Location="/redirect-loop")
        elif path == "redirect-file":
            self.send(302, b"", Location="file:///etc/passwd")
        elif path == "redirect-metadata":
            self.send(302, b"", Location="http://169.254.169.254/latest/meta-data/")
        elif path == "redirect-private":
            self.send(301, b"", Location="http://10.0.0.1/feed.xml")
        elif path == "redirect-local":
            self.send(
                302, b"", Location=f"http://127.0.0.1:{self.server.server_address[1]}/healthy"
            )
        elif path == "wrong-type":
            self.send(200, b"\x89PNG\r\n\x1a\n" + b"\0" * 200, "image/png")
        elif path == "bad-utf8":
            self.send(
                200,
                FEED.replace(b"Recap:", b"Recap \xff\xfe\xfa:"),
                "application/rss+xml; charset=utf-8",
            )
        elif path == "truncated":
            self.send(200, FEED[: len(FEED) // 3])
        elif path == "billion-laughs":
            self.send(200, BILLION_LAUGHS)
        elif path == "external-entity":
            self.send(200, EXTERNAL_ENTITY)
        elif path == "bot-wall":
            self.send(503, CHALLENGE, "text/html", cf_mitigated="challenge")
        else:
            self.send(404, b"no such behaviour", "text/plain")


class HostileServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, hang_seconds: int = 30):
        super().__init__(("127.0.0.1", 0), Handler)
        self.hang_seconds = hang_seconds
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)

    def handle_error(self, request, client_address):
        """Broken connections are this server's purpose; their tracebacks are noise."""

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/{path}"

    def __enter__(self) -> HostileServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.shutdown()
        self.server_close()
