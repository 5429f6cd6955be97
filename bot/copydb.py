"""Copy a whole database between backends (``python -m bot copy-db FROM TO``), and
``python -m bot migrate``.

Both databases are opened with :func:`bot.storage.open_storage` first, so both
stand at the same migration. Then every table's rows (``schema_migrations``
aside) are read from one consistent snapshot of FROM with the driver
(aiosqlite or asyncpg) directly and written to TO in one transaction, which
also checks TO holds nothing yet, sets PostgreSQL's ``games.id``/``moves.id``
sequences past the copied ids, reads every row back and :func:`verify`\\ s it:
the same rows in every table, and every game of a known kind replays from its
seed and counting moves to its stored state. Any difference rolls the whole
copy back. Columns are taken from the databases themselves (and must agree),
so a later migration's columns are copied too.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.replay import ReplayError, Row, replay
from bot.storage import (
    StorageError,
    database_kind,
    open_storage,
    postgres_settings,
    redacted_url,
    sqlite_path,
)
from bot.storage.sqlite import MEMORY
from games.contract import GameSpec

# Every table, parents first, with the columns that identify a row. Not `leases`:
# they name running processes, which do not move with the data (copy with the bot
# stopped; the new database's first processes take them afresh).
TABLES: dict[str, tuple[str, ...]] = {
    "games": ("id",),
    "seats": ("game_id", "seat"),
    "moves": ("id",),
    "undone": ("game_id", "ply"),
    "results": ("game_id", "seat"),
    "votes": ("game_id", "question", "user_id"),
    "user_settings": ("user_id",),
    "guild_settings": ("guild_id",),
    "vacations": ("guild_id", "user_id", "starts_at"),
    "ratings": ("guild_id", "kind", "user_id"),
    "meta": ("key",),
}
# Identity columns whose sequence must move past the copied ids (PostgreSQL).
SEQUENCES = (("games", "id"), ("moves", "id"))
BUSY_TIMEOUT_MS = 5000


class CopyRefused(Exception):
    """The copy cannot start (TO is not empty, the schemas differ…); nothing was written."""


class CopyMismatch(Exception):
    """What TO would hold differs from FROM; the copy was rolled back."""


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]  # booleans as 0/1, sorted by the table's key

    def dicts(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


Snapshot = dict[str, Table]


@dataclass(frozen=True)
class CopyReport:
    source: str  # redacted URLs
    target: str
    games: int
    moves: int
    replayed: int
    skipped: int  # games of kinds this bot does not know

    def line(self) -> str:
        skipped = f" ({self.skipped} of unknown kinds skipped)" if self.skipped else ""
        return (
            f"Copied {self.games} games ({self.moves} moves) from {self.source} to"
            f" {self.target}; every count matches and {self.replayed} games replay to"
            f" their stored state{skipped}."
        )


# --------------------------------------------------------------------------- drivers


def _sorted(columns: tuple[str, ...], table: str, rows: list[tuple[Any, ...]]) -> Table:
    at = [columns.index(c) for c in TABLES[table]]
    return Table(columns, sorted(rows, key=lambda r: tuple(r[i] for i in at)))


class _Side:
    """A raw driver connection to one database."""

    name: str

    async def columns(self, table: str) -> dict[str, str]:
        raise NotImplementedError

    async def snapshot(self) -> Snapshot:
        raise NotImplementedError

    async def load(self, data: Snapshot, expected: Snapshot, specs: Mapping[str, GameSpec]) -> int:
        raise NotImplementedError

    async def version(self) -> int:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError


class _Sqlite(_Side):
    def __init__(self, conn: aiosqlite.Connection, name: str) -> None:
        self.conn = conn
        self.name = name

    @classmethod
    async def connect(cls, path: str, name: str) -> _Sqlite:
        conn = await aiosqlite.connect(path, isolation_level=None)
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return cls(conn, name)

    async def _all(self, sql: str) -> list[tuple[Any, ...]]:
        async with self.conn.execute(sql) as cur:
            return [tuple(r) for r in await cur.fetchall()]

    async def columns(self, table: str) -> dict[str, str]:
        return {r[1]: str(r[2]).lower() for r in await self._all(f'PRAGMA table_info("{table}")')}

    async def _read(self) -> Snapshot:
        found: Snapshot = {}
        for table in TABLES:
            columns = tuple(await self.columns(table))
            rows = await self._all(f"SELECT {_names(columns)} FROM {table}")
            found[table] = _sorted(columns, table, rows)
        return found

    async def snapshot(self) -> Snapshot:
        await self.conn.execute("BEGIN")
        try:
            return await self._read()
        finally:
            await self.conn.execute("COMMIT")

    async def load(self, data: Snapshot, expected: Snapshot, specs: Mapping[str, GameSpec]) -> int:
        await self.conn.execute("BEGIN IMMEDIATE")
        try:
            await _refuse_unless_empty(self, self._count)
            for table, content in data.items():
                marks = ", ".join("?" * len(content.columns))
                await self.conn.executemany(
                    f"INSERT INTO {table} ({_names(content.columns)}) VALUES ({marks})",
                    content.rows,
                )
            replayed = verify(expected, await self._read(), specs)
        except BaseException:
            await self.conn.execute("ROLLBACK")
            raise
        await self.conn.execute("COMMIT")
        return replayed

    async def _count(self, table: str) -> int:
        return int((await self._all(f"SELECT COUNT(*) FROM {table}"))[0][0])

    async def version(self) -> int:
        return int(
            (await self._all("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))[0][0]
        )

    async def close(self) -> None:
        await self.conn.close()


class _Postgres(_Side):
    def __init__(self, conn: Any, name: str) -> None:
        self.conn = conn  # asyncpg.Connection
        self.name = name

    @classmethod
    async def connect(cls, url: str, name: str) -> _Postgres:
        import asyncpg

        dsn, _, _ = postgres_settings(url)
        try:
            conn = await asyncpg.connect(dsn)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StorageError(f"cannot connect to PostgreSQL: {exc}") from exc
        return cls(conn, name)

    async def columns(self, table: str) -> dict[str, str]:
        rows = await self.conn.fetch(
            "SELECT column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = $1"
            " ORDER BY ordinal_position",
            table,
        )
        return {str(r[0]): str(r[1]) for r in rows}

    async def _read(self) -> Snapshot:
        found: Snapshot = {}
        for table in TABLES:
            columns = tuple(await self.columns(table))
            rows = await self.conn.fetch(f"SELECT {_names(columns)} FROM {table}")
            plain = [tuple(int(v) if isinstance(v, bool) else v for v in r) for r in rows]
            found[table] = _sorted(columns, table, plain)
        return found

    async def snapshot(self) -> Snapshot:
        async with self.conn.transaction(isolation="repeatable_read", readonly=True):
            return await self._read()

    async def load(self, data: Snapshot, expected: Snapshot, specs: Mapping[str, GameSpec]) -> int:
        async with self.conn.transaction():
            await _refuse_unless_empty(self, self._count)
            for table, content in data.items():
                types = await self.columns(table)
                convert = [_PG_TYPES.get(types[c], _same) for c in content.columns]
                records = [
                    tuple(None if v is None else f(v) for f, v in zip(convert, row, strict=True))
                    for row in content.rows
                ]
                await self.conn.copy_records_to_table(
                    table, records=records, columns=list(content.columns)
                )
            for table, column in SEQUENCES:
                await self.conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                    f" COALESCE(MAX({column}), 0) + 1, false) FROM {table}"
                )
            return verify(expected, await self._read(), specs)

    async def _count(self, table: str) -> int:
        return int(await self.conn.fetchval(f"SELECT COUNT(*) FROM {table}"))

    async def version(self) -> int:
        return int(
            await self.conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        )

    async def close(self) -> None:
        await self.conn.close()


def _same(value: Any) -> Any:
    return value


_PG_TYPES: dict[str, Any] = {
    "boolean": bool,
    "bigint": int,
    "integer": int,
    "smallint": int,
    "double precision": float,
    "real": float,
    "text": str,
}


def _names(columns: tuple[str, ...]) -> str:
    return ", ".join(f'"{c}"' for c in columns)


async def _refuse_unless_empty(side: _Side, count: Any) -> None:
    for table in TABLES:
        n = await count(table)
        if n:
            raise CopyRefused(
                f"{side.name} is not empty ({table} holds {n} rows); copy into a new database"
            )


async def _connect(url: str, *, must_exist: bool = False) -> _Side:
    """Open (and migrate) the database ``url`` names, then a raw connection to it.

    ValueError for a URL that names none; :class:`CopyRefused` for an in-memory
    database, or (``must_exist``) a SQLite file that is not there.
    """
    name = redacted_url(url)
    if database_kind(url) == "sqlite":
        path = sqlite_path(url)
        if path == MEMORY:
            raise CopyRefused(f"{name} is an in-memory database: name a file")
        if must_exist and not os.path.isfile(os.path.expanduser(path)):
            raise CopyRefused(f"there is no database at {os.path.abspath(path)}")
    storage = await open_storage(url)
    await storage.close()
    if database_kind(url) == "postgresql":
        return await _Postgres.connect(url, name)
    try:
        return await _Sqlite.connect(sqlite_path(url), name)
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open {name}: {exc}") from exc


# --------------------------------------------------------------------------- commands


async def migrate_database(url: str) -> int:
    """Open (so migrate) the database ``url`` names; the highest migration applied."""
    side = await _connect(url)
    try:
        return await side.version()
    finally:
        await side.close()


async def copy_database(
    from_url: str, to_url: str, specs: Mapping[str, GameSpec] | None = None
) -> CopyReport:
    """Copy every row of FROM into the empty TO, verified, in one transaction on TO."""
    if specs is None:
        from bot import registry

        specs = registry.specs()
    database_kind(from_url)  # a bad URL is refused before anything is opened
    database_kind(to_url)
    source = await _connect(from_url, must_exist=True)
    try:
        target = await _connect(to_url)
        try:
            for table in TABLES:
                have, want = await source.columns(table), await target.columns(table)
                if set(have) != set(want):
                    raise CopyRefused(
                        f"table {table} has other columns in {target.name}"
                        f" ({sorted(set(have) ^ set(want))})"
                    )
            data = await source.snapshot()
            try:
                replayed = await target.load(data, data, specs)
            except sqlite3.Error as exc:
                raise StorageError(f"cannot write {target.name}: {exc}") from exc
        finally:
            await target.close()
    finally:
        await source.close()
    games = data["games"].dicts()
    return CopyReport(
        source=source.name,
        target=target.name,
        games=len(games),
        moves=len(data["moves"].rows),
        replayed=replayed,
        skipped=sum(1 for g in games if g["state"] is not None and g["kind"] not in specs),
    )


def verify(expected: Snapshot, copied: Snapshot, specs: Mapping[str, GameSpec]) -> int:
    """Check ``copied`` holds exactly ``expected``'s rows, and that every game of a known
    kind with a state replays to it; how many did. :class:`CopyMismatch` names the first
    difference."""
    for table in TABLES:
        want, got = expected[table], copied[table]
        if len(want.rows) != len(got.rows):
            raise CopyMismatch(
                f"table {table}: {len(want.rows)} rows to copy, {len(got.rows)} copied"
            )
        rows = [dict(zip(got.columns, r, strict=True)) for r in got.rows]
        for before, after in zip(want.dicts(), rows, strict=True):
            if before != after:
                key = ", ".join(f"{c}={before[c]!r}" for c in TABLES[table])
                raise CopyMismatch(f"table {table}: the row {key} differs after the copy")
    return _replay_games(copied, specs)


def _replay_games(data: Snapshot, specs: Mapping[str, GameSpec]) -> int:
    seats: dict[int, int] = {}
    for seat in data["seats"].dicts():
        seats[seat["game_id"]] = seats.get(seat["game_id"], 0) + 1
    undone = {(u["game_id"], u["ply"]) for u in data["undone"].dicts()}
    moves: dict[int, list[dict[str, Any]]] = {}
    for move in data["moves"].dicts():
        if move["undoes"] is None and (move["game_id"], move["ply"]) not in undone:
            moves.setdefault(move["game_id"], []).append(move)
    replayed = 0
    for game in data["games"].dicts():
        spec = specs.get(game["kind"])
        if game["state"] is None or spec is None:
            continue
        rows = [Row(m["seat"], m["notation"]) for m in sorted(moves.get(game["id"], []), key=_ply)]
        engine = spec.engine
        try:
            states = replay(
                engine, seats.get(game["id"], 0), game["seed"], json.loads(game["options"]), rows
            )
        except ReplayError as exc:
            raise CopyMismatch(f"game {game['id']} ({game['kind']}): {exc}") from exc
        except Exception as exc:  # e.g. options the engine no longer takes
            raise CopyMismatch(
                f"game {game['id']} ({game['kind']}) does not replay: {exc}"
            ) from exc
        if engine.dump(states[-1]) != json.loads(game["state"]):
            raise CopyMismatch(
                f"game {game['id']} ({game['kind']}) does not replay to its stored state"
            )
        replayed += 1
    return replayed


def _ply(move: Mapping[str, Any]) -> int:
    return int(move["ply"])
