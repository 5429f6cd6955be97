"""A real PostgreSQL server for the tests, started and stopped by the tests themselves.

:func:`pg_server` (a session fixture through ``tests/conftest.py``) gives a
:class:`PgServer`. With ``CARAVANSERAI_TEST_PG_URL`` set (a role that may
``CREATE DATABASE``) that server is used; otherwise a throwaway cluster is
made in a temporary folder (``initdb``) and ``postgres`` listens on a Unix
socket in it only (no TCP port to collide on), with durability off
(``fsync=off``: a test cluster is thrown away anyway).

The server binaries come from ``CARAVANSERAI_TEST_PG_BIN`` if set, else the
machine's PostgreSQL (``pg_config --bindir``, ``/usr/lib/postgresql/N/bin``,
``initdb`` on PATH), else the ones the ``pgserver`` package ships (a dev
dependency, so a fresh machine has them).

PostgreSQL refuses to run as root. As root, ``initdb`` and ``postgres`` run as
the unprivileged ``postgres`` account if the machine has one, else ``nobody``
(``subprocess`` switches user and group itself; the folder is given to that
account). The postmaster gets SIGTERM if the test process dies
(``PR_SET_PDEATHSIG``) and is stopped in the session's finalizer otherwise,
failures included, so no process is left behind.

Each test gets a database of its own: ``CREATE DATABASE … TEMPLATE`` of a
template migrated once per session (``migrated=True``, a few ms) or of
``template0`` (an empty database, for the migration tests).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ctypes
import glob
import importlib.util
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import asyncpg

from bot.storage.postgres import apply_pg_migrations, load_pg_migrations

ENV_URL = "CARAVANSERAI_TEST_PG_URL"
ENV_BIN = "CARAVANSERAI_TEST_PG_BIN"
TEMPLATE = "caravanserai_template"
_PR_SET_PDEATHSIG = 1


def find_bindir() -> Path:
    """A folder holding ``initdb`` and ``postgres``."""
    for folder in _bindir_candidates():
        if folder and all(os.access(Path(folder) / p, os.X_OK) for p in ("initdb", "postgres")):
            return Path(folder)
    raise RuntimeError(
        "no PostgreSQL server binaries (initdb, postgres) found: install PostgreSQL, or"
        f" pgserver (pip), or set {ENV_BIN}, or point {ENV_URL} at a server"
    )


def _bindir_candidates() -> Iterator[str]:
    if chosen := os.environ.get(ENV_BIN):
        yield chosen
        return
    if pg_config := shutil.which("pg_config"):
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, timeout=10
            )
            yield out.stdout.strip()
    yield from sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    if initdb := shutil.which("initdb"):
        yield str(Path(initdb).resolve().parent)
    spec = importlib.util.find_spec("pgserver")  # not imported: only its files are used
    if spec is not None and spec.origin is not None:
        yield str(Path(spec.origin).parent / "pginstall" / "bin")


def _unprivileged() -> pwd.struct_passwd | None:
    """The account to run the server as when we are root; None when we are not."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise RuntimeError("running as root, and no postgres or nobody account to run PostgreSQL as")


def die_with_parent() -> None:
    """In the child, before exec: SIGTERM it if the test process dies."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


class PgServer:
    """A running PostgreSQL server: make databases for tests, stop it at the end."""

    def __init__(self, admin_url: str, process: subprocess.Popen[bytes] | None, folder: str | None):
        self.admin_url = admin_url
        self._process = process
        self._folder = folder
        self._names = itertools.count(1)
        self._prefix = f"t{os.getpid()}_{int(time.time())}_"
        self._template_ready = False

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    def start(cls) -> PgServer:
        if url := os.environ.get(ENV_URL):
            return cls(url, None, None)
        bindir = find_bindir()
        account = _unprivileged()
        folder = tempfile.mkdtemp(prefix="caravanserai-pg-")
        data = Path(folder) / "data"
        as_user: dict[str, object] = {}
        if account is not None:
            os.chown(folder, account.pw_uid, account.pw_gid)
            as_user = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env.update(LC_ALL="C", LANG="C", HOME=folder)
        try:
            subprocess.run(
                [
                    str(bindir / "initdb"),
                    "-D",
                    str(data),
                    "-U",
                    "postgres",
                    "-A",
                    "trust",
                    "-E",
                    "UTF8",
                    "--locale=C",
                    "--no-sync",
                ],
                cwd=folder,
                env=env,
                check=True,
                capture_output=True,
                timeout=120,
                **as_user,  # type: ignore[arg-type]
            )
            log = open(Path(folder) / "server.log", "wb")  # noqa: SIM115 - closed below
            process = subprocess.Popen(
                [
                    str(bindir / "postgres"),
                    "-D",
                    str(data),
                    "-k",
                    folder,
                    "-c",
                    "listen_addresses=",
                    "-c",
                    "fsync=off",
                    "-c",
                    "synchronous_commit=off",
                    "-c",
                    "full_page_writes=off",
                    "-c",
                    "max_connections=200",
                    "-c",
                    "shared_buffers=32MB",
                ],
                cwd=folder,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
                preexec_fn=die_with_parent,
                **as_user,  # type: ignore[arg-type]
            )
            log.close()  # the server keeps its own copy
        except subprocess.CalledProcessError as exc:
            shutil.rmtree(folder, ignore_errors=True)
            detail = exc.stderr.decode(errors="replace").strip().splitlines()[-1:]
            raise RuntimeError(f"initdb failed: {detail}") from exc
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        server = cls(f"postgresql://postgres@/postgres?host={quote(folder)}", process, folder)
        try:
            server._wait_ready()
        except BaseException:
            server.stop()
            raise
        return server

    def _wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self._process is not None and self._process.poll() is not None:
                raise RuntimeError(f"postgres exited at start-up:\n{self._log()}")
            try:
                # In a thread of its own: the caller may be inside a running event loop.
                with concurrent.futures.ThreadPoolExecutor(1) as pool:
                    pool.submit(asyncio.run, self._ping()).result()
                return
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"postgres did not start:\n{self._log()}") from None
                time.sleep(0.05)

    async def _ping(self) -> None:
        conn = await asyncpg.connect(self.admin_url, timeout=5)
        await conn.close()

    def _log(self) -> str:
        if self._folder is None:
            return ""
        with contextlib.suppress(OSError):
            return (Path(self._folder) / "server.log").read_text(errors="replace")[-2000:]
        return ""

    def stop(self) -> None:
        """Fast shutdown (SIGINT), then SIGKILL if it lingers; remove the folder."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    # ------------------------------------------------------------------ databases

    def url(self, database: str) -> str:
        """The admin URL pointed at another database."""
        parts = urlsplit(self.admin_url)
        return urlunsplit(parts._replace(path=f"/{database}"))

    async def create_database(self, *, migrated: bool = True) -> str:
        """A new database of its own (migrated, or empty); returns its URL."""
        name = f"{self._prefix}{next(self._names)}"
        conn = await asyncpg.connect(self.admin_url)
        try:
            if migrated and not self._template_ready:
                await self._make_template(conn)
            template = TEMPLATE if migrated else "template0"
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        finally:
            await conn.close()
        return self.url(name)

    async def _make_template(self, admin: asyncpg.Connection) -> None:
        await admin.execute(f'DROP DATABASE IF EXISTS "{TEMPLATE}"')
        await admin.execute(f'CREATE DATABASE "{TEMPLATE}" TEMPLATE template0')
        conn = await asyncpg.connect(self.url(TEMPLATE))
        try:
            await apply_pg_migrations(conn, load_pg_migrations())
        finally:
            await conn.close()
        self._template_ready = True

    async def drop_database(self, url: str) -> None:
        name = urlsplit(url).path.lstrip("/")
        conn = await asyncpg.connect(self.admin_url)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()


@contextlib.contextmanager
def running_server() -> Iterator[PgServer]:
    server = PgServer.start()
    try:
        yield server
    finally:
        server.stop()
