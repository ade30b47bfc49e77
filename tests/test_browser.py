"""The dashboard in headless Chromium at a desktop, a small laptop and a phone width: nothing
overflows, ticks are round with units, a price list is a row per model, Chinese text renders.
Screenshots go to ./screenshots (or $CLAIMWATCH_SCREENSHOTS) for a person to look at."""

import io
import os
import re
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from db.engine import make_engine
from monitor.config import load_settings
from monitor.demo import run_demo
from monitor.web import create_app

from .conftest import free_port

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PAGES = {
    "board": "/",
    "number": "/claims/jalapeno.tokens-per-kw.gpt-oss-120b",
    "prices": "/claims/openai.api-prices",
}
SHOTS = Path(os.environ.get("CLAIMWATCH_SCREENSHOTS", Path(__file__).parent.parent / "screenshots"))

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is not installed (Debian package chromium)"
)

# Draw two different Chinese characters in the page's font: a missing font draws the same box twice.
CJK_GLYPHS = """(family) => {
  const draw = (text) => {
    const canvas = document.createElement('canvas');
    canvas.width = 48; canvas.height = 48;
    const context = canvas.getContext('2d');
    context.font = '36px ' + family;
    context.fillText(text, 4, 38);
    return Array.from(context.getImageData(0, 0, 48, 48).data).join(',');
  };
  return {distinct: draw('芯') !== draw('东'), inked: draw('芯') !== draw(' ')};
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    import uvicorn

    folder = tmp_path_factory.mktemp("browser")
    url = f"sqlite:///{folder / 'demo.db'}"
    run_demo(url, folder / "digests", io.StringIO())
    settings = load_settings(None, environ={}, overrides={"database_url": url})
    engine = make_engine(url)
    app = create_app(settings, engine, clock=lambda: datetime(2027, 1, 2, 12, tzinfo=UTC))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
    engine.dispose()


@pytest.fixture(scope="module")
def browser():
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.mark.parametrize("width", [1280, 800, 390])
def test_pages_fit_and_read_well(site, browser, width):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": width, "height": 900})
    try:
        for name, path in PAGES.items():
            page.goto(site + path)
            page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"{name} at {width} px is {overflow} px too wide"
        check_board(page, site)
        check_number_chart(page, site)
        check_prices(page, site)
        check_cjk(page, site)
    finally:
        page.close()


def check_board(page, site):
    page.goto(site + "/")
    assert page.locator("tr.claim-row").count() >= 40
    assert page.locator("h3.theme").count() >= 5
    assert page.locator("tr.change-row").count() >= 5
    first = page.locator("tr.change-row").first.inner_text()
    assert "Initial small-scale deployment" in first


def check_number_chart(page, site):
    page.goto(site + PAGES["number"])
    chart = page.locator("figure.chart svg:visible")  # the small drawing on a phone
    assert chart.count() == 1
    labels = chart.locator("text.y-tick").all_text_contents()
    assert len(labels) >= 3 and labels[-1].endswith(" tok/s/kW")
    values = [float(label.split()[0].replace(",", "")) for label in labels]
    steps = {round(b - a, 9) for a, b in zip(values, values[1:], strict=False)}
    assert len(steps) == 1, labels
    step = steps.pop()
    assert re.fullmatch(r"(1|2|2\.5|5)(0*)", f"{step:g}"), step
    dates = chart.locator("text.x-tick").all_text_contents()
    assert len(dates) >= 3 and any(re.search(r"20\d\d", d) for d in dates)
    assert chart.locator("line.baseline").count() == 1
    assert chart.locator("path.step").count() == 1
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    size = chart.locator("text.y-tick").first.evaluate("e => e.getBoundingClientRect().height")
    assert size >= 9, f"tick labels {size:.1f} px high are too small to read"


def check_prices(page, site):
    page.goto(site + PAGES["prices"])
    rows = page.locator("tr.price-row")
    models = rows.evaluate_all("rows => rows.map(r => r.dataset.model)")
    assert models == ["gpt-4o", "gpt-5.5", "gpt-5.5-mini"]  # realtime is out of the default scope
    assert page.locator("figure.chart").count() == 0  # a table, not a pile of dots
    for index in range(rows.count()):
        box = rows.nth(index).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"] + 1
    assert "output 10 → 8 (-20.0%)" in page.locator("table.prices").inner_text()


def check_cjk(page, site):
    page.goto(site + PAGES["number"])
    quote = page.locator("#sources q").first
    assert "千瓦" in quote.inner_text()
    family = quote.evaluate("el => getComputedStyle(el).fontFamily")
    assert "Noto Sans CJK SC" in family
    glyphs = page.evaluate(CJK_GLYPHS, family)
    assert glyphs == {"distinct": True, "inked": True}, "Chinese renders as empty boxes"
