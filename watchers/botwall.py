"""Bot walls and challenge pages: recognised from the response, never parsed as content."""

from __future__ import annotations

import re

# in lower case, searched in the lower-cased head: several times faster than a case-blind search
BOT_WALL = re.compile(
    rb"just a moment\.\.\.|just a moment&hellip;|cf-chl-|challenge-platform|attention required! \| cloudflare"
    rb"|enable javascript and cookies to continue|px-captcha|g-recaptcha|h-captcha|ddos protection by"
    rb"|checking your browser before accessing|are you a robot|please verify you are a human",
)


def detect_bot_wall(status: int, headers: dict[str, str], body: bytes) -> str | None:
    """A reason when the response is a challenge or bot wall rather than the content."""
    if headers.get("cf-mitigated", "").lower() == "challenge":
        return "Cloudflare challenge (cf-mitigated: challenge)"
    head = body[:32768]
    if b"<" in head[:2048] and BOT_WALL.search(head.lower()):
        return f"bot-wall or challenge page (HTTP {status})"
    return None
