"""Numbered SQL migrations, tracked in ``schema_migrations``: one runner for both databases.

Each database has its folder of ``NNN_name.sql`` files, numbered and named
alike (``migrations/`` for SQLite, ``migrations_pg/`` for PostgreSQL).
:func:`run_migrations` applies the ones a database lacks, each in its own
transaction together with its bookkeeping row, so a crash leaves either all of
it or none; a database newer than the code is refused. What differs is a
:class:`MigrationTarget`: SQLite's is here (:func:`apply_migrations`),
PostgreSQL's in :mod:`.postgres`.

SQLite: statements are executed one by one because ``executescript`` would
COMMIT our open transaction first (Python 3.11). PRAGMAs such as
``foreign_keys`` are no-ops inside a transaction, so migrations must not rely
on them.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from importlib.abc import Traversable
from typing import Any, Protocol

import aiosqlite

from .base import MigrationError

_FILE_RE = re.compile(r"^(\d+)_(\w+)\.sql$")

# The bookkeeping table, the same in both dialects.
SCHEMA_MIGRATIONS = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
)
CURRENT_VERSION = "SELECT COALESCE(MAX(version), 0) FROM schema_migrations"


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(source: Traversable | None = None) -> tuple[Migration, ...]:
    """Read ``NNN_name.sql`` files (default: the bundled package data), numbered 1..n."""
    root = source if source is not None else resources.files("bot.storage.migrations")
    found: list[Migration] = []
    for entry in root.iterdir():
        m = _FILE_RE.match(entry.name)
        if m and entry.is_file():
            found.append(Migration(int(m[1]), m[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda mig: mig.version)
    # Gaps or duplicates mean a botched merge; refuse rather than guess.
    if [mig.version for mig in found] != list(range(1, len(found) + 1)):
        raise MigrationError(f"migrations must be numbered 1..n, got {[m.version for m in found]}")
    return tuple(found)


def split_statements(sql: str) -> list[str]:
    """Split a script on the semicolons that really end statements.

    ``sqlite3.complete_statement`` knows about strings, comments and trigger
    bodies, so ``;`` inside those does not split.
    """
    statements: list[str] = []
    buf = ""
    *pieces, tail = sql.split(";")
    for piece in pieces:
        buf += piece + ";"
        if sqlite3.complete_statement(buf):
            if buf.strip() != ";":
                statements.append(buf.strip())
            buf = ""
    rest = (buf + tail).strip()
    if rest and not _only_comments(rest):
        raise MigrationError(f"unterminated SQL statement: {rest[:60]!r}")
    return statements


def _only_comments(text: str) -> bool:
    without = re.sub(r"--[^\n]*", "", text)
    without = re.sub(r"/\*.*?\*/", "", without, flags=re.S)
    return not without.strip()


def refuse_newer(have: int, migrations: Sequence[Migration]) -> None:
    """A database migrated by newer code is not touched."""
    latest = migrations[-1].version if migrations else 0
    if have > latest:
        raise MigrationError(f"database schema is v{have}, newer than this code (v{latest})")


# --------------------------------------------------------------------------- the runner


class MigrationTarget(Protocol):
    """One connection of a database, as the runner needs it (SQL with ``?``)."""

    # What the driver raises for a statement the database refused: a failed migration.
    failures: tuple[type[BaseException], ...]

    async def current_version(self) -> int:
        """The highest migration applied, once ``schema_migrations`` exists."""
        ...

    async def begin(self) -> None:
        """Open one migration's transaction. Outside the failures: a database busy
        now is tried again later, not a broken migration."""
        ...

    async def lock(self) -> None:
        """Make the transaction the only one migrating, across processes."""
        ...

    async def commit(self) -> None: ...

    async def rollback(self) -> None: ...

    async def fetch_value(self, sql: str, params: Sequence[Any]) -> Any:
        """The first column of the first row, or None."""
        ...

    async def execute(self, sql: str, params: Sequence[Any]) -> None: ...

    async def run_script(self, sql: str) -> None:
        """Every statement of a migration file."""
        ...


async def run_migrations(target: MigrationTarget, migrations: Sequence[Migration]) -> list[int]:
    """Apply the migrations the database lacks; return their versions (empty = no-op)."""
    have = await target.current_version()
    refuse_newer(have, migrations)
    applied: list[int] = []
    for mig in migrations:
        if mig.version <= have:
            continue
        await target.begin()
        try:
            await target.lock()
            # Another process may have applied it since we looked.
            done = await target.fetch_value(
                "SELECT 1 FROM schema_migrations WHERE version = ?", (mig.version,)
            )
            if done is None:
                await target.run_script(mig.sql)
                await target.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (mig.version, mig.name, datetime.now(UTC).isoformat(timespec="seconds")),
                )
            await target.commit()
        except BaseException as exc:
            await target.rollback()
            if isinstance(exc, target.failures):
                raise MigrationError(f"migration {mig.version} ({mig.name}) failed: {exc}") from exc
            raise
        if done is None:
            applied.append(mig.version)
    return applied


# --------------------------------------------------------------------------- SQLite's side


class _SqliteTarget:
    """An aiosqlite connection in autocommit mode (``isolation_level=None``)."""

    failures: tuple[type[BaseException], ...] = (sqlite3.Error,)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def current_version(self) -> int:
        await self._conn.execute(SCHEMA_MIGRATIONS)
        return int(await self.fetch_value(CURRENT_VERSION, ()) or 0)

    async def begin(self) -> None:
        await self._conn.execute("BEGIN IMMEDIATE")  # the write lock, across processes

    async def lock(self) -> None:
        pass  # BEGIN IMMEDIATE holds it already

    async def commit(self) -> None:
        await self._conn.execute("COMMIT")

    async def rollback(self) -> None:
        if self._conn.in_transaction:
            await self._conn.execute("ROLLBACK")

    async def fetch_value(self, sql: str, params: Sequence[Any]) -> Any:
        rows = list(await self._conn.execute_fetchall(sql, params))
        return rows[0][0] if rows else None

    async def execute(self, sql: str, params: Sequence[Any]) -> None:
        await self._conn.execute(sql, params)

    async def run_script(self, sql: str) -> None:
        for statement in split_statements(sql):
            await self._conn.execute(statement)


async def apply_migrations(
    conn: aiosqlite.Connection, migrations: Sequence[Migration]
) -> list[int]:
    """Apply SQLite migrations the database lacks; return their versions (empty = no-op).

    ``conn`` must be in autocommit mode (``isolation_level=None``).
    """
    return await run_migrations(_SqliteTarget(conn), migrations)
