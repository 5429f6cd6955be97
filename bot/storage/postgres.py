"""PostgreSQL (asyncpg): a connection pool, row locks, advisory locks.

Selected by ``DATABASE_URL=postgresql://user:pass@host/db`` (``?pool=N`` sets
the pool's size, 10 by default). :class:`PostgresStorage` is
:class:`~bot.storage.sql.SqlStorage`, the same SQL as SQLite's, on the
:class:`~bot.storage.dialect.Dialect` here, so both backends give the same
records, errors, orderings and stored strings: timestamps are the same
ISO-8601 UTC text (``COLLATE "C"``, compared byte by byte as in SQLite), JSON
the same text.

Writes: each write borrows a pooled connection for one READ COMMITTED
transaction. Every versioned write first locks the game's row
(``SELECT … FOR UPDATE``, :attr:`PostgresDialect.for_update`) and checks the
version, then the status, as on SQLite under its single writer, so two movers
with the same version — in one process or in several — can never both land:
the second waits for the first's COMMIT, then sees the new version and gets
:class:`~bot.storage.base.StaleVersion`. Claims and leases are single
statements (a racer waits for the row the winner wrote, re-checks its WHERE on
it and matches nothing). Ending a game with results takes a transaction-scoped
advisory lock per (server, game kind) before it stamps ``finished_at`` and
locks the rating rows it rewrites: two games ending at once for the same
players rate one after the other, in the order of their ``finished_at``,
exactly as ``rebuild_ratings`` refolds them.

A server that cannot answer (restarting, unreachable, out of connections, a
connection it ended) raises :class:`~bot.storage.base.StorageUnavailable`,
which background jobs retry.

Reads: a REPEATABLE READ, read-only transaction on a pooled connection: one
consistent snapshot across the few queries of a read, never another
transaction's uncommitted rows.

The SQL is written with ``?``; :func:`numbered` turns it into asyncpg's
``$1, $2, …`` (once per statement text).

Migrations: ``migrations_pg/NNN_name.sql``, numbered like SQLite's, run by
:func:`~bot.storage.migrate.run_migrations`, each in its own transaction
with its ``schema_migrations`` row, under ``pg_advisory_xact_lock`` so two
processes starting at once migrate once. ``moves`` refuses UPDATE, DELETE and
TRUNCATE with PL/pgSQL triggers there.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from importlib import resources
from typing import Any

import asyncpg

from .base import InvalidRequest, StorageBusy, StorageError, StorageUnavailable
from .dialect import Connection, Params, Row
from .migrate import CURRENT_VERSION, SCHEMA_MIGRATIONS, Migration, load_migrations, run_migrations
from .sql import SqlStorage

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

# A string literal, a quoted name or a comment (kept as they are), or a placeholder.
_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|\?")


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered ``$1, $2, …`` in order, as
    asyncpg binds them; a ``?`` inside quotes or a comment stays."""
    count = 0

    def number(m: re.Match[str]) -> str:
        nonlocal count
        if m[0] != "?":
            return m[0]
        count += 1
        return f"${count}"

    return _TOKEN.sub(number, sql)


def rows_touched(status: str) -> int:
    """Rows an INSERT/UPDATE/DELETE touched, from its command tag ("UPDATE 1")."""
    try:
        return int(status.rsplit(" ", 1)[-1])
    except ValueError:
        return 0


class PgConnection:
    """A :class:`~bot.storage.dialect.Connection` on an asyncpg connection."""

    __slots__ = ("_conn",)

    def __init__(self, conn: _Conn) -> None:
        self._conn = conn

    async def fetch_all(self, sql: str, params: Params = ()) -> Sequence[Row]:
        rows: Sequence[Row] = await self._conn.fetch(numbered(sql), *params)
        return rows

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        row: Row | None = await self._conn.fetchrow(numbered(sql), *params)
        return row

    async def execute(self, sql: str, params: Params = ()) -> int:
        return rows_touched(await self._conn.execute(numbered(sql), *params))

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self._conn.executemany(numbered(sql), rows)


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


class PostgresDialect:
    """PostgreSQL's pool and transactions (see the module's notes)."""

    for_update = " FOR UPDATE"
    larger = "GREATEST"

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

    # ------------------------------------------------------------------ transactions

    def write(self) -> AbstractAsyncContextManager[Connection]:
        return self._transaction()

    def read(self) -> AbstractAsyncContextManager[Connection]:
        return self._transaction(isolation="repeatable_read", readonly=True)

    @asynccontextmanager
    async def _transaction(self, **options: Any) -> AsyncIterator[Connection]:
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
                    yield PgConnection(conn)
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

    # ------------------------------------------------------------------ snippets and locks

    @staticmethod
    def any_of(column: str, values: Sequence[Any], sql_type: str) -> tuple[str, list[Any]]:
        # One array parameter: the same statement text (one prepared statement)
        # whatever the number of values.
        return f"{column} = ANY(?::{sql_type}[])", [list(values)]

    async def lock_game_ratings(self, conn: Connection, guild_id: int, kind: str) -> None:
        # An advisory lock also covers rating rows that do not exist yet (FOR
        # UPDATE cannot), and is taken before finished_at is stamped.
        await conn.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (f"ratings:{guild_id}:{kind}",)
        )

    async def lock_all_ratings(self, conn: Connection) -> None:
        # Games ending meanwhile wait (their rating reads lock rows of this
        # table) and are then folded in on top of the rebuilt ratings.
        await conn.execute("LOCK TABLE ratings IN EXCLUSIVE MODE")


class PostgresStorage(SqlStorage):
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
        dialect = PostgresDialect(dsn, min_size=min_size, max_size=max_size, migrations=migrations)
        super().__init__(dialect)
        self.min_size = min_size
        self.max_size = max_size


# --------------------------------------------------------------------------- migrations


def load_pg_migrations() -> tuple[Migration, ...]:
    """The bundled ``migrations_pg/NNN_name.sql`` files, numbered 1..n."""
    return load_migrations(resources.files("bot.storage") / "migrations_pg")


class _PgTarget:
    """The runner's view of one asyncpg connection; every step under the advisory lock."""

    failures: tuple[type[BaseException], ...] = (asyncpg.PostgresError,)

    def __init__(self, conn: _Conn) -> None:
        self._conn = conn
        self._transaction: Any = None  # the migration's, until committed or rolled back

    async def current_version(self) -> int:
        async with self._conn.transaction():
            await self.lock()
            await self._conn.execute(SCHEMA_MIGRATIONS)
            return int(await self._conn.fetchval(CURRENT_VERSION))

    async def begin(self) -> None:
        self._transaction = self._conn.transaction()
        await self._transaction.start()

    async def lock(self) -> None:
        await self._conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)

    async def commit(self) -> None:
        # A COMMIT that fails ends the transaction too: nothing left to roll back.
        transaction, self._transaction = self._transaction, None
        await transaction.commit()

    async def rollback(self) -> None:
        transaction, self._transaction = self._transaction, None
        if transaction is not None:
            await transaction.rollback()

    async def fetch_value(self, sql: str, params: Sequence[Any]) -> Any:
        return await self._conn.fetchval(numbered(sql), *params)

    async def execute(self, sql: str, params: Sequence[Any]) -> None:
        await self._conn.execute(numbered(sql), *params)

    async def run_script(self, sql: str) -> None:
        await self._conn.execute(sql)  # simple protocol: the whole file at once


async def apply_pg_migrations(conn: _Conn, migrations: Sequence[Migration]) -> list[int]:
    """Apply the PostgreSQL migrations the database lacks; return their versions.

    Each runs in its own transaction with its bookkeeping row, under an advisory
    lock: a second process waits, then finds it applied and skips it.
    """
    return await run_migrations(_PgTarget(conn), migrations)
