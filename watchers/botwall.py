"""Bot walls and challenge pages: recognised from the response, never parsed as content.

Many are served with 200 or 202, so the status alone says nothing: a wall is known by a header
its vendor sets only on a challenge, or by a marker in the first part of an HTML-looking body.
"""

from __future__ import annotations

import re

# header -> (values meaning a challenge, whose wall)
CHALLENGE_HEADERS = {
    "cf-mitigated": (("challenge",), "Cloudflare challenge"),
    "x-amzn-waf-action": (("challenge", "captcha"), "AWS WAF challenge"),
    "x-vercel-mitigated": (("challenge", "deny"), "Vercel Security Checkpoint"),
}
# (whose wall, what only its challenge page holds): plain lower-case substrings, searched in the
# lower-cased head (many times faster than case-blind regular expressions), or a pattern where a
# substring cannot say it
WALLS = (
    (
        "Cloudflare challenge",
        (
            b"just a moment...",
            b"just a moment&hellip;",
            b"cf-chl-",
            b"challenge-platform",
            b"attention required! | cloudflare",
        ),
    ),
    (
        "AWS WAF challenge",
        (
            re.compile(rb"token\.awswaf\.com/[^\"'\s]*challenge\.js"),
            b"awswafintegration",
            b"gokuprops",
        ),
    ),
    ("Incapsula challenge", (b"_incapsula_resource", b"incapsula incident id")),
    ("DataDome challenge", (b"captcha-delivery.com", b"datadome captcha")),
    (
        "Vercel Security Checkpoint",
        (b"vercel security checkpoint", b"/.well-known/vercel/security/"),
    ),
    ("PerimeterX challenge", (b"px-captcha", b"_pxcaptcha")),
    ("Sucuri firewall", (b"sucuri website firewall",)),
    (
        "challenge page",
        (
            b"enable javascript and cookies to continue",
            b"g-recaptcha",
            b"h-captcha",
            b"ddos protection by",
            b"checking your browser before accessing",
            b"are you a robot",
            b"please verify you are a human",
        ),
    ),
)
HEAD = 32768  # challenge pages are small; a marker deep in a long page is quoted content


def _holds(lowered: bytes, marker: bytes | re.Pattern) -> bool:
    if isinstance(marker, re.Pattern):
        return marker.search(lowered) is not None
    return marker in lowered


def detect_bot_wall(status: int, headers: dict[str, str], body: bytes) -> str | None:
    """A reason when the response is a challenge or bot wall rather than the content."""
    for header, (values, name) in CHALLENGE_HEADERS.items():
        value = headers.get(header, "").strip().lower()
        if value in values:
            return f"bot-wall: {name} ({header}: {value}, HTTP {status})"
    head = body[:HEAD]
    if b"<" not in head[:2048]:
        return None  # JSON, plain text: never a challenge page
    lowered = head.lower()
    for name, markers in WALLS:
        if any(_holds(lowered, marker) for marker in markers):
            return f"bot-wall: {name} (HTTP {status})"
    return None
