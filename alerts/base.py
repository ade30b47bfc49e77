"""A channel sends one group of alerts; it raises DeliveryError to ask for a retry or to give up."""

from __future__ import annotations

from typing import ClassVar

from monitor.config import Settings


class DeliveryError(Exception):
    def __init__(self, message: str, *, retry_after: float | None = None, permanent: bool = False):
        super().__init__(message)
        self.retry_after = retry_after
        self.permanent = permanent


class Alerter:
    """One per channel. `send` gets the views of alerts that belong in one message."""

    channel: ClassVar[str]
    registry: ClassVar[dict[str, type[Alerter]]] = {}
    group_by_item: ClassVar[bool] = False

    def __init_subclass__(cls, channel: str, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.channel = channel
        Alerter.registry[channel] = cls

    def __init__(self, settings: Settings):
        self.settings = settings

    def send(self, views: list[dict]) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Release connections; most channels hold none."""
