"""Persistence: games, seats, the move log, results and meta.

``await open_storage(os.environ["DATABASE_URL"])`` picks and opens the backend; callers only
use the :class:`Storage` protocol and the records/errors from :mod:`.base`.
"""

from __future__ import annotations

import re
from pathlib import Path

from .base import (
    OPEN_STATUSES,
    STATUSES,
    AlreadySeated,
    ChannelBusy,
    GameRecord,
    GameStatus,
    InvalidRequest,
    LeaderRow,
    MigrationError,
    MoveRecord,
    NotActive,
    NotFound,
    NotInLobby,
    NotSeated,
    ResultRow,
    SeatRecord,
    SeatTaken,
    StaleVersion,
    Storage,
    StorageBusy,
    StorageError,
    WrongStatus,
    results_for,
)
from .sqlite import MEMORY, SqliteStorage

DEFAULT_DATABASE_URL = "sqlite:///data/caravanserai.db"

__all__ = [
    "DEFAULT_DATABASE_URL",
    "OPEN_STATUSES",
    "STATUSES",
    "AlreadySeated",
    "ChannelBusy",
    "GameRecord",
    "GameStatus",
    "InvalidRequest",
    "LeaderRow",
    "MigrationError",
    "MoveRecord",
    "NotActive",
    "NotFound",
    "NotInLobby",
    "NotSeated",
    "ResultRow",
    "SeatRecord",
    "SeatTaken",
    "SqliteStorage",
    "StaleVersion",
    "Storage",
    "StorageBusy",
    "StorageError",
    "WrongStatus",
    "open_storage",
    "sqlite_path",
    "results_for",
]

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*)://")


def sqlite_path(database_url: str) -> str:
    """The SQLite file (or ``:memory:``) a URL or bare path names.

    ``sqlite:///rel/x.db`` is relative and ``sqlite:////abs/x.db`` absolute
    (SQLAlchemy's convention); ``sqlite://`` and ``sqlite:///:memory:`` are
    in-memory; anything without a scheme is a plain path.
    """
    url = database_url.strip()
    if not url:
        raise ValueError("DATABASE_URL is empty")
    m = _SCHEME.match(url)
    if m is None:
        return url  # bare path
    scheme = m[1].lower()
    if scheme in ("postgres", "postgresql") or scheme.startswith("postgresql+"):
        raise ValueError("postgresql is not supported yet; use sqlite:///path/to/file.db")
    if scheme != "sqlite":
        raise ValueError(
            f"unsupported DATABASE_URL scheme {scheme!r}; use sqlite:///path/to/file.db"
        )
    rest = url[m.end() :]
    if rest == "":
        return MEMORY
    if not rest.startswith("/"):
        raise ValueError(f"a SQLite URL needs three slashes: sqlite:///{rest}")
    path = rest[1:]
    if "?" in path:
        raise ValueError("SQLite URL query parameters are not supported")
    if not path:
        raise ValueError("a SQLite URL needs a path: sqlite:///path/to/file.db")
    return path


async def open_storage(database_url: str = DEFAULT_DATABASE_URL) -> Storage:
    """Open (and migrate) the storage ``database_url`` names; ``close()`` it when done.

    Creates the database file's parent directory. Raises ValueError for a URL
    it cannot serve, before touching anything.
    """
    path = sqlite_path(database_url)
    if path != MEMORY:
        Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
    storage = SqliteStorage(path)
    await storage.open()
    return storage
