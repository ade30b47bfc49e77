"""Slack incoming webhooks: one Block Kit message per source item, escaped, within Slack's limits."""

from __future__ import annotations

import logging
import re
from urllib.parse import quote, urlsplit

import httpx

from alerts.base import Alerter, DeliveryError
from alerts.text import change_header, change_line, detail, headline, merge_prices
from monitor.render import clip, local
from watchers.fetch import retry_after_seconds

MAX_BLOCKS = 50
MAX_TEXT = 3000
MAX_HEADER = 150


def escape(text: str) -> str:
    """Slack mrkdwn escaping: web text can neither ping @channel nor forge a link."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def link(url: str, label: str) -> str:
    if not re.match(r"^https?://", url or ""):
        return escape(label)
    safe = url.replace("|", "%7C").replace(">", "%3E").replace("<", "%3C").replace(" ", "%20")
    return f"<{safe}|{escape(clip(label, 200))}>"


def _section(text: str) -> dict:
    return {"type": "section", "text": {"type": "mrkdwn", "text": clip_keep_lines(text, MAX_TEXT)}}


def clip_keep_lines(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def payload(views: list[dict], tz) -> dict:
    """The webhook body for one message: the changes one source item brought, or one event."""
    first = views[0]
    if first["event"] != "change":
        text = f"{headline(first)}: {detail(first)}"
        return {
            "text": escape(clip(text, MAX_TEXT)),
            "blocks": [_section(f"*{escape(headline(first))}*\n{escape(detail(first))}")],
        }
    title = first.get("title") or first.get("source", "")
    views = merge_prices(views)
    header = change_header(views)
    blocks: list[dict] = [
        {"type": "header", "text": {"type": "plain_text", "text": clip(header, MAX_HEADER)}}
    ]
    fallback = []
    prices = [v for v in views if v.get("line")]
    others = [v for v in views if not v.get("line")]
    shown = others[: (MAX_BLOCKS - 3) // 2 - (1 if prices else 0)]
    for claim in dict.fromkeys(v["claim_id"] for v in prices):
        room = MAX_BLOCKS - 2 - 2 * len(shown) - len(blocks)
        blocks += _price_sections([v for v in prices if v["claim_id"] == claim], room)
    fallback += [v["line"] for v in prices]
    for view in shown:
        key = f" `{escape(view['key'])}`" if view.get("key") else ""
        blocks.append(
            _section(
                f"*{escape(view['claim_title'])}* (`{escape(view['claim_id'])}`){key}\n{escape(change_line(view))}\n"
                f"verification: {escape(view.get('verification') or '-')}"
            )
        )
        if view.get("excerpt"):
            blocks.append(_section("> " + escape(clip(view["excerpt"], 600))))
        fallback.append(
            f"{view['claim_id']}{' ' + view['key'] if view.get('key') else ''}: {change_line(view)}"
        )
    if len(others) > len(shown):
        blocks.append(
            _section(f"…and {len(others) - len(shown)} more changes from the same source.")
        )
    when = local(first.get("at"), tz, True)
    blocks.append(
        {
            "type": "context",
            "elements": [
                {
                    "type": "mrkdwn",
                    "text": clip_keep_lines(
                        f"Source: {link(first.get('url', ''), title)} · {escape(first.get('source', ''))} · {when}",
                        MAX_TEXT,
                    ),
                }
            ],
        }
    )
    return {"text": escape(clip("; ".join(fallback), MAX_TEXT)), "blocks": blocks[:MAX_BLOCKS]}


def _price_sections(views: list[dict], room: int) -> list[dict]:
    """Price lines a model each, under their claim's title, packed into as few sections as fit."""
    first = views[0]
    head = f"*{escape(first['claim_title'])}* (`{escape(first['claim_id'])}`)"
    tail = f"verification: {escape(first.get('verification') or '-')}"
    lines = [f"• {escape(clip(v['line'], 600))}" for v in views]
    sections, text = [], head
    for number, line in enumerate(lines):
        if len(text) + len(line) + len(tail) + 2 > MAX_TEXT:
            if len(sections) + 2 >= room:
                text += f"\n…and {len(lines) - number} more models from the same source."
                break
            sections.append(_section(text))
            text = ""
        text = f"{text}\n{line}" if text else line
    sections.append(_section(f"{text}\n{tail}"))
    return sections


class SlackAlerter(Alerter, channel="slack"):
    group_by_item = True

    def __init__(self, settings):
        super().__init__(settings)
        self.client = httpx.Client(
            timeout=httpx.Timeout(15, connect=5), follow_redirects=False, trust_env=False
        )

        # httpx logs each request's URL at INFO; the webhook URL is a secret
        self._redacting = RedactingFilter(settings.alerts.slack.webhook_url or "")
        for name in HTTP_LOGGERS:
            logging.getLogger(name).addFilter(self._redacting)

    def close(self) -> None:
        self.client.close()
        for name in HTTP_LOGGERS:
            logging.getLogger(name).removeFilter(self._redacting)

    def send(self, views: list[dict]) -> None:
        """Delivered only on a 2xx whose body is `ok`; a redirect is never followed (it would
        carry the webhook URL elsewhere) and counts as a failure like any other answer."""
        url = self.settings.alerts.slack.webhook_url or ""
        try:
            response = self.client.post(url, json=payload(views, self.settings.tz))
        except httpx.InvalidURL:
            raise DeliveryError(
                "the Slack webhook URL is not a valid URL; check CLAIMWATCH_SLACK_WEBHOOK_URL",
                permanent=True,
            ) from None
        except (httpx.HTTPError, ValueError) as exc:
            raise DeliveryError(f"Slack webhook unreachable ({type(exc).__name__})") from None
        status, body = response.status_code, response.text.strip()
        said = clip(redact(body, url), 100)
        if 200 <= status < 300 and body == "ok":
            return
        if status == 429:
            raise DeliveryError(
                "Slack rate limit (429)",
                retry_after=retry_after_seconds(response.headers.get("retry-after")),
            )
        if 300 <= status < 400:
            raise DeliveryError(f"Slack answered with a redirect (HTTP {status}), not followed")
        # a bad payload or a revoked webhook will not heal by retrying
        if 400 <= status < 500:
            raise DeliveryError(f"Slack refused the message: HTTP {status} {said}", permanent=True)
        raise DeliveryError(f"Slack answered HTTP {status} {said}".rstrip())


HTTP_LOGGERS = ("httpx", "httpcore")


class RedactingFilter(logging.Filter):
    """Rewrites a log record that would show the webhook URL."""

    def __init__(self, url: str):
        super().__init__()
        self.url = url

    def filter(self, record: logging.LogRecord) -> bool:
        if self.url:
            text = record.getMessage()
            clean = redact(text, self.url)
            if clean != text:
                record.msg, record.args = clean, ()
        return True


def redact(text: str, url: str) -> str:
    """`text` without the webhook URL or the secret parts of its path, however they are quoted."""
    secrets = [url, url.replace("/", "\\/"), quote(url, safe=""), urlsplit(url).path]
    secrets += [part for part in urlsplit(url).path.split("/") if len(part) >= 9]
    for secret in sorted({s for s in secrets if len(s) > 1}, key=len, reverse=True):
        text = text.replace(secret, "[webhook URL]")
    return text
