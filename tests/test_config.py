"""Configuration: environment, .env, and a clear exit without a token."""

from __future__ import annotations

import logging
import os
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot import config as config_module
from bot.config import (
    Config,
    ConfigError,
    check_database,
    default_dotenv,
    load_config,
    load_database_url,
    project_root,
    shards_of,
)
from bot.storage import DEFAULT_DATABASE_URL, Shards, check_database_url
from tests.cli import bot_environ, run_bot

ROOT = Path(__file__).resolve().parents[1]


def test_missing_token_explains_how_to_get_one(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_config({}, tmp_path / ".env")
    message = str(info.value)
    assert "DISCORD_TOKEN" in message
    assert ".env" in message
    assert "discord.com/developers/applications" in message


def test_dotenv_is_read_and_environment_wins(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        "# comment\nDISCORD_TOKEN='from-file'\nLOG_LEVEL=debug\n"
        "export DISCORD_GUILD_IDS=1, 2\nDATABASE_URL=sqlite:///x.db\n",
        encoding="utf-8",
    )
    config = load_config({"DISCORD_TOKEN": "from-env"}, dotenv)
    assert config.token == "from-env"
    assert config.log_level == "DEBUG"
    assert config.guild_ids == (1, 2)
    assert config.database_url == "sqlite:///x.db"


def test_defaults(tmp_path: Path) -> None:
    config = load_config({"DISCORD_TOKEN": "t"}, tmp_path / ".env")
    assert config.database_url == DEFAULT_DATABASE_URL
    assert config.guild_ids == ()
    assert config.api_base is None and config.gateway_url is None
    assert config.web_port is None and config.web_base_url is None  # no web pages


def test_web_port_turns_the_pages_on(tmp_path: Path) -> None:
    """WEB_PORT alone: links point at this machine; WEB_BASE_URL names the public
    address (its trailing slash dropped, so links join cleanly)."""
    env = {"DISCORD_TOKEN": "t", "WEB_PORT": "8080"}
    config = load_config(env, tmp_path / ".env")
    assert (config.web_port, config.web_host, config.web_base_url) == (
        8080,
        "0.0.0.0",
        "http://localhost:8080",
    )
    env |= {"WEB_BASE_URL": "https://games.example.org/", "WEB_HOST": "127.0.0.1"}
    config = load_config(env, tmp_path / ".env")
    assert (config.web_host, config.web_base_url) == ("127.0.0.1", "https://games.example.org")
    assert not config.web_behind_proxy
    assert load_config(env | {"WEB_BEHIND_PROXY": "1"}, tmp_path / ".env").web_behind_proxy


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DISCORD_GUILD_IDS", "abc"),
        ("DISCORD_GUILD_IDS", "12,-5"),
        ("DISCORD_GUILD_IDS", "0"),
        ("DISCORD_GUILD_IDS", "1.5"),
        ("DISCORD_GUILD_IDS", "1_000"),
        ("DISCORD_GUILD_IDS", str(2**64)),
        ("LOG_LEVEL", "LOUD"),
        ("LOBBY_EXPIRY_HOURS", "soon"),
        ("LOBBY_EXPIRY_HOURS", "-1"),
        ("LOBBY_EXPIRY_HOURS", "-0.5"),
        ("LOBBY_EXPIRY_HOURS", "nan"),
        ("LOBBY_EXPIRY_HOURS", "inf"),
        ("CLOCK_CHECK_SECONDS", "0"),
        ("CLOCK_CHECK_SECONDS", "often"),
        ("DISCORD_API_BASE", "127.0.0.1:8080/api/v10"),
        ("DISCORD_API_BASE", "http://"),
        ("DISCORD_GATEWAY_URL", "http://127.0.0.1:8080/gateway"),
        ("DATABASE_URL", "mysql://host/db"),
        ("DATABASE_URL", "postgresql://host/db?pool=0"),
        ("DATABASE_URL", "sqlite:///"),
        ("DISCORD_DEBUG_PAYLOADS", "maybe"),
        ("DISCORD_DEBUG_PAYLOADS", "2"),
        ("WEB_PORT", "0"),
        ("WEB_PORT", "65536"),
        ("WEB_PORT", "http"),
        ("WEB_BASE_URL", "caravanserai.example"),
        ("WEB_BASE_URL", "https://caravanserai.example"),  # no WEB_PORT: nothing would serve it
    ],
)
def test_bad_values_are_refused(tmp_path: Path, name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name) as info:
        load_config({"DISCORD_TOKEN": "t", name: value}, tmp_path / ".env")
    assert "\n" not in str(info.value)  # one line


def test_numbers_within_range_are_accepted(tmp_path: Path) -> None:
    config = load_config(
        {
            "DISCORD_TOKEN": "t",
            "DISCORD_GUILD_IDS": " 1574539749383864323 , 42,",
            "LOBBY_EXPIRY_HOURS": "0",
            "DISCORD_API_BASE": "http://127.0.0.1:8080/api/v10",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8080/gateway",
        },
        tmp_path / ".env",
    )
    assert config.guild_ids == (1574539749383864323, 42)
    assert config.lobby_expiry_hours == 0
    assert config.clock_check_seconds == 60
    assert config.api_base == "http://127.0.0.1:8080/api/v10"
    assert config.gateway_url == "ws://127.0.0.1:8080/gateway"
    assert load_config({"DISCORD_TOKEN": "t", "LOBBY_EXPIRY_HOURS": "1.5"}, tmp_path / ".env")


def test_a_postgresql_database_is_accepted(tmp_path: Path) -> None:
    url = "postgresql://caravan:secret@db.example/games?pool=20"
    config = load_config({"DISCORD_TOKEN": "t", "DATABASE_URL": url}, tmp_path / ".env")
    assert config.database_url == url


def test_the_token_is_in_no_repr(tmp_path: Path) -> None:
    token = "MTIzNDU2Nzg5.secret-token-value"
    config = load_config({"DISCORD_TOKEN": token, "LOG_LEVEL": "debug"}, tmp_path / ".env")
    assert config.token == token
    for text in (repr(config), str(config), f"{config}", f"{config!r}", repr([config])):
        assert token not in text and "secret" not in text
        assert "Config(" in text and "log_level='DEBUG'" in text  # the rest is still shown
    assert "token" not in repr(Config(token="t" * 70))


def test_the_database_password_is_in_no_repr_nor_log(tmp_path: Path) -> None:
    """A PostgreSQL password (in the URL's user part or its query) is masked in the
    repr, str and any log line showing the Config; the log formatter is also given
    it to scrub, and check_database names the database without it."""
    from bot.__main__ import RedactingFormatter

    url = "postgresql://caravan:s%40cret-pw@db.example/games?pool=20&sslpassword=key-pass"
    config = load_config({"DISCORD_TOKEN": "tok-" * 10, "DATABASE_URL": url}, tmp_path / ".env")
    assert config.database_url == url  # the bot still connects with it
    shown = "postgresql://caravan:***@db.example/games?pool=20&sslpassword=***"
    record = logging.LogRecord("bot", logging.INFO, __file__, 1, "config: %s", (config,), None)
    for text in (repr(config), str(config), f"{config}", repr([config]), record.getMessage()):
        assert "s%40cret-pw" not in text and "s@cret-pw" not in text and "key-pass" not in text
        assert "tok-" not in text
        assert f"database_url={shown!r}" in text and "log_level='INFO'" in text
    assert check_database(config) == shown
    scrubbed = RedactingFormatter("%(message)s", config.secrets).format(
        logging.LogRecord("asyncpg", logging.ERROR, __file__, 1, "%s", ("no s@cret-pw",), None)
    )
    assert scrubbed == "no [redacted]"
    # Other URLs may carry a password too; URLs without one are shown as they are.
    proxied = Config(token="t", api_base="https://bot:hunter22@proxy.example/api/v10")
    assert "hunter22" not in repr(proxied) and "bot:***@proxy.example" in repr(proxied)
    plain = Config(token="t", database_url="sqlite:///data/x.db?password=nope")
    assert "nope" not in repr(plain)
    assert "database_url='sqlite:///data/games.db'" in repr(
        Config(token="t", database_url="sqlite:///data/games.db")
    )


def test_debug_payloads_flag(tmp_path: Path) -> None:
    def flag(value: str | None) -> bool:
        env = {"DISCORD_TOKEN": "t"} | ({} if value is None else {"DISCORD_DEBUG_PAYLOADS": value})
        return load_config(env, tmp_path / ".env").debug_payloads

    assert flag(None) is False
    assert [flag(v) for v in ("1", "true", "YES", " on ")] == [True] * 4
    assert [flag(v) for v in ("0", "false", "No", "off")] == [False] * 4
    for documented in (ROOT / "README.md", ROOT / ".env.example"):
        assert "DISCORD_DEBUG_PAYLOADS" in documented.read_text(encoding="utf-8")


def test_database_url_alone_needs_no_token(tmp_path: Path) -> None:
    """``python -m bot backup`` reads DATABASE_URL as the bot does, without DISCORD_TOKEN."""
    dotenv = tmp_path / ".env"
    assert load_database_url({}, dotenv) == DEFAULT_DATABASE_URL
    dotenv.write_text("DATABASE_URL=sqlite:///from-file.db\n")
    assert load_database_url({}, dotenv) == "sqlite:///from-file.db"
    assert load_database_url({"DATABASE_URL": "x.db"}, dotenv) == "x.db"
    other = tmp_path / "other.env"
    other.write_text("DATABASE_URL=sqlite:///other.db\n")
    assert load_database_url({"CARAVANSERAI_ENV_FILE": str(other)}) == "sqlite:///other.db"
    with pytest.raises(ConfigError, match="DATABASE_URL: unsupported scheme"):
        load_database_url({"DATABASE_URL": "mysql://user:pw@host/db"}, dotenv)


# --------------------------------------------------------------------------- where .env is


def fake_project(tmp_path: Path, marker: str | None) -> Path:
    """A folder holding a ``bot`` package (and ``marker``, e.g. README.md); its package dir."""
    package = tmp_path / "project" / "bot"
    package.mkdir(parents=True)
    if marker is not None:
        (package.parent / marker).write_text("")
    return package


@pytest.mark.parametrize("marker", ["README.md", "pyproject.toml"])
def test_dotenv_is_next_to_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, marker: str
) -> None:
    package = fake_project(tmp_path, marker)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert project_root(package) == package.parent
    assert default_dotenv(package) == package.parent / ".env"


def test_dotenv_of_an_installed_package_is_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = fake_project(tmp_path, None)  # e.g. site-packages/bot: no README.md beside it
    monkeypatch.chdir(tmp_path)
    assert project_root(package) is None
    assert default_dotenv(package) == tmp_path / ".env"


def test_this_projects_dotenv_is_beside_readme() -> None:
    assert project_root() == ROOT
    assert default_dotenv() == ROOT / ".env"


def test_load_config_reads_the_projects_dotenv_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = fake_project(tmp_path, "README.md")
    (package.parent / ".env").write_text("DISCORD_TOKEN=from-file\nLOG_LEVEL=debug\n")
    monkeypatch.setattr(config_module, "PACKAGE_DIR", package)
    monkeypatch.chdir(tmp_path)
    config = load_config({"LOG_LEVEL": "warning"})
    assert config.token == "from-file"
    assert config.log_level == "WARNING"  # the environment wins


def test_env_file_variable_names_another_dotenv(tmp_path: Path) -> None:
    other = tmp_path / "secrets.env"
    other.write_text("DISCORD_TOKEN=from-secrets\n")
    assert load_config({"CARAVANSERAI_ENV_FILE": str(other)}).token == "from-secrets"
    with pytest.raises(ConfigError, match="DISCORD_TOKEN is not set"):
        load_config({"CARAVANSERAI_ENV_FILE": os.devnull})
    with pytest.raises(ConfigError, match="CARAVANSERAI_ENV_FILE=.*no such file"):
        load_config({"CARAVANSERAI_ENV_FILE": str(tmp_path / "missing.env")})


def test_unreadable_dotenv_is_one_line(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_bytes(b"DISCORD_TOKEN=\xff\xfe\n")
    with pytest.raises(ConfigError, match=r"Cannot read .*\.env"):
        load_config({}, dotenv)


# --------------------------------------------------------------------------- the database file


def test_in_memory_database_needs_no_file() -> None:
    assert check_database_url("sqlite://") == check_database_url("sqlite:///:memory:") == ":memory:"


def test_database_folders_are_tried_for_real_and_removed(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "er" / "games.db"
    assert check_database_url(f"sqlite:///{target}") == str(target)
    assert os.listdir(tmp_path) == []  # created to be sure, then removed


def test_relative_database_path_is_shown_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert check_database_url("sqlite:///data/games.db") == str(tmp_path / "data" / "games.db")
    assert check_database_url("data/games.db") == str(tmp_path / "data" / "games.db")
    assert os.listdir(tmp_path) == []


def test_existing_database_is_accepted_and_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "games.db"
    with closing(sqlite3.connect(target)) as db, db:
        db.execute("CREATE TABLE t (x)")
    before = target.read_bytes()
    assert check_database_url(f"sqlite:///{target}") == str(target)
    assert target.read_bytes() == before
    assert os.listdir(tmp_path) == ["games.db"]
    empty = tmp_path / "empty.db"  # SQLite accepts an empty file as a new database
    empty.write_bytes(b"")
    assert check_database_url(str(empty)) == str(empty)


def test_impossible_database_paths_name_the_file(tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    text = tmp_path / "notes.db"
    text.write_text("hello")
    cases = {
        f"sqlite:///{a_file}/sub/games.db": f"{a_file} is a file, not a folder",
        f"sqlite:///{a_file}/games.db": f"{a_file} is a file, not a folder",
        f"sqlite:///{tmp_path}": f"{tmp_path} is a folder",
        f"sqlite:///{text}": f"{text} is not a SQLite database",
    }
    for url, expected in cases.items():
        with pytest.raises(ConfigError) as info:
            check_database(Config(token="t", database_url=url))
        assert str(info.value).startswith("DATABASE_URL: ")
        assert expected in str(info.value)
    assert sorted(os.listdir(tmp_path)) == ["a-file", "notes.db"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into read-only folders")
def test_read_only_database_folder_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    existing = folder / "old.db"
    with closing(sqlite3.connect(existing)):
        pass

    def refused(path: Path, message: str) -> None:
        with pytest.raises(ValueError, match=re.escape(message)):
            check_database_url(f"sqlite:///{path}")

    folder.chmod(0o555)
    try:
        refused(folder / "games.db", f"cannot create {folder}/games.db: Permission denied")
        refused(folder / "sub" / "games.db", f"cannot create the folder {folder}/sub for")
        # SQLite needs the folder too, for the -wal and -shm files.
        refused(existing, f"cannot write in {folder}, where SQLite keeps old.db-wal")
    finally:
        folder.chmod(0o755)
    existing.chmod(0o444)
    refused(existing, f"cannot write {existing}: Permission denied")


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="needs Linux sysfs")
def test_read_only_file_system_is_named() -> None:
    # sysfs refuses new files even to root.
    with pytest.raises(ValueError, match="cannot create /sys/caravanserai-test.db: "):
        check_database_url("sqlite:////sys/caravanserai-test.db")


def test_python_m_bot_without_token_exits_with_help(tmp_path: Path) -> None:
    result = run_bot(env=bot_environ(), cwd=tmp_path)  # no token, nor the developer's .env
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert "Reset Token" in result.stderr


def test_shards_and_cpu_workers(tmp_path: Path) -> None:
    def config(**env: str) -> Config:
        return load_config({"DISCORD_TOKEN": "t", **env}, tmp_path / ".env")

    unsharded = config()
    assert (unsharded.shard_count, unsharded.shard_ids) == (None, None)
    assert shards_of(unsharded) is None  # every shard here: every guild's work
    assert unsharded.cpu_workers >= 1  # one per core by default
    assert config(CPU_WORKERS="0").cpu_workers == 0
    assert config(CPU_WORKERS="3").cpu_workers == 3
    assert unsharded.warm_workers  # warm by default: the first boards are not slower
    assert not config(WARM_WORKERS="0").warm_workers

    everything = config(SHARD_COUNT="4")
    assert everything.shard_ids == (0, 1, 2, 3) and shards_of(everything) is None
    some = config(SHARD_COUNT="4", SHARD_IDS=" 3, 0-1 ")
    assert (some.shard_count, some.shard_ids) == (4, (0, 1, 3))
    assert shards_of(some) == Shards(4, frozenset({0, 1, 3}))
    assert shards_of(config(SHARD_COUNT="2", SHARD_IDS="1")) == Shards(2, frozenset({1}))

    for env, message in [
        ({"SHARD_IDS": "1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT='0'"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT='two'"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "numbered 0 to 1"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "numbered 0 to 3"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "a"}, "'a' is not a shard number"),
        ({"CPU_WORKERS": "-1"}, "CPU_WORKERS='-1'"),
        ({"CPU_WORKERS": "many"}, "CPU_WORKERS='many'"),
        ({"WARM_WORKERS": "maybe"}, "WARM_WORKERS='maybe'"),
    ]:
        with pytest.raises(ConfigError, match=message):
            config(**env)
    for documented in (ROOT / "README.md", ROOT / ".env.example"):
        text = documented.read_text(encoding="utf-8")
        names = ("SHARD_COUNT", "SHARD_IDS", "CPU_WORKERS", "WARM_WORKERS")
        assert all(name in text for name in names)


def test_answer_within_seconds_is_a_budget_discord_allows(tmp_path: Path) -> None:
    def config(**env: str) -> Config:
        return load_config({"DISCORD_TOKEN": "t", **env}, tmp_path / ".env")

    assert config().answer_within_seconds == 1.5
    assert config(ANSWER_WITHIN_SECONDS="0").answer_within_seconds == 0.0
    assert config(ANSWER_WITHIN_SECONDS="2.5").answer_within_seconds == 2.5
    for bad in ("3", "-1", "soon", "nan"):
        with pytest.raises(ConfigError, match="ANSWER_WITHIN_SECONDS"):
            config(ANSWER_WITHIN_SECONDS=bad)
