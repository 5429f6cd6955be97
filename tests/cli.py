"""``python -m bot`` run the way users and scripts run it: a process of its own,
in an environment free of the developer's own settings."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The bot's settings (names and prefixes): none may leak in from the developer's shell.
SETTINGS = (
    "DISCORD_",
    "DATABASE_URL",
    "LOG_LEVEL",
    "LOBBY_EXPIRY_HOURS",
    "EXTRA_GAMES",
    "CARAVANSERAI_",
)


def clean_environ() -> dict[str, str]:
    """The developer's environment without the bot's settings. The ``.env`` next
    to README.md is still read by a bot started with it (see :func:`bot_environ`)."""
    return {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS)}


def bot_environ(**settings: str) -> dict[str, str]:
    """:func:`clean_environ` with the developer's own ``.env`` kept out, then ``settings``."""
    return {**clean_environ(), "CARAVANSERAI_ENV_FILE": os.devnull, **settings}


def run_bot(
    *args: str, env: Mapping[str, str], cwd: Path = ROOT, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` to its end, its output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


async def run_bot_in_thread(
    *args: str, env: Mapping[str, str], cwd: Path = ROOT, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """:func:`run_bot` from a coroutine: the event loop (a fake Discord in it, open
    storages) goes on while the process runs."""
    return await asyncio.to_thread(run_bot, *args, env=env, cwd=cwd, timeout=timeout)
