"""Storage tests on real databases (no mocks): migrations, lifecycle, version
guards, concurrency (one connection and two), results, leaderboard.

Every behaviour test runs on both backends: the ``store`` and ``db_url``
fixtures are parametrized over a SQLite file and a PostgreSQL database of the
test's own on a real server the tests start (``tests/pg.py``). Tests about
what only SQLite has (PRAGMAs, WAL readers, ``:memory:``, the busy timeout)
take ``sqlite_store`` or ``db_path`` and say why."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, closing
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.storage import (
    ANNOUNCE_GRACE,
    AlreadySeated,
    ChannelBusy,
    GameRecord,
    GuildSettings,
    InvalidRequest,
    MigrationError,
    NotActive,
    NotFound,
    NotInLobby,
    NotSeated,
    ReplyHook,
    ResultRow,
    Shards,
    SqliteStorage,
    StaleVersion,
    Storage,
    StorageBusy,
    StorageError,
    StorageUnavailable,
    Unannounced,
    WrongStatus,
    check_database_url,
    open_storage,
    postgres_settings,
    results_for,
    sqlite_path,
)
from bot.storage.migrate import Migration, apply_migrations, load_migrations, split_statements
from bot.storage.postgres import PostgresStorage, apply_pg_migrations, load_pg_migrations
from tests.pg import PgServer

GUILD = 1000
OTHER_GUILD = 2000


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "test.db"


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def db_url(backend: str, db_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """A migrated database of this test's own, on each backend."""
    if backend == "sqlite":
        yield f"sqlite:///{db_path}"
        return
    server: PgServer = request.getfixturevalue("pg_server")
    url = await server.create_database()
    yield url
    await server.drop_database(url)


def storage_for(url: str) -> Storage:
    """An unopened storage on ``url`` (several of them = several processes)."""
    if url.startswith("postgresql://"):
        dsn, min_size, max_size = postgres_settings(url)
        return PostgresStorage(dsn, min_size=min_size, max_size=max_size)
    return SqliteStorage(sqlite_path(url))


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Storage]:
    async with storage_for(db_url) as s:
        yield s


@pytest.fixture
async def sqlite_store(db_path: Path) -> AsyncIterator[SqliteStorage]:
    async with SqliteStorage(db_path) as s:
        yield s


# What each backend raises when its schema refuses a write.
INTEGRITY = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


async def raw_sql(url: str, sql: str) -> None:
    """Run ``sql`` straight on the database, behind the storage's back (another writer)."""
    if url.startswith("postgresql://"):
        conn = await asyncpg.connect(postgres_settings(url)[0])
        try:
            await conn.execute(sql)
        finally:
            await conn.close()
        return
    with closing(sqlite3.connect(sqlite_path(url), isolation_level=None)) as raw:
        raw.execute(sql)


async def new_active(
    s: Storage, channel: int = 1, kind: str = "desert", guild: int = GUILD
) -> GameRecord:
    """A started two-seat game: user 10 (seat 0) against a bot (seat 1)."""
    g = await s.create_game(kind, guild, channel, 10, "Alice", {"variant": "base"}, 42)
    g = await s.add_seat(g.id, g.version, None, "Bot", True)
    return await s.start_game(g.id, g.version, [0, 1], {"turn": 0})


async def play_game(
    s: Storage,
    channel: int,
    players: list[tuple[int | None, str]],
    scores: list[int],
    *,
    kind: str = "desert",
    guild: int = GUILD,
) -> GameRecord:
    """Create, seat, start and finish a game; rank 1 (highest score) wins."""
    uid, name = players[0]
    assert uid is not None
    g = await s.create_game(kind, guild, channel, uid, name, {}, 1)
    for uid, name in players[1:]:
        g = await s.add_seat(g.id, g.version, uid, name, uid is None)
    g = await s.start_game(g.id, g.version, list(range(len(players))), {})
    ranks = [1 + sum(o > sc for o in scores) for sc in scores]
    winners = {i for i, r in enumerate(ranks) if r == 1}
    res = results_for(g.seats, scores, ranks, winners)
    return await s.record_move(g.id, g.version, 0, "end", {"over": True}, results=res)


# --------------------------------------------------------------------------- migrations


async def test_pragmas(sqlite_store: SqliteStorage) -> None:
    """SQLite only: PRAGMAs and read connections are SQLite's own."""
    store = sqlite_store
    conn = store._conn  # white-box: per-connection settings are only visible here
    assert conn is not None
    expected = {
        "journal_mode": "wal",
        "busy_timeout": 5000,
        "foreign_keys": 1,
        "synchronous": 1,
        "query_only": 0,
    }
    for name, value in expected.items():
        async with conn.execute(f"PRAGMA {name}") as cur:
            row = await cur.fetchone()
        assert row is not None and row[0] == value, name
    readers = store._readers
    assert readers is not None and readers.qsize() == 3
    for reader in list(readers._queue):  # type: ignore[attr-defined]
        for name, value in {"journal_mode": "wal", "busy_timeout": 5000, "query_only": 1}.items():
            async with reader.execute(f"PRAGMA {name}") as cur:
                row = await cur.fetchone()
            assert row is not None and row[0] == value, name
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            await reader.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")


async def test_migrations_idempotent(db_path: Path) -> None:
    """SQLite's runner on a file (PostgreSQL's: test_pg_migrations_idempotent)."""
    async with SqliteStorage(db_path):
        pass
    with closing(sqlite3.connect(db_path)) as raw:
        first = raw.execute("SELECT * FROM schema_migrations").fetchall()
        schema = raw.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()
    versions = [m.version for m in load_migrations()]
    assert [r[0] for r in first] == versions == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    async with SqliteStorage(db_path):  # reopen: nothing to do
        pass
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        assert await apply_migrations(conn, load_migrations()) == []  # applying twice: no-op
    with closing(sqlite3.connect(db_path)) as raw:
        assert raw.execute("SELECT * FROM schema_migrations").fetchall() == first
        assert raw.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall() == schema


async def test_an_older_database_is_upgraded(db_path: Path) -> None:
    shipped = load_migrations()
    later = (
        *shipped,
        Migration(len(shipped) + 1, "game_notes", "ALTER TABLE games ADD COLUMN note TEXT;\n"),
    )
    async with SqliteStorage(db_path, migrations=shipped) as s:
        g = await s.create_game("desert", GUILD, 1, 10, "Alice", {}, 7, "fr")
    async with SqliteStorage(db_path, migrations=later) as s:
        assert await s.get_game(g.id) == g  # data survives the upgrade
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        assert await apply_migrations(conn, later) == []
    with closing(sqlite3.connect(db_path)) as raw:
        versions = [r[0] for r in raw.execute("SELECT version FROM schema_migrations")]
        assert versions == [m.version for m in later]
        assert "note" in [r[1] for r in raw.execute("PRAGMA table_info(games)")]
    with pytest.raises(MigrationError, match="newer"):
        await SqliteStorage(db_path, migrations=shipped).open()


async def test_moves_logged_before_migration_2_keep_working(db_path: Path) -> None:
    """002 adds each move's version and events; older rows read back without them."""
    v1 = load_migrations()[:1]
    async with SqliteStorage(db_path, migrations=v1):
        pass
    with closing(sqlite3.connect(db_path)) as raw, raw:  # a game and a move as v1 wrote them
        now = "2026-01-01T00:00:00+00:00"
        raw.execute(
            "INSERT INTO games (id, kind, guild_id, channel_id, status, creator_id, seed, state,"
            " version, created_at, updated_at) VALUES (1, 'desert', ?, 1, 'active', 10, 42,"
            " '{}', 2, ?, ?)",
            (GUILD, now, now),
        )
        raw.execute(
            "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (1, 0, 10, 'A')"
        )
        raw.execute(
            "INSERT INTO moves (game_id, ply, seat, notation, created_at)"
            " VALUES (1, 1, 0, 'old', ?)",
            (now,),
        )
    async with SqliteStorage(db_path) as s:
        g = await s.get_game(1)
        assert g is not None and g.lang == "en"  # 003: older games read as English
        event = {"key": "x.log", "params": {"n": 1}, "to": 1}
        g = await s.record_move(g.id, g.version, 0, "new", {"turn": 2}, events=[event])
        old, new = await s.moves(g.id)
        assert (old.notation, old.version, old.events) == ("old", None, ())
        assert (new.notation, new.version, new.events) == ("new", g.version, (event,))
        assert [m.notation for m in await s.moves(g.id, since_version=g.version - 1)] == ["new"]
        assert await s.moves(g.id, since_version=g.version) == []


async def test_failed_migration_rolls_back_whole_file(db_path: Path) -> None:
    v1 = load_migrations()[:1]
    bad = Migration(2, "broken", "CREATE TABLE extra (x INTEGER);\nINSERT INTO nowhere VALUES (1);")
    with pytest.raises(MigrationError, match="broken"):
        await SqliteStorage(db_path, migrations=(*v1, bad)).open()
    with closing(sqlite3.connect(db_path)) as raw:
        assert [r[0] for r in raw.execute("SELECT version FROM schema_migrations")] == [1]
        assert raw.execute("SELECT name FROM sqlite_master WHERE name = 'extra'").fetchall() == []


def test_split_statements_respects_strings_and_triggers() -> None:
    sql = """
    -- a comment; with a semicolon
    CREATE TABLE t (x TEXT DEFAULT 'a;b');
    CREATE TRIGGER tr BEFORE DELETE ON t BEGIN SELECT RAISE(ABORT, 'no;'); END;
    /* trailing comment */
    """
    stmts = split_statements(sql)
    assert len(stmts) == 2 and stmts[1].endswith("END;")
    with pytest.raises(MigrationError, match="unterminated"):
        split_statements("CREATE TABLE t (x)")


def test_migration_numbering_must_be_contiguous(tmp_path: Path) -> None:
    (tmp_path / "001_a.sql").write_text("SELECT 1;")
    (tmp_path / "003_c.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="1..n"):
        load_migrations(tmp_path)


# --------------------------------------------------------------------------- lobby lifecycle


async def test_create_join_leave_start(store: Storage) -> None:
    g = await store.create_game("nomadi", GUILD, 5, 10, "Alice", {"b": "2", "a": "1"}, 99)
    assert (g.status, g.version, g.seed, g.state, g.finished_at) == ("lobby", 1, 99, None, None)
    assert g.options == {"a": "1", "b": "2"}
    assert [(s.seat, s.user_id, s.name, s.is_bot) for s in g.seats] == [(0, 10, "Alice", False)]
    assert datetime.fromisoformat(g.created_at).utcoffset() == timedelta(0)

    g = await store.add_seat(g.id, g.version, 20, "Bob", False)
    g = await store.add_seat(g.id, g.version, None, "Bot", True)
    g = await store.add_seat(g.id, g.version, 30, "Carol", False)
    assert [(s.seat, s.user_id) for s in g.seats] == [(0, 10), (1, 20), (2, None), (3, 30)]
    assert g.version == 4 and g.seat_of(30) == 3
    with pytest.raises(AlreadySeated):
        await store.add_seat(g.id, g.version, 20, "Bob again", False)
    with pytest.raises(InvalidRequest):
        await store.add_seat(g.id, g.version, None, "ghost", False)
    with pytest.raises(StaleVersion):
        await store.add_seat(g.id, 1, 40, "Dan", False)

    g = await store.remove_seat(g.id, g.version, 20)  # later seats move down
    assert [(s.seat, s.user_id, s.name) for s in g.seats] == [
        (0, 10, "Alice"),
        (1, None, "Bot"),
        (2, 30, "Carol"),
    ]
    with pytest.raises(NotSeated):
        await store.remove_seat(g.id, g.version, 20)
    with pytest.raises(InvalidRequest):
        await store.start_game(g.id, g.version, [0, 0, 1], {})

    before = g.updated_at
    g = await store.start_game(g.id, g.version, [2, 0, 1], {"board": [1, 2], "turn": 0})
    assert g.status == "active" and g.updated_at > before
    assert [(s.seat, s.user_id) for s in g.seats] == [(0, 30), (1, 10), (2, None)]
    assert g.state == {"board": [1, 2], "turn": 0}
    assert await store.get_game(g.id) == g
    with pytest.raises(NotInLobby):
        await store.add_seat(g.id, g.version, 40, "Dan", False)
    with pytest.raises(NotInLobby):
        await store.remove_seat(g.id, g.version, 10)
    with pytest.raises(NotFound):
        await store.add_seat(12345, 1, 40, "Dan", False)
    assert await store.get_game(12345) is None


async def test_one_open_game_per_channel(store: Storage, db_url: str) -> None:
    g = await store.create_game("desert", GUILD, 7, 10, "Alice", {}, 1)
    with pytest.raises(ChannelBusy) as busy:
        await store.create_game("oasis", GUILD, 7, 20, "Bob", {}, 2)
    assert busy.value.existing_game_id == g.id
    other = await store.create_game("oasis", GUILD, 8, 20, "Bob", {}, 2)  # other channel: fine
    assert (await store.active_game(7)) == g

    g = await store.cancel_game(g.id, g.version)
    assert g.status == "cancelled" and g.finished_at is not None
    assert await store.active_game(7) is None
    with pytest.raises(WrongStatus):
        await store.cancel_game(g.id, g.version)

    g2 = await new_active(store, channel=7)  # allowed after cancel; busy while active
    with pytest.raises(ChannelBusy):
        await store.create_game("desert", GUILD, 7, 10, "Alice", {}, 1)
    res = results_for(g2.seats, [3, 5], [2, 1], {1})
    await store.finish_game(g2.id, g2.version, {"over": True}, res)
    g3 = await store.create_game("desert", GUILD, 7, 10, "Alice", {}, 1)  # allowed after finish
    assert (await store.active_game(7)) == g3 and (await store.active_game(8)) == other

    # The partial unique index enforces it even for writers that skip the check.
    with pytest.raises(INTEGRITY):
        await raw_sql(
            db_url,
            "INSERT INTO games (kind, guild_id, channel_id, status, creator_id, seed,"
            " created_at, updated_at) VALUES ('x', 1, 7, 'active', 1, 1, 'now', 'now')",
        )


async def test_list_games(store: Storage) -> None:
    a = await store.create_game("desert", GUILD, 1, 10, "A", {}, 1)
    b = await new_active(store, channel=2)
    await store.create_game("desert", OTHER_GUILD, 3, 10, "A", {}, 1)
    a = await store.cancel_game(a.id, a.version)
    assert [g.id for g in await store.list_games(GUILD)] == [a.id, b.id]  # latest update first
    assert [g.id for g in await store.list_games(GUILD, statuses={"active", "lobby"})] == [b.id]
    assert [g.id for g in await store.list_games(GUILD, limit=1)] == [a.id]
    assert await store.list_games(GUILD, statuses=()) == []
    with pytest.raises(InvalidRequest):
        await store.list_games(GUILD, statuses=["bogus"])


async def test_server_games_pages_newest_first(store: Storage) -> None:
    """A server's games by number, newest first, in pages that stay put while
    older games are played; counted by status; other servers' games never."""
    made = [await new_active(store, channel=100 + n) for n in range(5)]
    lobby = await store.create_game("desert", GUILD, 200, 10, "A", {}, 1)
    await new_active(store, channel=300, guild=OTHER_GUILD)
    shown = ("active", "finished")
    await store.record_move(made[0].id, made[0].version, 0, "a1", {})  # the oldest, updated
    newest_first = [g.id for g in reversed(made)]
    assert [g.id for g in await store.server_games(GUILD, shown, limit=2)] == newest_first[:2]
    assert [g.id for g in await store.server_games(GUILD, shown, 2, 2)] == newest_first[2:4]
    assert [g.id for g in await store.server_games(GUILD, shown, 2, 4)] == newest_first[4:]
    assert await store.server_games(GUILD, shown, 2, 6) == []
    assert await store.count_games(GUILD, shown) == 5
    assert await store.count_games(GUILD, ("lobby",)) == 1
    assert [g.id for g in await store.server_games(GUILD, ("lobby",))] == [lobby.id]
    assert await store.count_games(GUILD, ()) == 0 and await store.server_games(GUILD, ()) == []
    with pytest.raises(InvalidRequest):
        await store.server_games(GUILD, shown, 10, -1)


async def test_active_games_after_pages_through_every_guild(store: Storage) -> None:
    """300 active games over three guilds, among lobbies and ended games, in pages of 100."""
    active: list[int] = []
    others: dict[int, str] = {}
    for n in range(360):
        guild = (GUILD, OTHER_GUILD, 3000)[n % 3]
        if n % 18 == 17:  # a finished, a cancelled or a lobby game every sixth
            g = await play_game(store, 10_000 + n, [(10, "A"), (20, "B")], [1, 0], guild=guild)
            others[g.id] = g.status
        elif n % 6 == 5:
            g = await store.create_game("desert", guild, 10_000 + n, 10, "A", {}, n)
            if n % 18 == 11:
                g = await store.cancel_game(g.id, g.version)
            others[g.id] = g.status
        else:
            active.append((await new_active(store, channel=10_000 + n, guild=guild)).id)
    assert len(active) == 300 and set(others.values()) == {"lobby", "cancelled", "finished"}

    pages: list[list[GameRecord]] = []
    after = 0
    while True:
        page = await store.active_games_after(after, limit=100)
        pages.append(page)
        if len(page) < 100:
            break
        after = page[-1].id
    assert [len(p) for p in pages] == [100, 100, 100, 0]
    seen = [g.id for p in pages for g in p]
    assert seen == sorted(set(seen)) == active  # in id order: none missed, none repeated
    assert all(g.status == "active" and len(g.seats) == 2 for p in pages for g in p)
    assert {g.guild_id for p in pages for g in p} == {GUILD, OTHER_GUILD, 3000}
    assert pages[0][0] == await store.get_game(active[0])  # whole records, seats included

    lobbies = [i for i, st in others.items() if st == "lobby"]
    both = await store.active_games_after(0, limit=1000, statuses=("lobby", "active"))
    assert [g.id for g in both] == sorted(active + lobbies)
    assert [g.id for g in await store.active_games_after(0, 1000, "lobby")] == lobbies
    assert [g.id for g in await store.active_games_after(active[-2], 5)] == active[-1:]
    assert await store.active_games_after(active[-1]) == []
    assert await store.active_games_after(0, statuses=()) == []
    with pytest.raises(InvalidRequest):
        await store.active_games_after(0, statuses=("bogus",))
    with pytest.raises(InvalidRequest):
        await store.active_games_after(0, limit=0)


async def test_paging_while_games_come_and_go(store: Storage) -> None:
    """Games ending between pages drop out, new ones come last: still nothing repeated."""
    ids = [(await new_active(store, channel=n)).id for n in range(30)]
    first = await store.active_games_after(0, limit=10)
    ended = await store.get_game(ids[15])
    assert ended is not None
    res = results_for(ended.seats, [1, 0], [1, 2], {0})
    await store.finish_game(ended.id, ended.version, {}, res)
    late = (await new_active(store, channel=99)).id
    seen = [g.id for g in first]
    while page := await store.active_games_after(seen[-1], limit=10):
        seen += [g.id for g in page]
    assert seen == [i for i in ids if i != ids[15]] + [late]


async def test_open_games_of(store: Storage) -> None:
    lobby = await store.create_game("desert", GUILD, 1, 10, "Alice", {}, 1)
    joined = await store.create_game("desert", GUILD, 2, 20, "Bob", {}, 1)
    joined = await store.add_seat(joined.id, joined.version, 10, "Alice", False)
    playing = await new_active(store, channel=3)  # user 10 against a bot
    resigned = await new_active(store, channel=4)
    await store.resign_seat(resigned.id, resigned.version, 0, {})
    await play_game(store, 5, [(10, "Alice"), (20, "Bob")], [1, 0])  # finished: not open
    gone = await store.create_game("desert", GUILD, 6, 10, "Alice", {}, 1)
    await store.cancel_game(gone.id, gone.version)
    await new_active(store, channel=7, guild=OTHER_GUILD)  # another guild
    await store.create_game("desert", GUILD, 8, 30, "Carol", {}, 1)  # without user 10

    mine = await store.open_games_of(GUILD, 10)
    assert [g.id for g in mine] == [lobby.id, joined.id, playing.id, resigned.id]
    assert mine[1] == await store.get_game(joined.id)
    assert [g.seats[g.seat_of(10) or 0].resigned for g in mine] == [False, False, False, True]
    assert [g.id for g in await store.open_games_of(GUILD, 20)] == [joined.id]
    assert len(await store.open_games_of(OTHER_GUILD, 10)) == 1
    assert await store.open_games_of(GUILD, 99) == []


async def test_idle_lobbies(store: Storage) -> None:
    old = await store.create_game("desert", GUILD, 1, 10, "A", {}, 1)
    other_guild = await store.create_game("desert", OTHER_GUILD, 2, 10, "A", {}, 1)
    playing = await new_active(store, channel=3)  # active: never a lobby to sweep
    fresh = await store.create_game("desert", GUILD, 4, 10, "A", {}, 1)
    assert await store.idle_lobbies(old.updated_at) == []  # strictly before
    assert [g.id for g in await store.idle_lobbies(fresh.updated_at)] == [old.id, other_guild.id]

    old = await store.add_seat(old.id, old.version, 20, "B", False)  # activity: no longer idle
    idle = await store.idle_lobbies(fresh.updated_at)
    assert [g.id for g in idle] == [other_guild.id]
    assert idle[0] == await store.get_game(other_guild.id)
    everything = await store.idle_lobbies("2999-01-01T00:00:00+00:00")
    assert [g.id for g in everything] == [other_guild.id, fresh.id, old.id]  # oldest update first
    assert playing.id not in [g.id for g in everything]

    # Any ISO form with an offset compares as the stored UTC timestamps do.
    cut = datetime.fromisoformat(fresh.updated_at)
    for form in (
        cut.isoformat(),
        cut.astimezone(timezone(timedelta(hours=2))).isoformat(),
        cut.isoformat().replace("+00:00", "Z"),
    ):
        assert [g.id for g in await store.idle_lobbies(form)] == [other_guild.id], form
    whole = cut.replace(microsecond=0)  # no microseconds written: still compares as times do
    expected = [g.id for g in everything if datetime.fromisoformat(g.updated_at) < whole]
    assert [g.id for g in await store.idle_lobbies(whole.isoformat())] == expected
    for bad in ("yesterday", "2026-01-01T00:00:00", ""):
        with pytest.raises(InvalidRequest):
            await store.idle_lobbies(bad)


# --------------------------------------------------------------------------- shards

# Guilds spread over shards: (guild_id >> 22) % count, high bits included.
SHARDED_GUILDS = (
    GUILD,  # 1000 >> 22 == 0: shard 0 of any count
    (1 << 22) | 5,
    (2 << 22) | 77,
    (3 << 22) | (1 << 21),  # the bits below 22 never count
    (7 << 22) | 1,
    1234567890123456789,  # a real-sized snowflake: 294343922167 -> 3 of 4
    (1 << 62) | (6 << 22) | 12345,  # the 63rd bit set
    2**63 - 1,  # the largest a database holds: 2199023255551 -> 3 of 4
)
SHARDINGS = (
    Shards(1, frozenset({0})),  # one shard: everything
    Shards(4, frozenset({0})),
    Shards(4, frozenset({1, 3})),
    Shards(4, frozenset({0, 1, 2, 3})),
    Shards(3, frozenset({2})),
    Shards(16, frozenset({7, 15})),
    Shards(1000, frozenset({0, 999})),
)


def test_shards_use_discords_formula() -> None:
    four = {i: Shards(4, frozenset({i})) for i in range(4)}
    assert [i for g in SHARDED_GUILDS for i in range(4) if four[i].owns(g)] == [
        0, 1, 2, 3, 3, 3, 2, 3
    ]  # fmt: skip
    assert Shards(16, frozenset({7})).owns(1234567890123456789)
    assert Shards(3, frozenset({1})).owns(2**63 - 1)
    assert all(Shards(1, frozenset({0})).owns(g) for g in SHARDED_GUILDS)
    assert Shards(2, {1}).ids == frozenset({1})  # type: ignore[arg-type]  # frozen on the way in
    for count, ids in ((0, {0}), (-1, {0}), (2, set()), (2, {2}), (2, {-1}), (True, {0})):
        with pytest.raises(InvalidRequest):
            Shards(count, frozenset(ids))
    with pytest.raises(InvalidRequest):
        Shards(2, frozenset({"0"}))  # type: ignore[arg-type]


async def sharded_games(s: Storage) -> tuple[list[GameRecord], list[GameRecord]]:
    """In every guild of SHARDED_GUILDS an active game with a clock, then a lobby."""
    active, lobbies = [], []
    for n, guild in enumerate(SHARDED_GUILDS):
        g = await s.create_game("desert", guild, 100 + n, 10, "A", {}, 1, clock_hours=2)
        g = await s.add_seat(g.id, g.version, None, "Bot", True)
        active.append(await s.start_game(g.id, g.version, [0, 1], {}))
    for n, guild in enumerate(SHARDED_GUILDS):
        lobbies.append(await s.create_game("desert", guild, 200 + n, 10, "A", {}, 1))
    return active, lobbies


async def test_due_clocks_by_shard(store: Storage) -> None:
    active, _ = await sharded_games(store)
    later = "2999-01-01T00:00:00+00:00"
    everything = await store.due_clocks(later)
    assert everything == sorted(active, key=lambda g: (g.clock_due, g.id))
    assert await store.due_clocks(later, shards=None) == everything
    for shards in SHARDINGS:
        mine = await store.due_clocks(later, shards=shards)
        assert mine == [g for g in everything if shards.owns(g.guild_id)], shards
        assert await store.due_clocks(later, 1, shards=shards) == mine[:1]
    three = await store.due_clocks(later, shards=Shards(4, frozenset({3})))
    assert [g.guild_id for g in three] == [
        (3 << 22) | (1 << 21),
        (7 << 22) | 1,
        *SHARDED_GUILDS[5::2],
    ]
    assert await store.due_clocks(active[0].created_at, shards=SHARDINGS[0]) == []  # none due yet


async def test_active_games_after_by_shard(store: Storage) -> None:
    active, lobbies = await sharded_games(store)
    for shards in SHARDINGS:
        mine = [g for g in active if shards.owns(g.guild_id)]
        assert await store.active_games_after(0, shards=shards) == mine, shards
        seen: list[GameRecord] = []  # pages of one: the limit counts this shard's games only
        while page := await store.active_games_after(seen[-1].id if seen else 0, 1, shards=shards):
            seen += page
        assert seen == mine
        both = await store.active_games_after(0, 100, ("lobby", "active"), shards=shards)
        assert both == sorted(
            mine + [g for g in lobbies if shards.owns(g.guild_id)], key=lambda g: g.id
        )
    assert await store.active_games_after(0, shards=None) == active
    two = await store.active_games_after(0, 100, "lobby", shards=Shards(4, frozenset({2})))
    assert [g.guild_id for g in two] == [(2 << 22) | 77, (1 << 62) | (6 << 22) | 12345]
    assert await store.active_games_after(0, statuses=(), shards=SHARDINGS[1]) == []


async def test_shard_filters_keep_their_indexes(sqlite_store: SqliteStorage, db_path: Path) -> None:
    """SQLite only (PostgreSQL's plans depend on its statistics): the shard filter
    is one more condition, the three queries still search the same indexes."""
    await sharded_games(sqlite_store)
    readers = sqlite_store._readers  # white-box: the statements as run, values bound
    assert readers is not None
    ran: list[str] = []
    for reader in list(readers._queue):  # type: ignore[attr-defined]
        await reader.set_trace_callback(ran.append)
    later, shards = "2999-01-01T00:00:00+00:00", Shards(4, frozenset({1, 3}))
    for each in (None, shards):
        await sqlite_store.due_clocks(later, shards=each)
        await sqlite_store.active_games_after(0, shards=each)
        await sqlite_store.idle_lobbies(later, shards=each)
    queries = [sql for sql in ran if sql.startswith("SELECT * FROM games")]
    assert len(queries) == 6 and all("guild_id >> 22" in sql for sql in queries[3:])
    with closing(sqlite3.connect(db_path)) as raw:
        plans = [[row[3] for row in raw.execute(f"EXPLAIN QUERY PLAN {sql}")] for sql in queries]
    assert plans[3:] == plans[:3]
    assert all(p[0].startswith("SEARCH games USING INDEX ") for p in plans), plans


async def test_idle_lobbies_by_shard(store: Storage) -> None:
    _, lobbies = await sharded_games(store)
    later = "2999-01-01T00:00:00+00:00"
    assert await store.idle_lobbies(later, shards=None) == lobbies  # oldest update first
    for shards in SHARDINGS:
        mine = await store.idle_lobbies(later, shards=shards)
        assert mine == [g for g in lobbies if shards.owns(g.guild_id)], shards
    zero = await store.idle_lobbies(later, shards=Shards(4, frozenset({0})))
    assert [g.id for g in zero] == [lobbies[0].id]
    assert await store.idle_lobbies(lobbies[0].updated_at, shards=SHARDINGS[0]) == []


# --------------------------------------------------------------------------- moves


async def test_a_move_returns_the_game_as_reading_it_back_gives_it(store: Storage) -> None:
    """record_move builds its answer without reading the game again: it must be
    what a read gives, for a move within a turn, one that ends it (owing a post)
    and one that finishes the game."""
    g = await new_active(store)
    within_turn = await store.record_move(g.id, g.version, 0, "a1", {"n": [1, (2, 3)]})
    assert within_turn == await store.get_game(g.id)
    assert within_turn.state == {"n": [1, [2, 3]]}  # as stored: JSON has no tuples
    hook = ReplyHook(123, "token")
    ends_turn = await store.record_move(
        g.id, within_turn.version, 1, "b2", {"turn": 2}, reply_hook=hook
    )
    assert ends_turn == await store.get_game(g.id)
    assert ends_turn.announce_version == ends_turn.version
    results = results_for(ends_turn.seats, [3, 1], [1, 2], {0})
    finished = await store.record_move(g.id, ends_turn.version, 0, "end", {}, results=results)
    assert finished == await store.get_game(g.id)
    assert finished.status == "finished" and finished.finished_at == finished.updated_at


async def test_record_move_version_guard(store: Storage) -> None:
    g = await new_active(store)
    g1 = await store.record_move(g.id, g.version, 0, "a1", {"turn": 1})
    assert (g1.version, g1.state) == (g.version + 1, {"turn": 1})
    assert g1.updated_at > g.updated_at

    with pytest.raises(StaleVersion) as stale:
        await store.record_move(g.id, g.version, 1, "b2", {"turn": 99})
    assert (stale.value.expected, stale.value.actual) == (g.version, g1.version)
    assert await store.get_game(g.id) == g1  # nothing changed
    assert [m.notation for m in await store.moves(g.id)] == ["a1"]

    with pytest.raises(InvalidRequest):
        await store.record_move(g.id, g1.version, 5, "zz", {})
    with pytest.raises(InvalidRequest):
        await store.record_move(g.id, g1.version, 0, "nan", {"x": float("nan")})
    lobby = await store.create_game("desert", GUILD, 2, 10, "A", {}, 1)
    with pytest.raises(NotActive):
        await store.record_move(lobby.id, lobby.version, 0, "a1", {})
    with pytest.raises(NotFound):
        await store.record_move(999, 1, 0, "a1", {})
    assert await store.get_game(g.id) == g1


async def test_move_log_is_append_only_and_ordered(store: Storage, db_url: str) -> None:
    g = await new_active(store)
    notations = [f"m{i}" for i in range(12)]
    for i, n in enumerate(notations):
        g = await store.record_move(g.id, g.version, i % 2, n, {"ply": i + 1})
    log = await store.moves(g.id)
    assert [(m.ply, m.seat, m.notation) for m in log] == [
        (i + 1, i % 2, n) for i, n in enumerate(notations)
    ]
    assert [m.created_at for m in log] == sorted(m.created_at for m in log)
    assert await store.moves(999) == []
    for sql in ("UPDATE moves SET notation = 'x'", "DELETE FROM moves"):
        with pytest.raises(INTEGRITY, match="append-only"):
            await raw_sql(db_url, sql)
    if db_url.startswith("postgresql://"):  # PostgreSQL also has TRUNCATE
        with pytest.raises(INTEGRITY, match="append-only"):
            await raw_sql(db_url, "TRUNCATE moves CASCADE")
    assert len(await store.moves(g.id)) == len(notations)


async def test_concurrent_moves_one_connection(store: Storage) -> None:
    g = await new_active(store)
    for turn in range(10):
        outcome = await asyncio.gather(
            store.record_move(g.id, g.version, 0, f"x{turn}", {"by": "x"}),
            store.record_move(g.id, g.version, 1, f"y{turn}", {"by": "y"}),
            return_exceptions=True,
        )
        landed = [o for o in outcome if isinstance(o, GameRecord)]
        assert len(landed) == 1
        assert sum(isinstance(o, StaleVersion) for o in outcome) == 1
        g = landed[0]
    log = await store.moves(g.id)
    assert [m.ply for m in log] == list(range(1, 11))
    assert (await store.get_game(g.id)) == g


async def test_concurrent_moves_two_processes(db_url: str) -> None:
    async with storage_for(db_url) as a, storage_for(db_url) as b:
        g = await new_active(a)
        for turn in range(10):
            outcome = await asyncio.gather(
                a.record_move(g.id, g.version, 0, f"a{turn}", {"by": "a"}),
                b.record_move(g.id, g.version, 1, f"b{turn}", {"by": "b"}),
                return_exceptions=True,
            )
            landed = [o for o in outcome if isinstance(o, GameRecord)]
            assert len(landed) == 1
            assert sum(isinstance(o, StaleVersion) for o in outcome) == 1
            g = landed[0]
            assert await a.get_game(g.id) == await b.get_game(g.id) == g
        assert [m.ply for m in await b.moves(g.id)] == list(range(1, 11))


async def test_many_racing_movers_keep_log_consistent(db_url: str) -> None:
    """Eight handlers on two storages each land 5 moves by reload-and-retry."""
    async with storage_for(db_url) as a, storage_for(db_url) as b:
        g = await new_active(a)

        async def mover(s: Storage, who: int) -> None:
            landed = 0
            while landed < 5:
                cur = await s.get_game(g.id)
                assert cur is not None
                try:
                    await s.record_move(g.id, cur.version, who % 2, f"w{who}", {"v": cur.version})
                    landed += 1
                except StaleVersion:
                    pass  # someone else moved first: reload and retry

        await asyncio.gather(*(mover(a if i % 2 else b, i) for i in range(8)))
        final = await a.get_game(g.id)
        log = await a.moves(g.id)
        assert final is not None and final.version == g.version + 40
        assert [m.ply for m in log] == list(range(1, 41))
        # Each state was written by the mover that read the version just before it.
        assert final.state == {"v": final.version - 1}


async def test_reads_never_see_uncommitted_writes(db_path: Path) -> None:
    """SQLite only: WAL snapshots and the busy timeout (PostgreSQL: test_pg_* below)."""
    async with SqliteStorage(db_path, busy_timeout_ms=100) as s:
        g = await new_active(s)
        raw = sqlite3.connect(db_path, isolation_level=None)
        try:
            raw.execute("BEGIN IMMEDIATE")
            raw.execute("UPDATE games SET state = '{\"dirty\":1}', version = 99")
            assert await s.get_game(g.id) == g  # WAL: readers see the last commit, unblocked
            with pytest.raises(StorageBusy):  # writers wait busy_timeout, then give up cleanly
                await s.record_move(g.id, g.version, 0, "a1", {})
            raw.execute("ROLLBACK")
        finally:
            raw.close()
        g = await s.record_move(g.id, g.version, 0, "a1", {"turn": 1})  # connection still fine
        assert [m.notation for m in await s.moves(g.id)] == ["a1"]


async def test_cancelled_handler_leaves_no_open_transaction(store: Storage) -> None:
    g = await new_active(store)
    start_version = g.version
    for _ in range(5):
        task = asyncio.create_task(store.record_move(g.id, g.version, 0, "c", {}))
        await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        current = await store.get_game(g.id)
        assert current is not None
        g = await store.record_move(g.id, current.version, 1, "ok", {})  # never blocked
    assert g.version - start_version == len(await store.moves(g.id))


async def test_reads_proceed_while_a_write_transaction_is_open(
    sqlite_store: SqliteStorage,
) -> None:
    """SQLite only (white-box: its write lock and read connections). Reads have
    their own connections: they neither wait for the write lock nor see
    the open write's uncommitted rows."""
    store = sqlite_store
    g = await new_active(store)
    other = await new_active(store, channel=2)
    async with store._write() as conn:  # white-box: a write transaction held open
        await conn.execute("UPDATE games SET state = '{\"dirty\":1}' WHERE id = ?", (g.id,))
        reads = await asyncio.wait_for(
            asyncio.gather(
                *(store.get_game(g.id) for _ in range(30)),
                store.list_games(GUILD),
                store.active_games_after(0),
                store.moves(g.id),
                store.open_games_of(GUILD, 10),
            ),
            timeout=5,
        )
        assert reads[:30] == [g] * 30  # the last commit, not the dirty state
        assert [x.id for x in reads[31]] == [g.id, other.id]  # type: ignore[union-attr]
    assert (await store.get_game(g.id)) == replace(
        g, state={"dirty": 1}
    )  # committed now: the next read sees it


async def test_reads_finish_while_a_slow_write_waits(db_path: Path) -> None:
    """SQLite only (its file lock and busy timeout). A write stuck behind another
    process's lock holds our write lock for seconds; meanwhile every read of every
    handler completes at once."""
    async with SqliteStorage(db_path, busy_timeout_ms=10_000) as s:
        g = await new_active(s)
        raw = sqlite3.connect(db_path, isolation_level=None)
        try:
            raw.execute("BEGIN IMMEDIATE")  # another process writing
            write = asyncio.create_task(s.record_move(g.id, g.version, 0, "slow", {"t": 1}))
            await asyncio.sleep(0.2)
            assert not write.done() and s._lock.locked()  # the write waits, holding the lock
            started = time.monotonic()
            reads = await asyncio.wait_for(
                asyncio.gather(*(s.get_game(g.id) for _ in range(50))), timeout=5
            )
            elapsed = time.monotonic() - started
            assert reads == [g] * 50 and elapsed < 2, elapsed
            assert not write.done()  # the reads did not wait for it
            raw.execute("ROLLBACK")
        finally:
            raw.close()
        moved = await asyncio.wait_for(write, timeout=10)
        assert moved.version == g.version + 1
        assert await s.get_game(g.id) == moved  # a read after the write sees it


async def test_in_memory_reads_share_the_write_connection() -> None:
    """SQLite only (``:memory:``): no read connections, reads and writes one at a time."""
    async with SqliteStorage(":memory:") as s:
        assert s._readers is None
        g = await new_active(s)
        outcome = await asyncio.gather(
            *(s.get_game(g.id) for _ in range(10)),
            s.record_move(g.id, g.version, 0, "a1", {"t": 1}),
            *(s.moves(g.id) for _ in range(10)),
        )
        assert all(x in (g, outcome[10]) for x in outcome[:10])
        assert await s.get_game(g.id) == outcome[10]


async def test_close_waits_for_running_reads(db_url: str) -> None:
    s = storage_for(db_url)
    await s.open()
    g = await new_active(s)
    reads = [asyncio.create_task(s.get_game(g.id)) for _ in range(20)]
    await asyncio.sleep(0)
    await asyncio.wait_for(s.close(), timeout=5)
    outcome = await asyncio.gather(*reads, return_exceptions=True)
    for o in outcome:  # each read either completed or was refused cleanly
        assert o == g or (isinstance(o, StorageError) and "not open" in str(o)), o
    with pytest.raises(StorageError, match="not open"):
        await s.get_game(g.id)
    await s.open()  # and it opens again
    try:
        assert await s.get_game(g.id) == g
    finally:
        await s.close()


async def test_cancelled_reads_return_their_connection(sqlite_store: SqliteStorage) -> None:
    """SQLite only: its own queue of read connections."""
    store = sqlite_store
    g = await new_active(store)
    for _ in range(20):
        task = asyncio.create_task(store.list_games(GUILD))
        await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert store._readers is not None and store._readers.qsize() == 3
    assert await asyncio.wait_for(store.get_game(g.id), timeout=2) == g


# --------------------------------------------------------------------------- endings


async def test_finish_with_results_and_resignation(store: Storage) -> None:
    g = await store.create_game("oasis", GUILD, 1, 10, "Alice", {}, 1)
    g = await store.add_seat(g.id, g.version, 20, "Bob", False)
    g = await store.add_seat(g.id, g.version, None, "Bot", True)
    g = await store.start_game(g.id, g.version, [0, 1, 2], {})
    g = await store.set_seat_resigned(g.id, g.version, 1, {"resigned": [1]})
    assert [s.resigned for s in g.seats] == [False, True, False]
    assert g.state == {"resigned": [1]}

    good = results_for(g.seats, [10, 0, 7], [1, 3, 2], {0})
    with pytest.raises(InvalidRequest):  # a seat missing
        await store.record_move(g.id, g.version, 0, "last", {}, results=good[:2])
    wrong_user = (ResultRow(0, 99, "Mallory", 10, 1, True), *good[1:])
    with pytest.raises(InvalidRequest):
        await store.finish_game(g.id, g.version, {}, wrong_user)
    assert await store.get_game(g.id) == g and await store.moves(g.id) == []

    g = await store.record_move(g.id, g.version, 0, "last", {"over": True}, results=good)
    assert g.status == "finished" and g.finished_at == g.updated_at
    assert [m.notation for m in await store.moves(g.id)] == ["last"]
    assert await store.results(g.id) == [
        ResultRow(0, 10, "Alice", 10, 1, True),
        ResultRow(2, None, "Bot", 7, 2, False),
        ResultRow(1, 20, "Bob", 0, 3, False),
    ]
    with pytest.raises(NotActive):
        await store.finish_game(g.id, g.version, {}, good)
    with pytest.raises(NotActive):
        await store.set_seat_resigned(g.id, g.version, 0, {})


async def test_resign_seat(store: Storage) -> None:
    g = await store.create_game("oasis", GUILD, 1, 10, "Alice", {}, 1)
    g = await store.add_seat(g.id, g.version, 20, "Bob", False)
    g = await store.add_seat(g.id, g.version, 30, "Carol", False)
    g = await store.add_seat(g.id, g.version, None, "Bot", True)
    with pytest.raises(NotActive):
        await store.resign_seat(g.id, g.version, 0, {})
    g = await store.start_game(g.id, g.version, [0, 1, 2, 3], {})

    before = g
    g = await store.resign_seat(g.id, g.version, 1, {"resigned": [1]})  # the game goes on
    assert (g.status, g.version, g.state) == ("active", before.version + 1, {"resigned": [1]})
    assert [s.resigned for s in g.seats] == [False, True, False, False]
    assert g.finished_at is None and await store.results(g.id) == []
    assert await store.moves(g.id) == []  # a resignation is not a move

    for seat, error in ((1, "already resigned"), (3, "is a bot"), (9, "no seat")):
        with pytest.raises(InvalidRequest, match=error):
            await store.resign_seat(g.id, g.version, seat, {})
    with pytest.raises(StaleVersion):
        await store.resign_seat(g.id, before.version, 2, {})
    res = results_for(g.seats, [5, 0, 1, 3], [1, 4, 3, 2], {0})
    with pytest.raises(InvalidRequest):
        await store.resign_seat(g.id, g.version, 2, {}, res, cancel=True)
    with pytest.raises(InvalidRequest):  # results must cover every seat
        await store.resign_seat(g.id, g.version, 2, {}, res[:3])
    assert await store.get_game(g.id) == g  # none of that changed anything

    g = await store.resign_seat(g.id, g.version, 2, {"over": True}, res)  # the last human left
    assert (g.status, g.state, g.finished_at) == ("finished", {"over": True}, g.updated_at)
    assert [s.resigned for s in g.seats] == [False, True, True, False]
    assert [(r.seat, r.name, r.rank, r.won) for r in await store.results(g.id)] == [
        (0, "Alice", 1, True),
        (3, "Bot", 2, False),
        (2, "Carol", 3, False),
        (1, "Bob", 4, False),
    ]
    with pytest.raises(NotActive):
        await store.resign_seat(g.id, g.version, 0, {})


async def test_resign_seat_can_cancel(store: Storage) -> None:
    g = await new_active(store)
    g = await store.resign_seat(g.id, g.version, 0, {"void": True}, cancel=True)
    assert (g.status, g.state, g.finished_at) == ("cancelled", {"void": True}, g.updated_at)
    assert g.seats[0].resigned and await store.results(g.id) == []
    assert await store.active_game(1) is None  # the channel is free again


@pytest.mark.parametrize("storages", ["one", "two"])
async def test_a_move_racing_a_resignation(db_url: str, storages: str) -> None:
    """Same version: exactly one lands, the other is StaleVersion, whichever goes first."""
    async with storage_for(db_url) as a, storage_for(db_url) as b:
        mover, resigner = (a, a) if storages == "one" else (a, b)
        landed_kinds: set[str] = set()
        for round_ in range(16):
            g = await mover.create_game("desert", GUILD, round_, 10, "Alice", {}, 1)
            g = await mover.add_seat(g.id, g.version, 20, "Bob", False)
            g = await mover.start_game(g.id, g.version, [0, 1], {"turn": 0})
            res = results_for(g.seats, [0, 1], [2, 1], {1})
            move = mover.record_move(g.id, g.version, 1, "b1", {"turn": 1})
            resign = resigner.resign_seat(g.id, g.version, 0, {"gone": 0}, res)
            calls = [move, resign] if round_ % 2 else [resign, move]
            outcome = await asyncio.gather(*calls, return_exceptions=True)
            landed = [o for o in outcome if isinstance(o, GameRecord)]
            assert len(landed) == 1, outcome
            assert sum(isinstance(o, StaleVersion) for o in outcome) == 1, outcome
            final = await b.get_game(g.id)
            assert final == landed[0] and final.version == g.version + 1
            if final.status == "finished":  # the resignation won: results, no move
                landed_kinds.add("resign")
                assert final.seats[0].resigned and final.state == {"gone": 0}
                assert [r.seat for r in await b.results(g.id)] == [1, 0]
                assert await b.moves(g.id) == []
            else:  # the move won: nobody resigned, nothing finished
                landed_kinds.add("move")
                assert final.status == "active" and not final.seats[0].resigned
                assert [m.notation for m in await b.moves(g.id)] == ["b1"]
                assert await b.results(g.id) == []
        assert landed_kinds == {"move", "resign"}


async def test_leaderboard(store: Storage) -> None:
    alice, bob, carol, dave = (10, "Alice"), (20, "Bob"), (30, "Carol"), (40, "Dave")
    bot: tuple[int | None, str] = (None, "Bot")
    await play_game(store, 1, [alice, bob], [10, 5])
    await play_game(store, 1, [alice, bob, bot], [3, 2, 9])  # the bot wins; no human does
    await play_game(store, 1, [bob, carol], [6, 6])  # tie: both win
    await play_game(store, 1, [dave, bot], [1, 4])  # Dave only ever loses
    await play_game(store, 2, [alice, carol], [9, 2], kind="nomadi")
    await play_game(store, 3, [(10, "Alice B."), bob], [5, 4], guild=OTHER_GUILD)
    await new_active(store, channel=4)  # unfinished: ignored
    await play_game(store, 5, [carol, (10, "Alicia")], [8, 1])  # latest name is used

    board = await store.leaderboard(GUILD)
    assert [(r.name, r.games, r.wins, r.points) for r in board] == [
        ("Carol", 3, 2, 16),  # same wins as Alice, better rate
        ("Alicia", 4, 2, 23),
        ("Bob", 3, 1, 13),
        ("Dave", 1, 0, 1),
    ]
    assert board[0].win_rate == pytest.approx(2 / 3) and board[1].win_rate == pytest.approx(0.5)
    assert all(r.user_id is not None for r in board)

    desert = await store.leaderboard(GUILD, kind="desert")
    assert [(r.user_id, r.games, r.wins, r.points) for r in desert] == [
        (30, 2, 2, 14),
        (10, 3, 1, 14),
        (20, 3, 1, 13),
        (40, 1, 0, 1),
    ]  # then points
    assert [(r.name, r.wins) for r in await store.leaderboard(GUILD, "nomadi")] == [
        ("Alice", 1),
        ("Carol", 0),
    ]
    assert [r.name for r in await store.leaderboard(OTHER_GUILD)] == ["Alice B.", "Bob"]
    assert len(await store.leaderboard(GUILD, limit=2)) == 2
    assert await store.leaderboard(GUILD, kind="sahwari") == []


# --------------------------------------------------------------------------- data


STATES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


_json_channels = itertools.count(1)


@pytest.fixture
def json_url(backend: str, request: pytest.FixtureRequest) -> Iterator[str]:
    """One database for every example of the property test below."""
    if backend == "sqlite":
        yield "sqlite:///:memory:"  # a new one at each open
        return
    server: PgServer = request.getfixturevalue("pg_server")
    url = asyncio.run(server.create_database())
    yield url
    asyncio.run(server.drop_database(url))


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.dictionaries(st.text(), STATES, max_size=5))
def test_json_state_round_trip(json_url: str, state: dict[str, Any]) -> None:
    """The same JSON comes back on both backends."""

    async def run() -> None:
        async with await open_storage(json_url) as s:
            g = await new_active(s, channel=next(_json_channels))
            g = await s.record_move(g.id, g.version, 0, "x", state)
            assert g.state == state
            assert (await s.get_game(g.id)) == g

    asyncio.run(run())


async def test_reopen_keeps_everything(db_url: str) -> None:
    async with storage_for(db_url) as s:
        done = await play_game(s, 1, [(10, "Alice"), (20, "Bob")], [3, 1])
        live = await new_active(s, channel=2)
        live = await s.record_move(live.id, live.version, 0, "é→1", {"deep": {"t": [1, "ü"]}})
        await s.set_meta("command_tree_hash", "abc123")
        before = (
            await s.list_games(GUILD),
            await s.moves(live.id),
            await s.results(done.id),
            await s.leaderboard(GUILD),
        )
    async with storage_for(db_url) as s:  # simulated restart
        after = (
            await s.list_games(GUILD),
            await s.moves(live.id),
            await s.results(done.id),
            await s.leaderboard(GUILD),
        )
        assert after == before
        assert await s.get_game(live.id) == live
        assert await s.get_meta("command_tree_hash") == "abc123"


async def test_closed_storage_refuses(db_url: str) -> None:
    s = storage_for(db_url)
    with pytest.raises(StorageError, match="not open"):
        await s.get_game(1)
    await s.open()
    await s.open()  # idempotent
    await s.close()
    with pytest.raises(StorageError, match="not open"):
        await s.set_meta("k", "v")


async def test_meta(store: Storage) -> None:
    assert await store.get_meta("k") is None
    await store.set_meta("k", "1")
    await store.set_meta("k", "2")
    assert await store.get_meta("k") == "2"


# --------------------------------------------------------------------------- URLs


async def test_memory_url_works() -> None:
    """SQLite only: ``sqlite:///:memory:``."""
    async with await open_storage("sqlite:///:memory:") as s:
        g = await new_active(s)
        g = await s.record_move(g.id, g.version, 0, "a1", {"t": 1})
        assert [m.notation for m in await s.moves(g.id)] == ["a1"]


async def test_open_storage_creates_parent_dir(tmp_path: Path) -> None:
    """SQLite only: a database file's folder."""
    path = tmp_path / "deep" / "er" / "c.db"
    s = await open_storage(f"sqlite:///{path}")  # tmp_path is absolute: sqlite:////abs/…
    try:
        assert path.is_file()
        await s.set_meta("k", "v")
    finally:
        await s.close()
    async with await open_storage(str(path)) as bare:  # a bare path works too
        assert await bare.get_meta("k") == "v"


async def test_database_url_parsing() -> None:
    assert sqlite_path("sqlite:///data/x.db") == "data/x.db"
    assert sqlite_path("sqlite:////abs/x.db") == "/abs/x.db"
    assert sqlite_path("sqlite:///:memory:") == sqlite_path("sqlite://") == ":memory:"
    assert sqlite_path("data/x.db") == "data/x.db"
    with pytest.raises(ValueError, match="PostgreSQL database, not an SQLite file"):
        sqlite_path("postgresql://user@host/db")  # a PostgreSQL URL is no SQLite file
    assert postgres_settings("postgresql://u:p@h:5433/db") == ("postgresql://u:p@h:5433/db", 1, 10)
    assert postgres_settings("postgres://u@h/db?pool=3&sslmode=require") == (
        "postgresql://u@h/db?sslmode=require",
        1,
        3,
    )
    assert postgres_settings("postgresql://h/db?pool=4&pool_min=4")[1:] == (4, 4)
    for bad in ("?pool=0", "?pool=x", "?pool=2&pool_min=3", "?pool_min=-1"):
        with pytest.raises(ValueError) as refused:
            await open_storage(f"postgresql://user:secret@host/db{bad}")
        assert "secret" not in str(refused.value)
    assert check_database_url("postgresql://user:secret@host:5/db?pool=2") == (
        "postgresql://user:***@host:5/db?pool=2"
    )
    with pytest.raises(ValueError, match="unsupported"):
        await open_storage("mysql://host/db")
    for bad in ("", "sqlite:///", "sqlite://host/x.db"):
        with pytest.raises(ValueError):
            sqlite_path(bad)


# --------------------------------------------------------------------------- PostgreSQL


async def pg_schema(url: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """(schema_migrations rows, a description of every column, index and trigger)."""
    conn = await asyncpg.connect(url)
    try:
        applied = [tuple(r) for r in await conn.fetch("SELECT * FROM schema_migrations")]
        described = [
            tuple(r)
            for r in await conn.fetch(
                "SELECT table_name::text, column_name::text, data_type::text,"
                " COALESCE(column_default, '') FROM information_schema.columns"
                " WHERE table_schema = 'public'"
                " UNION ALL SELECT tablename::text, indexname::text, indexdef, ''"
                " FROM pg_indexes WHERE schemaname = 'public'"
                " UNION ALL SELECT event_object_table::text, trigger_name::text,"
                " event_manipulation::text, action_timing::text"
                " FROM information_schema.triggers ORDER BY 1, 2, 3"
            )
        ]
    finally:
        await conn.close()
    return applied, described


async def test_pg_migrations_idempotent(pg_empty_url: str) -> None:
    async with storage_for(pg_empty_url):
        pass
    first, schema = await pg_schema(pg_empty_url)
    versions = [m.version for m in load_pg_migrations()]
    assert [r[0] for r in first] == versions == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert [r[1] for r in first] == [m.name for m in load_migrations()]  # same names as SQLite's
    async with storage_for(pg_empty_url):  # reopen: nothing to do
        pass
    conn = await asyncpg.connect(pg_empty_url)
    try:
        assert await apply_pg_migrations(conn, load_pg_migrations()) == []  # twice: no-op
    finally:
        await conn.close()
    assert await pg_schema(pg_empty_url) == (first, schema)


async def test_pg_two_processes_starting_at_once_migrate_once(pg_empty_url: str) -> None:
    """The advisory lock: four storages opening together on an empty database."""
    stores = [storage_for(pg_empty_url) for _ in range(4)]
    await asyncio.gather(*(s.open() for s in stores))
    try:
        applied, _ = await pg_schema(pg_empty_url)
        assert [r[0] for r in applied] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
        g = await new_active(stores[0])
        assert await stores[3].get_game(g.id) == g
    finally:
        await asyncio.gather(*(s.close() for s in stores))


async def test_pg_an_older_database_is_upgraded(pg_empty_url: str) -> None:
    shipped = load_pg_migrations()
    later = (
        *shipped,
        Migration(len(shipped) + 1, "game_notes", "ALTER TABLE games ADD COLUMN note TEXT;\n"),
    )
    dsn = postgres_settings(pg_empty_url)[0]
    async with PostgresStorage(dsn, migrations=shipped) as s:
        g = await s.create_game("desert", GUILD, 1, 10, "Alice", {}, 7, "fr")
    async with PostgresStorage(dsn, migrations=later) as s:
        assert await s.get_game(g.id) == g  # data survives the upgrade
    applied, schema = await pg_schema(pg_empty_url)
    assert [r[0] for r in applied] == [m.version for m in later]
    assert ("games", "note", "text", "") in schema
    with pytest.raises(MigrationError, match="newer"):
        await PostgresStorage(dsn, migrations=shipped).open()


async def test_pg_failed_migration_rolls_back_whole_file(pg_empty_url: str) -> None:
    v1 = load_pg_migrations()[:1]
    bad = Migration(2, "broken", "CREATE TABLE extra (x INTEGER);\nINSERT INTO nowhere VALUES (1);")
    with pytest.raises(MigrationError, match="broken"):
        await PostgresStorage(pg_empty_url, migrations=(*v1, bad)).open()
    applied, schema = await pg_schema(pg_empty_url)
    assert [r[0] for r in applied] == [1]
    assert not [row for row in schema if row[0] == "extra"]


async def test_pg_moves_logged_before_migration_2_keep_working(pg_empty_url: str) -> None:
    """002 adds each move's version and events; older rows read back without them."""
    async with PostgresStorage(pg_empty_url, migrations=load_pg_migrations()[:1]):
        pass
    now = "2026-01-01T00:00:00+00:00"
    await raw_sql(
        pg_empty_url,
        "INSERT INTO games (kind, guild_id, channel_id, status, creator_id, seed, state,"
        f" version, created_at, updated_at) VALUES ('desert', {GUILD}, 1, 'active', 10, 42,"
        f" '{{}}', 2, '{now}', '{now}');"
        " INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (1, 0, 10, 'A');"
        f" INSERT INTO moves (game_id, ply, seat, notation, created_at) VALUES (1, 1, 0, 'old',"
        f" '{now}')",
    )
    async with storage_for(pg_empty_url) as s:
        g = await s.get_game(1)
        assert g is not None and g.lang == "en"
        event = {"key": "x.log", "params": {"n": 1}, "to": 1}
        g = await s.record_move(g.id, g.version, 0, "new", {"turn": 2}, events=[event])
        old, new = await s.moves(g.id)
        assert (old.notation, old.version, old.events) == ("old", None, ())
        assert (new.notation, new.version, new.events) == ("new", g.version, (event,))


@asynccontextmanager
async def another_transaction(url: str) -> AsyncIterator[tuple[Any, Any]]:
    """Another process's connection, inside a transaction the test ends."""
    other = await asyncpg.connect(postgres_settings(url)[0])
    try:
        tx = other.transaction()
        await tx.start()
        yield other, tx
    finally:
        await other.close()


async def test_pg_reads_never_see_uncommitted_writes(pg_url: str) -> None:
    """Another process's open transaction: reads see the last commit and do not
    wait; a write on the same game waits for it, then finds the version moved."""
    async with storage_for(pg_url) as s:
        g = await new_active(s)
        async with another_transaction(pg_url) as (other, tx):
            await other.execute(
                "UPDATE games SET state = '{\"dirty\":1}', version = version + 1 WHERE id = $1",
                g.id,
            )
            reads = await asyncio.wait_for(
                asyncio.gather(*(s.get_game(g.id) for _ in range(20))), 5
            )
            assert reads == [g] * 20
            write = asyncio.create_task(s.record_move(g.id, g.version, 0, "a1", {}))
            await asyncio.sleep(0.3)
            assert not write.done()  # locked behind the other transaction's row
            await tx.commit()
            with pytest.raises(StaleVersion):
                await asyncio.wait_for(write, 5)
        assert (await s.get_game(g.id)) == replace(g, state={"dirty": 1}, version=g.version + 1)


async def test_pg_a_write_cancelled_twice_leaves_no_transaction_behind(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Shutting down cancels handlers, some already unwinding from a first cancel:
    a write cancelled while waiting for a row, then again while rolling back,
    drops its connection (nothing logged at ERROR) and the storage works on."""
    async with storage_for(pg_url) as s:
        g = await new_active(s)
        async with another_transaction(pg_url) as (other, tx):
            await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", g.id)
            write = asyncio.create_task(s.record_move(g.id, g.version, 0, "a1", {}))
            await asyncio.sleep(0.3)  # waiting for the row
            write.cancel()
            await asyncio.sleep(0.001)  # now rolling back
            write.cancel()
            with pytest.raises(asyncio.CancelledError):
                await write
            await tx.rollback()
        moved = await s.record_move(g.id, g.version, 0, "a1", {})
        assert moved.version == g.version + 1
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text


# --------------------------------------------------------------------------- races, both backends


async def test_racing_clock_claims_one_wins(db_url: str) -> None:
    """Two processes claim the same clock round: exactly one True, every time."""
    async with storage_for(db_url) as a, storage_for(db_url) as b:
        for round_ in range(10):
            g = await a.create_game("desert", GUILD, 100 + round_, 10, "A", {}, 1, clock_hours=2)
            g = await a.add_seat(g.id, g.version, 20, "B", False)
            g = await a.start_game(g.id, g.version, [0, 1], {})
            due = "2999-01-01T00:00:00+00:00"
            won = await asyncio.gather(
                *(s.claim_clock(g.id, g.version, 0, new_stage=1, due=due) for s in (a, b, a, b))
            )
            assert sorted(won) == [False, False, False, True], won
            after = await b.get_game(g.id)
            assert after is not None
            assert (after.version, after.clock_stage, after.clock_due) == (
                g.version,
                1,
                "2999-01-01T00:00:00.000000+00:00",
            )


async def test_games_ending_at_once_rate_as_a_rebuild_does(db_url: str) -> None:
    """Two processes finish games of the same players at the same moment, many times:
    no rating update is lost, and the ratings equal a sequential rebuild's."""
    async with storage_for(db_url) as a, storage_for(db_url) as b:
        channel = itertools.count(500)
        for _ in range(6):
            games = []
            for _ in range(4):
                g = await a.create_game("desert", GUILD, next(channel), 1, "P1", {}, 1)
                g = await a.add_seat(g.id, g.version, 2, "P2", False)
                g = await a.add_seat(g.id, g.version, 3, "P3", False)
                games.append(await a.start_game(g.id, g.version, [0, 1, 2], {}))
            ranks = ([1, 2, 3], [3, 1, 2], [2, 3, 1], [1, 1, 3])
            await asyncio.gather(
                *(
                    s.finish_game(
                        g.id,
                        g.version,
                        {},
                        results_for(g.seats, [9 - r for r in rk], list(rk), {0}),
                    )
                    for s, g, rk in zip((a, b, a, b), games, ranks, strict=True)
                )
            )
        together = await a.all_ratings()
        assert len(together) == 3
        assert await b.rebuild_ratings() == 24
        assert await a.all_ratings() == together  # exactly: same floats, same order


# --------------------------------------------------------------------------- leases

T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)


def at(minutes: float, tz: timezone = UTC) -> str:
    """T0 plus ``minutes``, as ISO-8601 in the time zone ``tz``."""
    return (T0 + timedelta(minutes=minutes)).astimezone(tz).isoformat()


async def test_lease_lifecycle(store: Storage) -> None:
    assert await store.take_lease("sync", "a", at(0), at(10))  # free
    assert not await store.take_lease("sync", "b", at(5), at(15))  # held by another
    assert await store.take_lease("resume", "b", at(5), at(15))  # another lease: free
    assert await store.take_lease("sync", "a", at(9), at(20))  # its holder extends it…
    assert not await store.take_lease("sync", "b", at(12), at(22))  # …past 10
    assert not await store.take_lease("sync", "b", at(19.99), at(30))
    assert await store.take_lease("sync", "b", at(20), at(30))  # expired (expires_at <= now)
    assert not await store.take_lease("sync", "a", at(21), at(31))  # taken over: a lost it
    await store.release_lease("sync", "a")  # not a's to release: nothing happens
    assert not await store.take_lease("sync", "c", at(22), at(32))
    await store.release_lease("sync", "b")
    assert await store.take_lease("sync", "c", at(22), at(32))  # released: free again
    await store.release_lease("sync", "c")
    await store.release_lease("sync", "c")  # twice, or a lease nobody took: nothing happens
    await store.release_lease("never", "c")
    assert await store.take_lease("resume", "b", at(14), at(14.5))  # its holder may shorten it
    assert not await store.take_lease("resume", "a", at(14.4), at(17))
    assert await store.take_lease("resume", "a", at(14.5), at(17))
    assert await store.take_lease("resume", "a", at(40), at(50))  # its own, expired: taken again


async def test_lease_times_compare_as_instants(store: Storage) -> None:
    """Any ISO form with an offset: the stored text compares as the instants do."""
    plus2, minus5 = timezone(timedelta(hours=2)), timezone(timedelta(hours=-5))
    assert await store.take_lease("sync", "a", at(0, plus2), at(10, minus5))
    assert not await store.take_lease("sync", "b", at(9, minus5), at(20))
    assert not await store.take_lease("sync", "b", at(9.999).replace("+00:00", "Z"), at(20))
    assert await store.take_lease("sync", "b", at(10, plus2), at(20, plus2))  # 10:00 is 10:00
    whole = at(30).replace("+00:00", "Z")  # no microseconds written: still a time
    assert await store.take_lease("sync", "b", at(20, minus5), whole)
    assert not await store.take_lease("sync", "a", at(29.999), at(40))
    assert await store.take_lease("sync", "a", at(30, minus5), at(40))


async def test_lease_requests_are_checked(store: Storage) -> None:
    bad = (
        ("", "a", at(0), at(1)),
        ("  ", "a", at(0), at(1)),
        ("sync", "", at(0), at(1)),
        ("sync", " ", at(0), at(1)),
        ("sync", "a", at(1), at(1)),  # until must come after now
        ("sync", "a", at(2), at(1)),
        ("sync", "a", at(1, timezone(timedelta(hours=1))), at(0)),  # 12:01 is not before 12:00
        ("sync", "a", "2026-01-01T12:00:00", at(1)),  # no offset
        ("sync", "a", at(0), "soon"),
        ("sync", "a", at(0), ""),
    )
    for name, holder, now, until in bad:
        with pytest.raises(InvalidRequest):
            await store.take_lease(name, holder, now, until)
    for name, holder in (("", "a"), ("sync", ""), (" ", "a")):
        with pytest.raises(InvalidRequest):
            await store.release_lease(name, holder)
    assert await store.take_lease("sync", "b", at(0), at(1))  # nothing was written


async def test_racing_lease_takers_one_wins(db_url: str) -> None:
    """Many takers at once, on one storage and on two (two processes): for a free
    lease, and for an expired one, exactly one True every time."""
    async with storage_for(db_url) as a, storage_for(db_url) as b:
        for round_ in range(8):
            name = f"job-{round_}"
            one = await asyncio.gather(
                *(a.take_lease(name, f"p{i}", at(0), at(10)) for i in range(8))
            )
            assert sorted(one) == [False] * 7 + [True], one
            winner = f"p{one.index(True)}"
            assert await b.take_lease(name, winner, at(1), at(10))  # the winner holds it
            takers = [(s, f"q{i}") for i, s in enumerate((a, b) * 4)]
            two = await asyncio.gather(*(s.take_lease(name, h, at(10), at(20)) for s, h in takers))
            assert sorted(two) == [False] * 7 + [True], two  # expired: one takes it over
            assert not await a.take_lease(name, winner, at(11), at(20))
            fresh = f"free-{round_}"
            both = await asyncio.gather(*(s.take_lease(fresh, h, at(0), at(5)) for s, h in takers))
            assert sorted(both) == [False] * 7 + [True], both
            await asyncio.gather(*(s.release_lease(fresh, h) for s, h in takers))
            assert await a.take_lease(fresh, "later", at(1), at(5))  # its holder let it go


@pytest.fixture
async def empty_db_url(
    backend: str, db_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[str]:
    """A database of this test's own with no tables yet, on each backend."""
    if backend == "sqlite":
        yield f"sqlite:///{db_path}"
        return
    server: PgServer = request.getfixturevalue("pg_server")
    url = await server.create_database(migrated=False)
    yield url
    await server.drop_database(url)


def storage_at(url: str, upto: int | None = None) -> Storage:
    """An unopened storage on ``url`` that migrates it up to migration ``upto`` (all: None)."""
    if url.startswith("sqlite:"):
        return SqliteStorage(sqlite_path(url), migrations=load_migrations()[:upto])
    return PostgresStorage(postgres_settings(url)[0], migrations=load_pg_migrations()[:upto])


async def test_migrations_7_and_8_upgrade_a_database_at_6(empty_db_url: str) -> None:
    """An existing database (at 006, with a game under way and a lobby, written as
    the code of then did) gains the leases table and the announcement columns,
    data intact: the game under way counts as announced, so nothing is posted
    again after the upgrade; the lobby's start will be owed a post."""
    for shipped in (load_migrations(), load_pg_migrations()):
        assert [(m.version, m.name) for m in shipped[6:8]] == [(7, "leases"), (8, "announcements")]
    async with storage_at(empty_db_url, 6):
        pass
    stamp = "2026-01-01T12:00:00.000000+00:00"
    await raw_sql(
        empty_db_url,
        "INSERT INTO games (id, kind, guild_id, channel_id, status, creator_id, options, seed,"
        " state, version, created_at, updated_at) VALUES"
        f" (1, 'desert', {GUILD}, 1, 'active', 10, '{{}}', 42, '{{}}', 5, '{stamp}', '{stamp}'),"
        f" (2, 'desert', {GUILD}, 2, 'lobby', 20, '{{}}', 3, NULL, 1, '{stamp}', '{stamp}')",
    )
    await raw_sql(
        empty_db_url,
        "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES"
        " (1, 0, 10, 'Alice'), (1, 1, 20, 'Bob'), (2, 0, 20, 'Bob')",
    )
    async with storage_at(empty_db_url) as s:
        active, lobby = await s.get_game(1), await s.get_game(2)
        assert active is not None and lobby is not None
        assert (active.status, active.version, [x.name for x in active.seats]) == (
            "active",
            5,
            ["Alice", "Bob"],
        )
        assert (active.posted_version, active.announce_version, active.announce_due) == (5, 0, None)
        assert (lobby.status, lobby.posted_version, lobby.announce_version) == ("lobby", 0, 0)
        assert await s.unannounced(at(10**7)) == []
        assert await s.take_lease("sync", "a", at(0), at(1))
        assert not await s.take_lease("sync", "b", at(0), at(1))
    async with storage_at(empty_db_url) as s:  # and it stays: leases outlive a restart
        assert not await s.take_lease("sync", "b", at(0.5), at(1))
        assert await s.take_lease("sync", "b", at(1), at(2))


async def test_migration_9_gives_older_games_the_greedy_bots(empty_db_url: str) -> None:
    """A database at 008 (a game under way with a bot seat, and a lobby) gains the
    bots' level and the servers' settings: its games keep the greedy bots they were
    started with (``easy``), new games take the level they are given, and a server
    without settings reads the defaults (takeover at ``normal``)."""
    assert [m.name for m in load_migrations()][8] == "bot_levels"
    assert [m.name for m in load_pg_migrations()][8] == "bot_levels"
    async with storage_at(empty_db_url, 8):
        pass
    t = "2026-01-01T12:00:00.000000+00:00"
    await raw_sql(  # as the code of 008 wrote them
        empty_db_url,
        "INSERT INTO games (id, kind, guild_id, channel_id, status, creator_id, options, seed,"
        " state, version, created_at, updated_at, posted_version) VALUES"
        f" (101, 'desert', {GUILD}, 1, 'active', 10, '{{}}', 42, '{{}}', 5, '{t}', '{t}', 5),"
        f" (102, 'desert', {GUILD}, 2, 'lobby', 20, '{{}}', 3, NULL, 1, '{t}', '{t}', 0)",
    )
    await raw_sql(
        empty_db_url,
        "INSERT INTO seats (game_id, seat, user_id, display_name, is_bot) VALUES"
        " (101, 0, 10, 'Alice', FALSE), (101, 1, NULL, 'Zahra', TRUE), (102, 0, 20, 'Bob', FALSE)",
    )
    async with storage_at(empty_db_url) as s:
        under_way, lobby = await s.get_game(101), await s.get_game(102)
        assert under_way is not None and lobby is not None
        assert (under_way.bot_level, lobby.bot_level) == ("easy", "easy")
        assert [(x.name, x.is_bot) for x in under_way.seats] == [("Alice", False), ("Zahra", True)]
        assert (under_way.status, under_way.version, lobby.status) == ("active", 5, "lobby")
        made = await s.create_game("desert", GUILD, 3, 10, "Alice", {}, 5, bot_level="hard")
        assert made.bot_level == "hard" and (await s.get_game(made.id)) == made
        assert await s.guild_settings(GUILD) == GuildSettings("normal")


async def test_guild_settings_are_each_servers_own(db_url: str) -> None:
    """One row per server that changed something, changed again in place; kept
    across a restart."""
    async with storage_for(db_url) as s:
        assert await s.guild_settings(GUILD) == GuildSettings() == GuildSettings("normal")
        await s.set_guild_settings(GUILD, GuildSettings("hard"))
        await s.set_guild_settings(GUILD, GuildSettings("easy"))
        assert await s.guild_settings(GUILD) == GuildSettings("easy")
        assert await s.guild_settings(OTHER_GUILD) == GuildSettings()
        assert GuildSettings().web  # the web pages show a server unless it says no
        await s.set_guild_settings(OTHER_GUILD, GuildSettings(web=False))
        assert await s.guild_settings(OTHER_GUILD) == GuildSettings("normal", web=False)
    async with storage_for(db_url) as s:
        assert await s.guild_settings(GUILD) == GuildSettings("easy")
        assert not (await s.guild_settings(OTHER_GUILD)).web


# --------------------------------------------------------------------------- announcements


def from_now(seconds: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


GRACE = ANNOUNCE_GRACE.total_seconds()
HOOK = ReplyHook(4242, "secret-interaction-token")


async def test_a_turn_owes_a_post_until_one_shows_it(store: Storage) -> None:
    """The start and each turn-ending move owe a public post, due after the grace;
    a step inside a turn owes none; a post of that version (or later) settles it,
    an older one does not, and posted_version never goes back."""
    g = await new_active(store)
    assert (g.announce_version, g.posted_version) == (g.version, 0) and g.unannounced
    assert g.announce_due is not None
    assert from_now(GRACE - 5) < g.announce_due <= from_now(GRACE)
    assert await store.unannounced(from_now(GRACE - 5)) == []  # its handler's time
    assert await store.unannounced(from_now(GRACE + 1)) == [Unannounced(g, None)]

    await store.set_board_message(g.id, 501, g.version)  # the start post
    g = await store.get_game(g.id) or g
    assert (g.board_message_id, g.posted_version, g.announce_due) == (501, g.version, None)
    assert not g.unannounced and await store.unannounced(from_now(10**6)) == []

    step = await store.record_move(g.id, g.version, 0, "a1", {}, ends_turn=False)
    assert (step.announce_version, step.announce_due) == (g.announce_version, None)
    turn = await store.record_move(step.id, step.version, 0, "a2", {})
    assert (turn.announce_version, turn.posted_version) == (turn.version, g.version)
    assert turn.announce_due is not None and turn.unannounced

    await store.set_board_message(g.id, 502, step.version)  # a post from before the turn
    left = await store.get_game(g.id)
    assert left is not None and left.unannounced and left.announce_due == turn.announce_due
    assert left.board_message_id == 502 and left.posted_version == step.version
    await store.mark_announced(g.id, turn.version)  # shown without a board post of its own
    done = await store.get_game(g.id)
    assert done is not None and not done.unannounced and done.announce_due is None
    assert (done.board_message_id, done.posted_version) == (502, turn.version)
    await store.set_board_message(g.id, 503, g.version)  # a slow, older post lands last
    late = await store.get_game(g.id)
    assert late is not None and (late.board_message_id, late.posted_version) == (503, turn.version)
    assert late.version == turn.version  # none of it changes the game's version


async def test_the_interaction_being_answered_is_noted_with_the_post_it_owes(
    store: Storage,
) -> None:
    """The hook given is stored with the post owed; a turn saved with none (an AI
    turn in the background) keeps the placeholder still waiting; a post clears
    it. The token never shows in a repr."""
    g = await new_active(store)
    assert await store.unannounced(from_now(GRACE + 1)) == [Unannounced(g, None)]
    g = await store.record_move(g.id, g.version, 0, "a1", {}, reply_hook=HOOK)
    g = await store.record_move(g.id, g.version, 1, "b1", {}, by_ai=True)  # no hook here
    assert await store.unannounced(from_now(GRACE + 1)) == [Unannounced(g, HOOK)]
    assert "secret" not in repr(await store.unannounced(from_now(GRACE + 1)))
    await store.set_board_message(g.id, 9, g.version)
    g = await store.record_move(g.id, g.version, 0, "a2", {})  # a new post owed, no hook
    assert await store.unannounced(from_now(GRACE + 1)) == [Unannounced(g, None)]


def test_reply_hooks_read_back_only_what_they_wrote() -> None:
    assert ReplyHook.from_path(HOOK.path) == HOOK
    assert HOOK.path == "/webhooks/4242/secret-interaction-token"
    for path in (None, "", "/webhooks/4242/", "/webhooks/x/t", "/other/1/t", "/webhooks/1/t/u"):
        assert ReplyHook.from_path(path) is None, path


async def test_late_posts_of_active_and_finished_games_by_shard(store: Storage) -> None:
    """Active and finished games are listed, most overdue first; lobbies, cancelled
    games and other shards' games are not."""
    active, lobbies = await sharded_games(store)
    done = active[1]
    done = await store.record_move(
        done.id, done.version, 0, "last", {}, results=results_for(done.seats, [1, 0], [1, 2], {0})
    )
    gone = await store.cancel_game(active[2].id, active[2].version)
    owed = [await store.get_game(g.id) for g in active]
    later = from_now(GRACE + 1)
    listed = [u.game for u in await store.unannounced(later)]
    assert listed == sorted(
        (g for g in owed if g is not None and g.id != gone.id),
        key=lambda g: (g.announce_due or "", g.id),
    )
    assert done.id in [g.id for g in listed] and not {g.id for g in lobbies} & {
        g.id for g in listed
    }
    for shards in SHARDINGS:
        mine = [u.game for u in await store.unannounced(later, shards=shards)]
        assert mine == [g for g in listed if shards.owns(g.guild_id)], shards
    assert len(await store.unannounced(later, 2)) == 2


async def test_a_late_post_is_claimed_once(store: Storage) -> None:
    """The claim is a compare-and-set on (announce_version, announce_due): one
    winner; the game is due again at the claim's end; a move since, or a post,
    makes the claim fail."""
    g = await new_active(store)
    (owed,) = await store.unannounced(from_now(GRACE + 1))
    due, until = owed.game.announce_due, from_now(GRACE + 120)
    assert due is not None
    assert await store.claim_announcement(g.id, g.version, due, until)
    assert not await store.claim_announcement(g.id, g.version, due, until)  # claimed
    assert await store.unannounced(from_now(GRACE + 60)) == []
    (again,) = await store.unannounced(from_now(GRACE + 121))  # the claimer died
    assert again.game.announce_due is not None and again.game.announce_due > due
    moved = await store.record_move(g.id, g.version, 0, "a1", {})
    assert not await store.claim_announcement(g.id, g.version, again.game.announce_due, until)
    assert moved.announce_due is not None
    await store.set_board_message(g.id, 1, moved.version)
    assert not await store.claim_announcement(g.id, moved.version, moved.announce_due, until)
    other = await new_active(store, channel=2)
    assert other.announce_due is not None
    await store.cancel_game(other.id, other.version)  # cancelled since it was listed
    assert not await store.claim_announcement(other.id, other.version, other.announce_due, until)


async def test_racing_late_post_claims_one_wins(db_url: str) -> None:
    """Two processes find the same late turn and claim it at once: one True, every time."""
    async with storage_for(db_url) as a, storage_for(db_url) as b:
        for round_ in range(10):
            g = await new_active(a, channel=300 + round_)
            due = g.announce_due
            assert due is not None
            won = await asyncio.gather(
                *(
                    s.claim_announcement(g.id, g.version, due, from_now(GRACE + 60))
                    for s in (a, b, a, b)
                )
            )
            assert sorted(won) == [False, False, False, True], won


async def test_a_database_lock_is_a_transient_failure(db_path: Path) -> None:
    """SQLite: a write that waited past the busy timeout is StorageUnavailable
    (background jobs retry it), and the storage works on once the lock is gone."""
    async with SqliteStorage(db_path, busy_timeout_ms=100) as s:
        g = await new_active(s)
        with closing(sqlite3.connect(db_path, isolation_level=None)) as raw:
            raw.execute("BEGIN IMMEDIATE")
            with pytest.raises(StorageUnavailable):
                await s.record_move(g.id, g.version, 0, "a1", {})
            raw.execute("ROLLBACK")
        assert (await s.record_move(g.id, g.version, 0, "a1", {})).version == g.version + 1


async def test_pg_a_lost_connection_is_a_transient_failure(pg_url: str) -> None:
    """PostgreSQL: the server ends the connection of a write in progress (a restart,
    a failover): the write is StorageUnavailable, not a driver error, changes
    nothing, and the storage works on with a new connection."""
    async with storage_for(pg_url) as s:
        g = await new_active(s)
        async with another_transaction(pg_url) as (other, tx):
            await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", g.id)
            write = asyncio.create_task(s.record_move(g.id, g.version, 0, "a1", {}))
            await until_waiting_for_a_lock(other)
            await other.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            with pytest.raises(StorageUnavailable):
                await asyncio.wait_for(write, 5)
            await tx.rollback()
        assert await s.get_game(g.id) == g
        assert (await s.record_move(g.id, g.version, 0, "a1", {})).version == g.version + 1


async def until_waiting_for_a_lock(conn: Any, timeout: float = 5) -> None:
    """Until another connection to the database waits for a lock (a row ``conn`` holds)."""
    deadline = time.monotonic() + timeout
    while True:
        # Statistics are read once per transaction unless the snapshot is dropped.
        await conn.execute("SELECT pg_stat_clear_snapshot()")
        waiting = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
        )
        if waiting:
            return
        assert time.monotonic() < deadline, "no write came to wait for the row"
        await asyncio.sleep(0.02)
