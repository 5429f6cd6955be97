"""``python -m bot``: check the configuration, then run until SIGINT/SIGTERM.

Exit codes: 0 stopped by SIGINT/SIGTERM (at any moment); 1 a failure worth retrying (Discord
unreachable, an unexpected error); 2 a configuration the bot cannot work with
(a bad setting or database path, a token Discord refuses) — one line on
stderr, without a traceback, and before anything is sent to Discord.

Shutdown is one sequence in one task, whatever the signal: stop the client
(gateway and HTTP closed, cogs unloaded, running handlers cancelled), close
the database, wait for the client task, then cancel and await whatever task
is left, so nothing is pending when ``asyncio.run`` closes the loop.
"""

# ruff: noqa: E402 - the signal handlers go in before the (slow) imports

from __future__ import annotations

import signal
from types import FrameType


def _exit_quietly(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


if __name__ == "__main__":
    # Until the event loop takes the signals over, SIGINT (Ctrl-C) or SIGTERM during
    # start-up exits at once, with nothing to clean up and no traceback.
    signal.signal(signal.SIGINT, _exit_quietly)
    signal.signal(signal.SIGTERM, _exit_quietly)

import asyncio
import logging
import os
import socket
import sys
import warnings
from typing import TYPE_CHECKING

from bot.config import Config, ConfigError, check_database, load_config
from bot.storage.sqlite import MEMORY

if TYPE_CHECKING:
    from bot.app import Caravanserai

log = logging.getLogger("bot")

TOKEN_REFUSED = (
    "Discord refused DISCORD_TOKEN. Copy a fresh token from the Developer Portal "
    "(your application > Bot > Reset Token) into .env; see README.md."
)
# How long the client task and the leftover tasks get to end once asked to.
STOP_TIMEOUT = 10.0


def main() -> None:
    # Before discord.py is imported: its (voice-only) audioop import warns on Python 3.11+.
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    try:
        config = load_config()
        database = check_database(config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        sys.exit(2)
    try:
        code = asyncio.run(run(config, database))
    except KeyboardInterrupt:  # a SIGINT after the loop gave its handlers back: stopped anyway
        code = 0
    sys.exit(code)


async def run(config: Config, database: str) -> int:
    """Run the bot until a signal or a fatal error; returns the exit code."""
    import discord

    from bot.app import Caravanserai, point_at_api

    configure_logging(config.log_level)
    if database == MEMORY:
        log.warning(
            "DATABASE_URL keeps games in memory: they will be lost when the bot stops. "
            "Use sqlite:///data/caravanserai.db to keep them."
        )
    else:
        log.info("Starting Caravanserai; games are kept in %s", database)
    point_at_api(config)
    bot = Caravanserai(config)
    stop = asyncio.Event()
    received: list[str] = []

    def on_signal(sig: signal.Signals) -> None:
        received.append(sig.name)
        stop.set()

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, on_signal, sig)

    client = asyncio.create_task(bot.start(config.token), name="caravanserai: client")
    signalled = asyncio.create_task(stop.wait(), name="caravanserai: signals")
    await asyncio.wait({client, signalled}, return_when=asyncio.FIRST_COMPLETED)
    signalled.cancel()
    if received:
        log.info("Shutting down (%s)", received[0])
    error = await stop_bot(bot, client)
    await finish_leftover_tasks()

    if received:
        if error is not None:
            log.debug("The client ended with %r while stopping", error)
        log.info("Stopped cleanly")
        return 0
    if error is None:
        log.info("Discord closed the connection; stopped")
        return 0
    if isinstance(error, discord.LoginFailure):
        print(TOKEN_REFUSED, file=sys.stderr)
        return 2
    where = discord.http.Route.BASE
    if isinstance(error, discord.DiscordServerError):
        print(
            f"Discord at {where} answered {error.status} ({error.text or error.response.reason});"
            " it may be down, try again later",
            file=sys.stderr,
        )
        return 1
    reason = unreachable_reason(error)
    if reason is not None:
        print(f"Cannot reach Discord at {where}: {reason}; check the network", file=sys.stderr)
        return 1
    log.error("The bot stopped with an error", exc_info=error)
    return 1


async def stop_bot(bot: Caravanserai, client: asyncio.Task[None]) -> BaseException | None:
    """Close the client and the storage, then wait for the client task; its error if any."""
    await bot.close()
    done, _ = await asyncio.wait({client}, timeout=STOP_TIMEOUT)
    if not done:
        log.warning("The client did not stop within %.0f s; cancelling it", STOP_TIMEOUT)
        client.cancel()
        await asyncio.wait({client}, timeout=STOP_TIMEOUT)
    # Again: a signal during start-up may have let setup_hook open the storage
    # (or load cogs) after the first close.
    await bot.close()
    if not client.done() or client.cancelled():
        return None
    return client.exception()


async def finish_leftover_tasks() -> None:
    """Cancel and await the tasks still pending, so asyncio.run finds none."""
    current = asyncio.current_task()
    leftovers = [t for t in asyncio.all_tasks() if t is not current and not t.done()]
    for task in leftovers:
        log.debug("Cancelling leftover task %r", task)
        task.cancel()
    if leftovers:
        await asyncio.wait(leftovers, timeout=STOP_TIMEOUT)


def unreachable_reason(error: BaseException) -> str | None:
    """Why Discord could not be reached, or None if ``error`` is something else."""
    import aiohttp

    if isinstance(error, aiohttp.ClientConnectorError):
        cause = error.os_error
        if isinstance(cause, socket.gaierror):
            return f"cannot resolve {error.host} ({cause.strerror})"
        if cause.errno:
            return os.strerror(cause.errno).lower()
        return str(cause) or type(cause).__name__
    if isinstance(error, TimeoutError):
        return "no answer in time"
    if isinstance(error, aiohttp.ClientConnectionError):
        return str(error) or type(error).__name__
    return None


class _NoVoiceWarnings(logging.Filter):
    """discord.py warns that voice needs PyNaCl/davey; the bot never uses voice."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


def configure_logging(level: str) -> None:
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    logging.getLogger("discord.client").addFilter(_NoVoiceWarnings())


if __name__ == "__main__":
    main()
