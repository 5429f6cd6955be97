"""SQLite backend (aiosqlite): WAL, one write connection, a few read connections,
optimistic versions.

Writes: one connection and one asyncio.Lock around every write transaction.
An aiosqlite connection has a single transaction, so two handlers
interleaving statements on it would share it — one could see (and a
rollback could discard) another's uncommitted writes. Under the lock each
writer gets its own ``BEGIN IMMEDIATE`` … ``COMMIT`` and re-checks the
version inside it, so two movers with the same version can never both land.
Across processes SQLite's file lock does the same job: ``BEGIN IMMEDIATE``
takes the write lock up front, waiting up to ``busy_timeout``.

Reads: a small pool of read-only connections (``PRAGMA query_only``), each
lent to one handler at a time for one deferred ``BEGIN`` … ``COMMIT``, so
reads (autocomplete on every keystroke of every server) never wait for the
write lock, only for a free reader. WAL lets them run beside a writer: a read
transaction sees one consistent snapshot of committed data, never a writer's
uncommitted rows; and as a write returns only after its COMMIT, a read
started after it sees it.

``:memory:`` databases cannot be shared between connections: there every
read takes the write connection and its lock, as writes do.

:meth:`SqliteStorage.open` runs ``PRAGMA quick_check`` before migrating; a
damaged file raises :class:`~bot.storage.base.DatabaseCorrupt`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Collection, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import aiosqlite

from bot.ratings import Rating, rate_game

from .base import (
    OPEN_STATUSES,
    ChannelBusy,
    DatabaseCorrupt,
    GameRecord,
    InvalidRequest,
    LeaderRow,
    MoveRecord,
    NotActive,
    NotFound,
    NotInLobby,
    PlayedGame,
    RatingRow,
    ReplyHook,
    ResultRow,
    SeatRecord,
    Shards,
    StaleVersion,
    StorageBusy,
    StorageError,
    Unannounced,
    UserSettings,
    Vacation,
    WrongStatus,
)
from .common import (
    RATED_RESULTS_SQL,
    announce_columns,
    check_human_seat,
    check_lease,
    check_limit,
    check_new_seat,
    check_results,
    check_seat,
    checked_game,
    checked_statuses,
    dump_json,
    dump_json_list,
    game_records,
    human_placings,
    leader_row,
    lease_times,
    move_columns,
    move_record,
    new_game_options,
    played_game,
    rated_count,
    rated_games,
    rating_row,
    resign_columns,
    restarted_clock,
    result_row,
    seat_turns,
    seat_turns_sql,
    seats_in_order,
    seats_without_bot,
    seats_without_user,
    unannounced_records,
    user_settings_record,
    utc_iso,
    utc_now,
    vacation_record,
    vacation_times,
)
from .migrate import Migration, apply_migrations, load_migrations

MEMORY = ":memory:"
_Params = Sequence[Any]


def _is_busy(exc: BaseException) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return (
        isinstance(exc, sqlite3.OperationalError)
        and code is not None
        and (code & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    )


def _is_corrupt(exc: BaseException) -> bool:
    """SQLite says the file is damaged, or not a database at all."""
    code = getattr(exc, "sqlite_errorcode", None)
    return (
        isinstance(exc, sqlite3.DatabaseError)
        and code is not None
        and (code & 0xFF) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
    )


def quick_check_problem(rows: Iterable[Sequence[Any]]) -> str | None:
    """The first problem ``PRAGMA quick_check`` reported, or None when it says "ok"."""
    lines = [line for row in rows for line in str(row[0]).splitlines() if line.strip()]
    if lines == ["ok"]:
        return None
    details = [line for line in lines if not line.startswith("***")]
    return f"PRAGMA quick_check: {(details or lines or ['no answer'])[0].strip()}"


def check_integrity(path: str | os.PathLike[str], *, busy_timeout_ms: int = 5000) -> None:
    """Run ``PRAGMA quick_check`` on an existing database file, synchronously.

    For start-up, before anything else happens: a missing or empty file (a
    new database) passes and is not created. Raises DatabaseCorrupt for a
    damaged file, StorageBusy if it stays locked, StorageError otherwise.
    """
    target = str(path)
    if target == MEMORY or not os.path.isfile(target) or os.path.getsize(target) == 0:
        return
    uri = f"{Path(os.path.abspath(target)).as_uri()}?mode=rw"  # rw: never creates the file
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open the database {target}: {exc}") from exc
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        problem = quick_check_problem(conn.execute("PRAGMA quick_check").fetchall())
    except sqlite3.Error as exc:
        if _is_corrupt(exc):
            raise DatabaseCorrupt(target, str(exc)) from exc
        if _is_busy(exc):
            raise StorageBusy(f"the database {target} is locked: {exc}") from exc
        raise StorageError(f"cannot read the database {target}: {exc}") from exc
    finally:
        conn.close()
    if problem is not None:
        raise DatabaseCorrupt(target, problem)


class SqliteStorage:
    """The :class:`~bot.storage.base.Storage` protocol on one SQLite file.

    ``readers`` read connections serve reads beside the write connection
    (none for ``:memory:``); ``check_integrity=False`` skips the start-up
    ``PRAGMA quick_check`` (e.g. when the caller just ran :func:`check_integrity`).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        migrations: Sequence[Migration] | None = None,
        busy_timeout_ms: int = 5000,
        readers: int = 3,
        check_integrity: bool = True,
    ) -> None:
        if readers < 1:
            raise InvalidRequest("readers must be at least 1")
        self.path = MEMORY if str(path) == MEMORY else str(Path(path).expanduser())
        self._migrations = tuple(migrations) if migrations is not None else load_migrations()
        self._busy_timeout_ms = int(busy_timeout_ms)
        self._reader_count = 0 if self.path == MEMORY else int(readers)
        self._check_integrity = check_integrity
        self._conn: aiosqlite.Connection | None = None  # the write connection
        self._lock = asyncio.Lock()
        # Idle read connections; None when closed, and for :memory: (reads use _conn).
        self._readers: asyncio.Queue[aiosqlite.Connection] | None = None

    # ------------------------------------------------------------------ lifecycle

    async def open(self) -> None:
        if self._conn is not None:
            return
        if self.path != MEMORY:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        opened: list[aiosqlite.Connection] = []
        try:
            conn = await self._connect()
            opened.append(conn)
            await conn.execute("PRAGMA foreign_keys = ON")
            async with conn.execute("PRAGMA journal_mode = WAL") as cur:
                row = await cur.fetchone()
            mode = str(row[0]).lower() if row else ""
            if self.path != MEMORY and mode != "wal":
                raise StorageError(f"could not enable WAL on {self.path} (got {mode!r})")
            # NORMAL is durable across application crashes in WAL mode, and much faster.
            await conn.execute("PRAGMA synchronous = NORMAL")
            if self._check_integrity and self.path != MEMORY:
                # Before migrating: never write into a damaged file.
                async with conn.execute("PRAGMA quick_check") as cur:
                    problem = quick_check_problem(await cur.fetchall())
                if problem is not None:
                    raise DatabaseCorrupt(self.path, problem)
            await apply_migrations(conn, self._migrations)
            readers: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
            for _ in range(self._reader_count):
                reader = await self._connect()
                opened.append(reader)
                await reader.execute("PRAGMA query_only = ON")
                readers.put_nowait(reader)
        except BaseException as exc:
            for each in opened:
                with contextlib.suppress(Exception):
                    await each.close()
            damage = next((e for e in (exc, exc.__cause__) if e and _is_corrupt(e)), None)
            if damage is not None:  # e.g. journal_mode or a migration hit a damaged page
                raise DatabaseCorrupt(self.path, str(damage)) from exc
            raise
        self._conn = conn
        self._readers = readers if self._reader_count else None

    async def _connect(self) -> aiosqlite.Connection:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves.
        conn = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            # busy_timeout first: switching to WAL may itself wait for another process.
            await conn.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms}")
        except BaseException:
            await conn.close()
            raise
        return conn

    async def close(self) -> None:
        if self._conn is None:
            return
        readers, self._readers = self._readers, None  # reads from now on are refused
        async with self._lock:  # let the running write transaction finish
            conn, self._conn = self._conn, None
            if conn is not None:
                await conn.close()
        if readers is not None:
            for _ in range(self._reader_count):  # each once its running read is done
                reader = await readers.get()
                with contextlib.suppress(Exception):
                    await reader.close()

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # ------------------------------------------------------------------ transactions

    @asynccontextmanager
    async def _transaction(self, begin: str) -> AsyncIterator[aiosqlite.Connection]:
        """``begin`` … COMMIT on the write connection, under the lock."""
        async with self._lock:
            conn = self._conn  # read under the lock: close() may have run while we waited
            if conn is None:
                raise StorageError("storage is not open")
            async with self._within(conn, begin):
                yield conn

    @asynccontextmanager
    async def _pooled_read(
        self, readers: asyncio.Queue[aiosqlite.Connection]
    ) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction on a read connection lent for its duration."""
        conn = await readers.get()
        try:
            if self._readers is not readers:  # closed while we waited
                raise StorageError("storage is not open")
            async with self._within(conn, "BEGIN"):
                yield conn
        finally:
            readers.put_nowait(conn)

    @classmethod
    @asynccontextmanager
    async def _within(cls, conn: aiosqlite.Connection, begin: str) -> AsyncIterator[None]:
        try:
            await conn.execute(begin)
            yield
            await conn.execute("COMMIT")
        except BaseException as exc:
            # Shielded: even if we are being cancelled, the connection must
            # not be handed to the next handler with our transaction open.
            await asyncio.shield(cls._rollback(conn))
            if _is_busy(exc):
                raise StorageBusy(f"database is locked: {exc}") from exc
            raise

    @staticmethod
    async def _rollback(conn: aiosqlite.Connection) -> None:
        # Errors mean no transaction was open (BEGIN failed) or the connection closed.
        with contextlib.suppress(sqlite3.Error, ValueError):
            await conn.execute("ROLLBACK")

    def _write(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        return self._transaction("BEGIN IMMEDIATE")

    def _read(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        # A (deferred) read transaction gives one consistent snapshot across queries.
        readers = self._readers
        if readers is None:  # :memory:, or closed (then _transaction refuses)
            return self._transaction("BEGIN")
        return self._pooled_read(readers)

    # ------------------------------------------------------------------ query helpers

    # One trip to the database thread per query (execute_fetchall), not three
    # (execute, fetch, close): under load each trip also waits for the busy event
    # loop, and a write transaction holds SQLite's lock all along.

    @staticmethod
    async def _one(
        conn: aiosqlite.Connection, sql: str, params: _Params = ()
    ) -> sqlite3.Row | None:
        rows = await conn.execute_fetchall(sql, params)
        return next(iter(rows), None)

    @staticmethod
    async def _all(conn: aiosqlite.Connection, sql: str, params: _Params = ()) -> list[sqlite3.Row]:
        return list(await conn.execute_fetchall(sql, params))

    async def _records(
        self, conn: aiosqlite.Connection, rows: Sequence[sqlite3.Row]
    ) -> list[GameRecord]:
        if not rows:
            return []
        ids = [int(r["id"]) for r in rows]
        seats = await self._all(
            conn,
            "SELECT game_id, seat, user_id, display_name, is_bot, resigned, replaced FROM seats"
            f" WHERE game_id IN ({','.join('?' * len(ids))}) ORDER BY game_id, seat",
            ids,
        )
        return game_records(rows, seats)

    async def _load(self, conn: aiosqlite.Connection, game_id: int) -> GameRecord:
        row = await self._one(conn, "SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise NotFound(game_id)
        return (await self._records(conn, [row]))[0]

    async def _guard(
        self,
        conn: aiosqlite.Connection,
        game_id: int,
        version: int,
        allowed: Collection[str],
        error: type[WrongStatus],
    ) -> GameRecord:
        """Load the game inside the write transaction and check version, then status."""
        return checked_game(await self._load(conn, game_id), version, allowed, error)

    async def _bump(
        self,
        conn: aiosqlite.Connection,
        game_id: int,
        version: int,
        *,
        ended: bool = False,
        **columns: Any,
    ) -> str:
        """The guarded UPDATE every write ends with; returns the new updated_at.

        ``ended`` stamps finished_at with the same instant as updated_at.
        """
        now = utc_now()
        columns["updated_at"] = now
        if ended:
            columns["finished_at"] = now
        sets = ", ".join(f"{name} = ?" for name in columns)  # names come from this module
        async with conn.execute(
            f"UPDATE games SET version = version + 1, {sets} WHERE id = ? AND version = ?",
            (*columns.values(), game_id, version),
        ) as cur:
            if cur.rowcount != 1:
                raise StaleVersion(game_id, version)
        return now

    @staticmethod
    async def _replace_seats(
        conn: aiosqlite.Connection, game_id: int, seats: Iterable[SeatRecord]
    ) -> None:
        """Rewrite the lobby's seats numbered 0..n-1 in the given order.

        Delete-and-insert avoids transient primary-key clashes that an
        in-place ``seat = seat - 1`` could hit, since SQLite checks per row.
        """
        await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, display_name, is_bot, resigned, replaced)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, i, s.user_id, s.name, int(s.is_bot), int(s.resigned), s.replaced)
                for i, s in enumerate(seats)
            ],
        )

    async def _insert_results(
        self, conn: aiosqlite.Connection, game: GameRecord, results: Sequence[ResultRow]
    ) -> None:
        """The result rows and, in the same transaction, the players' new ratings."""
        await conn.executemany(
            "INSERT INTO results (game_id, seat, score, rank, won) VALUES (?, ?, ?, ?, ?)",
            [(game.id, r.seat, r.score, r.rank, int(r.won)) for r in results],
        )
        turns = seat_turns(await self._all(conn, _SEAT_TURNS_SQL, (game.id,)))
        await self._rate(conn, game.guild_id, game.kind, human_placings(game, results, turns))

    async def _rate(
        self,
        conn: aiosqlite.Connection,
        guild_id: int,
        kind: str,
        placings: Sequence[tuple[int, int]],
    ) -> None:
        """Bot seats never count: only the humans' places move their ratings."""
        if len(placings) < 2:
            return
        marks = ",".join("?" * len(placings))
        previous = {
            int(r["user_id"]): Rating(float(r["mu"]), float(r["sigma"]))
            for r in await self._all(
                conn,
                f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND kind = ?"
                f" AND user_id IN ({marks})",
                (guild_id, kind, *(user for user, _ in placings)),
            )
        }
        rated = rate_game(previous, placings)
        await conn.executemany(
            "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, kind, user_id)"
            " DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma",
            [(guild_id, kind, user, r.mu, r.sigma) for user, r in rated.items()],
        )

    # ------------------------------------------------------------------ games

    async def create_game(
        self,
        kind: str,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        creator_name: str,
        options: Mapping[str, str],
        seed: int,
        lang: str = "en",
        clock_hours: float = 0.0,
    ) -> GameRecord:
        opts = new_game_options(options, seed, clock_hours)
        async with self._write() as conn:
            busy = await self._one(
                conn,
                "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                (channel_id,),
            )
            if busy is not None:
                raise ChannelBusy(int(busy["id"]))
            now = utc_now()
            async with conn.execute(
                "INSERT INTO games (kind, guild_id, channel_id, status, creator_id, options,"
                " seed, state, version, created_at, updated_at, lang, clock_hours)"
                " VALUES (?, ?, ?, 'lobby', ?, ?, ?, NULL, 1, ?, ?, ?, ?)",
                (
                    kind,
                    guild_id,
                    channel_id,
                    creator_id,
                    opts,
                    seed,
                    now,
                    now,
                    lang,
                    clock_hours,
                ),
            ) as cur:
                game_id = cur.lastrowid
            assert game_id is not None
            await conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name, is_bot)"
                " VALUES (?, 0, ?, ?, 0)",
                (game_id, creator_id, creator_name),
            )
            return await self._load(conn, game_id)

    async def get_game(self, game_id: int) -> GameRecord | None:
        async with self._read() as conn:
            row = await self._one(conn, "SELECT * FROM games WHERE id = ?", (game_id,))
            return (await self._records(conn, [row]))[0] if row is not None else None

    async def active_game(self, channel_id: int) -> GameRecord | None:
        async with self._read() as conn:
            row = await self._one(
                conn,
                "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                (channel_id,),
            )
            return (await self._records(conn, [row]))[0] if row is not None else None

    async def latest_game(self, channel_id: int) -> GameRecord | None:
        async with self._read() as conn:
            row = await self._one(
                conn,
                "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                (channel_id,),
            )
            return (await self._records(conn, [row]))[0] if row is not None else None

    async def list_games(
        self, guild_id: int, statuses: Collection[str] | None = None, limit: int = 25
    ) -> list[GameRecord]:
        check_limit(limit)
        sql = "SELECT * FROM games WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if statuses is not None:
            wanted = checked_statuses(statuses)
            if not wanted:
                return []
            sql += f" AND status IN ({','.join('?' * len(wanted))})"
            params += wanted
        sql += " ORDER BY updated_at DESC, id DESC LIMIT ?"
        async with self._read() as conn:
            return await self._records(conn, await self._all(conn, sql, [*params, limit]))

    async def active_games_after(
        self,
        after_id: int,
        limit: int = 100,
        statuses: Collection[str] = ("active",),
        *,
        shards: Shards | None = None,
    ) -> list[GameRecord]:
        check_limit(limit)
        wanted = checked_statuses(statuses)
        if not wanted:
            return []
        on_shards, shard_params = _on_shards(shards)
        async with self._read() as conn:
            rows = await self._all(
                conn,
                f"SELECT * FROM games WHERE status IN ({','.join('?' * len(wanted))})"
                f" AND id > ?{on_shards} ORDER BY id LIMIT ?",
                [*wanted, after_id, *shard_params, limit],
            )
            return await self._records(conn, rows)

    async def open_games_of(self, guild_id: int, user_id: int) -> list[GameRecord]:
        async with self._read() as conn:
            rows = await self._all(
                conn,
                "SELECT g.* FROM seats s JOIN games g ON g.id = s.game_id"
                " WHERE s.user_id = ? AND g.guild_id = ? AND g.status IN ('lobby', 'active')"
                " ORDER BY g.id",
                (user_id, guild_id),
            )
            return await self._records(conn, rows)

    async def idle_lobbies(self, before: str, *, shards: Shards | None = None) -> list[GameRecord]:
        cutoff = utc_iso(before)
        on_shards, shard_params = _on_shards(shards)
        async with self._read() as conn:
            rows = await self._all(
                conn,
                f"SELECT * FROM games WHERE status = 'lobby' AND updated_at < ?{on_shards}"
                " ORDER BY updated_at, id",
                (cutoff, *shard_params),
            )
            return await self._records(conn, rows)

    # ------------------------------------------------------------------ lobby

    async def add_seat(
        self, game_id: int, version: int, user_id: int | None, name: str, is_bot: bool
    ) -> GameRecord:
        if user_id is None and not is_bot:
            raise InvalidRequest("a human seat needs a user id")
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("lobby",), NotInLobby)
            check_new_seat(game, user_id)
            await conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name, is_bot)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, len(game.seats), user_id, name, int(is_bot)),
            )
            await self._bump(conn, game_id, version)
            return await self._load(conn, game_id)

    async def remove_seat(self, game_id: int, version: int, user_id: int) -> GameRecord:
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("lobby",), NotInLobby)
            await self._replace_seats(conn, game_id, seats_without_user(game, user_id))
            await self._bump(conn, game_id, version)
            return await self._load(conn, game_id)

    async def remove_bot_seat(self, game_id: int, version: int, seat: int) -> GameRecord:
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("lobby",), NotInLobby)
            await self._replace_seats(conn, game_id, seats_without_bot(game, seat))
            await self._bump(conn, game_id, version)
            return await self._load(conn, game_id)

    async def start_game(
        self,
        game_id: int,
        version: int,
        seat_order: Sequence[int],
        state: dict[str, Any],
        *,
        reply_hook: ReplyHook | None = None,
    ) -> GameRecord:
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("lobby",), NotInLobby)
            await self._replace_seats(conn, game_id, seats_in_order(game, seat_order))
            clock = restarted_clock(game.clock_hours)
            owed = announce_columns(version + 1, reply_hook)  # the start's post
            await self._bump(
                conn, game_id, version, status="active", state=dump_json(state), **clock, **owed
            )
            return await self._load(conn, game_id)

    async def cancel_game(self, game_id: int, version: int) -> GameRecord:
        async with self._write() as conn:
            await self._guard(conn, game_id, version, OPEN_STATUSES, WrongStatus)
            await self._bump(conn, game_id, version, status="cancelled", ended=True)
            return await self._load(conn, game_id)

    # ------------------------------------------------------------------ play

    async def record_move(
        self,
        game_id: int,
        version: int,
        seat: int,
        notation: str,
        state: dict[str, Any],
        *,
        events: Sequence[Mapping[str, Any]] = (),
        ends_turn: bool = True,
        results: Sequence[ResultRow] | None = None,
        by_ai: bool = False,
        reply_hook: ReplyHook | None = None,
    ) -> GameRecord:
        log = dump_json_list(events)
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("active",), NotActive)
            columns = move_columns(game, seat, state, results)
            if ends_turn or results is not None:
                columns.update(announce_columns(version + 1, reply_hook))
            now = await self._bump(conn, game_id, version, ended=results is not None, **columns)
            await conn.execute(
                "INSERT INTO moves"
                " (game_id, ply, seat, notation, created_at, version, events, ends_turn, by_ai)"
                " SELECT ?, COALESCE(MAX(ply), 0) + 1, ?, ?, ?, ?, ?, ?, ? FROM moves"
                " WHERE game_id = ?",
                (
                    game_id,
                    seat,
                    notation,
                    now,
                    version + 1,
                    log,
                    int(ends_turn),
                    int(by_ai),
                    game_id,
                ),
            )
            if results is not None:
                await self._insert_results(conn, game, results)
            return await self._load(conn, game_id)

    async def resign_seat(
        self,
        game_id: int,
        version: int,
        seat: int,
        state: dict[str, Any],
        results: Sequence[ResultRow] | None = None,
        *,
        cancel: bool = False,
    ) -> GameRecord:
        if results is not None and cancel:
            raise InvalidRequest("a resignation either finishes the game or cancels it")
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("active",), NotActive)
            columns = resign_columns(game, seat, state, results, cancel)
            await conn.execute(
                "UPDATE seats SET resigned = 1 WHERE game_id = ? AND seat = ?", (game_id, seat)
            )
            ended = results is not None or cancel
            await self._bump(conn, game_id, version, ended=ended, **columns)
            if results is not None:
                await self._insert_results(conn, game, results)
            return await self._load(conn, game_id)

    async def set_seat_resigned(
        self, game_id: int, version: int, seat: int, state: dict[str, Any]
    ) -> GameRecord:
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("active",), NotActive)
            check_seat(game, seat)
            await conn.execute(
                "UPDATE seats SET resigned = 1 WHERE game_id = ? AND seat = ?", (game_id, seat)
            )
            await self._bump(conn, game_id, version, state=dump_json(state))
            return await self._load(conn, game_id)

    async def finish_game(
        self, game_id: int, version: int, state: dict[str, Any], results: Sequence[ResultRow]
    ) -> GameRecord:
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("active",), NotActive)
            check_results(game, results)
            await self._bump(
                conn,
                game_id,
                version,
                state=dump_json(state),
                status="finished",
                ended=True,
                clock_due=None,
            )
            await self._insert_results(conn, game, results)
            return await self._load(conn, game_id)

    async def moves(self, game_id: int, *, since_version: int = 0) -> list[MoveRecord]:
        async with self._read() as conn:
            rows = await self._all(
                conn,
                f"SELECT {_MOVE_COLUMNS} FROM moves m"
                " WHERE game_id = ? AND COALESCE(version, 0) >= ? ORDER BY ply",
                (game_id, since_version + 1 if since_version else 0),
            )
        return [move_record(r) for r in rows]

    async def turn_moves(self, game_id: int) -> list[MoveRecord]:
        async with self._read() as conn:
            # Rows that count only: an undo and what it took back are not the turn.
            counting = (
                "game_id = ? AND undoes IS NULL AND ply NOT IN"
                " (SELECT ply FROM undone WHERE undone.game_id = moves.game_id)"
            )
            rows = await self._all(
                conn,
                f"SELECT {_MOVE_COLUMNS} FROM moves m WHERE m.game_id = ? AND m.ply > COALESCE("
                f" (SELECT MAX(ply) FROM moves WHERE {counting} AND ends_turn = 1"
                f"  AND ply < (SELECT MAX(ply) FROM moves WHERE {counting})), 0)"
                " AND m.undoes IS NULL"
                " AND m.ply NOT IN (SELECT ply FROM undone WHERE undone.game_id = m.game_id)"
                " ORDER BY m.ply",
                (game_id, game_id, game_id),
            )
        return [move_record(r) for r in rows]

    async def results(self, game_id: int) -> list[ResultRow]:
        async with self._read() as conn:
            rows = await self._all(
                conn,
                "SELECT r.seat, s.user_id, s.display_name, r.score, r.rank, r.won"
                " FROM results r JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
                " WHERE r.game_id = ? ORDER BY r.rank, r.seat",
                (game_id,),
            )
        return [result_row(r) for r in rows]

    async def leaderboard(
        self, guild_id: int, kind: str | None = None, limit: int = 25
    ) -> list[LeaderRow]:
        check_limit(limit)
        async with self._read() as conn:
            rows = await self._all(
                conn, _LEADERBOARD_SQL, (guild_id, kind, kind, guild_id, kind, limit)
            )
        return [leader_row(r) for r in rows]

    # ------------------------------------------------------------------ meta

    async def get_meta(self, key: str) -> str | None:
        async with self._read() as conn:
            row = await self._one(conn, "SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # ------------------------------------------------------------------ clocks

    async def due_clocks(
        self, now: str, limit: int = 100, *, shards: Shards | None = None
    ) -> list[GameRecord]:
        check_limit(limit)
        on_shards, shard_params = _on_shards(shards)
        async with self._read() as conn:
            rows = await self._all(
                conn,
                "SELECT * FROM games WHERE status = 'active' AND clock_due IS NOT NULL"
                f" AND clock_due <= ?{on_shards} ORDER BY clock_due, id LIMIT ?",
                (utc_iso(now), *shard_params, limit),
            )
            return await self._records(conn, rows)

    async def claim_clock(
        self,
        game_id: int,
        version: int,
        stage: int,
        *,
        new_stage: int,
        due: str | None,
        turn_since: str | None = None,
    ) -> bool:
        sets = "clock_stage = ?, clock_due = ?"
        params: list[Any] = [new_stage, None if due is None else utc_iso(due)]
        if turn_since is not None:
            sets += ", turn_since = ?"
            params.append(utc_iso(turn_since))
        async with (
            self._write() as conn,
            conn.execute(
                f"UPDATE games SET {sets} WHERE id = ? AND version = ? AND clock_stage = ?"
                " AND status = 'active'",
                (*params, game_id, version, stage),
            ) as cur,
        ):
            return cur.rowcount == 1

    async def set_board_message(self, game_id: int, message_id: int, version: int) -> None:
        async with self._write() as conn:
            await conn.execute(
                f"UPDATE games SET board_message_id = ?, {_ANNOUNCED} WHERE id = ?",
                (message_id, version, version, version, game_id),
            )

    # ------------------------------------------------------------------ announcements

    async def mark_announced(self, game_id: int, version: int) -> None:
        async with self._write() as conn:
            await conn.execute(
                f"UPDATE games SET {_ANNOUNCED} WHERE id = ?", (version, version, version, game_id)
            )

    async def unannounced(
        self, now: str, limit: int = 100, *, shards: Shards | None = None
    ) -> list[Unannounced]:
        check_limit(limit)
        on_shards, shard_params = _on_shards(shards)
        async with self._read() as conn:
            rows = await self._all(
                conn,
                "SELECT * FROM games WHERE announce_due IS NOT NULL AND announce_due <= ?"
                " AND announce_version > posted_version AND status IN ('active', 'finished')"
                f"{on_shards} ORDER BY announce_due, id LIMIT ?",
                (utc_iso(now), *shard_params, limit),
            )
            return unannounced_records(rows, await self._records(conn, rows))

    async def claim_announcement(self, game_id: int, version: int, due: str, until: str) -> bool:
        async with (
            self._write() as conn,
            conn.execute(
                "UPDATE games SET announce_due = ? WHERE id = ? AND announce_version = ?"
                " AND announce_due = ? AND announce_version > posted_version"
                " AND status IN ('active', 'finished')",
                (utc_iso(until), game_id, version, utc_iso(due)),
            ) as cur,
        ):
            return cur.rowcount == 1

    # ------------------------------------------------------------------ leases

    async def take_lease(self, name: str, holder: str, now: str, until: str) -> bool:
        moment, expires = lease_times(name, holder, now, until)
        # One statement under the write lock (and SQLite's, across processes).
        async with (
            self._write() as conn,
            conn.execute(
                "INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE"
                " SET holder = excluded.holder, expires_at = excluded.expires_at"
                " WHERE leases.expires_at <= ? OR leases.holder = excluded.holder",
                (name, holder, expires, moment),
            ) as cur,
        ):
            return cur.rowcount == 1

    async def release_lease(self, name: str, holder: str) -> None:
        check_lease(name, holder)
        async with self._write() as conn:
            await conn.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))

    # ------------------------------------------------------------------ seats and undo

    async def replace_seat(
        self, game_id: int, version: int, seat: int, replaced: str | None
    ) -> GameRecord:
        if replaced not in (None, "away", "removed"):
            raise InvalidRequest(f"unknown replacement {replaced!r}")
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("active",), NotActive)
            check_human_seat(game, seat)
            await conn.execute(
                "UPDATE seats SET replaced = ? WHERE game_id = ? AND seat = ?",
                (replaced, game_id, seat),
            )
            await self._bump(conn, game_id, version, **restarted_clock(game.clock_hours))
            return await self._load(conn, game_id)

    async def record_undo(
        self,
        game_id: int,
        version: int,
        seat: int,
        first_ply: int,
        state: dict[str, Any],
        *,
        events: Sequence[Mapping[str, Any]] = (),
    ) -> GameRecord:
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("active",), NotActive)
            check_seat(game, seat)
            async with conn.execute(
                "INSERT INTO undone (game_id, ply) SELECT game_id, ply FROM moves"
                " WHERE game_id = ? AND ply >= ? AND undoes IS NULL"
                " AND ply NOT IN (SELECT ply FROM undone WHERE game_id = ?)",
                (game_id, first_ply, game_id),
            ) as cur:
                if cur.rowcount < 1:
                    raise InvalidRequest(f"game {game_id} has nothing to undo from ply {first_ply}")
            clock = restarted_clock(game.clock_hours)
            now = await self._bump(conn, game_id, version, state=dump_json(state), **clock)
            await conn.execute(
                "INSERT INTO moves"
                " (game_id, ply, seat, notation, created_at, version, events, ends_turn, undoes)"
                " SELECT ?, MAX(ply) + 1, ?, 'undo', ?, ?, ?, 0, ? FROM moves WHERE game_id = ?",
                (game_id, seat, now, version + 1, dump_json_list(events), first_ply, game_id),
            )
            return await self._load(conn, game_id)

    # ------------------------------------------------------------------ votes

    async def cast_vote(
        self, game_id: int, question: str, user_id: int, choice: str
    ) -> dict[int, str]:
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO votes (game_id, question, user_id, choice, created_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, question, user_id)"
                " DO UPDATE SET choice = excluded.choice, created_at = excluded.created_at",
                (game_id, question, user_id, choice, utc_now()),
            )
            rows = await self._all(
                conn,
                "SELECT user_id, choice FROM votes WHERE game_id = ? AND question = ?",
                (game_id, question),
            )
        return {int(r["user_id"]): str(r["choice"]) for r in rows}

    # ------------------------------------------------------------------ players

    async def user_settings(self, user_id: int) -> UserSettings:
        async with self._read() as conn:
            row = await self._one(
                conn,
                "SELECT lang, dm_turn, dm_reminders FROM user_settings WHERE user_id = ?",
                (user_id,),
            )
        return user_settings_record(row)

    async def set_user_settings(self, user_id: int, settings: UserSettings) -> None:
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO user_settings (user_id, lang, dm_turn, dm_reminders)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET lang = excluded.lang,"
                " dm_turn = excluded.dm_turn, dm_reminders = excluded.dm_reminders",
                (user_id, settings.lang, int(settings.dm_turn), int(settings.dm_reminders)),
            )

    async def vacations(self, guild_id: int, user_ids: Collection[int]) -> list[Vacation]:
        users = sorted(set(user_ids))
        if not users:
            return []
        async with self._read() as conn:
            rows = await self._all(
                conn,
                "SELECT guild_id, user_id, starts_at, ends_at FROM vacations"
                f" WHERE guild_id = ? AND user_id IN ({','.join('?' * len(users))})"
                " ORDER BY starts_at, user_id",
                (guild_id, *users),
            )
        return [vacation_record(r) for r in rows]

    async def add_vacation(self, vacation: Vacation) -> None:
        starts, ends = vacation_times(vacation)
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO vacations (guild_id, user_id, starts_at, ends_at) VALUES (?, ?, ?, ?)",
                (vacation.guild_id, vacation.user_id, starts, ends),
            )

    async def end_vacation(self, guild_id: int, user_id: int, now: str) -> bool:
        moment = utc_iso(now)
        async with (
            self._write() as conn,
            conn.execute(
                "UPDATE vacations SET ends_at = ? WHERE guild_id = ? AND user_id = ?"
                " AND starts_at <= ? AND ends_at > ?",
                (moment, guild_id, user_id, moment, moment),
            ) as cur,
        ):
            return cur.rowcount > 0

    # ------------------------------------------------------------------ ratings

    async def ratings(self, guild_id: int, kind: str) -> dict[int, tuple[float, float]]:
        async with self._read() as conn:
            rows = await self._all(
                conn,
                "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND kind = ?",
                (guild_id, kind),
            )
        return {int(r["user_id"]): (float(r["mu"]), float(r["sigma"])) for r in rows}

    async def all_ratings(self) -> list[RatingRow]:
        async with self._read() as conn:
            rows = await self._all(
                conn,
                "SELECT guild_id, kind, user_id, mu, sigma FROM ratings"
                " ORDER BY guild_id, kind, user_id",
            )
        return [rating_row(r) for r in rows]

    async def rebuild_ratings(self) -> int:
        async with self._write() as conn:
            await conn.execute("DELETE FROM ratings")
            rows = await self._all(conn, RATED_RESULTS_SQL)
            games = rated_games(rows)  # in the order the games finished
            for guild_id, kind, placings in games:
                await self._rate(conn, guild_id, kind, placings)
        return rated_count(games)

    async def player_games(self, guild_id: int, user_id: int, limit: int = 10) -> list[PlayedGame]:
        check_limit(limit)
        async with self._read() as conn:
            rows = await self._all(
                conn,
                "SELECT g.id, g.kind, g.channel_id, g.finished_at, r.rank, r.score, r.won,"
                " (SELECT COUNT(*) FROM seats a WHERE a.game_id = g.id) AS players"
                " FROM games g JOIN seats s ON s.game_id = g.id"
                " JOIN results r ON r.game_id = s.game_id AND r.seat = s.seat"
                " WHERE g.guild_id = ? AND g.status = 'finished' AND s.user_id = ?"
                " AND s.is_bot = 0 ORDER BY g.finished_at DESC, g.id DESC LIMIT ?",
                (guild_id, user_id, limit),
            )
        return [played_game(r) for r in rows]

    async def player_records(self, guild_id: int, user_id: int) -> list[tuple[str, LeaderRow]]:
        async with self._read() as conn:
            rows = await self._all(conn, _PLAYER_RECORDS_SQL, (guild_id, user_id, guild_id))
        return [(r["kind"], leader_row(r)) for r in rows]


# Humans only (bots have is_bot = 1); the name shown is the one from the
# player's latest finished game, since display names change. With a game
# kind, players are ranked by their rating's ordinal (mu - 3 sigma, the
# openskill ordinal), those never rated (only bot opponents) after.
_PLAYED_CTE = """
WITH played AS (
    SELECT s.user_id, s.display_name, r.won, r.score, r.rank, g.finished_at,
           g.id AS game_id, g.kind
    FROM games g
    JOIN results r ON r.game_id = g.id
    JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat
    WHERE g.guild_id = ? AND g.status = 'finished' AND {where}
      AND s.is_bot = 0 AND s.user_id IS NOT NULL
),
latest AS (
    SELECT user_id, display_name,
           ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY finished_at DESC, game_id DESC) AS n
    FROM played
)
"""

_LEADERBOARD_SQL = (
    _PLAYED_CTE.format(where="(? IS NULL OR g.kind = ?)")
    + """,
totals AS (
    SELECT user_id, COUNT(*) AS games, SUM(won) AS wins, SUM(score) AS points,
           CAST(SUM(won) AS REAL) / COUNT(*) AS win_rate, AVG(rank) AS placement
    FROM played GROUP BY user_id
)
SELECT t.user_id, l.display_name AS name, t.games, t.wins, t.win_rate, t.points, t.placement,
       rt.mu, rt.sigma
FROM totals t JOIN latest l ON l.user_id = t.user_id AND l.n = 1
LEFT JOIN ratings rt ON rt.guild_id = ? AND rt.kind = ? AND rt.user_id = t.user_id
ORDER BY (rt.mu IS NULL), rt.mu - 3 * rt.sigma DESC,
         t.wins DESC, t.win_rate DESC, t.games DESC, t.points DESC, t.user_id
LIMIT ?
"""
)

# One player's totals per game kind (user_id filters played).
_PLAYER_RECORDS_SQL = (
    _PLAYED_CTE.format(where="s.user_id = ?")
    + """
SELECT p.kind, p.user_id, l.display_name AS name, COUNT(*) AS games, SUM(p.won) AS wins,
       CAST(SUM(p.won) AS REAL) / COUNT(*) AS win_rate, SUM(p.score) AS points,
       AVG(p.rank) AS placement, rt.mu, rt.sigma
FROM played p JOIN latest l ON l.user_id = p.user_id AND l.n = 1
LEFT JOIN ratings rt ON rt.guild_id = ? AND rt.kind = p.kind AND rt.user_id = p.user_id
GROUP BY p.kind
ORDER BY games DESC, p.kind
"""
)


# The game was shown publicly at a version (bound three times): the post owed up
# to it is no longer owed. SET expressions read the row as it was.
_ANNOUNCED = (
    "posted_version = MAX(posted_version, ?),"
    " announce_due = CASE WHEN MAX(posted_version, ?) >= announce_version"
    " THEN NULL ELSE announce_due END,"
    " announce_hook = CASE WHEN MAX(posted_version, ?) >= announce_version"
    " THEN NULL ELSE announce_hook END"
)


def _on_shards(shards: Shards | None) -> tuple[str, list[int]]:
    """The extra condition (and its values) that keeps the guilds of ``shards``."""
    if shards is None:
        return "", []
    ids = sorted(shards.ids)
    return f" AND ((guild_id >> 22) % ?) IN ({','.join('?' * len(ids))})", [shards.count, *ids]


_MOVE_COLUMNS = (
    "ply, seat, notation, created_at, version, events, ends_turn, undoes, by_ai,"
    " EXISTS (SELECT 1 FROM undone u WHERE u.game_id = m.game_id AND u.ply = m.ply) AS undone"
)

_SEAT_TURNS_SQL = seat_turns_sql("?")
