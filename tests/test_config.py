"""Configuration: environment, .env, and a clear exit without a token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import DEFAULT_DATABASE_URL, ConfigError, load_config


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


@pytest.mark.parametrize(
    ("name", "value"),
    [("DISCORD_GUILD_IDS", "abc"), ("LOG_LEVEL", "LOUD"), ("TURN_REMINDER_HOURS", "soon")],
)
def test_bad_values_are_refused(tmp_path: Path, name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        load_config({"DISCORD_TOKEN": "t", name: value}, tmp_path / ".env")


def test_python_m_bot_without_token_exits_with_help(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert "Reset Token" in result.stderr
