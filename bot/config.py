"""Configuration from the environment, with a ``.env`` file as fallback."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.storage import DEFAULT_DATABASE_URL

MISSING_TOKEN_HELP = """\
DISCORD_TOKEN is not set, so the bot cannot log in.

How to get a token:
  1. Open https://discord.com/developers/applications and create an application.
  2. In "Bot", click "Reset Token" and copy it.
  3. Put it in a file named .env next to README.md:
         DISCORD_TOKEN=your-token-here
     (copy .env.example to start), or export DISCORD_TOKEN in your shell.
See README.md, section "Create the Discord application", for intents and the invite link.
"""


class ConfigError(Exception):
    """The configuration cannot work; the message tells the user what to do."""


@dataclass(frozen=True)
class Config:
    token: str
    database_url: str = DEFAULT_DATABASE_URL
    guild_ids: tuple[int, ...] = ()
    log_level: str = "INFO"
    api_base: str | None = None
    gateway_url: str | None = None
    reminder_hours: float = 24.0
    # Game packages beyond bot/registry.py's list (module paths), e.g. a game
    # developed out of tree or the test-only game "tests.nim".
    extra_games: tuple[str, ...] = ()


def read_dotenv(path: Path) -> dict[str, str]:
    """Parse KEY=VALUE lines; ignores blanks, comments and ``export``."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def load_config(
    environ: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")
) -> Config:
    """Environment variables win over ``.env``; raises ConfigError on bad values."""
    env = dict(read_dotenv(dotenv) if dotenv else {})
    env.update({k: v for k, v in (os.environ if environ is None else environ).items() if v})

    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(MISSING_TOKEN_HELP)
    try:
        guild_ids = tuple(
            int(part)
            for part in env.get("DISCORD_GUILD_IDS", "").replace(" ", "").split(",")
            if part
        )
    except ValueError as exc:
        raise ConfigError("DISCORD_GUILD_IDS must be comma-separated numeric server ids.") from exc
    level = env.get("LOG_LEVEL", "INFO").upper()
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
        raise ConfigError(f"LOG_LEVEL={level!r} is not one of DEBUG, INFO, WARNING, ERROR.")
    try:
        reminder_hours = float(env.get("TURN_REMINDER_HOURS", "24"))
    except ValueError as exc:
        raise ConfigError("TURN_REMINDER_HOURS must be a number of hours (0 = never).") from exc
    return Config(
        token=token,
        database_url=env.get("DATABASE_URL", DEFAULT_DATABASE_URL),
        guild_ids=guild_ids,
        log_level=level,
        api_base=env.get("DISCORD_API_BASE") or None,
        gateway_url=env.get("DISCORD_GATEWAY_URL") or None,
        reminder_hours=reminder_hours,
        extra_games=tuple(m.strip() for m in env.get("EXTRA_GAMES", "").split(",") if m.strip()),
    )
