"""The offline demo: a month of the story through the real pipeline."""

import re

from monitor.cli import cli


def test_demo_runs_the_story_offline(runner, tmp_path):
    out = tmp_path / "digests"
    result = runner.invoke(cli, ["demo", "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = result.output
    for expected in (
        "ALERT How the results were verified changed (jalapeno.verification)",
        "baseline 85,448 tok/s/kW → now 80,100 tok/s/kW (-6.3%)",
        "baseline 18,200 tok/s/kW → now 16,500 tok/s/kW (-9.3%)",
        "ALERT OpenAI API prices [gpt-5.5] changed",
        "gpt-5.5: output 10 → 8 USD/1M",
        "ALERT AgentX results (long-context, multi-turn agent part of InferenceX) changed",
        "ALERT Jalapeño in InferenceX's public results changed",
        "baseline not disclosed → now 72 %",
        "baseline planned → now met",
        "watcher openai-pricing is failing",
        "watcher openai-pricing recovered",
        "First 1 GW of Nvidia Rubin systems: overdue since 2026-12-31",
        "Timeline of every claim that changed:",
    ):
        assert expected in text, expected
    assert "recipes" not in re.findall(r"ALERT .*", text)  # peppers never alert
    assert text.count("ALERT Peak throughput per kW, GPT-OSS 120B changed") == 1
    digests = sorted(out.glob("digest-*.html"))
    assert len(digests) == 31 and digests[0].name == "digest-2026-12-03.html"
    busy = (out / "digest-2026-12-09.html").read_text(encoding="utf-8")
    assert (
        busy.startswith("<!doctype html>") and "80,100 tok/s/kW" in busy and "22 days left" in busy
    )
    quiet = (out / "digest-2026-12-04.html").read_text(encoding="utf-8")
    assert "No claim changed in these 24 hours." in quiet


def test_demo_keeps_its_database_with_db_after_the_command(runner, tmp_path, sqlite_url):
    result = runner.invoke(cli, ["demo", "--db", sqlite_url, "--out", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    timeline = runner.invoke(
        cli, ["timeline", "jalapeno.agentx", "--format", "csv", "--db", sqlite_url]
    ).output
    assert "results published" in timeline
    again = runner.invoke(cli, ["demo", "--db", sqlite_url, "--out", str(tmp_path / "e")])
    assert again.exit_code == 2
    assert again.output == (
        f"claimwatch: error: {sqlite_url} already holds polled data; a replay would add a second "
        "story to it (use a new database, or --force)\n"
    )
    assert not (tmp_path / "e").exists()


def test_demo_into_a_freshly_initialised_database(runner, tmp_path, sqlite_url):
    assert runner.invoke(cli, ["init", "--db", sqlite_url]).exit_code == 0
    result = runner.invoke(cli, ["--db", sqlite_url, "demo", "--out", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    assert "1 new item " in result.output and "1 new items" not in result.output
