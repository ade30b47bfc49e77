import json
import re

from monitor.cli import cli


def run(runner, *args, db=None):
    prefix = ["--db", db] if db else []
    return runner.invoke(cli, [*prefix, *args], catch_exceptions=False)


def test_init_twice_changes_nothing(runner, sqlite_url):
    first = run(runner, "init", db=sqlite_url)
    second = run(runner, "init", db=sqlite_url)
    assert first.exit_code == 0 and second.exit_code == 0
    assert re.search(r"claims: \d\d added, 0 edited, 0 unchanged", first.output)
    assert re.search(r"claims: 0 added, 0 edited, \d\d unchanged", second.output)


def test_claims_json_lists_the_ledger(runner, sqlite_url):
    result = run(runner, "claims", "--format", "json", db=sqlite_url)
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


def test_claims_table_is_aligned(runner, sqlite_url):
    lines = run(runner, "claims", db=sqlite_url).output.splitlines()
    assert lines[0].startswith("claim ")
    column = lines[0].index("kind")
    assert all(line[column - 2 : column] == "  " for line in lines[2:])


def test_timeline_json_shows_baseline_with_comparator_and_source(runner, sqlite_url):
    result = run(
        runner, "timeline", "jalapeno.tokens-per-kw.gpt-oss-120b", "--format", "json", db=sqlite_url
    )
    events = json.loads(result.output)
    assert len(events) == 1
    event = events[0]
    assert (event["kind"], event["value"], event["unit"]) == ("baseline", 85448, "tok/s/kW")
    assert event["comparator"] == {"name": "GB200", "value": 44960}
    assert "OpenAI blog" in event["source"] and "85,448" in event["excerpt"]
    assert event["changed"] is False and event["delta_pct"] is None


def test_timeline_csv_and_subject(runner, sqlite_url):
    result = run(runner, "timeline", "--subject", "nvidia", "--format", "csv", db=sqlite_url)
    lines = result.output.splitlines()
    assert lines[0].startswith("claim,at,seen_at,kind,key,value")
    assert {line.split(",")[0] for line in lines[1:]} == {
        "nvidia.gross-margin",
        "nvidia.openai-deal",
        "nvidia.rubin.first-gw",
    }


def test_unknown_claim_is_usage_error(runner, sqlite_url):
    result = runner.invoke(cli, ["--db", sqlite_url, "timeline", "no.such.claim"])
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
