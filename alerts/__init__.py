"""Alerts: the outbox is filled by the writer; a channel is a small class that sends one alert."""

from __future__ import annotations

from monitor.config import Settings


def enabled_channels(settings: Settings) -> list[str]:
    """Channels that get one outbox row per change; the terminal when nothing else is configured."""
    channels = []
    slack, email = settings.alerts.slack, settings.alerts.email
    if slack.enabled and slack.webhook_url:
        channels.append("slack")
    if email.immediate and email.smtp_host and email.recipients:
        channels.append("email")
    return channels or ["console"]
