"""Bot walls and challenge pages: recognised from the response, never parsed as content."""

from __future__ import annotations

# what challenge pages say, in lower case: looked for in the lower-cased head, each a plain
# substring search (many times faster than one case-blind regular expression)
BOT_WALL = (
    b"just a moment...",
    b"just a moment&hellip;",
    b"cf-chl-",
    b"challenge-platform",
    b"attention required! | cloudflare",
    b"enable javascript and cookies to continue",
    b"px-captcha",
    b"g-recaptcha",
    b"h-captcha",
    b"ddos protection by",
    b"checking your browser before accessing",
    b"are you a robot",
    b"please verify you are a human",
)


def detect_bot_wall(status: int, headers: dict[str, str], body: bytes) -> str | None:
    """A reason when the response is a challenge or bot wall rather than the content."""
    if headers.get("cf-mitigated", "").lower() == "challenge":
        return "Cloudflare challenge (cf-mitigated: challenge)"
    head = body[:32768]
    if b"<" in head[:2048]:
        lowered = head.lower()
        if any(marker in lowered for marker in BOT_WALL):
            return f"bot-wall or challenge page (HTTP {status})"
    return None
