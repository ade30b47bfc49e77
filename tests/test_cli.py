import json
import re
import subprocess
import sys
from datetime import UTC, datetime

import pytest
from rich.cells import cell_len
from sqlmodel import Session, select

from db.engine import make_engine
from db.models import Claim, ClaimEvent, Item, Observation, WatcherState
from monitor.cli import cli

HOSTILE = "\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07\x1b[2J\x1b[31mred"


def run(runner, *args, db=None, env=None):
    prefix = ["--db", db] if db else []
    return runner.invoke(cli, [*prefix, *args], catch_exceptions=False, env=env)


@pytest.fixture
def initialised(runner, sqlite_url):
    assert run(runner, "init", db=sqlite_url).exit_code == 0
    return sqlite_url


def widest(text: str) -> int:
    return max(cell_len(line) for line in text.splitlines())


def test_init_twice_changes_nothing(runner, sqlite_url):
    first = run(runner, "init", db=sqlite_url)
    second = run(runner, "init", db=sqlite_url)
    assert first.exit_code == 0 and second.exit_code == 0
    assert re.search(r"claims: \d\d added, 0 edited, 0 unchanged", first.output)
    assert re.search(r"claims: 0 added, 0 edited, \d\d unchanged", second.output)


def test_claims_json_lists_the_ledger(runner, initialised):
    result = run(runner, "claims", "--format", "json", db=initialised)
    assert result.exit_code == 0
    rows = json.loads(result.output)
    ids = {r["id"] for r in rows}
    assert {
        "jalapeno.tokens-per-kw.gpt-oss-120b",
        "openai.api-prices",
        "jalapeno.verification",
    } <= ids
    row = next(r for r in rows if r["id"] == "jalapeno.tokens-per-user.deepseek-r1")
    assert row["baseline"] == {"value": 700, "unit": "tok/s/user", "at": "2026-08-25T00:00:00Z"}
    assert row["current"]["value"] == 700
    assert set(row) >= {"id", "title", "kind", "baseline", "current", "verification", "changed_at"}


@pytest.mark.parametrize("columns", [80, 100, 160])
def test_claims_table_fits_the_terminal(runner, initialised, columns):
    result = run(runner, "claims", db=initialised, env={"COLUMNS": str(columns)})
    assert result.exit_code == 0
    assert widest(result.output) <= columns
    assert "85,448" in result.output and "tok/s/kW" in result.output
    if columns >= 100:  # ids stay whole where there is room; values wrap instead
        assert "jalapeno.iso-interactivity.deepseek-r1" in result.output


def test_db_and_config_are_accepted_after_the_command(runner, initialised, tmp_path):
    after = runner.invoke(cli, ["claims", "--format", "json", "--db", initialised])
    assert after.exit_code == 0 and len(json.loads(after.output)) > 40
    config = tmp_path / "c.toml"
    config.write_text(f'database_url = "{initialised}"\n', encoding="utf-8")
    assert runner.invoke(cli, ["claims", "--config", str(config)]).exit_code == 0
    missing = tmp_path / "typo.db"
    served = runner.invoke(cli, ["serve", "--db", f"sqlite:///{missing}"])
    assert served.exit_code == 2 and f"no database at {missing}" in served.output


def test_a_missing_sqlite_file_is_created_only_by_init(runner, tmp_path):
    path = tmp_path / "typo.db"
    for command in (["claims"], ["timeline"], ["watchers"], ["digest"], ["deliver"]):
        result = runner.invoke(cli, ["--db", f"sqlite:///{path}", *command])
        assert result.exit_code == 2, command
        assert result.output.strip() == (
            f"claimwatch: error: no database at {path} (from --db); "
            "create it with 'claimwatch init' or check the path"
        )
        assert not path.exists()
    assert runner.invoke(cli, ["--db", f"sqlite:///{path}", "init"]).exit_code == 0
    assert path.exists()


@pytest.mark.parametrize(
    ("url", "says"),
    [
        (
            "mysql://u@127.0.0.1/db",
            "Claimwatch stores its data in SQLite or PostgreSQL, not 'mysql'",
        ),
        ("postgres://u@127.0.0.1/db", "write postgresql:// (not postgres://)"),
        ("not a url", "is not a URL like sqlite:///claimwatch.db"),
        ("postgresql+asyncpg://u@127.0.0.1/db", "the driver 'asyncpg' is not supported"),
        ("postgresql://u:secret@127.0.0.1/db", None),  # the driver is there: a connection error
    ],
)
def test_database_urls_that_cannot_be_opened_are_one_line(runner, url, says):
    result = runner.invoke(cli, ["--db", url, "claims"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert result.output.startswith("claimwatch: error: ")
    assert "secret" not in result.output
    if says:
        assert says in result.output


def test_postgresql_without_its_driver_names_the_extra(runner, monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if psycopg were not installed
    result = runner.invoke(cli, ["claims", "--db", "postgresql://u@127.0.0.1/db"])
    assert result.exit_code == 2
    assert result.output == (
        "claimwatch: error: database URL 'postgresql://u@127.0.0.1/db' needs the PostgreSQL "
        "driver: pip install 'claimwatch[postgres]'\n"
    )


def test_empty_results_say_why(runner, initialised):
    kind = run(runner, "claims", "--kind", "numbers", db=initialised)
    assert kind.exit_code == 2 and "unknown kind 'numbers'" in kind.output
    assert "did you mean 'number'?" in kind.output
    subject = run(runner, "claims", "--subject", "nosuch", db=initialised)
    assert (
        subject.exit_code == 2 and "no claim has subject 'nosuch' (subjects: amd," in subject.output
    )
    none = run(runner, "claims", "--subject", "openai", "--kind", "range", db=initialised)
    assert none.exit_code == 0
    assert none.output.strip() == "no claims with kind 'range' and subject 'openai'"
    as_json = run(
        runner,
        "claims",
        "--subject",
        "openai",
        "--kind",
        "range",
        "--format",
        "json",
        db=initialised,
    )
    assert as_json.stdout.strip() == "[]" and "no claims with kind 'range'" in as_json.stderr
    window = run(
        runner, "timeline", "--since", "2026-12-10", "--until", "2026-12-01", db=initialised
    )
    assert (
        window.exit_code == 2 and "--since 2026-12-10 is after --until 2026-12-01" in window.output
    )
    quiet = run(runner, "timeline", "--subject", "amd", "--since", "2027-01-01", db=initialised)
    assert (
        quiet.exit_code == 0
        and quiet.output.strip() == "no events for subject 'amd' since 2027-01-01"
    )


def test_timeline_json_shows_baseline_with_comparator_and_source(runner, initialised):
    result = run(
        runner,
        "timeline",
        "jalapeno.tokens-per-kw.gpt-oss-120b",
        "--format",
        "json",
        db=initialised,
    )
    events = json.loads(result.output)
    assert len(events) == 1
    event = events[0]
    assert (event["kind"], event["value"], event["unit"]) == ("baseline", 85448, "tok/s/kW")
    assert event["comparator"] == {"name": "GB200", "value": 44960}
    assert "OpenAI blog" in event["source"] and "85,448" in event["excerpt"]
    assert event["changed"] is False and event["delta_pct"] is None


def test_timeline_csv_and_subject(runner, initialised):
    result = run(runner, "timeline", "--subject", "nvidia", "--format", "csv", db=initialised)
    lines = result.output.splitlines()
    assert lines[0].startswith("claim,at,seen_at,kind,key,value")
    assert {line.split(",")[0] for line in lines[1:]} == {
        "nvidia.gross-margin",
        "nvidia.openai-deal",
        "nvidia.rubin.first-gw",
    }


def _plant(url: str, **fields) -> None:
    """Overwrite a stored baseline event with hostile text, as if a source had said it."""
    engine = make_engine(url)
    with Session(engine) as session:
        event = session.exec(
            select(ClaimEvent).where(ClaimEvent.claim_id == "nvidia.gross-margin")
        ).one()
        for name, value in fields.items():
            setattr(event, name, value)
        session.add(event)
        claim = session.get(Claim, "nvidia.gross-margin")
        spec = json.loads(claim.spec)
        spec["verification"] = HOSTILE
        claim.spec = json.dumps(spec)
        session.add(claim)
        session.commit()
    engine.dispose()


def test_csv_cells_cannot_run_as_formulas(runner, initialised):
    _plant(initialised, source='=HYPERLINK("http://evil.example","x")', excerpt="@SUM(1+1)")
    result = run(runner, "timeline", "nvidia.gross-margin", "--format", "csv", db=initialised)
    row = result.output.splitlines()[1]
    assert ',"\'=HYPERLINK(""http://evil.example"",""x"")",' in row
    assert ",'@SUM(1+1)," in row


def test_terminal_output_carries_no_escape_sequences(runner, initialised):
    _plant(initialised, source=HOSTILE, excerpt=HOSTILE)
    for args in (
        ["timeline", "nvidia.gross-margin"],
        ["timeline", "nvidia.gross-margin", "--format", "csv"],
        ["timeline", "nvidia.gross-margin", "--format", "json"],
        ["claims"],
    ):
        output = run(runner, *args, db=initialised).output
        assert "\x1b" not in output and "\x07" not in output, args
    assert "clickred" in run(runner, "claims", db=initialised).output


def _store_value(url: str, claim_id: str, value: float) -> None:
    engine = make_engine(url)
    now = datetime(2026, 12, 20, tzinfo=UTC)
    with Session(engine) as session:
        session.add(WatcherState(name="w", kind="feed", url="http://127.0.0.1:9/"))
        session.flush()
        item = Item(watcher="w", dedupe_key="k", content_hash="h", seen_at=now)
        session.add(item)
        session.flush()
        session.add(
            Observation(
                claim_id=claim_id,
                value=json.dumps(value),
                value_num=value,
                unit="%",
                at=now,
                seen_at=now,
                source="w",
                changed=True,
                delta_pct=value,
                item_id=item.id,
            )
        )
        session.commit()
    engine.dispose()


def test_absurd_stored_numbers_render_and_json_stays_valid(runner, initialised):
    _store_value(initialised, "nvidia.gross-margin", float("inf"))
    listed = run(runner, "claims", "--format", "json", db=initialised)
    rows = json.loads(listed.output, parse_constant=lambda t: pytest.fail(f"{t} is not JSON"))
    assert next(r for r in rows if r["id"] == "nvidia.gross-margin")["current"]["value"] is None
    table = run(runner, "claims", "--subject", "nvidia", db=initialised)
    assert table.exit_code == 0 and "infinity %" in table.output
    timeline = run(runner, "timeline", "nvidia.gross-margin", db=initialised)
    assert timeline.exit_code == 0 and "infinity %" in timeline.output
    as_json = run(runner, "timeline", "nvidia.gross-margin", "--format", "json", db=initialised)
    json.loads(as_json.output, parse_constant=lambda t: pytest.fail(f"{t} is not JSON"))


def test_unknown_claim_is_usage_error(runner, initialised):
    result = runner.invoke(cli, ["--db", initialised, "timeline", "no.such.claim"])
    assert result.exit_code == 2
    assert "unknown claim id 'no.such.claim'" in result.output


def test_broken_config_exits_2_with_one_line(runner, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[watchers]]\nname = "x"\nkind = "feed"\n', encoding="utf-8")
    result = runner.invoke(cli, ["--config", str(bad), "claims"])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert "bad.toml: watchers[0].url (watcher 'x'): Field required" in result.output
    assert "Traceback" not in result.output


def test_broken_ledger_exits_2_and_writes_nothing(runner, tmp_path, sqlite_url):
    ledger = tmp_path / "mine.toml"
    ledger.write_text(
        '[[claims]]\nid = "m.x"\ntitle = "X"\nkind = "number"\nvalue = "lots"\nsources = [{publisher = "p"}]\n',
        encoding="utf-8",
    )
    config = tmp_path / "c.toml"
    config.write_text(
        f'claims = ["jalapeno", "{ledger}"]\ndatabase_url = "{sqlite_url}"\n', encoding="utf-8"
    )
    result = runner.invoke(cli, ["--config", str(config), "init"])
    assert result.exit_code == 2
    assert "mine.toml: claim m.x: field 'value'" in result.output
    assert not (tmp_path / "claimwatch.db").exists()


def test_config_found_in_working_directory(runner, tmp_path):
    (tmp_path / "claimwatch.toml").write_text("bogus = 1\n", encoding="utf-8")
    result = runner.invoke(cli, ["claims"])
    assert result.exit_code == 2 and "claimwatch.toml: bogus: unknown key" in result.output


def test_unreachable_database_is_one_line(runner):
    result = runner.invoke(cli, ["--db", "postgresql://nobody@127.0.0.1:1/none", "claims"])
    assert result.exit_code == 2
    assert result.output.startswith("claimwatch: error: database error:")


def test_help_imports_no_database_web_or_config_library():
    code = (
        "import sys\nfrom monitor.cli import main\nsys.argv = ['claimwatch', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = {'sqlalchemy', 'sqlmodel', 'alembic', 'pydantic', 'starlette', 'httpx', "
        "'feedparser', 'apscheduler', 'jinja2', 'rich'}\n"
        "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "Usage: claimwatch" in out.stdout
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_poll_ends_with_a_summary_in_words_and_exit_1_on_failure(
    runner, server, tmp_path, sqlite_url
):
    from .conftest import fixture_bytes

    server.expect_request("/en.rss").respond_with_data(
        fixture_bytes("feed/retest_en.rss"), content_type="application/xml"
    )
    server.expect_request("/gone").respond_with_data("gone", status=410)
    long_path = "/" + "a-very-long-path-segment/" * 6 + "feed.xml"
    config = tmp_path / "c.toml"
    config.write_text(
        f'database_url = "{sqlite_url}"\n'
        f'[[watchers]]\nname = "good"\nkind = "feed"\nurl = "{server.url_for("/en.rss")}"\n'
        f'[[watchers]]\nname = "gone"\nkind = "feed"\nurl = "{server.url_for("/gone")}"\n'
        f'[[watchers]]\nname = "down"\nkind = "feed"\nurl = "http://127.0.0.1:9{long_path}"\n',
        encoding="utf-8",
    )
    result = runner.invoke(cli, ["poll", "--config", str(config)], env={"COLUMNS": "100"})
    assert result.exit_code == 1
    assert "3 polled: 1 ok, 1 unreachable, 1 HTTP error; 4 new items," in result.output
    assert "failed: gone, down (see 'claimwatch watchers')" in result.output
    table = runner.invoke(cli, ["watchers", "--config", str(config)], env={"COLUMNS": "100"})
    assert widest(table.output) <= 100
    flat = " ".join(table.output.split())
    assert "HTTP 410" in flat and "cannot connect" in flat  # the reason, not the URL, is shown
    again = runner.invoke(cli, ["poll", "good", "--config", str(config)])
    assert again.exit_code == 0 and "1 polled: 1 ok; 0 new items" in again.output


def test_run_says_where_alerts_go_and_when_it_polls_next(make_settings, tmp_path):
    from monitor.cli import App, _startup_lines

    settings = make_settings(
        [{"name": "w0", "kind": "feed", "url": "http://127.0.0.1:9/", "every": "10m"}]
    )
    app = App(db=settings.database_url)
    app.command = "init"
    engine, _ = app.open()
    lines = _startup_lines(settings, engine)
    assert lines[0].startswith("Claimwatch is running: 1 watcher, database sqlite:///")
    assert "Alerts go to: this terminal (no Slack webhook or immediate email configured)." in lines
    assert "Daily digest: not mailed (set [alerts.email] smtp_host and recipients)." in lines
    assert any(
        re.match(r"Next poll: w0 at \d{4}-\d\d-\d\d \d\d:\d\d \(in \d+ s\)\.", x) for x in lines
    )


def test_run_reports_a_line_a_minute_and_warns_of_failures(make_settings, caplog):
    from db.models import Alert
    from monitor.cli import App, Ticker

    settings = make_settings(
        [
            {"name": f"w{i}", "kind": "feed", "url": f"http://127.0.0.1:9/{i}", "every": "1m"}
            for i in range(3)
        ]
    )
    app = App(db=settings.database_url)
    app.command = "init"
    engine, _ = app.open()
    lines: list[str] = []
    ticker = Ticker(settings, engine, echo=lines.append)
    t0 = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)
    ticker.since = t0
    assert ticker.tick(t0) is None  # the counts so far
    with Session(engine) as session:
        for i in range(3):
            session.add(
                WatcherState(name=f"w{i}", kind="feed", url=f"http://127.0.0.1:9/{i}", polls=1)
            )
        session.flush()
        down = session.get(WatcherState, "w1")
        down.consecutive_failures, down.last_error_kind = 1, "fetch"
        down.last_error = "http://127.0.0.1:9/1: cannot connect (refused)"
        down.last_error_at = t0.replace(second=30)
        session.add(
            Alert(
                event_key="e1",
                channel="console",
                kind="change",
                status="sent",
                created_at=t0,
                next_attempt_at=t0,
                sent_at=t0.replace(second=40),
            )
        )
        session.commit()
    with caplog.at_level("WARNING", logger="claimwatch"):
        line = ticker.tick(t0.replace(minute=1))
    assert line == "20:01  3 polls: 2 ok, 1 unreachable; 1 alert sent"
    assert lines == [line]
    assert "watcher w1: unreachable: cannot connect (refused)" in caplog.text
    assert ticker.tick(t0.replace(minute=2)) is None  # a quiet minute says nothing
    with Session(engine) as session:
        for state in session.exec(select(WatcherState)):
            state.polls += 2
            state.consecutive_failures += 2
            state.last_error_kind = "fetch"
            state.last_error = f"{state.url}: cannot connect (refused)"
            session.add(state)
        session.commit()
    offline = ticker.tick(t0.replace(minute=3))
    assert offline == (
        "20:03  6 polls: 6 unreachable; 0 alerts sent "
        "(every source unreachable: is this machine offline?)"
    )
