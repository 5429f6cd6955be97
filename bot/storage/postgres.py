"""PostgreSQL backend (asyncpg): a connection pool, row locks, optimistic versions.

Selected by ``DATABASE_URL=postgresql://user:pass@host/db`` (``?pool=N`` sets
the pool's size, 10 by default). Same records, errors, orderings and stored
strings as :mod:`.sqlite`: timestamps are the same ISO-8601 UTC text, JSON the
same text, so both backends hold identical values. What needs no SQL (the
checks before a write, those stored forms, the records built from rows) both
take from :mod:`.common`; each keeps its own SQL.

Writes: each write borrows a pooled connection for one READ COMMITTED
transaction. Every versioned write first locks the game's row
(``SELECT … FOR UPDATE``) and checks the version, then the status, exactly as
SQLite's ``_guard`` does under its write lock, so two movers with the same
version — in one process or in several — can never both land: the second
waits for the first's COMMIT, then sees the new version and gets
:class:`~bot.storage.base.StaleVersion`. :meth:`PostgresStorage.claim_clock`
(and ``claim_announcement``) is one conditional UPDATE (PostgreSQL re-checks
its WHERE on the row as the winner left it), :meth:`PostgresStorage.take_lease`
one ``INSERT … ON CONFLICT DO UPDATE … WHERE`` (a racer waits for the row the
winner inserted or updated, then finds it held). Ending a game with results takes a
transaction-scoped advisory lock per (server, game kind) before it stamps
``finished_at`` and locks the rating rows it rewrites (``SELECT … FOR
UPDATE``): two games ending at once for the same players rate one after the
other, in the order of their ``finished_at``, exactly as ``rebuild_ratings``
refolds them.

A server that cannot answer (restarting, unreachable, out of connections, a
connection it ended) raises :class:`~bot.storage.base.StorageUnavailable`,
which background jobs retry.

Reads: a REPEATABLE READ, read-only transaction on a pooled connection: one
consistent snapshot across the few queries of a read, never another
transaction's uncommitted rows.

Migrations: ``migrations_pg/NNN_name.sql``, numbered like SQLite's, each in
its own transaction with its ``schema_migrations`` row, under
``pg_advisory_xact_lock`` so two processes starting at once migrate once. A
database newer than the code raises :class:`~bot.storage.base.MigrationError`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Collection, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from importlib import resources
from types import TracebackType
from typing import Any, Self

import asyncpg

from bot.ratings import Rating, rate_game

from .base import (
    OPEN_STATUSES,
    ChannelBusy,
    GameRecord,
    InvalidRequest,
    LeaderRow,
    MigrationError,
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
    StorageUnavailable,
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
from .migrate import SCHEMA_MIGRATIONS, Migration, load_migrations, refuse_newer

DEFAULT_POOL_SIZE = 10
# pg_advisory_xact_lock key of the migration runner ("caravan" in ASCII).
MIGRATION_LOCK = 0x63617261_76616E
_Conn = Any  # asyncpg.Connection (asyncpg ships no type information)
# What a server restarting, unreachable or out of connections raises: worth a retry.
_UNAVAILABLE = (
    OSError,  # refused, reset, unreachable
    asyncpg.PostgresConnectionError,  # the connection was lost in the middle of a query
    asyncpg.InsufficientResourcesError,  # too many connections, out of memory or disk
    asyncpg.OperatorInterventionError,  # shutting down, starting up, query cancelled
)


def load_pg_migrations() -> tuple[Migration, ...]:
    """The bundled ``migrations_pg/NNN_name.sql`` files, numbered 1..n."""
    return load_migrations(resources.files("bot.storage") / "migrations_pg")


def _on_shards(shards: Shards | None, first: int) -> tuple[str, list[Any]]:
    """The extra condition that keeps the guilds of ``shards``, with its values
    bound from ``$first`` on."""
    if shards is None:
        return "", []
    return (
        f" AND ((guild_id >> 22) % ${first}::bigint) = ANY(${first + 1}::bigint[])",
        [shards.count, sorted(shards.ids)],
    )


def _announced(n: int) -> str:
    """The SET clause of a public post of the game at version ``$n``: the post owed
    up to it is no longer owed. SET expressions read the row as it was."""
    covered = f"GREATEST(posted_version, ${n}) >= announce_version"
    return (
        f"posted_version = GREATEST(posted_version, ${n}),"
        f" announce_due = CASE WHEN {covered} THEN NULL ELSE announce_due END,"
        f" announce_hook = CASE WHEN {covered} THEN NULL ELSE announce_hook END"
    )


def _count(status: str) -> int:
    """Rows an INSERT/UPDATE/DELETE touched, from its command tag ("UPDATE 1")."""
    try:
        return int(status.rsplit(" ", 1)[-1])
    except ValueError:
        return 0


async def current_pg_version(conn: _Conn) -> int:
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))


async def apply_pg_migrations(conn: _Conn, migrations: Sequence[Migration]) -> list[int]:
    """Apply the migrations the database lacks; return their versions (empty = no-op).

    Each runs in its own transaction with its bookkeeping row, under an advisory
    lock: a second process waits, then finds it applied and skips it.
    """
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute(SCHEMA_MIGRATIONS)
        have = await current_pg_version(conn)
    refuse_newer(have, migrations)
    applied: list[int] = []
    for mig in migrations:
        if mig.version <= have:
            continue
        try:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                done = await conn.fetchval(
                    "SELECT 1 FROM schema_migrations WHERE version = $1", mig.version
                )
                if done is None:
                    await conn.execute(mig.sql)  # simple protocol: the whole file at once
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at)"
                        " VALUES ($1, $2, $3)",
                        mig.version,
                        mig.name,
                        datetime.now(UTC).isoformat(timespec="seconds"),
                    )
        except asyncpg.PostgresError as exc:
            raise MigrationError(f"migration {mig.version} ({mig.name}) failed: {exc}") from exc
        if done is None:
            applied.append(mig.version)
    return applied


async def _roll_back(conn: _Conn, transaction: Any) -> None:
    """Roll back; if that is itself cancelled (shutting down cancels handlers that
    are already unwinding), drop the connection instead: the server aborts the
    transaction, and the pool does not hand out, or complain about, a connection
    left inside one. A connection the server ended needs neither."""
    try:
        await transaction.rollback()
    except BaseException:
        # Cancelled again; or the server ended the connection, and the pool has
        # let go of it already (it refuses to terminate it then).
        with contextlib.suppress(asyncpg.InterfaceError):
            conn.terminate()


class PostgresStorage:
    """The :class:`~bot.storage.base.Storage` protocol on a PostgreSQL database.

    ``dsn`` is a ``postgresql://`` URL asyncpg understands (without this
    project's own ``pool`` parameter); the pool keeps ``min_size`` to
    ``max_size`` connections.
    """

    def __init__(
        self,
        dsn: str,
        *,
        min_size: int = 1,
        max_size: int = DEFAULT_POOL_SIZE,
        migrations: Sequence[Migration] | None = None,
    ) -> None:
        if max_size < 1 or not 0 <= min_size <= max_size:
            raise InvalidRequest("the pool needs 1 <= max_size and 0 <= min_size <= max_size")
        self._dsn = dsn
        self.min_size = min_size
        self.max_size = max_size
        self._migrations = tuple(migrations) if migrations is not None else load_pg_migrations()
        self._pool: Any = None  # asyncpg.Pool while open
        self._busy = 0  # transactions running
        self._idle = asyncio.Event()  # set when none is
        self._idle.set()

    # ------------------------------------------------------------------ lifecycle

    async def open(self) -> None:
        if self._pool is not None:
            return
        try:
            pool = await asyncpg.create_pool(
                self._dsn, min_size=self.min_size, max_size=self.max_size
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StorageError(f"cannot connect to PostgreSQL: {exc}") from exc
        try:
            async with pool.acquire() as conn:
                await apply_pg_migrations(conn, self._migrations)
        except BaseException:
            await pool.close()
            raise
        self._pool = pool

    async def close(self) -> None:
        pool, self._pool = self._pool, None  # new operations are refused from now on
        if pool is not None:
            await self._idle.wait()  # the running transactions finish first
            await pool.close()

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
    async def _transaction(self, **options: Any) -> AsyncIterator[_Conn]:
        pool = self._pool
        if pool is None:
            raise StorageError("storage is not open")
        self._busy += 1
        self._idle.clear()
        try:
            async with pool.acquire() as conn:
                if self._pool is not pool:  # closed while we waited for a connection
                    raise StorageError("storage is not open")
                transaction = conn.transaction(**options)
                try:
                    await transaction.start()
                    yield conn
                except BaseException:
                    await _roll_back(conn, transaction)
                    raise
                try:
                    await transaction.commit()
                except asyncio.CancelledError:
                    conn.terminate()  # its outcome is the server's: never reuse it half-way
                    raise
        except asyncpg.DeadlockDetectedError as exc:
            raise StorageBusy(f"database deadlock: {exc}") from exc
        except asyncpg.LockNotAvailableError as exc:
            raise StorageBusy(f"database is locked: {exc}") from exc
        except _UNAVAILABLE as exc:
            raise StorageUnavailable(f"PostgreSQL is unavailable: {exc!r}") from exc
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    def _write(self) -> contextlib.AbstractAsyncContextManager[_Conn]:
        return self._transaction()

    def _read(self) -> contextlib.AbstractAsyncContextManager[_Conn]:
        return self._transaction(isolation="repeatable_read", readonly=True)

    # ------------------------------------------------------------------ query helpers

    @staticmethod
    async def _records(conn: _Conn, rows: Sequence[Any]) -> list[GameRecord]:
        if not rows:
            return []
        seats = await conn.fetch(
            "SELECT game_id, seat, user_id, display_name, is_bot, resigned, replaced FROM seats"
            " WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, seat",
            [int(r["id"]) for r in rows],
        )
        return game_records(rows, seats)

    async def _load(self, conn: _Conn, game_id: int, *, lock: bool = False) -> GameRecord:
        sql = "SELECT * FROM games WHERE id = $1" + (" FOR UPDATE" if lock else "")
        row = await conn.fetchrow(sql, game_id)
        if row is None:
            raise NotFound(game_id)
        return (await self._records(conn, [row]))[0]

    async def _guard(
        self,
        conn: _Conn,
        game_id: int,
        version: int,
        allowed: Collection[str],
        error: type[WrongStatus],
    ) -> GameRecord:
        """Lock the game's row inside the write transaction; check version, then status."""
        return checked_game(await self._load(conn, game_id, lock=True), version, allowed, error)

    @staticmethod
    async def _bump(
        conn: _Conn, game_id: int, version: int, *, ended: bool = False, **columns: Any
    ) -> str:
        """The guarded UPDATE every write ends with; returns the new updated_at."""
        now = utc_now()
        columns["updated_at"] = now
        if ended:
            columns["finished_at"] = now
        names = list(columns)  # names come from this module
        sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(names, start=1))
        n = len(names)
        status = await conn.execute(
            f"UPDATE games SET version = version + 1, {sets} WHERE id = ${n + 1}"
            f" AND version = ${n + 2}",
            *columns.values(),
            game_id,
            version,
        )
        if _count(status) != 1:
            raise StaleVersion(game_id, version)
        return now

    @staticmethod
    async def _replace_seats(conn: _Conn, game_id: int, seats: Iterable[SeatRecord]) -> None:
        """Rewrite the lobby's seats numbered 0..n-1 in the given order."""
        await conn.execute("DELETE FROM seats WHERE game_id = $1", game_id)
        await conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, display_name, is_bot, resigned, replaced)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [
                (game_id, i, s.user_id, s.name, s.is_bot, s.resigned, s.replaced)
                for i, s in enumerate(seats)
            ],
        )

    @staticmethod
    async def _lock_ratings(conn: _Conn, guild_id: int, kind: str) -> None:
        """Serialise the games of one server and kind that end with results.

        Taken before ``finished_at`` is stamped, so the order ratings are folded
        in is the order of ``finished_at``, the order a rebuild refolds them in;
        it also covers rating rows that do not exist yet (FOR UPDATE cannot).
        """
        await conn.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", f"ratings:{guild_id}:{kind}"
        )

    async def _insert_results(
        self, conn: _Conn, game: GameRecord, results: Sequence[ResultRow]
    ) -> None:
        """The result rows and, in the same transaction, the players' new ratings."""
        await conn.executemany(
            "INSERT INTO results (game_id, seat, score, rank, won) VALUES ($1, $2, $3, $4, $5)",
            [(game.id, r.seat, r.score, r.rank, bool(r.won)) for r in results],
        )
        turns = seat_turns(await conn.fetch(_SEAT_TURNS_SQL, game.id))
        await self._rate(conn, game.guild_id, game.kind, human_placings(game, results, turns))

    @staticmethod
    async def _rate(
        conn: _Conn, guild_id: int, kind: str, placings: Sequence[tuple[int, int]]
    ) -> None:
        """Bot seats never count: only the humans' places move their ratings."""
        if len(placings) < 2:
            return
        previous = {
            int(r["user_id"]): Rating(float(r["mu"]), float(r["sigma"]))
            for r in await conn.fetch(
                "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = $1 AND kind = $2"
                " AND user_id = ANY($3::bigint[]) ORDER BY user_id FOR UPDATE",
                guild_id,
                kind,
                [user for user, _ in placings],
            )
        }
        rated = rate_game(previous, placings)
        await conn.executemany(
            "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma) VALUES ($1, $2, $3, $4, $5)"
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
            now = utc_now()
            # The partial unique index decides between two creators racing for a
            # channel: the second waits for the first's COMMIT, then inserts nothing.
            game_id = await conn.fetchval(
                "INSERT INTO games (kind, guild_id, channel_id, status, creator_id, options,"
                " seed, state, version, created_at, updated_at, lang, clock_hours)"
                " VALUES ($1, $2, $3, 'lobby', $4, $5, $6, NULL, 1, $7, $7, $8, $9)"
                " ON CONFLICT (channel_id) WHERE status IN ('lobby', 'active') DO NOTHING"
                " RETURNING id",
                kind,
                guild_id,
                channel_id,
                creator_id,
                opts,
                seed,
                now,
                lang,
                float(clock_hours),
            )
            if game_id is None:
                busy = await conn.fetchval(
                    "SELECT id FROM games WHERE channel_id = $1 AND status IN ('lobby', 'active')",
                    channel_id,
                )
                raise ChannelBusy(int(busy) if busy is not None else 0)
            await conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name, is_bot)"
                " VALUES ($1, 0, $2, $3, FALSE)",
                game_id,
                creator_id,
                creator_name,
            )
            return await self._load(conn, int(game_id))

    async def _one_game(self, sql: str, *args: Any) -> GameRecord | None:
        async with self._read() as conn:
            row = await conn.fetchrow(sql, *args)
            return (await self._records(conn, [row]))[0] if row is not None else None

    async def _games(self, sql: str, *args: Any) -> list[GameRecord]:
        async with self._read() as conn:
            return await self._records(conn, await conn.fetch(sql, *args))

    async def get_game(self, game_id: int) -> GameRecord | None:
        return await self._one_game("SELECT * FROM games WHERE id = $1", game_id)

    async def active_game(self, channel_id: int) -> GameRecord | None:
        return await self._one_game(
            "SELECT * FROM games WHERE channel_id = $1 AND status IN ('lobby', 'active')",
            channel_id,
        )

    async def latest_game(self, channel_id: int) -> GameRecord | None:
        return await self._one_game(
            "SELECT * FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1", channel_id
        )

    async def list_games(
        self, guild_id: int, statuses: Collection[str] | None = None, limit: int = 25
    ) -> list[GameRecord]:
        check_limit(limit)
        if statuses is None:
            return await self._games(
                "SELECT * FROM games WHERE guild_id = $1"
                " ORDER BY updated_at DESC, id DESC LIMIT $2",
                guild_id,
                limit,
            )
        wanted = checked_statuses(statuses)
        if not wanted:
            return []
        return await self._games(
            "SELECT * FROM games WHERE guild_id = $1 AND status = ANY($2::text[])"
            " ORDER BY updated_at DESC, id DESC LIMIT $3",
            guild_id,
            wanted,
            limit,
        )

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
        on_shards, shard_params = _on_shards(shards, 4)
        return await self._games(
            f"SELECT * FROM games WHERE status = ANY($1::text[]) AND id > $2{on_shards}"
            " ORDER BY id LIMIT $3",
            wanted,
            after_id,
            limit,
            *shard_params,
        )

    async def open_games_of(self, guild_id: int, user_id: int) -> list[GameRecord]:
        return await self._games(
            "SELECT g.* FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.user_id = $1 AND g.guild_id = $2 AND g.status IN ('lobby', 'active')"
            " ORDER BY g.id",
            user_id,
            guild_id,
        )

    async def idle_lobbies(self, before: str, *, shards: Shards | None = None) -> list[GameRecord]:
        cutoff = utc_iso(before)
        on_shards, shard_params = _on_shards(shards, 2)
        return await self._games(
            f"SELECT * FROM games WHERE status = 'lobby' AND updated_at < $1{on_shards}"
            " ORDER BY updated_at, id",
            cutoff,
            *shard_params,
        )

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
                " VALUES ($1, $2, $3, $4, $5)",
                game_id,
                len(game.seats),
                user_id,
                name,
                bool(is_bot),
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
            if results is not None:
                await self._lock_ratings(conn, game.guild_id, game.kind)
            now = await self._bump(conn, game_id, version, ended=results is not None, **columns)
            await conn.execute(
                "INSERT INTO moves"
                " (game_id, ply, seat, notation, created_at, version, events, ends_turn, by_ai)"
                " SELECT $1, COALESCE(MAX(ply), 0) + 1, $2, $3, $4, $5, $6, $7, $8 FROM moves"
                " WHERE game_id = $1",
                game_id,
                seat,
                notation,
                now,
                version + 1,
                log,
                bool(ends_turn),
                bool(by_ai),
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
            if results is not None:
                await self._lock_ratings(conn, game.guild_id, game.kind)
            await conn.execute(
                "UPDATE seats SET resigned = TRUE WHERE game_id = $1 AND seat = $2", game_id, seat
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
                "UPDATE seats SET resigned = TRUE WHERE game_id = $1 AND seat = $2", game_id, seat
            )
            await self._bump(conn, game_id, version, state=dump_json(state))
            return await self._load(conn, game_id)

    async def finish_game(
        self, game_id: int, version: int, state: dict[str, Any], results: Sequence[ResultRow]
    ) -> GameRecord:
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("active",), NotActive)
            check_results(game, results)
            await self._lock_ratings(conn, game.guild_id, game.kind)
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
            rows = await conn.fetch(
                f"SELECT {_MOVE_COLUMNS} FROM moves m"
                " WHERE game_id = $1 AND COALESCE(version, 0) >= $2 ORDER BY ply",
                game_id,
                since_version + 1 if since_version else 0,
            )
        return [move_record(r) for r in rows]

    async def turn_moves(self, game_id: int) -> list[MoveRecord]:
        counting = (
            "game_id = $1 AND undoes IS NULL AND ply NOT IN"
            " (SELECT ply FROM undone WHERE undone.game_id = moves.game_id)"
        )
        async with self._read() as conn:
            rows = await conn.fetch(
                f"SELECT {_MOVE_COLUMNS} FROM moves m WHERE m.game_id = $1 AND m.ply > COALESCE("
                f" (SELECT MAX(ply) FROM moves WHERE {counting} AND ends_turn"
                f"  AND ply < (SELECT MAX(ply) FROM moves WHERE {counting})), 0)"
                " AND m.undoes IS NULL"
                " AND m.ply NOT IN (SELECT ply FROM undone WHERE undone.game_id = m.game_id)"
                " ORDER BY m.ply",
                game_id,
            )
        return [move_record(r) for r in rows]

    async def results(self, game_id: int) -> list[ResultRow]:
        async with self._read() as conn:
            rows = await conn.fetch(
                "SELECT r.seat, s.user_id, s.display_name, r.score, r.rank, r.won"
                " FROM results r JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
                " WHERE r.game_id = $1 ORDER BY r.rank, r.seat",
                game_id,
            )
        return [result_row(r) for r in rows]

    async def leaderboard(
        self, guild_id: int, kind: str | None = None, limit: int = 25
    ) -> list[LeaderRow]:
        check_limit(limit)
        async with self._read() as conn:
            rows = await conn.fetch(_LEADERBOARD_SQL, guild_id, kind, limit)
        return [leader_row(r) for r in rows]

    # ------------------------------------------------------------------ meta

    async def get_meta(self, key: str) -> str | None:
        async with self._read() as conn:
            value = await conn.fetchval("SELECT value FROM meta WHERE key = $1", key)
        return None if value is None else str(value)

    async def set_meta(self, key: str, value: str) -> None:
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                key,
                value,
            )

    # ------------------------------------------------------------------ clocks

    async def due_clocks(
        self, now: str, limit: int = 100, *, shards: Shards | None = None
    ) -> list[GameRecord]:
        check_limit(limit)
        on_shards, shard_params = _on_shards(shards, 3)
        return await self._games(
            "SELECT * FROM games WHERE status = 'active' AND clock_due IS NOT NULL"
            f" AND clock_due <= $1{on_shards} ORDER BY clock_due, id LIMIT $2",
            utc_iso(now),
            limit,
            *shard_params,
        )

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
        due_at = None if due is None else utc_iso(due)
        since = None if turn_since is None else utc_iso(turn_since)
        # One statement: a racing claim waits for the winner's row, re-checks the
        # WHERE on it and matches nothing.
        async with self._write() as conn:
            status = await conn.execute(
                "UPDATE games SET clock_stage = $1, clock_due = $2,"
                " turn_since = COALESCE($3, turn_since)"
                " WHERE id = $4 AND version = $5 AND clock_stage = $6 AND status = 'active'",
                new_stage,
                due_at,
                since,
                game_id,
                version,
                stage,
            )
        return _count(status) == 1

    async def set_board_message(self, game_id: int, message_id: int, version: int) -> None:
        async with self._write() as conn:
            await conn.execute(
                f"UPDATE games SET board_message_id = $1, {_announced(2)} WHERE id = $3",
                message_id,
                version,
                game_id,
            )

    # ------------------------------------------------------------------ announcements

    async def mark_announced(self, game_id: int, version: int) -> None:
        async with self._write() as conn:
            await conn.execute(f"UPDATE games SET {_announced(1)} WHERE id = $2", version, game_id)

    async def unannounced(
        self, now: str, limit: int = 100, *, shards: Shards | None = None
    ) -> list[Unannounced]:
        check_limit(limit)
        on_shards, shard_params = _on_shards(shards, 3)
        async with self._read() as conn:
            rows = await conn.fetch(
                "SELECT * FROM games WHERE announce_due IS NOT NULL AND announce_due <= $1"
                " AND announce_version > posted_version AND status IN ('active', 'finished')"
                f"{on_shards} ORDER BY announce_due, id LIMIT $2",
                utc_iso(now),
                limit,
                *shard_params,
            )
            return unannounced_records(rows, await self._records(conn, rows))

    async def claim_announcement(self, game_id: int, version: int, due: str, until: str) -> bool:
        # One statement: a racing claim waits for the winner's row, re-checks the
        # WHERE on it (the due time has moved) and matches nothing.
        async with self._write() as conn:
            status = await conn.execute(
                "UPDATE games SET announce_due = $1 WHERE id = $2 AND announce_version = $3"
                " AND announce_due = $4 AND announce_version > posted_version"
                " AND status IN ('active', 'finished')",
                utc_iso(until),
                game_id,
                version,
                utc_iso(due),
            )
        return _count(status) == 1

    # ------------------------------------------------------------------ leases

    async def take_lease(self, name: str, holder: str, now: str, until: str) -> bool:
        moment, expires = lease_times(name, holder, now, until)
        # One statement: a racer inserting the same name waits for the first
        # insert's COMMIT, then re-checks the WHERE on the row it left (and fails).
        async with self._write() as conn:
            taken = await conn.fetchval(
                "INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (name) DO UPDATE"
                " SET holder = excluded.holder, expires_at = excluded.expires_at"
                " WHERE leases.expires_at <= $4 OR leases.holder = excluded.holder"
                " RETURNING TRUE",
                name,
                holder,
                expires,
                moment,
            )
        return taken is not None

    async def release_lease(self, name: str, holder: str) -> None:
        check_lease(name, holder)
        async with self._write() as conn:
            await conn.execute("DELETE FROM leases WHERE name = $1 AND holder = $2", name, holder)

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
                "UPDATE seats SET replaced = $1 WHERE game_id = $2 AND seat = $3",
                replaced,
                game_id,
                seat,
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
            status = await conn.execute(
                "INSERT INTO undone (game_id, ply) SELECT game_id, ply FROM moves"
                " WHERE game_id = $1 AND ply >= $2 AND undoes IS NULL"
                " AND ply NOT IN (SELECT ply FROM undone WHERE game_id = $1)",
                game_id,
                first_ply,
            )
            if _count(status) < 1:
                raise InvalidRequest(f"game {game_id} has nothing to undo from ply {first_ply}")
            clock = restarted_clock(game.clock_hours)
            now = await self._bump(conn, game_id, version, state=dump_json(state), **clock)
            await conn.execute(
                "INSERT INTO moves"
                " (game_id, ply, seat, notation, created_at, version, events, ends_turn, undoes)"
                " SELECT $1, MAX(ply) + 1, $2, 'undo', $3, $4, $5, FALSE, $6 FROM moves"
                " WHERE game_id = $1",
                game_id,
                seat,
                now,
                version + 1,
                dump_json_list(events),
                first_ply,
            )
            return await self._load(conn, game_id)

    # ------------------------------------------------------------------ votes

    async def cast_vote(
        self, game_id: int, question: str, user_id: int, choice: str
    ) -> dict[int, str]:
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO votes (game_id, question, user_id, choice, created_at)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, question, user_id)"
                " DO UPDATE SET choice = excluded.choice, created_at = excluded.created_at",
                game_id,
                question,
                user_id,
                choice,
                utc_now(),
            )
            rows = await conn.fetch(
                "SELECT user_id, choice FROM votes WHERE game_id = $1 AND question = $2",
                game_id,
                question,
            )
        return {int(r["user_id"]): str(r["choice"]) for r in rows}

    # ------------------------------------------------------------------ players

    async def user_settings(self, user_id: int) -> UserSettings:
        async with self._read() as conn:
            row = await conn.fetchrow(
                "SELECT lang, dm_turn, dm_reminders FROM user_settings WHERE user_id = $1",
                user_id,
            )
        return user_settings_record(row)

    async def set_user_settings(self, user_id: int, settings: UserSettings) -> None:
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO user_settings (user_id, lang, dm_turn, dm_reminders)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (user_id) DO UPDATE SET"
                " lang = excluded.lang, dm_turn = excluded.dm_turn,"
                " dm_reminders = excluded.dm_reminders",
                user_id,
                settings.lang,
                bool(settings.dm_turn),
                bool(settings.dm_reminders),
            )

    async def vacations(self, guild_id: int, user_ids: Collection[int]) -> list[Vacation]:
        users = sorted(set(user_ids))
        if not users:
            return []
        async with self._read() as conn:
            rows = await conn.fetch(
                "SELECT guild_id, user_id, starts_at, ends_at FROM vacations"
                " WHERE guild_id = $1 AND user_id = ANY($2::bigint[])"
                " ORDER BY starts_at, user_id",
                guild_id,
                users,
            )
        return [vacation_record(r) for r in rows]

    async def add_vacation(self, vacation: Vacation) -> None:
        starts, ends = vacation_times(vacation)
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO vacations (guild_id, user_id, starts_at, ends_at)"
                " VALUES ($1, $2, $3, $4)",
                vacation.guild_id,
                vacation.user_id,
                starts,
                ends,
            )

    async def end_vacation(self, guild_id: int, user_id: int, now: str) -> bool:
        moment = utc_iso(now)
        async with self._write() as conn:
            status = await conn.execute(
                "UPDATE vacations SET ends_at = $1 WHERE guild_id = $2 AND user_id = $3"
                " AND starts_at <= $1 AND ends_at > $1",
                moment,
                guild_id,
                user_id,
            )
        return _count(status) > 0

    # ------------------------------------------------------------------ ratings

    async def ratings(self, guild_id: int, kind: str) -> dict[int, tuple[float, float]]:
        async with self._read() as conn:
            rows = await conn.fetch(
                "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = $1 AND kind = $2",
                guild_id,
                kind,
            )
        return {int(r["user_id"]): (float(r["mu"]), float(r["sigma"])) for r in rows}

    async def all_ratings(self) -> list[RatingRow]:
        async with self._read() as conn:
            rows = await conn.fetch(
                "SELECT guild_id, kind, user_id, mu, sigma FROM ratings"
                " ORDER BY guild_id, kind, user_id"
            )
        return [rating_row(r) for r in rows]

    async def rebuild_ratings(self) -> int:
        async with self._write() as conn:
            # Games ending meanwhile wait (their rating reads lock rows of this
            # table) and are then folded in on top of the rebuilt ratings.
            await conn.execute("LOCK TABLE ratings IN EXCLUSIVE MODE")
            await conn.execute("DELETE FROM ratings")
            rows = await conn.fetch(RATED_RESULTS_SQL)
            games = rated_games(rows)  # in the order the games finished
            for guild_id, kind, placings in games:
                await self._rate(conn, guild_id, kind, placings)
        return rated_count(games)

    async def player_games(self, guild_id: int, user_id: int, limit: int = 10) -> list[PlayedGame]:
        check_limit(limit)
        async with self._read() as conn:
            rows = await conn.fetch(
                "SELECT g.id, g.kind, g.channel_id, g.finished_at, r.rank, r.score, r.won,"
                " (SELECT COUNT(*) FROM seats a WHERE a.game_id = g.id) AS players"
                " FROM games g JOIN seats s ON s.game_id = g.id"
                " JOIN results r ON r.game_id = s.game_id AND r.seat = s.seat"
                " WHERE g.guild_id = $1 AND g.status = 'finished' AND s.user_id = $2"
                " AND NOT s.is_bot ORDER BY g.finished_at DESC, g.id DESC LIMIT $3",
                guild_id,
                user_id,
                limit,
            )
        return [played_game(r) for r in rows]

    async def player_records(self, guild_id: int, user_id: int) -> list[tuple[str, LeaderRow]]:
        async with self._read() as conn:
            rows = await conn.fetch(_PLAYER_RECORDS_SQL, guild_id, user_id)
        return [(r["kind"], leader_row(r)) for r in rows]


# The SQLite queries of the same names in PostgreSQL's dialect: booleans are
# counted as integers, averages and rates computed in double precision (as
# SQLite does, so both backends give the same floats), NULL ratings last.
_PLAYED_CTE = """
WITH played AS (
    SELECT s.user_id, s.display_name, r.won::int AS won, r.score, r.rank, g.finished_at,
           g.id AS game_id, g.kind
    FROM games g
    JOIN results r ON r.game_id = g.id
    JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat
    WHERE g.guild_id = $1 AND g.status = 'finished' AND {where}
      AND NOT s.is_bot AND s.user_id IS NOT NULL
),
latest AS (
    SELECT user_id, display_name,
           ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY finished_at DESC, game_id DESC) AS n
    FROM played
)
"""

_LEADERBOARD_SQL = (
    _PLAYED_CTE.format(where="($2::text IS NULL OR g.kind = $2::text)")
    + """,
totals AS (
    SELECT user_id, COUNT(*) AS games, SUM(won) AS wins, SUM(score) AS points,
           SUM(won)::float8 / COUNT(*) AS win_rate, AVG(rank::float8) AS placement
    FROM played GROUP BY user_id
)
SELECT t.user_id, l.display_name AS name, t.games, t.wins, t.win_rate, t.points, t.placement,
       rt.mu, rt.sigma
FROM totals t JOIN latest l ON l.user_id = t.user_id AND l.n = 1
LEFT JOIN ratings rt ON rt.guild_id = $1 AND rt.kind = $2::text AND rt.user_id = t.user_id
ORDER BY (rt.mu IS NULL), rt.mu - 3 * rt.sigma DESC NULLS LAST,
         t.wins DESC, t.win_rate DESC, t.games DESC, t.points DESC, t.user_id
LIMIT $3
"""
)

_PLAYER_RECORDS_SQL = (
    _PLAYED_CTE.format(where="s.user_id = $2")
    + """
SELECT p.kind, p.user_id, MIN(l.display_name) AS name, COUNT(*) AS games, SUM(p.won) AS wins,
       SUM(p.won)::float8 / COUNT(*) AS win_rate, SUM(p.score) AS points,
       AVG(p.rank::float8) AS placement, MIN(rt.mu) AS mu, MIN(rt.sigma) AS sigma
FROM played p JOIN latest l ON l.user_id = p.user_id AND l.n = 1
LEFT JOIN ratings rt ON rt.guild_id = $1 AND rt.kind = p.kind AND rt.user_id = p.user_id
GROUP BY p.kind, p.user_id
ORDER BY games DESC, p.kind
"""
)


_MOVE_COLUMNS = (
    "ply, seat, notation, created_at, version, events, ends_turn, undoes, by_ai,"
    " EXISTS (SELECT 1 FROM undone u WHERE u.game_id = m.game_id AND u.ply = m.ply) AS undone"
)

_SEAT_TURNS_SQL = seat_turns_sql("$1")
