"""Numbered SQL migrations for SQLite, tracked in ``schema_migrations``.

Each ``NNN_name.sql`` file runs in its own ``BEGIN IMMEDIATE`` transaction
together with its bookkeeping row, so a crash leaves either all of it or none.
Statements are executed one by one because ``executescript`` would COMMIT
our open transaction first (Python 3.11). PRAGMAs such as ``foreign_keys``
are no-ops inside a transaction, so migrations must not rely on them.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from importlib.abc import Traversable

import aiosqlite

from .base import MigrationError

_FILE_RE = re.compile(r"^(\d+)_(\w+)\.sql$")


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


async def current_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row is not None else 0


# The bookkeeping table, the same in both dialects.
SCHEMA_MIGRATIONS = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
)


def refuse_newer(have: int, migrations: Sequence[Migration]) -> None:
    """A database migrated by newer code is not touched."""
    latest = migrations[-1].version if migrations else 0
    if have > latest:
        raise MigrationError(f"database schema is v{have}, newer than this code (v{latest})")


async def apply_migrations(
    conn: aiosqlite.Connection, migrations: Sequence[Migration]
) -> list[int]:
    """Apply the migrations the database lacks; return their versions (empty = no-op).

    ``conn`` must be in autocommit mode (``isolation_level=None``).
    """
    await conn.execute(SCHEMA_MIGRATIONS)
    have = await current_version(conn)
    refuse_newer(have, migrations)
    applied: list[int] = []
    for mig in migrations:
        if mig.version <= have:
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have applied it since we looked.
            async with conn.execute(
                "SELECT 1 FROM schema_migrations WHERE version = ?", (mig.version,)
            ) as cur:
                done = await cur.fetchone() is not None
            if not done:
                for stmt in split_statements(mig.sql):
                    await conn.execute(stmt)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (mig.version, mig.name, datetime.now(UTC).isoformat(timespec="seconds")),
                )
            await conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise MigrationError(f"migration {mig.version} ({mig.name}) failed: {exc}") from exc
            raise
        if not done:
            applied.append(mig.version)
    return applied
