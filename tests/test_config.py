import pytest

from monitor.config import ConfigError, load_settings, parse_duration


def write(tmp_path, text):
    path = tmp_path / "claimwatch.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_no_config_uses_builtins():
    settings = load_settings(None, environ={})
    assert settings.database_url == "sqlite:///claimwatch.db"
    assert settings.claims == ["jalapeno", "rubin"]
    kinds = {w.kind for w in settings.watchers}
    assert kinds == {"feed", "prices", "benchmark", "page"}
    assert any("rsshub.app/weibo/keyword" in w.url for w in settings.watchers)


def test_listed_watchers_replace_the_builtins(tmp_path):
    path = write(
        tmp_path,
        '[[watchers]]\nname = "one"\nkind = "feed"\nurl = "http://127.0.0.1:9/f"\nevery = "5m"\n',
    )
    settings = load_settings(path, environ={})
    assert [w.name for w in settings.watchers] == ["one"]
    assert settings.watchers[0].interval.total_seconds() == 300


def test_environment_overrides_file(tmp_path):
    path = write(tmp_path, 'database_url = "sqlite:///a.db"\n')
    env = {
        "CLAIMWATCH_DATABASE_URL": "sqlite:///b.db",
        "CLAIMWATCH_SLACK_WEBHOOK_URL": "http://127.0.0.1:1/hook",
        "CLAIMWATCH_SMTP_PASSWORD": "pw",
    }
    settings = load_settings(path, environ=env)
    assert settings.database_url == "sqlite:///b.db"
    assert settings.alerts.slack.webhook_url == "http://127.0.0.1:1/hook"
    assert settings.alerts.email.password == "pw"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("colour = 1\n", "colour: unknown key"),
        ('timezone = "Mars/Olympus"\n', "timezone: 'Mars/Olympus' is not a known time zone"),
        ("[http]\nmax_redirects = 99\n", "http.max_redirects"),
        (
            '[[watchers]]\nname = "w"\nkind = "feed"\nurl = "file:///etc/passwd"\n',
            "watchers[0].url (watcher 'w'): 'file:///etc/passwd' is not an http(s) URL",
        ),
        (
            '[[watchers]]\nname = "w"\nkind = "feed"\nurl = "http://x/"\nevery = "soon"\n',
            "watchers[0].every (watcher 'w'): 'soon' is not a duration",
        ),
        (
            '[alerts.email]\npassword = "hunter2"\n',
            "alerts.email.password: keep the SMTP password in CLAIMWATCH_SMTP_PASSWORD",
        ),
        ('[alerts.email]\ndigest_at = "25:00"\n', "alerts.email.digest_at"),
        ("name = [\n", "not valid TOML"),
    ],
)
def test_bad_config_is_one_line_naming_file_and_key(tmp_path, text, expected):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_settings(path, environ={})
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    assert expected in message
    assert "\n" not in message
    assert "hunter2" not in message


def test_missing_config_file(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        load_settings(tmp_path / "nope.toml", environ={})


@pytest.mark.parametrize(
    ("text", "seconds"), [("45s", 45), ("30m", 1800), ("6h", 21600), ("2d", 172800), ("1.5h", 5400)]
)
def test_durations(text, seconds):
    assert parse_duration(text).total_seconds() == seconds


@pytest.mark.parametrize("text", ["", "10", "5 years", "0m", "-1h"])
def test_bad_durations(text):
    with pytest.raises(ValueError):
        parse_duration(text)
