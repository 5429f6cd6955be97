"""The background jobs survive a passing database failure.

A real bot (``Caravanserai``, in this process) runs against the loopback
Discord on a real SQLite database, prepared beforehand with one piece of work
for each job: a lobby idle for days, a game whose bot seat must move (start-up
resumption), a game whose start was never posted (late turn posts) and a game
whose clock is half gone. The storage the bot opens fails the first call of
each job's query with ``StorageUnavailable``, what a backend raises when the
database cannot answer (locked, restarting, connection lost): each job must
say so in one line, without a traceback, try again a moment later and do its
work.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import discord
import pytest
import pytest_asyncio
import yarl

from bot.app import Caravanserai
from bot.config import Config
from bot.service import GameService
from bot.storage import SqliteStorage, Storage, StorageUnavailable
from tests.e2e import stamp, text_of
from tests.fakediscord import Channel, FakeDiscord, Message, User

pytestmark = pytest.mark.asyncio(loop_scope="module")

CHECK_SECONDS = 0.3
# Each job's first query, which fails once.
FAILING = {
    "idle_lobbies": "Closing idle lobbies",
    "active_games_after": "Resuming AI turns",
    "unannounced": "Looking for unannounced turns",
    "due_clocks": "Looking at clocks",
}


class FailingOnce:
    """A real storage whose named methods each fail their first call, as the
    database would if it could not answer then; everything else goes through."""

    def __init__(self, storage: Storage, methods: set[str]) -> None:
        self._storage = storage
        self._failing = set(methods)

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._storage, name)
        if name not in self._failing:
            return attribute

        async def fail_once(*args: Any, **kwargs: Any) -> Any:
            if name in self._failing:
                self._failing.discard(name)
                raise StorageUnavailable(f"database is locked (in {name})")
            return await attribute(*args, **kwargs)

        return fail_once


class FlakyBot(Caravanserai):
    async def open_database(self) -> Storage:
        return cast(Storage, FailingOnce(await super().open_database(), set(FAILING)))


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class Setup:
    fake: FakeDiscord
    db: Path
    alice: User
    channels: dict[str, Channel]
    games: dict[str, int]
    log: Records


async def prepare(
    db: Path, guild_id: int, channels: dict[str, Channel], alice: User, bob: User
) -> dict[str, int]:
    """One piece of work per job, written as the bot would have left it."""
    now = datetime.now(UTC)
    games: dict[str, int] = {}
    async with SqliteStorage(db) as storage:
        service = GameService(storage)

        async def lobby(where: str, **options: Any) -> int:
            made = await service.create(
                kind="desert",
                guild_id=guild_id,
                channel_id=channels[where].id,
                user_id=alice.id,
                name="alice",
                **options,
            )
            return made.id

        games["idle"] = await lobby("idle")
        games["ai"] = await lobby("ai", bots=1)
        await service.start(channels["ai"].id, alice.id, first=1)  # the bot's turn, unplayed
        for where, clock in (("late", "none"), ("clock", "fast")):
            games[where] = await lobby(where, clock=clock)
            await service.join(channels[where].id, bob.id, "bob")
            await service.start(channels[where].id, alice.id, first=0)
    with closing(sqlite3.connect(db)) as raw, raw:
        past = stamp(now - timedelta(days=3))
        raw.execute("UPDATE games SET updated_at = ? WHERE id = ?", (past, games["idle"]))
        # The start of "late" was saved, its post never made, its grace is over.
        due = stamp(now - timedelta(seconds=1))
        raw.execute("UPDATE games SET announce_due = ? WHERE id = ?", (due, games["late"]))
        # Half of Alice's hour is gone in "clock"; its start counts as posted.
        raw.execute(
            "UPDATE games SET turn_since = ?, clock_due = ?, posted_version = version,"
            " announce_due = NULL WHERE id = ?",
            (stamp(now - timedelta(minutes=31)), due, games["clock"]),
        )
    return games


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def setup(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Setup]:
    folder = tmp_path_factory.mktemp("background")
    fake = await FakeDiscord().start()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    guild = fake.add_guild("Caravan", alice)
    fake.add_member(guild, bob)
    channels = {name: fake.add_channel(guild, name) for name in ("idle", "ai", "late", "clock")}
    db = folder / "games.db"
    games = await prepare(db, guild.id, channels, alice, bob)
    config = Config(
        token=fake.token,
        database_url=f"sqlite:///{db}",
        guild_ids=(guild.id,),
        clock_check_seconds=CHECK_SECONDS,
        cpu_workers=0,
    )
    records = Records()
    logging.getLogger().addHandler(records)
    api, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    bot = FlakyBot(config)
    client = asyncio.create_task(bot.start(config.token))
    try:
        await fake.wait_ready(30)
        yield Setup(fake, db, alice, channels, games, records)
    finally:
        await bot.close()
        await asyncio.wait({client}, timeout=10)
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = api, gateway
        logging.getLogger().removeHandler(records)
        await fake.stop()


async def posted(s: Setup, where: str, wanted: Callable[[Message], bool]) -> Message:
    message: Message = await s.fake.wait_for_message(s.channels[where], wanted, timeout=20)
    return message


def status_of(s: Setup, game: str) -> str:
    with closing(sqlite3.connect(s.db)) as raw:
        (status,) = raw.execute(
            "SELECT status FROM games WHERE id = ?", (s.games[game],)
        ).fetchone()
    return str(status)


def said_once_without_traceback(s: Setup, job: str) -> None:
    """The job's failure is one warning line, and nothing about it has a traceback."""
    lines = [r for r in s.log.records if r.getMessage().startswith(job)]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert lines[0].levelno == logging.WARNING and lines[0].exc_info is None
    assert "database is locked" in lines[0].getMessage() and "retrying in" in lines[0].getMessage()
    assert not [r for r in s.log.records if r.exc_info is not None], "a traceback was logged"


async def test_the_idle_lobby_loop_closes_the_lobby_after_a_failure(setup: Setup) -> None:
    said = await posted(setup, "idle", lambda m: "closed after 48 hours" in text_of(m))
    assert f"#{setup.games['idle']}" in text_of(said) and status_of(setup, "idle") == "cancelled"
    said_once_without_traceback(setup, FAILING["idle_lobbies"])


async def test_start_up_resumption_plays_the_bot_seat_after_a_failure(setup: Setup) -> None:
    post = await posted(setup, "ai", lambda m: f"<@{setup.alice.id}>" in text_of(m))
    assert "🤖" in text_of(post) and "board.png" in post.files
    assert "starts! Seat order" in text_of(post)  # its start, never posted, comes first
    said_once_without_traceback(setup, FAILING["active_games_after"])


async def test_late_posts_are_made_after_a_failure(setup: Setup) -> None:
    post = await posted(setup, "late", lambda m: "Posted late" in text_of(m))
    assert "starts! Seat order" in text_of(post) and f"<@{setup.alice.id}>" in text_of(post)
    said_once_without_traceback(setup, FAILING["unannounced"])


async def test_the_clock_loop_reminds_after_a_failure(setup: Setup) -> None:
    said = await posted(setup, "clock", lambda m: "half your time has gone" in text_of(m))
    assert f"<@{setup.alice.id}>" in text_of(said)
    said_once_without_traceback(setup, FAILING["due_clocks"])
