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
# (whose wall, what only its challenge page holds)
WALLS = (
    (
        "Cloudflare challenge",
        rb"just a moment\.\.\.|just a moment&hellip;|cf-chl-|challenge-platform"
        rb"|attention required! \| cloudflare",
    ),
    (
        "AWS WAF challenge",
        rb"token\.awswaf\.com/[^\"'\s]*challenge\.js|AwsWafIntegration|gokuProps",
    ),
    ("Incapsula challenge", rb"_Incapsula_Resource|incapsula incident id"),
    ("DataDome challenge", rb"captcha-delivery\.com|datadome captcha"),
    ("Vercel Security Checkpoint", rb"vercel security checkpoint|/\.well-known/vercel/security/"),
    ("PerimeterX challenge", rb"px-captcha|_pxCaptcha"),
    ("Sucuri firewall", rb"sucuri website firewall"),
    (
        "challenge page",
        rb"enable javascript and cookies to continue|g-recaptcha|h-captcha|ddos protection by"
        rb"|checking your browser before accessing|are you a robot|please verify you are a human",
    ),
)
_WALLS = [(name, re.compile(pattern, re.IGNORECASE)) for name, pattern in WALLS]
HEAD = 32768  # challenge pages are small; a marker deep in a long page is quoted content


def detect_bot_wall(status: int, headers: dict[str, str], body: bytes) -> str | None:
    """A reason when the response is a challenge or bot wall rather than the content."""
    for header, (values, name) in CHALLENGE_HEADERS.items():
        value = headers.get(header, "").strip().lower()
        if value in values:
            return f"bot-wall: {name} ({header}: {value}, HTTP {status})"
    head = body[:HEAD]
    if b"<" not in head[:2048]:
        return None  # JSON, plain text: never a challenge page
    for name, pattern in _WALLS:
        if pattern.search(head):
            return f"bot-wall: {name} (HTTP {status})"
    return None
