"""SQLite (aiosqlite): WAL, one write connection, a few read connections.

The :class:`~bot.storage.dialect.Dialect` :class:`~bot.storage.sql.SqlStorage`
runs on for :class:`SqliteStorage`, plus what only SQLite has: the start-up
``PRAGMA quick_check`` (:func:`check_integrity`), which the backup command
shares (:func:`quick_check_problem`).

Writes: one connection and one asyncio.Lock around every write transaction.
An aiosqlite connection has a single transaction, so two handlers
interleaving statements on it would share it — one could see (and a
rollback could discard) another's uncommitted writes. Under the lock each
writer gets its own ``BEGIN IMMEDIATE`` … ``COMMIT`` and re-checks the
version inside it, so two movers with the same version can never both land.
Across processes SQLite's file lock does the same job: ``BEGIN IMMEDIATE``
takes the write lock up front, waiting up to ``busy_timeout``. So a write
needs no row locks (``FOR UPDATE``), and endings need no lock to rate one
after the other: they already do.

Reads: a small pool of read-only connections (``PRAGMA query_only``), each
lent to one handler at a time for one deferred ``BEGIN`` … ``COMMIT``, so
reads (autocomplete on every keystroke of every server) never wait for the
write lock, only for a free reader. WAL lets them run beside a writer: a read
transaction sees one consistent snapshot of committed data, never a writer's
uncommitted rows; and as a write returns only after its COMMIT, a read
started after it sees it.

``:memory:`` databases cannot be shared between connections: there every
read takes the write connection and its lock, as writes do.

:meth:`SqliteDialect.open` runs ``PRAGMA quick_check`` before migrating; a
damaged file raises :class:`~bot.storage.base.DatabaseCorrupt`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .base import DatabaseCorrupt, InvalidRequest, StorageBusy, StorageError
from .dialect import Connection, Params
from .migrate import Migration, apply_migrations, load_migrations
from .sql import SqlStorage

MEMORY = ":memory:"


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


class SqliteConnection:
    """A :class:`~bot.storage.dialect.Connection` on an aiosqlite connection.

    One trip to the database thread per statement (``execute_fetchall``, or an
    ``execute`` whose cursor is not closed, which would be another trip): under
    load each trip also waits for the busy event loop, and a write transaction
    holds SQLite's lock all along.
    """

    __slots__ = ("_conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def fetch_all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        return list(await self._conn.execute_fetchall(sql, params))

    async def fetch_one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        return next(iter(await self._conn.execute_fetchall(sql, params)), None)

    async def execute(self, sql: str, params: Params = ()) -> int:
        cursor = await self._conn.execute(sql, params)
        return cursor.rowcount

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self._conn.executemany(sql, rows)


class SqliteDialect:
    """SQLite's connections and transactions (see the module's notes)."""

    for_update = ""  # one writer at a time: what it read stays as it was
    larger = "MAX"  # with two arguments, SQLite's MAX is the larger of them

    def __init__(
        self,
        path: str,
        *,
        migrations: Sequence[Migration] | None = None,
        busy_timeout_ms: int = 5000,
        readers: int = 3,
        check_integrity: bool = True,
    ) -> None:
        if readers < 1:
            raise InvalidRequest("readers must be at least 1")
        self.path = path
        self._migrations = tuple(migrations) if migrations is not None else load_migrations()
        self._busy_timeout_ms = int(busy_timeout_ms)
        self._reader_count = 0 if self.path == MEMORY else int(readers)
        self._check_integrity = check_integrity
        self.conn: aiosqlite.Connection | None = None  # the write connection
        self.lock = asyncio.Lock()
        # Idle read connections; None when closed, and for :memory: (reads use conn).
        self.readers: asyncio.Queue[aiosqlite.Connection] | None = None

    # ------------------------------------------------------------------ lifecycle

    async def open(self) -> None:
        if self.conn is not None:
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
        self.conn = conn
        self.readers = readers if self._reader_count else None

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
        if self.conn is None:
            return
        readers, self.readers = self.readers, None  # reads from now on are refused
        async with self.lock:  # let the running write transaction finish
            conn, self.conn = self.conn, None
            if conn is not None:
                await conn.close()
        if readers is not None:
            for _ in range(self._reader_count):  # each once its running read is done
                reader = await readers.get()
                with contextlib.suppress(Exception):
                    await reader.close()

    # ------------------------------------------------------------------ transactions

    def write(self) -> AbstractAsyncContextManager[Connection]:
        return self._transaction("BEGIN IMMEDIATE")

    def read(self) -> AbstractAsyncContextManager[Connection]:
        # A (deferred) read transaction gives one consistent snapshot across queries.
        readers = self.readers
        if readers is None:  # :memory:, or closed (then _transaction refuses)
            return self._transaction("BEGIN")
        return self._pooled_read(readers)

    @asynccontextmanager
    async def _transaction(self, begin: str) -> AsyncIterator[Connection]:
        """``begin`` … COMMIT on the write connection, under the lock."""
        async with self.lock:
            conn = self.conn  # read under the lock: close() may have run while we waited
            if conn is None:
                raise StorageError("storage is not open")
            async with self._within(conn, begin):
                yield SqliteConnection(conn)

    @asynccontextmanager
    async def _pooled_read(
        self, readers: asyncio.Queue[aiosqlite.Connection]
    ) -> AsyncIterator[Connection]:
        """A read transaction on a read connection lent for its duration."""
        conn = await readers.get()
        try:
            if self.readers is not readers:  # closed while we waited
                raise StorageError("storage is not open")
            async with self._within(conn, "BEGIN"):
                yield SqliteConnection(conn)
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

    # ------------------------------------------------------------------ snippets and locks

    @staticmethod
    def any_of(column: str, values: Sequence[Any], sql_type: str) -> tuple[str, list[Any]]:
        return f"{column} IN ({','.join('?' * len(values))})", list(values)

    async def lock_game_ratings(self, conn: Connection, guild_id: int, kind: str) -> None:
        pass  # the single writer already makes endings one after the other

    async def lock_all_ratings(self, conn: Connection) -> None:
        pass  # nothing writes beside a rebuild


class SqliteStorage(SqlStorage):
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
        self.path = MEMORY if str(path) == MEMORY else str(Path(path).expanduser())
        self._sqlite = SqliteDialect(
            self.path,
            migrations=migrations,
            busy_timeout_ms=busy_timeout_ms,
            readers=readers,
            check_integrity=check_integrity,
        )
        super().__init__(self._sqlite)

    # What only SQLite has, for tests that look at it: the write connection, its
    # lock and the idle read connections.

    @property
    def _conn(self) -> aiosqlite.Connection | None:
        return self._sqlite.conn

    @property
    def _lock(self) -> asyncio.Lock:
        return self._sqlite.lock

    @property
    def _readers(self) -> asyncio.Queue[aiosqlite.Connection] | None:
        return self._sqlite.readers
