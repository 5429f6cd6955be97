"""The boundary between the one SQL implementation and a database driver.

:class:`~bot.storage.sql.SqlStorage` holds every method of the storage and all
its SQL, written once with ``?`` placeholders in the SQL both SQLite and
PostgreSQL understand. A :class:`Dialect` keeps only what truly differs:

- connections and transactions: SQLite's single writer and its read
  connections, PostgreSQL's pool; what a write or a read transaction is, and
  which driver errors mean "busy" or "unavailable";
- running the SQL: a :class:`Connection` per transaction, translating the
  placeholders where the driver wants others (``$1`` for asyncpg) and giving
  back rows read by column name, and the rows a statement touched;
- the few snippets whose spelling differs (:attr:`Dialect.for_update`,
  :attr:`Dialect.larger`, :meth:`Dialect.any_of`) and the locks a single
  writer does not need (:meth:`Dialect.lock_game_ratings`,
  :meth:`Dialect.lock_all_ratings`).

Values are bound as Python values: booleans as ``bool`` (SQLite stores 1/0,
PostgreSQL its BOOLEAN), timestamps and JSON as the text :mod:`.common`
makes, so both databases hold the same strings.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

Params = Sequence[Any]


class Row(Protocol):
    """A result row (``sqlite3.Row``, ``asyncpg.Record``): columns read by name."""

    def __getitem__(self, key: str, /) -> Any: ...


class Connection(Protocol):
    """One transaction's connection. SQL uses ``?`` placeholders, bound in order."""

    async def fetch_all(self, sql: str, params: Params = ()) -> Sequence[Row]: ...

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None: ...

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; how many rows it inserted, updated or deleted."""
        ...

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None: ...


class Dialect(Protocol):
    """What :class:`~bot.storage.sql.SqlStorage` needs from one kind of database."""

    # Appended to a SELECT inside a write to lock the rows it reads until COMMIT
    # (PostgreSQL: " FOR UPDATE"); empty where the writer is alone anyway.
    for_update: str
    # The SQL function giving the larger of two values (SQLite's two-argument
    # MAX, PostgreSQL's GREATEST).
    larger: str

    async def open(self) -> None:
        """Connect and migrate; nothing to do if open already."""
        ...

    async def close(self) -> None:
        """Refuse new transactions, let the running ones finish, disconnect."""
        ...

    def write(self) -> AbstractAsyncContextManager[Connection]:
        """A write transaction, committed when the block ends, rolled back if it raises.

        Raises StorageBusy/StorageUnavailable when the database cannot answer,
        StorageError("storage is not open") when closed."""
        ...

    def read(self) -> AbstractAsyncContextManager[Connection]:
        """A read-only transaction: one consistent snapshot of committed data."""
        ...

    def any_of(self, column: str, values: Sequence[Any], sql_type: str) -> tuple[str, list[Any]]:
        """A condition "``column`` is one of ``values``" and the values it binds.

        ``sql_type`` names the values' SQL type (``bigint``, ``text``) for
        drivers that bind a list as one array."""
        ...

    async def lock_game_ratings(self, conn: Connection, guild_id: int, kind: str) -> None:
        """Inside a write that ends a game with results, before ``finished_at`` is
        stamped: make games of one server and kind ending at once rate one after
        the other, in ``finished_at`` order (the order a rebuild refolds them)."""
        ...

    async def lock_all_ratings(self, conn: Connection) -> None:
        """Inside a ratings rebuild: games ending meanwhile wait for it."""
        ...
