"""Email over SMTP: multipart plain text + HTML, for immediate alerts and the daily digest."""

from __future__ import annotations

import smtplib
import ssl
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from html import escape

from alerts.base import Alerter, DeliveryError
from alerts.text import change_line, detail, headline, merge_prices
from monitor.config import EmailConfig
from monitor.render import clip, local

STYLE_CELL = "padding:4px 8px;border-bottom:1px solid #e5e7eb;vertical-align:top;text-align:left"


def build_message(config: EmailConfig, subject: str, text: str, html: str) -> EmailMessage:
    message = EmailMessage()
    message["Subject"] = clip(subject.replace("\n", " "), 200)
    message["From"] = config.sender
    message["To"] = ", ".join(config.recipients)
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain="claimwatch")
    message.set_content(text)
    message.add_alternative(html, subtype="html")
    return message


def smtp_send(config: EmailConfig, message: EmailMessage) -> None:
    """Send or raise DeliveryError; the password never appears in an error.

    Failures, 5xx included, are retried until `give_up_after`: an operator can fix a password or a
    recipient in the meantime. Only a missing configuration is final at once.
    """
    if not config.smtp_host or not config.recipients:
        raise DeliveryError(
            "email is not configured: set [alerts.email] smtp_host and recipients", permanent=True
        )
    try:
        if config.security == "ssl":
            client = smtplib.SMTP_SSL(
                config.smtp_host,
                config.smtp_port,
                timeout=config.timeout,
                context=ssl.create_default_context(cafile=config.ca_file),
            )
        else:
            client = smtplib.SMTP(config.smtp_host, config.smtp_port, timeout=config.timeout)
        with client:
            if config.security == "starttls":
                client.starttls(context=ssl.create_default_context(cafile=config.ca_file))
            if config.username:
                client.login(config.username, config.password or "")
            client.send_message(message)
    except smtplib.SMTPAuthenticationError as exc:
        raise DeliveryError(
            f"SMTP authentication failed for user {config.username!r} (code {exc.smtp_code}); check CLAIMWATCH_SMTP_PASSWORD",
        ) from None
    except smtplib.SMTPRecipientsRefused as exc:
        codes = sorted({code for code, _ in exc.recipients.values()})
        raise DeliveryError(
            f"SMTP server refused the recipients (codes {codes})",
        ) from None
    except smtplib.SMTPResponseException as exc:
        raise DeliveryError(
            f"SMTP error {exc.smtp_code}: {clip(_text(exc.smtp_error), 150)}",
        ) from None
    except smtplib.SMTPNotSupportedError:
        raise DeliveryError(
            f'{config.smtp_host} does not support STARTTLS; set security = "ssl" or "none"',
            permanent=True,
        ) from None
    except ssl.SSLCertVerificationError as exc:
        raise DeliveryError(
            f"the certificate of SMTP server {config.smtp_host} is not trusted ({exc.verify_message}); "
            "fix it or set [alerts.email] ca_file"
        ) from None
    except (TimeoutError, OSError, smtplib.SMTPException) as exc:
        raise DeliveryError(
            f"cannot reach SMTP server {config.smtp_host}:{config.smtp_port} ({type(exc).__name__})"
        ) from None


def _text(value) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def change_rows_html(views: list[dict], tz) -> str:
    rows = []
    for view in views:
        source = escape(view.get("title") or view.get("source") or "")
        url = view.get("url") or ""
        link = (
            f'<a href="{escape(url)}" style="color:#1d4ed8">{source}</a>'
            if url.startswith(("http://", "https://"))
            else source
        )
        rows.append(
            f'<tr><td style="{STYLE_CELL}"><strong>{escape(view["claim_title"])}</strong><br>'
            f'<code style="font-size:12px;color:#6b7280">{escape(view["claim_id"])} {escape(view.get("key") or "")}</code></td>'
            f'<td style="{STYLE_CELL}">{escape(change_line(view))}<br>'
            f'<span style="color:#6b7280;font-size:12px">verification: {escape(view.get("verification") or "-")}</span></td>'
            f'<td style="{STYLE_CELL}">{link}<br><span style="color:#6b7280;font-size:12px">{escape(local(view.get("at"), tz, True))}</span>'
            f'<blockquote style="margin:4px 0;color:#374151;font-size:13px">{escape(clip(view.get("excerpt") or "", 400))}</blockquote></td></tr>'
        )
    return (
        '<table style="border-collapse:collapse;width:100%;font-family:Arial,sans-serif;font-size:14px">'
        f'<tr><th style="{STYLE_CELL}">Claim</th><th style="{STYLE_CELL}">Change</th><th style="{STYLE_CELL}">Source</th></tr>'
        + "".join(rows)
        + "</table>"
    )


def page(title: str, body: str) -> str:
    return (
        '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
        f"<title>{escape(title)}</title></head>"
        '<body style="margin:0;padding:16px;background:#f9fafb;color:#111827;font-family:Arial,sans-serif">'
        f'<div style="max-width:860px;margin:0 auto;background:#ffffff;padding:16px;border:1px solid #e5e7eb">'
        f'<h1 style="font-size:20px;margin:0 0 12px">{escape(title)}</h1>{body}</div></body></html>'
    )


class EmailAlerter(Alerter, channel="email"):
    group_by_item = True

    def send(self, views: list[dict]) -> None:
        tz = self.settings.tz
        views = merge_prices(views)
        first = views[0]
        if first["event"] == "change":
            subject = f"Claimwatch: {headline(first)}" + (
                f" (+{len(views) - 1} more)" if len(views) > 1 else ""
            )
            text = "\n\n".join(
                f"{v['claim_title']} ({v['claim_id']}) {v.get('key') or ''}\n{change_line(v)}\n"
                f"verification: {v.get('verification') or '-'}\nsource: {v.get('title') or v.get('source')} {v.get('url') or ''}"
                + (f'\n"{clip(v["excerpt"], 400)}"' if v.get("excerpt") else "")
                for v in views
            )
            html = page(subject, change_rows_html(views, tz))
        else:
            subject = f"Claimwatch: {headline(first)}"
            text = detail(first)
            html = page(subject, f"<p>{escape(detail(first))}</p>")
        smtp_send(
            self.settings.alerts.email,
            build_message(self.settings.alerts.email, subject, text, html),
        )
