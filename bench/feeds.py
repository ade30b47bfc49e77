"""Realistic RSS 2.0 feeds for the benchmarks: mostly ordinary tech news, a few items on Jalapeño.

Every feed is the same for the same index and seed, so two tools (and two runs) see the same work.
Links point back at the serving address; nothing in a feed names a host beyond 127.0.0.1.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from xml.sax.saxutils import escape

COMPANIES = [
    "Arcturus Systems",
    "Bluefin Labs",
    "Cobalt Cloud",
    "Driftwood Software",
    "Ember Networks",
    "Fernhill Robotics",
    "Granite Data",
    "Halcyon Devices",
    "Ironbark Security",
    "Juniper Grove",
    "Kestrel Mobile",
    "Lumen Storage",
    "Meridian Semiconductors",
    "Northwind Compute",
    "Orchard OS",
    "Pinecrest Analytics",
]
PRODUCTS = [
    "database engine",
    "developer platform",
    "mobile app",
    "edge router",
    "open-source compiler",
    "payments API",
    "laptop line",
    "observability suite",
    "container runtime",
    "smart-home hub",
    "browser",
    "password manager",
    "CI service",
    "vector search index",
]
TITLES = [
    "{company} ships version {major}.{minor} of its {product}",
    "{company} raises ${money} million to expand its {product}",
    "{company} cuts prices on its {product} by {pct}%",
    "Hands-on: the new {company} {product} is faster, but not cheaper",
    "{company} patches a critical flaw in its {product}",
    "{company} opens a research office in {city}",
    "Why {company} rewrote its {product} in Rust",
    "{company} and {other} sign a cloud partnership",
    "{company} reports {pct}% revenue growth as {product} sales climb",
    "{company} lays off {count} staff in a restructuring",
]
SENTENCES = [
    "The company said the release had been in testing with {count} customers since the spring.",
    "Analysts at {other} called the move overdue, pointing to slowing growth in the segment.",
    "Pricing starts at ${money} a month for small teams, with volume discounts above {count} seats.",
    "Engineers rewrote the storage layer, which the company says cut tail latency by {pct}%.",
    "The update also drops support for versions older than {major}.0, released in {year}.",
    "A spokesperson declined to say how many users were affected by the outage last week.",
    "Early benchmarks published by the team show a {pct}% improvement on their own workloads.",
    "The project's maintainers said the change had been requested for years on the issue tracker.",
    "Competitors including {other} have shipped similar features over the past {count} months.",
    "The firm now employs about {count} people across offices in {city} and {city2}.",
    "Customers can opt out through the admin console until the end of the quarter.",
    "Regulators in {city} have asked for more detail on how the data is stored.",
]
CITIES = ["Lisbon", "Toronto", "Nairobi", "Osaka", "Tallinn", "Austin", "Dublin", "Seoul"]

# Items that the extraction must read: restated figures, hedges, negations and one false friend.
JALAPENO = [
    (
        "Recap: OpenAI's Jalapeño chip hits 85,448 tokens/s/kW on GPT-OSS 120B vs 44,960 for GB200",
        "OpenAI's first in-house inference chip posted 1.5-1.9x performance per watt over Nvidia in "
        "its own InferenceX runs. The chip is rated at 700 W and stayed below 550 W under the test "
        "load, according to the company's blog post.",
    ),
    (
        "OpenAI's Jalapeño figures have not been independently verified",
        "The chip's 85,448 tokens/s/kW on GPT-OSS 120B comes from OpenAI's own runs; SemiAnalysis "
        "only spot-checked some of them on site. A third-party re-test has not been announced.",
    ),
    (
        "Analysts expect an independent re-test of OpenAI's Jalapeño chip before year-end",
        "Several analysts said they would wait for outside numbers before comparing the inference "
        "chip with Nvidia's GB300, which draws 1,400 W against Jalapeño's 700 W.",
    ),
    (
        "What OpenAI's Jalapeño inference chip means for the accelerator market",
        "The ASIC pairs 216 GB of HBM4 with large on-chip SRAM. OpenAI says DeepSeek R1 reached "
        "19,600 tokens/s/kW on the chip, against 11,800 for GB300 in the same InferenceX setup.",
    ),
    (
        "Jalapeño poppers, the party classic",
        "Halve the jalapeño peppers, fill them with cream cheese and bake at 200 degrees for 20 "
        "minutes. Yields 24 pieces; serve with a cold drink.",
    ),
]


def _fill(template: str, rng: random.Random) -> str:
    company, other = rng.sample(COMPANIES, 2)
    city, city2 = rng.sample(CITIES, 2)
    return template.format(
        company=company,
        other=other,
        product=rng.choice(PRODUCTS),
        major=rng.randint(2, 19),
        minor=rng.randint(0, 12),
        money=rng.choice([12, 25, 40, 75, 120, 300]),
        pct=rng.randint(3, 45),
        count=rng.choice([40, 120, 300, 1200, 4500]),
        year=rng.randint(2019, 2025),
        city=city,
        city2=city2,
    )


def feed_items(index: int, seed: int = 1) -> list[tuple[str, str]]:
    """(title, paragraph) for one feed, newest first: 10–20 items, about one on Jalapeño."""
    rng = random.Random(seed * 1_000_003 + index)
    items = []
    for _ in range(rng.randint(10, 20)):
        title = _fill(rng.choice(TITLES), rng)
        text = " ".join(_fill(s, rng) for s in rng.sample(SENTENCES, rng.randint(3, 5)))
        items.append((title, text))
    for _ in range(rng.choice([0, 1, 1, 2])):
        items[rng.randrange(len(items))] = rng.choice(JALAPENO)
    return items


def feed_xml(index: int, base_url: str, *, seed: int = 1, extra: int = 0) -> bytes:
    """One feed as RSS 2.0; `extra` newer items on top stand for news published since."""
    items = feed_items(index, seed)
    fresh = [
        (f"Update {n}: " + t, p) for n, (t, p) in enumerate(feed_items(index, seed + 7 + extra))
    ]
    items = fresh[:extra] + items
    start = datetime(2026, 11, 2, 9, 0, tzinfo=UTC) + timedelta(minutes=index)
    entries = []
    for position, (title, text) in enumerate(items):
        serial = len(items) - position + extra * 1000
        link = f"{base_url}/articles/{index}/{serial}"
        published = format_datetime(start - timedelta(hours=3 * position), usegmt=True)
        entries.append(
            "  <item>\n"
            f"    <title>{escape(title)}</title>\n"
            f"    <link>{link}</link>\n"
            f'    <guid isPermaLink="false">bench-{index}-{serial}</guid>\n'
            f"    <pubDate>{published}</pubDate>\n"
            f"    <description>{escape(f'<p>{escape(text)}</p>')}</description>\n"
            "  </item>\n"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0">\n<channel>\n'
        f"  <title>Tech Wire {index}</title>\n  <link>{base_url}/</link>\n"
        "  <description>Technology news</description>\n"
        f"  <language>en</language>\n{''.join(entries)}</channel>\n</rss>\n"
    ).encode()


def feed_path(index: int) -> str:
    return f"/feeds/{index:05d}.rss"


def write_feeds(root: Path, count: int, base_url: str, *, seed: int = 1) -> list[str]:
    """Writes `count` feeds under root; returns their URL paths."""
    (root / "feeds").mkdir(parents=True, exist_ok=True)
    paths = [feed_path(i) for i in range(count)]
    for index, path in enumerate(paths):
        (root / path.lstrip("/")).write_bytes(feed_xml(index, base_url, seed=seed))
    return paths
