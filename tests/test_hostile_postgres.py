"""PostgreSQL under concurrent writers and hostile text: two processes, each polling one of two
sources that publish the same change at the same moment, store each change and alert once; a NUL
byte in a title is stripped, not a DataError that crashes the poll."""

import contextlib
import json
import subprocess
import sys
import threading

from sqlmodel import Session, select
from werkzeug import Response

from db.engine import make_engine
from db.models import Alert, Item, Observation, WatcherState
from monitor.service import Poller, open_database

CLAIM = "jalapeno.tokens-per-kw.gpt-oss-120b"
ROUNDS = 5


def feed(source: str, round_: int, value: int) -> bytes:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Source {source}</title>
<item><title>Independent re-test puts OpenAI's Jalapeño at {value:,} tokens/s/kW on GPT-OSS 120B</title>
<link>http://127.0.0.1/{source}/{round_}</link><guid isPermaLink="false">{source}-{round_}</guid>
<description>An independent lab re-ran InferenceX on OpenAI's inference chip.</description>
</item></channel></rss>""".encode()


def test_two_processes_store_each_change_once(server, tmp_path, pg_url):
    current = {"round": 0}
    barrier = threading.Barrier(2, timeout=20)

    def respond(request):
        source = request.path.strip("/").split(".")[0]
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait()  # both sources answer at the same moment
        value = 80_100 - 5_000 * current["round"]
        return Response(feed(source, current["round"], value), content_type="application/rss+xml")

    configs = []
    for source in ("a", "b"):
        server.expect_request(f"/{source}.rss").respond_with_handler(respond)
        path = tmp_path / f"{source}.toml"
        path.write_text(
            f'database_url = "{pg_url}"\n[[watchers]]\nname = "{source}"\nkind = "feed"\n'
            f'url = "{server.url_for(f"/{source}.rss")}"\n',
            encoding="utf-8",
        )
        configs.append(path)
    subprocess.run(  # the schema first, so the two processes race on polls, not on migrations
        [sys.executable, "-m", "monitor", "--config", str(configs[0]), "init"],
        check=True,
        capture_output=True,
        timeout=120,
    )
    for round_ in range(ROUNDS):
        current["round"] = round_
        barrier.reset()
        processes = [
            subprocess.Popen(
                [sys.executable, "-m", "monitor", "--config", str(c), "poll"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            for c in configs
        ]
        for process in processes:
            _, err = process.communicate(timeout=120)
            assert process.returncode == 0, err.decode()[-2000:]
    engine = make_engine(pg_url)
    with Session(engine) as session:
        changes = list(
            session.exec(
                select(Observation)
                .where(Observation.changed, Observation.claim_id == CLAIM)
                .order_by(Observation.id)
            )
        )
        all_changes = list(session.exec(select(Observation).where(Observation.changed)))
        alerts = list(session.exec(select(Alert).where(Alert.kind == "change")))
        items = list(session.exec(select(Item)))
    engine.dispose()
    assert len(items) == 2 * ROUNDS  # each process stored its own source's items
    values = [json.loads(o.value) for o in changes]
    assert values == [80_100 - 5_000 * r for r in range(ROUNDS)]  # each change once, in order
    assert [o.change_seq for o in changes] == list(range(1, ROUNDS + 1))
    assert len(alerts) == len(all_changes)  # alerts == changes
    assert {a.status for a in alerts} == {"sent"}


def test_a_nul_in_a_title_is_stripped_on_postgresql(server, make_settings, pg_url):
    body = feed("n", 0, 80_100).replace(
        b"Independent re-test", b"Independent\x00 re-\x07test\x1b[2J"
    )
    server.expect_request("/nul.rss").respond_with_data(body, content_type="application/rss+xml")
    settings = make_settings(
        [{"name": "nul", "kind": "feed", "url": server.url_for("/nul.rss")}], database_url=pg_url
    )
    engine, _ = open_database(settings)
    poller = Poller(settings, engine)
    report = poller.poll("nul")
    poller.close()
    assert report.outcome == "ok", report.error
    with Session(engine) as session:
        titles = [i.title for i in session.exec(select(Item))]
        titles += [o.title for o in session.exec(select(Observation))]
        state = session.get(WatcherState, "nul")
    engine.dispose()
    assert titles and state.health == "ok"
    for title in titles:
        assert "\x00" not in title and "\x07" not in title and "\x1b" not in title
        assert "Independent" in title and "test" in title
