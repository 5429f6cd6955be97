"""``python -m bot copy-db`` and ``python -m bot migrate`` (bot/copydb.py) on real
databases: a SQLite file filled through the real service, copied to a real
PostgreSQL database and back to a second SQLite file."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.__main__ import main
from bot.copydb import TABLES, CopyMismatch, CopyRefused, copy_database
from bot.service import GameService
from bot.storage import (
    GuildSettings,
    Storage,
    UserSettings,
    Vacation,
    open_storage,
    postgres_settings,
)
from bot.storage.migrate import load_migrations
from games.desert import GAME
from tests.cli import bot_environ, run_bot_in_thread
from tests.contract import all_specs
from tests.service_games import (
    CHANNEL,
    first_camel,
    lobby,
    play_turn_as_ai,
    play_until,
    start_desert,
    user_of,
)

GUILD = 100
ALICE, BOB = 1, 2
LOBBY_CHANNEL, NIM_CHANNEL = 201, 202
AT_LATEST = f"Database is at migration {load_migrations()[-1].version}.\n"


async def fill(service: GameService, storage: Storage) -> None:
    """A finished game (results, ratings), an active one with an undo, a lobby with a
    hard bot, an active game of the test-only kind, a player's and a server's
    settings, a vacation, a vote, meta."""
    await lobby(service, 2, BOB)
    session = (await service.advance((await service.start(CHANNEL, ALICE)).after)).after
    while session.record.status == "active":
        session = await play_turn_as_ai(service, session)
    assert session.record.status == "finished"

    session = await start_desert(service, BOB)
    before, _, _ = await play_until(service, session, first_camel)
    outcome = await service.undo_requests.request(
        CHANNEL, user_of(before, before.awaited[0]), _now()
    )
    assert outcome.after is not None

    await service.create(
        kind="desert",
        guild_id=GUILD,
        channel_id=LOBBY_CHANNEL,
        user_id=BOB,
        name="Bob",
        bots=1,
        level="hard",
    )
    await service.create(
        kind="nim", guild_id=GUILD, channel_id=NIM_CHANNEL, user_id=ALICE, name="A", bots=1
    )
    await service.advance((await service.start(NIM_CHANNEL, ALICE)).after)

    await storage.set_user_settings(ALICE, UserSettings("fr", True, False))
    await storage.set_guild_settings(GUILD, GuildSettings("easy"))
    await storage.add_vacation(
        Vacation(GUILD, BOB, "2026-01-01T00:00:00.000000+00:00", "2026-01-08T00:00:00.000000+00:00")
    )
    await storage.cast_vote(outcome.after.id, "cancel", ALICE, "yes")
    await storage.set_meta("commands", "hash-1")


def _now() -> datetime:
    return datetime.now(UTC)


def _key(row: tuple[Any, ...]) -> list[tuple[bool, Any]]:
    return [(v is None, 0 if v is None else v) for v in row]


def sqlite_rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    conn = sqlite3.connect(path)
    try:
        return {
            t: sorted(conn.execute(f"SELECT {_columns(conn, t)} FROM {t}").fetchall(), key=_key)
            for t in TABLES
        }
    finally:
        conn.close()


def _columns(conn: sqlite3.Connection, table: str) -> str:
    return ", ".join(f'"{r[1]}"' for r in conn.execute(f"PRAGMA table_info({table})"))


async def pg_rows(url: str, like: Path) -> dict[str, list[tuple[Any, ...]]]:
    """The PostgreSQL rows, booleans as 0/1, columns in the order of the SQLite file."""
    names = sqlite3.connect(like)
    conn = await asyncpg.connect(postgres_settings(url)[0])
    try:
        found = {}
        for t in TABLES:
            rows = await conn.fetch(f"SELECT {_columns(names, t)} FROM {t}")
            plain = [tuple(int(v) if isinstance(v, bool) else v for v in r) for r in rows]
            found[t] = sorted(plain, key=_key)
        return found
    finally:
        await conn.close()
        names.close()


async def test_sqlite_to_postgresql_to_sqlite_keeps_every_row(
    service: GameService, storage: Storage, pg_url: str, tmp_path: Path
) -> None:
    await fill(service, storage)
    await storage.close()
    source, back = tmp_path / "games.db", tmp_path / "back.db"

    there = await copy_database(f"sqlite:///{source}", pg_url, all_specs())
    again = await copy_database(pg_url, f"sqlite:///{back}", all_specs())
    assert (there.games, there.replayed, there.skipped) == (4, 3, 0)
    assert (again.games, again.moves, again.replayed) == (4, there.moves, 3)

    original = sqlite_rows(source)
    assert all(original[t] for t in TABLES)  # every table has rows to copy
    assert await pg_rows(pg_url, source) == original
    assert sqlite_rows(back) == original

    # The bot runs on the copy: every game loads, the active game plays on, new ids are fresh.
    copy = await open_storage(pg_url)
    try:
        on_copy = GameService(copy, all_specs())
        for game_id in [row[0] for row in original["games"]]:
            assert (await on_copy.get(game_id)) is not None
        lobby_here = await on_copy.require_session(LOBBY_CHANNEL)
        assert lobby_here.record.bot_level == "hard"
        assert await copy.guild_settings(GUILD) == GuildSettings("easy")
        session = await on_copy.require_session(CHANNEL)
        seat, state = session.awaited[0], session.state
        assert state is not None
        move = GAME.format_move(GAME.legal_moves(state, seat)[0])
        report = await on_copy.play(CHANNEL, user_of(session, seat), move)
        assert report.after.record.version == session.record.version + 1
        fresh = await on_copy.create(
            kind="desert", guild_id=GUILD, channel_id=300, user_id=ALICE, name="A"
        )
        assert fresh.id == max(row[0] for row in original["games"]) + 1
    finally:
        await copy.close()

    # A target that holds anything is refused, and left as it was.
    with pytest.raises(CopyRefused, match="not empty"):
        await copy_database(f"sqlite:///{source}", f"sqlite:///{back}", all_specs())
    assert sqlite_rows(back) == original


async def test_the_command_copies_and_refuses(
    service: GameService, storage: Storage, pg_url: str, tmp_path: Path
) -> None:
    await fill(service, storage)
    await storage.close()
    source = f"sqlite:///{tmp_path / 'games.db'}"
    target = with_password(pg_url)
    env = bot_environ(DATABASE_URL="ftp://irrelevant")  # the command names its databases

    done = await run_bot_in_thread("copy-db", source, target, env=env)
    assert done.returncode == 0, done.stderr
    # The nim game is not a registered game: it is copied and counted, not replayed.
    assert done.stdout.startswith("Copied 4 games (") and f"from {source} to " in done.stdout
    assert "every count matches and 2 games replay to their stored state" in done.stdout
    assert "(1 of unknown kinds skipped)" in done.stdout
    assert "hunter2" not in done.stdout and ":***@" in done.stdout

    done = await run_bot_in_thread("copy-db", source, target, env=env)
    assert done.returncode == 2 and "not empty" in done.stderr and "hunter2" not in done.stderr
    assert (await run_bot_in_thread("copy-db", source, env=env)).returncode == 2
    missing, copy = str(tmp_path / "missing.db"), str(tmp_path / "x.db")
    done = await run_bot_in_thread("copy-db", missing, copy, env=env)
    assert done.returncode == 2 and "no database at" in done.stderr
    assert not (tmp_path / "x.db").exists()


def with_password(url: str) -> str:
    """The URL with a password the test server ignores (it trusts local connections)."""
    parts = urlsplit(url)
    user = parts.username or "postgres"
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{user}:hunter2@{host}"))


def test_an_unreachable_server_is_one_line_without_the_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    nowhere = "postgresql://u:hunter2@127.0.0.1:1/x"
    monkeypatch.setenv("DATABASE_URL", nowhere)
    for args in (["migrate"], ["copy-db", nowhere, f"sqlite:///{tmp_path / 'a.db'}"]):
        with pytest.raises(SystemExit) as done:
            main(args)
        assert done.value.code == 1
        err = capsys.readouterr().err
        assert "hunter2" not in err and len(err.strip().splitlines()) == 1


def test_migrate_a_fresh_sqlite_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'new' / 'games.db'}")
    with pytest.raises(SystemExit) as done:
        main(["migrate"])
    assert done.value.code == 0
    assert capsys.readouterr().out == AT_LATEST
    monkeypatch.setenv("DATABASE_URL", "mysql://nope")
    with pytest.raises(SystemExit) as done:
        main(["migrate"])
    assert done.value.code == 2


def test_migrate_a_fresh_postgresql_database(
    pg_empty_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", pg_empty_url)
    for _ in range(2):  # the second time there is nothing left to apply
        with pytest.raises(SystemExit) as done:
            main(["migrate"])
        assert done.value.code == 0
        assert capsys.readouterr().out == AT_LATEST


async def test_a_copy_that_does_not_replay_is_rolled_back(
    service: GameService, storage: Storage, tmp_path: Path
) -> None:
    await fill(service, storage)
    await storage.close()
    source, target = tmp_path / "games.db", tmp_path / "copy.db"
    with sqlite3.connect(source) as conn:  # a stored state its moves do not lead to
        conn.execute("UPDATE games SET state = '{}' WHERE status = 'active' AND kind = 'desert'")
    with pytest.raises(CopyMismatch, match=r"game \d+ \(desert\) does not replay"):
        await copy_database(f"sqlite:///{source}", f"sqlite:///{target}", all_specs())
    assert all(not rows for rows in sqlite_rows(target).values())
