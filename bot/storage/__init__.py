"""Persistence: games, seats, the move log, results and meta.

``await open_storage(os.environ["DATABASE_URL"])`` picks and opens the backend; callers only
use the :class:`Storage` protocol and the records/errors from :mod:`.base`.

Backends, by the URL's scheme:

- ``sqlite:///relative.db``, ``sqlite:////absolute.db``, ``sqlite://`` (memory) or a bare
  path: :class:`SqliteStorage` (:mod:`.sqlite`), the default.
- ``postgresql://user:pass@host:port/db`` (or ``postgres://``):
  :class:`~bot.storage.postgres.PostgresStorage` (:mod:`.postgres`), with a pool of
  ``?pool=N`` connections (10 by default; ``pool_min=N`` keeps N open, 1 by default).
  Other query parameters go to asyncpg (``sslmode``, ``host`` for a socket folder…).

Both are :class:`~bot.storage.sql.SqlStorage`, every method and its SQL written
once (:mod:`.sql`, :mod:`.queries`, :mod:`.common`), on a
:class:`~bot.storage.dialect.Dialect` that keeps only what differs between the two
databases: connections, transactions, placeholders, a few snippets and locks.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from .base import (
    OPEN_STATUSES,
    STATUSES,
    AlreadySeated,
    ChannelBusy,
    DatabaseCorrupt,
    GameRecord,
    GameStatus,
    GuildSettings,
    InvalidRequest,
    LeaderRow,
    MigrationError,
    MoveRecord,
    NotActive,
    NotFound,
    NotInLobby,
    NotSeated,
    PlayedGame,
    RatingRow,
    ReplyHook,
    ResultRow,
    SeatRecord,
    SeatTaken,
    Shards,
    StaleVersion,
    Storage,
    StorageBusy,
    StorageError,
    StorageUnavailable,
    Unannounced,
    UserSettings,
    Vacation,
    WrongStatus,
    results_for,
)
from .common import ANNOUNCE_GRACE
from .sqlite import MEMORY, SqliteStorage, check_integrity

DEFAULT_DATABASE_URL = "sqlite:///data/caravanserai.db"

__all__ = [
    "ANNOUNCE_GRACE",
    "DEFAULT_DATABASE_URL",
    "OPEN_STATUSES",
    "STATUSES",
    "AlreadySeated",
    "ChannelBusy",
    "DatabaseCorrupt",
    "GameRecord",
    "GameStatus",
    "GuildSettings",
    "InvalidRequest",
    "LeaderRow",
    "MigrationError",
    "MoveRecord",
    "NotActive",
    "NotFound",
    "NotInLobby",
    "NotSeated",
    "PlayedGame",
    "RatingRow",
    "ReplyHook",
    "ResultRow",
    "SeatRecord",
    "SeatTaken",
    "Shards",
    "SqliteStorage",
    "StaleVersion",
    "Storage",
    "StorageBusy",
    "StorageError",
    "StorageUnavailable",
    "Unannounced",
    "UserSettings",
    "Vacation",
    "WrongStatus",
    "check_database_url",
    "check_integrity",
    "database_kind",
    "open_storage",
    "postgres_settings",
    "redacted_url",
    "sqlite_path",
    "results_for",
]

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*)://")
_POSTGRES_SCHEMES = ("postgres", "postgresql")


def database_kind(database_url: str) -> Literal["sqlite", "postgresql"]:
    """Which backend ``database_url`` names; ValueError (never echoing the URL) if none."""
    m = _SCHEME.match(database_url.strip())
    if m is not None and m[1].lower() in _POSTGRES_SCHEMES:
        postgres_settings(database_url)  # checks the pool parameters
        return "postgresql"
    sqlite_path(database_url)
    return "sqlite"


def postgres_settings(database_url: str) -> tuple[str, int, int]:
    """``(dsn for asyncpg, pool min_size, pool max_size)`` of a ``postgresql://`` URL.

    ``pool`` (max, default 10) and ``pool_min`` (default 1, at most ``pool``) are
    ours and removed from the DSN; every other part goes to asyncpg as it is.
    """
    parts = urlsplit(database_url.strip())
    if parts.scheme.lower() not in _POSTGRES_SCHEMES:
        raise ValueError("not a postgresql:// URL")
    query = parse_qsl(parts.query, keep_blank_values=True)
    ours = {k: v for k, v in query if k in ("pool", "pool_min")}
    rest = [(k, v) for k, v in query if k not in ("pool", "pool_min")]
    try:
        max_size = int(ours.get("pool", "10"))
        min_size = int(ours.get("pool_min", "1"))
    except ValueError:
        raise ValueError("pool and pool_min must be whole numbers, e.g. ?pool=10") from None
    if max_size < 1 or not 0 <= min_size <= max_size:
        raise ValueError("the pool needs pool >= 1 and 0 <= pool_min <= pool")
    dsn = urlunsplit(("postgresql", parts.netloc, parts.path, urlencode(rest), parts.fragment))
    return dsn, min(min_size, max_size), max_size


def redacted_url(database_url: str) -> str:
    """A ``postgresql://`` URL with its password replaced by ``***``, safe to log."""
    parts = urlsplit(database_url.strip())
    if parts.password is None:
        return database_url.strip()
    user = quote(parts.username or "", safe="")
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def sqlite_path(database_url: str) -> str:
    """The SQLite file (or ``:memory:``) a URL or bare path names.

    ``sqlite:///rel/x.db`` is relative and ``sqlite:////abs/x.db`` absolute
    (SQLAlchemy's convention); ``sqlite://`` and ``sqlite:///:memory:`` are
    in-memory; anything without a scheme is a plain path. The ValueError's
    message never repeats the URL (it may hold a password).
    """
    url = database_url.strip()
    if not url:
        raise ValueError("empty; use sqlite:///path/to/file.db")
    m = _SCHEME.match(url)
    if m is None:
        return url  # bare path
    scheme = m[1].lower()
    if scheme in _POSTGRES_SCHEMES or scheme.startswith("postgresql+"):
        # Not a SQLite file: open_storage and the configuration ask database_kind
        # first; what works on SQLite files only (backups) refuses it with this.
        raise ValueError(
            "this is a PostgreSQL database, not an SQLite file (back it up with pg_dump)"
        )
    if scheme != "sqlite":
        raise ValueError(f"unsupported scheme {scheme!r}; use sqlite:///path/to/file.db")
    rest = url[m.end() :]
    if rest == "":
        return MEMORY
    if not rest.startswith("/"):
        raise ValueError(f"a SQLite URL needs three slashes: sqlite:///{rest}")
    path = rest[1:]
    if "?" in path:
        raise ValueError("SQLite URL query parameters are not supported")
    if not path:
        raise ValueError("the SQLite URL has no file name; use sqlite:///path/to/file.db")
    return path


_SQLITE_HEADER = b"SQLite format 3\x00"


def check_database_url(database_url: str) -> str:
    """The absolute path of ``sqlite_path(database_url)``, once sure the bot can write it.

    A ``postgresql://`` URL is checked for form only (the server is reached when
    the storage opens) and comes back with its password hidden, fit for a log.

    Tries for real rather than guessing from permission bits: creates the
    missing folders and the file (or opens an existing one for writing) and
    a scratch file beside it (SQLite keeps ``-wal`` and ``-shm`` files
    there), then removes all it created. Raises ValueError with one line
    naming the file or folder at fault.
    """
    if database_kind(database_url) == "postgresql":
        return redacted_url(database_url)
    path = sqlite_path(database_url)
    if path == MEMORY:
        return path
    target = Path(os.path.abspath(Path(path).expanduser()))
    created: list[Path] = []
    try:
        if target.is_dir():
            example = target / "caravanserai.db"
            raise ValueError(f"{target} is a folder; name a file, e.g. {example}")
        _make_folders(target, created)
        if target.exists():
            _check_existing(target)
        else:
            try:
                os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            except OSError as exc:
                raise ValueError(f"cannot create {target}: {_reason(exc)}") from exc
            created.append(target)
    except OSError as exc:  # e.g. a folder on the way that may not be looked into
        raise ValueError(f"cannot use {target}: {_reason(exc)}") from exc
    finally:
        for made in reversed(created):  # the file first, then the folders, deepest first
            with contextlib.suppress(OSError):
                if made == target:
                    made.unlink()
                else:
                    made.rmdir()
    return str(target)


def _make_folders(target: Path, created: list[Path]) -> None:
    missing: list[Path] = []
    folder = target.parent
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    if not folder.is_dir():
        raise ValueError(f"cannot create {target}: {folder} is a file, not a folder")
    for new in reversed(missing):
        try:
            new.mkdir()
        except OSError as exc:
            reason = _reason(exc)
            raise ValueError(f"cannot create the folder {new} for {target}: {reason}") from exc
        created.append(new)


def _check_existing(target: Path) -> None:
    try:
        with target.open("r+b") as file:
            header = file.read(len(_SQLITE_HEADER))
    except OSError as exc:
        raise ValueError(f"cannot write {target}: {_reason(exc)}") from exc
    if header and header != _SQLITE_HEADER:
        raise ValueError(f"{target} is not a SQLite database")
    try:
        fd, scratch = tempfile.mkstemp(prefix=f".{target.name}-", dir=target.parent)
    except OSError as exc:
        raise ValueError(
            f"cannot write in {target.parent}, where SQLite keeps {target.name}-wal"
            f" and {target.name}-shm: {_reason(exc)}"
        ) from exc
    os.close(fd)
    os.unlink(scratch)


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


async def open_storage(database_url: str = DEFAULT_DATABASE_URL) -> Storage:
    """Open (and migrate) the storage ``database_url`` names; ``close()`` it when done.

    SQLite: creates the database file's parent directory. PostgreSQL: connects a
    pool (``?pool=N``, default 10) and applies the PostgreSQL migrations. Raises
    ValueError for a URL it cannot serve, before touching anything
    (:func:`check_database_url` also checks a SQLite file can be written).
    """
    if database_kind(database_url) == "postgresql":
        from .postgres import PostgresStorage  # asyncpg is loaded only when used

        dsn, min_size, max_size = postgres_settings(database_url)
        pg = PostgresStorage(dsn, min_size=min_size, max_size=max_size)
        await pg.open()
        return pg
    path = sqlite_path(database_url)
    if path != MEMORY:
        Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
    storage = SqliteStorage(path)
    await storage.open()
    return storage
