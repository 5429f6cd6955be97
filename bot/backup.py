"""``python -m bot backup PATH [--force]``: a consistent copy of the database.

The copy is made with SQLite's online backup API, in one step under one read
transaction, so it is a snapshot of committed data even while the bot runs
and writes (WAL lets the bot's writers carry on meanwhile). It is written to
a temporary file beside ``PATH``, switched out of WAL mode (one
self-contained file), checked with ``PRAGMA quick_check``, flushed to disk,
and only then given its name: an interrupted or failed backup leaves no
``PATH`` behind, and never a half-written one.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bot.storage.sqlite import MEMORY, quick_check_problem

BUSY_TIMEOUT_MS = 10_000


class BackupError(Exception):
    """The backup cannot be made; the message is one line saying why."""


@dataclass(frozen=True, slots=True)
class Backup:
    source: Path
    target: Path
    size: int  # bytes


def backup_database(
    source: str | os.PathLike[str], target: str | os.PathLike[str], *, force: bool = False
) -> Backup:
    """Copy the SQLite database ``source`` to ``target``; refuses to overwrite unless ``force``."""
    if str(source) == MEMORY:
        raise BackupError(
            "DATABASE_URL keeps games in memory (sqlite://): there is no file to back up"
        )
    src = Path(os.path.abspath(Path(source).expanduser()))
    dst = Path(os.path.abspath(Path(target).expanduser()))
    if not src.is_file():
        raise BackupError(f"there is no database at {src} (DATABASE_URL) to back up")
    if dst.is_dir():
        raise BackupError(f"{dst} is a folder; name the backup file, e.g. {dst / src.name}")
    if dst.exists() or dst.is_symlink():
        if _same_file(src, dst):
            raise BackupError(f"{dst} is the database itself; name another file")
        if not force:
            raise BackupError(f"{dst} already exists; add --force to overwrite it")
    if not dst.parent.is_dir():
        raise BackupError(f"cannot write {dst}: the folder {dst.parent} does not exist")

    try:
        fd, name = tempfile.mkstemp(prefix=f".{dst.name}-", suffix=".tmp", dir=dst.parent)
    except OSError as exc:
        raise BackupError(f"cannot write in {dst.parent}: {_reason(exc)}") from exc
    os.close(fd)
    scratch = Path(name)
    try:
        os.chmod(scratch, stat.S_IMODE(src.stat().st_mode))  # mkstemp made it 0600
        _copy(src, scratch)
        _fsync(scratch)
        _put_in_place(scratch, dst, force)
        _fsync(dst.parent)
        return Backup(src, dst, dst.stat().st_size)
    except OSError as exc:
        raise BackupError(f"cannot write {dst}: {_reason(exc)}") from exc
    finally:
        for leftover in (scratch, *_sidecars(scratch)):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()


def _copy(src: Path, scratch: Path) -> None:
    try:
        source = _connect_source(src)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot open the database {src}: {exc}") from exc
    try:
        copy = sqlite3.connect(scratch, isolation_level=None)
        try:
            source.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            source.backup(copy)  # pages=-1: the whole database in one step, one snapshot
            # A single self-contained file: restoring it needs no -wal beside it.
            copy.execute("PRAGMA journal_mode = DELETE")
            problem = quick_check_problem(copy.execute("PRAGMA quick_check").fetchall())
        finally:
            copy.close()
    except sqlite3.Error as exc:
        if getattr(exc, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_CORRUPT:
            raise BackupError(_damaged(src, str(exc))) from exc
        raise BackupError(f"cannot back up {src}: {exc}") from exc
    finally:
        source.close()
    if problem is not None:  # the copy is page for page the database: so is it
        raise BackupError(_damaged(src, problem))


def _damaged(src: Path, detail: str) -> str:
    return (
        f"cannot back up {src}: it is damaged ({detail}); keep your older backups"
        ' and restore the latest (README.md, "Backups")'
    )


def _connect_source(src: Path) -> sqlite3.Connection:
    """Read-write, like the bot (so WAL works and no stray files stay), else read-only.

    ``mode=rw`` never creates the file; a reader without write permission
    falls back to ``mode=ro``. The backup itself only reads.
    """
    uri = src.as_uri()
    try:
        return sqlite3.connect(f"{uri}?mode=rw", uri=True, isolation_level=None)
    except sqlite3.OperationalError:
        return sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None)


def _put_in_place(scratch: Path, dst: Path, force: bool) -> None:
    if force:
        os.replace(scratch, dst)
        return
    try:
        os.link(scratch, dst)  # atomic, and refuses to overwrite a file made meanwhile
    except FileExistsError as exc:
        raise BackupError(f"{dst} already exists; add --force to overwrite it") from exc
    except OSError:  # no hard links on this file system
        if dst.exists():
            raise BackupError(f"{dst} already exists; add --force to overwrite it") from None
        os.replace(scratch, dst)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _sidecars(path: Path) -> tuple[Path, ...]:
    return tuple(path.with_name(path.name + suffix) for suffix in ("-journal", "-wal", "-shm"))


def _fsync(path: Path) -> None:
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) if path.is_dir() else os.O_RDONLY
    try:
        fd = os.open(path, flags)
    except OSError:
        if path.is_dir():
            return  # some systems cannot open folders; the file itself was synced
        raise
    try:
        os.fsync(fd)
    except OSError:
        if not path.is_dir():
            raise
    finally:
        os.close(fd)


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def human_size(size: int) -> str:
    """``"1.1 MiB (1183744 bytes)"``; small sizes in bytes only."""
    if size < 1024:
        return f"{size} bytes"
    value, unit = size / 1024, "KiB"
    for bigger in ("MiB", "GiB", "TiB"):
        if value < 1024:
            break
        value, unit = value / 1024, bigger
    return f"{value:.1f} {unit} ({size} bytes)"
