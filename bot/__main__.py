"""``python -m bot``: check the configuration, then run until SIGINT/SIGTERM.

Exit codes: 0 stopped by SIGINT/SIGTERM (at any moment); 1 a failure worth retrying (Discord
unreachable, an unexpected error); 2 a configuration the bot cannot work with
(a bad setting or database path, a damaged database, a token Discord refuses)
— one line on stderr, without a traceback, and before anything is sent to
Discord (but for the token, which only Discord can judge).

``python -m bot backup PATH [--force]`` copies the database instead (see
:mod:`bot.backup`): one line with the copy's path and size, exit 0; or one
line saying why not, exit 2.

``python -m bot ratings rebuild`` recomputes every player's rating from the
finished games' results (oldest first), in one transaction, safely while the
bot runs: one line with how many games and players, exit 0; or one line
saying why not, exit 2 (1 if the database stayed locked or cannot be reached).

``python -m bot migrate`` applies the pending migrations to the database
DATABASE_URL names and says which migration it is at; ``python -m bot copy-db
FROM TO`` copies every row of the database FROM into the empty database TO
(SQLite or PostgreSQL, either way), verified (see :mod:`bot.copydb`). Both: one
line, exit 0; or one line saying why not, exit 2 (1 if a database cannot be
reached or the copy does not match, and then nothing was written).

The bot token never reaches the log (every line is scrubbed of it, and of
interaction tokens in webhook URLs), and with ``LOG_LEVEL=DEBUG`` discord.py's
gateway payloads and HTTP request logs stay off unless
``DISCORD_DEBUG_PAYLOADS=1``: they carry interaction tokens.

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
import re
import socket
import sys
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from bot.config import Config, ConfigError, check_database, load_config, load_database_url
from bot.storage import (
    DatabaseCorrupt,
    MigrationError,
    StorageBusy,
    StorageError,
    check_integrity,
    database_kind,
    sqlite_path,
)
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
USAGE = "usage: python -m bot [backup PATH [--force] | ratings rebuild | migrate | copy-db FROM TO]"
# Loggers whose DEBUG lines carry payloads. discord.py's: gateway events (interactions
# and their tokens), REST requests and webhook calls (interaction tokens in the URL);
# aiosqlite's: every SQL statement with its values (players' hidden game state).
PAYLOAD_LOGGERS = ("discord.gateway", "discord.http", "discord.webhook", "aiosqlite")
MIN_SECRET_LENGTH = 6


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if args:
        sys.exit(command(args))
    # Before discord.py is imported: its (voice-only) audioop import warns on Python 3.11+.
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    try:
        config = load_config()
        database = check_database(config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        sys.exit(2)
    try:
        # Before Discord hears of us: a damaged database is worth one clear line.
        if database_kind(config.database_url) == "sqlite":
            check_integrity(database)
    except StorageError as exc:
        print(exc, file=sys.stderr)
        sys.exit(1 if isinstance(exc, StorageBusy) else 2)
    try:
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            code = runner.run(run(config, database))
    except KeyboardInterrupt:  # a SIGINT after the loop gave its handlers back: stopped anyway
        code = 0
    sys.exit(code)


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (not on Windows): the same asyncio,
    with its sockets, timers and callbacks in C, so the bot's per-interaction
    I/O (gateway events, HTTP requests, database replies) costs its one event-loop
    thread less. None: asyncio's own loop."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


async def run(config: Config, database: str) -> int:
    """Run the bot until a signal or a fatal error; returns the exit code."""
    import discord

    from bot.app import Caravanserai, point_at_api

    configure_logging(
        config.log_level, debug_payloads=config.debug_payloads, secrets=config.secrets
    )
    if config.debug_payloads:
        log.warning(
            "DISCORD_DEBUG_PAYLOADS=1: with LOG_LEVEL=DEBUG, Discord payloads and requests are"
            " logged, with the interaction tokens they carry (and every SQL statement with its"
            " values); unset it once done debugging"
        )
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
    if isinstance(error, ConfigError):  # found only when used: WEB_PORT already taken
        print(error, file=sys.stderr)
        return 2
    if isinstance(error, DatabaseCorrupt):  # damaged since the check in main()
        print(error, file=sys.stderr)
        return 2
    if isinstance(error, StorageError):  # e.g. the PostgreSQL server cannot be reached
        print(error, file=sys.stderr)
        return 1
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


# --------------------------------------------------------------------------- backup


def command(args: list[str]) -> int:
    """``python -m bot <command> …``; returns the exit code."""
    name, rest = args[0], args[1:]
    if name in ("-h", "--help"):
        print(USAGE)
        return 0
    if name == "ratings":
        return ratings_command(rest)
    if name == "migrate":
        return migrate_command(rest)
    if name == "copy-db":
        return copy_db_command(rest)
    if name != "backup":
        print(f"unknown command {name!r}; {USAGE}", file=sys.stderr)
        return 2
    force = "--force" in rest
    paths = [a for a in rest if a != "--force"]
    if asks_help(paths):
        print(
            f"{USAGE}\nCopies the database DATABASE_URL names to PATH, safely while the bot"
            " runs; --force overwrites an existing PATH."
        )
        return 0
    if len(paths) != 1 or paths[0].startswith("-"):
        print(f"backup needs one PATH (and maybe --force); {USAGE}", file=sys.stderr)
        return 2
    return backup_command(paths[0], force)


def backup_command(target: str, force: bool) -> int:
    from bot.backup import BackupError, backup_database, human_size

    # Ctrl-C or SIGTERM stops the copy with its scratch file removed, and says so.
    stop_on_signals()
    try:
        made = backup_database(sqlite_path(load_database_url()), target, force=force)
    except (ConfigError, BackupError) as exc:
        print(exc, file=sys.stderr)
        return 2
    except ValueError as exc:  # sqlite_path: already refused by load_database_url
        print(f"DATABASE_URL: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"Backup interrupted; {target} was not written", file=sys.stderr)
        return 130
    print(f"Backed up {made.source} to {made.target}: {human_size(made.size)}")
    return 0


# --------------------------------------------------------------------------- ratings


def ratings_command(args: list[str]) -> int:
    """``python -m bot ratings rebuild``."""
    if asks_help(args):
        print(
            f"{USAGE}\nratings rebuild recomputes every rating from the finished games in the"
            " database DATABASE_URL names, safely while the bot runs."
        )
        return 0
    if args != ["rebuild"]:
        print(f"ratings needs one word, rebuild; {USAGE}", file=sys.stderr)
        return 2
    try:
        url = load_database_url()
        postgres = database_kind(url) == "postgresql"
        path = "" if postgres else sqlite_path(url)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    except ValueError as exc:  # sqlite_path: already refused by load_database_url
        print(f"DATABASE_URL: {exc}", file=sys.stderr)
        return 2
    if postgres:
        return finish_rebuild(url)
    if path == MEMORY:
        print(
            "DATABASE_URL keeps games in memory (sqlite://): there are no ratings to rebuild",
            file=sys.stderr,
        )
        return 2
    database = os.path.abspath(os.path.expanduser(path))
    if not os.path.isfile(database):  # never create an empty database here
        print(
            f"there is no database at {database} (DATABASE_URL) to rebuild ratings from",
            file=sys.stderr,
        )
        return 2
    return finish_rebuild(f"sqlite:///{database}")


def finish_rebuild(url: str) -> int:
    """Run the rebuild on the database ``url`` names and say how it went."""
    # Ctrl-C or SIGTERM stops the rebuild; its transaction is rolled back.
    stop_on_signals()
    try:
        games, players = asyncio.run(rebuild_ratings(url))
    except StorageError as exc:  # as migrate and copy-db: 1 if it may work on a retry
        print(exc, file=sys.stderr)
        return storage_exit_code(exc)
    except KeyboardInterrupt:
        print("Rebuild interrupted; the ratings were not changed", file=sys.stderr)
        return 130
    print(
        f"Rebuilt ratings from {games} finished {'game' if games == 1 else 'games'}"
        f" ({players} {'player' if players == 1 else 'players'})."
    )
    return 0


async def rebuild_ratings(url: str) -> tuple[int, int]:
    """Rebuild every rating; (games rated, distinct players rated)."""
    from bot.storage import open_storage

    storage = await open_storage(url)
    try:
        games = await storage.rebuild_ratings()
        players = len({row.user_id for row in await storage.all_ratings()})
    finally:
        await storage.close()
    return games, players


# --------------------------------------------------------------------------- migrate, copy-db


def migrate_command(args: list[str]) -> int:
    """``python -m bot migrate``."""
    if asks_help(args):
        print(
            f"{USAGE}\nmigrate applies the pending migrations to the database DATABASE_URL names."
        )
        return 0
    if args:
        print(f"migrate takes no arguments; {USAGE}", file=sys.stderr)
        return 2
    from bot.copydb import CopyRefused, migrate_database

    try:
        url = load_database_url()
        if database_kind(url) == "sqlite" and sqlite_path(url) == MEMORY:
            print(
                "DATABASE_URL keeps games in memory (sqlite://): nothing to migrate",
                file=sys.stderr,
            )
            return 2
        version = asyncio.run(migrate_database(url))
    except (ConfigError, CopyRefused) as exc:
        print(exc, file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"DATABASE_URL: {exc}", file=sys.stderr)
        return 2
    except (StorageError, OSError) as exc:
        print(exc, file=sys.stderr)
        return storage_exit_code(exc)
    print(f"Database is at migration {version}.")
    return 0


def copy_db_command(args: list[str]) -> int:
    """``python -m bot copy-db FROM TO``."""
    if asks_help(args):
        print(
            f"{USAGE}\ncopy-db copies every row of the database FROM into the empty database TO"
            " (sqlite:///… or postgresql://…, either way), then checks the copy."
        )
        return 0
    if len(args) != 2 or any(a.startswith("-") for a in args):
        print(f"copy-db needs two database URLs, FROM and TO; {USAGE}", file=sys.stderr)
        return 2
    from bot.copydb import CopyMismatch, CopyRefused, copy_database

    for label, url in zip(("FROM", "TO"), args, strict=True):
        try:
            database_kind(url)
        except ValueError as exc:
            print(f"{label}: {exc}", file=sys.stderr)
            return 2
    stop_on_signals()
    try:
        report = asyncio.run(copy_database(args[0], args[1]))
    except CopyRefused as exc:
        print(exc, file=sys.stderr)
        return 2
    except CopyMismatch as exc:
        print(f"The copy does not match, so nothing was written: {exc}", file=sys.stderr)
        return 1
    except (StorageError, OSError) as exc:
        print(exc, file=sys.stderr)
        return storage_exit_code(exc)
    except KeyboardInterrupt:
        print("Copy interrupted; nothing was written", file=sys.stderr)
        return 130
    print(report.line())
    return 0


def asks_help(args: Sequence[str]) -> bool:
    return any(a in ("-h", "--help") for a in args)


def stop_on_signals() -> None:
    """Ctrl-C or SIGTERM interrupt a one-shot command (its transaction is rolled
    back, its scratch file removed), so it can say so."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)


def storage_exit_code(exc: BaseException) -> int:
    """2 for a database the bot cannot work with, 1 for one it could not reach (retry)."""
    return 2 if isinstance(exc, (DatabaseCorrupt, MigrationError)) else 1


# --------------------------------------------------------------------------- logging


class RedactingFormatter(logging.Formatter):
    """Scrubs secrets from every formatted line, tracebacks included.

    The bot token (wherever it might turn up) and interaction tokens in
    webhook and interaction-callback URLs (discord.py's rate-limit warnings
    name the URL) become ``[redacted]``.
    """

    URL_TOKEN = re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/\s?#'\"]+")

    def __init__(self, fmt: str, secrets: Iterable[str] = ()) -> None:
        super().__init__(fmt)
        # A secret of a few letters (a test's "x") would scrub every word holding them.
        self.secrets = tuple(s for s in secrets if len(s) >= MIN_SECRET_LENGTH)

    def format(self, record: logging.LogRecord) -> str:
        return self.redact(super().format(record))

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "[redacted]")
        return self.URL_TOKEN.sub(r"\1[redacted]", text)


class _NoVoiceWarnings(logging.Filter):
    """discord.py warns that voice needs PyNaCl/davey; the bot never uses voice."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


def configure_logging(
    level: str, *, debug_payloads: bool = False, secrets: Iterable[str] = ()
) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(
        RedactingFormatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", secrets)
    )
    logging.basicConfig(level=level, handlers=[handler])
    logging.getLogger("discord.client").addFilter(_NoVoiceWarnings())
    if logging.getLevelName(level) == logging.DEBUG and not debug_payloads:
        for name in PAYLOAD_LOGGERS:
            logging.getLogger(name).setLevel(logging.INFO)


if __name__ == "__main__":
    main()
