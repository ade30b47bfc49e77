"""The terminal: where alerts go when no other channel is configured."""

from __future__ import annotations

import sys

from alerts.base import Alerter
from alerts.text import change_line, detail, headline, merge_prices
from monitor.render import clip, plain


class ConsoleAlerter(Alerter, channel="console"):
    group_by_item = True
    stream = None  # tests and the demo point this elsewhere

    def send(self, views: list[dict]) -> None:
        out = self.stream or sys.stdout
        for view in merge_prices(views):
            if view["event"] == "change":
                print(
                    plain(
                        f"ALERT {headline(view)} ({view['claim_id']})\n      {change_line(view)}\n"
                        f"      {view.get('source')}: {clip(view.get('title') or '', 100)} {view.get('url') or ''}"
                    ),
                    file=out,
                )
            else:
                print(plain(f"ALERT {headline(view)}: {detail(view)}"), file=out)
        out.flush()
