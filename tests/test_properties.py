"""Property-based: every malformed config or ledger value ends in one line naming the file and key,
exit 2, and nothing written."""

import json
import string
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from db.ledger import CLAIM_FIELDS, KINDS
from monitor.cli import cli
from monitor.config import Settings, WatcherConfig, parse_duration

PROPERTY = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def toml(value) -> str:
    """A TOML literal for the simple values these tests generate."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")  # TOML forbids raw DEL


def not_a_duration(text: str) -> bool:
    try:
        parse_duration(text)
    except ValueError:
        return True
    return False


words = st.text(alphabet=string.ascii_lowercase + "_", min_size=1, max_size=12)
KNOWN = set(Settings.model_fields)
BAD_TOP = st.one_of(
    st.tuples(words.filter(lambda w: w not in KNOWN), st.integers()),
    st.tuples(st.just("failures_alert"), st.integers(max_value=0)),
    st.tuples(st.just("failures_alert"), st.text(max_size=5)),
    st.tuples(st.just("stale_after"), st.text(max_size=8).filter(not_a_duration)),
    st.tuples(
        st.just("timezone"),
        st.text(alphabet=string.ascii_letters + "/", min_size=1, max_size=12).filter(
            lambda t: "/" in t and not t.startswith("/") and not t.endswith("/")
        ),
    ),
    st.tuples(st.just("claims"), st.integers()),
)
BAD_WATCHER = st.one_of(
    st.tuples(st.just("every"), st.text(max_size=8).filter(not_a_duration)),
    st.tuples(
        st.just("url"),
        st.sampled_from(
            ["file:///etc/passwd", "ftp://x/", "javascript:alert(1)", "", "127.0.0.1/feed"]
        ),
    ),
    st.tuples(st.just("timeout"), st.floats(max_value=0, allow_nan=False)),
    st.tuples(words.filter(lambda w: w not in WatcherConfig.model_fields), st.integers()),
)


def run(tmp: Path, config: str, *args):
    path = tmp / "claimwatch.toml"
    path.write_text(config, encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["--config", str(path), *args], env={"CLAIMWATCH_DATABASE_URL": ""}
    )
    return path, result


def check(result, path: Path, *names: str):
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert "\n" not in line and "Traceback" not in line
    assert line.startswith(f"claimwatch: error: {path}")
    for name in names:
        assert name in line, (name, line)


@PROPERTY
@given(bad=BAD_TOP)
def test_bad_top_level_values(tmp_path_factory, bad):
    tmp = tmp_path_factory.mktemp("cfg")
    key, value = bad
    path, result = run(
        tmp, f'database_url = "sqlite:///{tmp}/c.db"\n{key} = {toml(value)}\n', "init"
    )
    check(result, path, key)
    assert not (tmp / "c.db").exists()


@PROPERTY
@given(bad=BAD_WATCHER)
def test_bad_watcher_values(tmp_path_factory, bad):
    tmp = tmp_path_factory.mktemp("cfg")
    key, value = bad
    watcher = {"name": "w", "kind": "feed", "url": "http://127.0.0.1:9/feed", key: value}
    body = "\n".join(f"{k} = {toml(v)}" for k, v in watcher.items())
    path, result = run(
        tmp, f'database_url = "sqlite:///{tmp}/c.db"\n[[watchers]]\n{body}\n', "poll"
    )
    check(result, path, "watchers[0]", key, "'w'")
    assert not (tmp / "c.db").exists()


CLAIM = {"id": "mine.figure", "title": "A figure", "kind": "number", "value": 10, "unit": "W"}
BAD_CLAIM = st.one_of(
    st.tuples(
        st.just("kind"),
        words.filter(lambda w: w not in KINDS),
    ),
    st.tuples(
        st.just("value"),
        st.one_of(st.text(max_size=6), st.lists(st.integers(), max_size=3), st.booleans()),
    ),
    st.tuples(
        st.just("tolerance"),
        st.one_of(
            st.floats(min_value=1, allow_nan=False, allow_infinity=False),
            st.floats(max_value=-0.001, allow_nan=False, allow_infinity=False),
        ),
    ),
    st.tuples(st.just("title"), st.sampled_from(["", 3, ["x"]])),
    st.tuples(st.just("unit"), st.integers()),
    st.tuples(st.just("ladder"), st.lists(st.text(max_size=4), max_size=3)),
    st.tuples(words.filter(lambda w: w not in CLAIM_FIELDS), st.integers()),
)


@PROPERTY
@given(bad=BAD_CLAIM)
def test_bad_ledger_values(tmp_path_factory, bad):
    tmp = tmp_path_factory.mktemp("ledger")
    field, value = bad
    claim = {**CLAIM, field: value}
    ledger = tmp / "mine.toml"
    ledger.write_text(
        "[[claims]]\n"
        + "\n".join(f"{k} = {toml(v)}" for k, v in claim.items())
        + '\nsources = [{publisher = "P", quote = "q"}]\n',
        encoding="utf-8",
    )
    config = f'database_url = "sqlite:///{tmp}/c.db"\nclaims = ["jalapeno", "{ledger}"]\n'
    path = tmp / "claimwatch.toml"
    path.write_text(config, encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["--config", str(path), "init"], env={"CLAIMWATCH_DATABASE_URL": ""}
    )
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert "\n" not in line and f"{ledger}: claim mine.figure: field '" in line
    assert not (tmp / "c.db").exists()
