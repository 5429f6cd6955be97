"""Start-up and shutdown of ``python -m bot`` as users run it: real subprocesses, no mocks.

Bad configurations end with one line and exit 2 before anything reaches Discord;
an unreachable Discord with one line; SIGINT/SIGTERM always stop cleanly.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import signal
import socket
import sys
import time
from pathlib import Path

import pytest

from tests.cli import ROOT, bot_environ, clean_environ, run_bot, run_bot_in_thread
from tests.e2e import BotProcess, text_of
from tests.fakediscord import FakeDiscord
from tests.sockets import closed_port, contacted

# Nor from the developer's own .env next to README.md.
NO_DOTENV = {"CARAVANSERAI_ENV_FILE": os.devnull}
NOISE = ("Traceback", "Event loop is closed", "Task was destroyed", "was never awaited")


def assert_no_noise(*outputs: str) -> None:
    for output in outputs:
        for noise in NOISE:
            assert noise not in output, output


# --------------------------------------------------------------------------- bad configuration


def bad_settings(tmp_path: Path) -> list[tuple[dict[str, str], str]]:
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    not_sqlite = tmp_path / "notes.db"
    not_sqlite.write_text("plain text, not a database")
    cases = [
        ({"DATABASE_URL": "mysql://user:secret@db/games"}, "unsupported scheme 'mysql'"),
        ({"DATABASE_URL": "postgresql://user:secret@db/games?pool=0"}, "pool"),
        ({"DATABASE_URL": "sqlite:///"}, "no file name"),
        ({"DATABASE_URL": "sqlite://db-host/games.db"}, "three slashes"),
        (
            {"DATABASE_URL": f"sqlite:///{a_file}/sub/games.db"},
            f"cannot create {a_file}/sub/games.db: {a_file} is a file, not a folder",
        ),
        ({"DATABASE_URL": f"sqlite:///{tmp_path}"}, f"{tmp_path} is a folder"),
        ({"DATABASE_URL": f"sqlite:///{not_sqlite}"}, f"{not_sqlite} is not a SQLite database"),
        ({"LOBBY_EXPIRY_HOURS": "-1"}, "LOBBY_EXPIRY_HOURS='-1' is not a number of hours"),
        ({"LOBBY_EXPIRY_HOURS": "soon"}, "LOBBY_EXPIRY_HOURS='soon' is not a number of hours"),
        ({"LOBBY_EXPIRY_HOURS": "nan"}, "LOBBY_EXPIRY_HOURS='nan' is not a number of hours"),
        ({"DISCORD_GUILD_IDS": "12,abc"}, "DISCORD_GUILD_IDS: 'abc' is not a server id"),
        ({"DISCORD_GUILD_IDS": "-5"}, "DISCORD_GUILD_IDS: '-5' is not a server id"),
        ({"LOG_LEVEL": "loud"}, "LOG_LEVEL='LOUD' is not one of"),
    ]
    if sys.platform == "linux" and Path("/sys/kernel").is_dir():
        # sysfs refuses new files even to root: a read-only folder that works as any user.
        cases.append(
            (
                {"DATABASE_URL": "sqlite:////sys/caravanserai-test.db"},
                "cannot create /sys/caravanserai-test.db:",
            )
        )
    return cases


def test_bad_configurations_exit_2_with_one_line_before_contacting_discord(
    tmp_path: Path, sentinel: socket.socket
) -> None:
    port = sentinel.getsockname()[1]
    cases = bad_settings(tmp_path)
    started = time.monotonic()
    for settings, expected in cases:
        env = {
            **bot_environ(),
            "DISCORD_TOKEN": "a-token",
            "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
            "DATABASE_URL": "sqlite://",
            **settings,
        }
        result = run_bot(env=env, cwd=tmp_path)
        assert result.returncode == 2, (settings, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and expected in lines[0], (settings, result.stderr)
        assert "secret" not in result.stderr  # a URL's password is never echoed
        assert_no_noise(result.stdout, result.stderr)
        assert not contacted(sentinel), settings
    assert set(os.listdir(tmp_path)) == {"a-file", "notes.db"}  # the checks left nothing
    print(f"{len(cases)} bad configurations in {time.monotonic() - started:.1f}s")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into read-only folders")
def test_read_only_folder_is_named(tmp_path: Path, sentinel: socket.socket) -> None:
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        env = {
            **bot_environ(),
            "DISCORD_TOKEN": "a-token",
            "DISCORD_API_BASE": f"http://127.0.0.1:{sentinel.getsockname()[1]}/api/v10",
            "DATABASE_URL": f"sqlite:///{folder}/games/caravanserai.db",
        }
        result = run_bot(env=env, cwd=tmp_path)
    finally:
        folder.chmod(0o755)
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"DATABASE_URL: cannot create the folder {folder}/games for "
        f"{folder}/games/caravanserai.db: Permission denied"
    )
    assert not contacted(sentinel)
    assert os.listdir(folder) == []


# --------------------------------------------------------------------------- Discord unreachable


def test_unreachable_discord_is_one_clear_line(tmp_path: Path) -> None:
    port = closed_port()
    env = {
        **bot_environ(),
        "DISCORD_TOKEN": "a-token",
        "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'data' / 'games.db'}",
    }
    result = run_bot(env=env, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    message = (
        f"Cannot reach Discord at http://127.0.0.1:{port}/api/v10: connection refused;"
        " check the network"
    )
    assert [line for line in result.stderr.splitlines() if "Discord" in line][-1] == message
    assert result.stderr.count("Cannot reach") == 1
    assert "voice will NOT be supported" not in result.stderr
    assert "audioop" not in result.stderr
    assert_no_noise(result.stdout, result.stderr)
    assert not (tmp_path / "data").exists()  # nothing created for a bot that never ran


async def test_rejected_token_exits_2_with_advice(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        env = {
            **bot_environ(),
            **fake.bot_env(),
            "DISCORD_TOKEN": "not-the-token",
            "DATABASE_URL": "sqlite://",
        }
        result = await run_bot_in_thread(env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("Discord refused DISCORD_TOKEN.")
    assert "Reset Token" in result.stderr
    assert_no_noise(result.stdout, result.stderr)


# --------------------------------------------------------------------------- .env


def test_dotenv_next_to_the_project_from_another_folder(tmp_path: Path) -> None:
    """A copy of the bot package in a project of its own; the repository is not touched."""
    project = tmp_path / "project"
    shutil.copytree(ROOT / "bot", project / "bot", ignore=shutil.ignore_patterns("__pycache__"))
    (project / "README.md").write_text("# a project\n")
    port = closed_port()
    (project / ".env").write_text(
        "DISCORD_TOKEN=from-dotenv\n"
        f"DISCORD_API_BASE=http://127.0.0.1:{port}/api/v10\n"
        "DATABASE_URL=sqlite://\n"
        "LOBBY_EXPIRY_HOURS=-3\n"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**clean_environ(), "PYTHONPATH": os.pathsep.join([str(project), str(ROOT)])}

    refused = run_bot(env=env, cwd=elsewhere)  # .env's bad value: so .env was read
    assert refused.returncode == 2, refused.stderr
    assert refused.stderr.strip() == (
        "LOBBY_EXPIRY_HOURS='-3' is not a number of hours (0 or more; 0 = never)."
    )

    fixed = run_bot(env={**env, "LOBBY_EXPIRY_HOURS": "1"}, cwd=elsewhere)  # the environment wins
    assert fixed.returncode == 1, fixed.stderr
    assert f"Cannot reach Discord at http://127.0.0.1:{port}/api/v10" in fixed.stderr
    assert_no_noise(fixed.stdout, fixed.stderr)
    assert sorted(os.listdir(elsewhere)) == []


# --------------------------------------------------------------------------- running, stopping


async def test_in_memory_database_starts_with_a_warning(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        owner = fake.add_user("owner")
        guild = fake.add_guild("Caravan", owner)
        bot = BotProcess(fake, tmp_path, guild.id, {**NO_DOTENV, "DATABASE_URL": "sqlite://"})
        try:
            await bot.start()
            assert await bot.stop() == 0
        finally:
            bot.kill()
    log = bot.log.read_text()
    assert (
        "WARNING bot: DATABASE_URL keeps games in memory: they will be lost when the bot stops."
        in log
    )
    assert "Stopped cleanly" in log
    assert_no_noise(log)


async def test_eight_stops_in_a_row_are_clean(tmp_path: Path) -> None:
    """SIGINT and SIGTERM alternately, each right after the bot connected (on
    one database, so each start also finds the previous stop's file)."""
    async with FakeDiscord() as fake:
        owner = fake.add_user("owner")
        guild = fake.add_guild("Caravan", owner)
        fake.add_channel(guild, "desert")
        started = time.monotonic()
        for run in range(8):
            sig = signal.SIGINT if run % 2 == 0 else signal.SIGTERM
            bot = BotProcess(fake, tmp_path, guild.id, NO_DOTENV)
            bot.log = tmp_path / f"bot-{run}.log"
            try:
                await bot.start()
                assert bot.process is not None
                bot.process.send_signal(sig)
                code = await asyncio.wait_for(bot.process.wait(), 20)
            finally:
                bot.kill()
            log = bot.log.read_text()
            assert code == 0, log
            assert_no_noise(log)
            assert f"Shutting down ({sig.name})" in log, log
            assert log.rstrip().endswith("Stopped cleanly"), log
            assert "voice will NOT be supported" not in log
        elapsed = time.monotonic() - started
    print(f"8 starts and stops in {elapsed:.1f}s")
    assert elapsed < 60


async def test_stop_while_commands_are_running(tmp_path: Path) -> None:
    """Handlers still running at the signal are stopped before the database closes."""
    async with FakeDiscord() as fake:
        owner = fake.add_user("owner")
        guild = fake.add_guild("Caravan", owner)
        channels = [fake.add_channel(guild, f"table-{n}") for n in range(6)]
        bot = BotProcess(fake, tmp_path, guild.id, NO_DOTENV)
        for run, channel in enumerate(channels):
            bot.log = tmp_path / f"busy-{run}.log"
            try:
                await bot.start()
                assert bot.process is not None
                command = asyncio.create_task(
                    fake.slash(owner, channel, "game new", {"game": "desert", "bots": 2})
                )
                await asyncio.sleep(0.01 * run)  # somewhere inside the command
                bot.process.send_signal(signal.SIGTERM if run % 2 else signal.SIGINT)
                code = await asyncio.wait_for(bot.process.wait(), 20)
                command.cancel()
                await asyncio.gather(command, return_exceptions=True)
            finally:
                bot.kill()
            log = bot.log.read_text()
            assert code == 0, log
            assert_no_noise(log)
            assert "ERROR" not in log, log


# --------------------------------------------------------------------------- secrets


async def run_one_command(tmp_path: Path, settings: dict[str, str]) -> tuple[str, str, str]:
    """Log in at DEBUG, run one slash command, stop; (log, bot token, interaction token)."""
    async with FakeDiscord() as fake:
        owner = fake.add_user("owner")
        guild = fake.add_guild("Caravan", owner)
        channel = fake.add_channel(guild, "desert")
        bot = BotProcess(fake, tmp_path, guild.id, {**NO_DOTENV, "LOG_LEVEL": "DEBUG", **settings})
        try:
            await bot.start()
            it = await fake.slash(owner, channel, "game new", {"game": "desert", "bots": 1})
            message = await it.final(timeout=20)
            assert not it.ephemeral and text_of(message), text_of(message)
            await asyncio.sleep(0.5)  # the thread and its first post
            assert await bot.stop() == 0
        finally:
            bot.kill()
        return bot.log.read_text(), fake.token, it.token


async def test_debug_log_keeps_tokens_out(tmp_path: Path) -> None:
    log, token, interaction_token = await run_one_command(tmp_path, {})
    assert " DEBUG " in log and "Stopped cleanly" in log  # DEBUG on, the whole run logged
    assert len(token) > 20 and len(interaction_token) > 20
    assert token not in log
    assert interaction_token not in log
    assert "WebSocket Event" not in log  # discord.gateway's payload lines stay off
    assert "aiosqlite" not in log  # and every SQL statement with its values
    assert "DISCORD_DEBUG_PAYLOADS" not in log
    assert_no_noise(log)


async def test_debug_payloads_on_request_with_a_warning(tmp_path: Path) -> None:
    """The control: with DISCORD_DEBUG_PAYLOADS=1 the payloads (and the interaction token
    they carry) are logged, so the test above would see a leak; the bot token never is."""
    log, token, interaction_token = await run_one_command(tmp_path, {"DISCORD_DEBUG_PAYLOADS": "1"})
    assert "WARNING bot: DISCORD_DEBUG_PAYLOADS=1: with LOG_LEVEL=DEBUG" in log
    assert "WebSocket Event" in log and interaction_token in log
    assert "DEBUG   aiosqlite: executing" in log
    assert token not in log
    assert "/webhooks/" in log and "[redacted]" in log  # URL tokens scrubbed even then


def test_log_lines_are_scrubbed_of_tokens() -> None:
    from bot.__main__ import RedactingFormatter

    token = "MTA5.bot-token.secret"
    formatter = RedactingFormatter("%(levelname)s %(message)s", [token, "x"])
    try:
        raise RuntimeError(f"Authorization: Bot {token}")
    except RuntimeError:
        exc_info = sys.exc_info()
    record = logging.LogRecord(
        "discord.http",
        logging.WARNING,
        __file__,
        1,
        "We are being rate limited. %s %s responded with 429; token %s",
        ("POST", "https://discord.com/api/v10/webhooks/123/aW50ZXJhY3Rpb24?wait=1", token),
        exc_info,
    )
    text = formatter.format(record)
    assert token not in text and "aW50ZXJhY3Rpb24" not in text
    assert "/webhooks/123/[redacted]?wait=1" in text
    assert "Authorization: Bot [redacted]" in text and "Traceback" in text
    assert "x" in formatter.redact("x marks the spot")  # too short to be a token
    url = "/api/v10/interactions/42/aW50ZXJh-Y3Rpb24_tok/callback"
    assert formatter.redact(url) == "/api/v10/interactions/42/[redacted]/callback"
