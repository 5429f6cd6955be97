"""Fixtures shared by several test modules."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.service import GameService
from bot.storage import Storage, open_storage
from tests.contract import all_specs
from tests.e2e import World, open_world
from tests.pg import PgServer, running_server


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "bot_env(settings): more environment for the bot process of the ``world`` fixture",
    )


@pytest.fixture
def sentinel() -> Iterator[socket.socket]:
    """A port that listens but never answers: any connection attempt shows in its backlog."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        s.setblocking(False)
        yield s


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """The test's own SQLite file (``games.db`` in its temporary folder), as a URL."""
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
async def storage(sqlite_url: str) -> AsyncIterator[Storage]:
    """A real SQLite file, migrated, closed after the test."""
    store = await open_storage(sqlite_url)
    yield store
    await store.close()


@pytest.fixture
def service(storage: Storage) -> GameService:
    """The game service on that file, hosting every game (the test game too)."""
    return GameService(storage, all_specs())


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One real PostgreSQL server for the whole run (``tests/pg.py``), stopped at the end."""
    with running_server() as server:
        yield server


@pytest.fixture
async def pg_url(pg_server: PgServer) -> AsyncIterator[str]:
    """A fresh, migrated PostgreSQL database of this test's own, dropped after it."""
    url = await pg_server.create_database()
    yield url
    await pg_server.drop_database(url)


@pytest.fixture
async def pg_empty_url(pg_server: PgServer) -> AsyncIterator[str]:
    """A fresh PostgreSQL database with no tables at all (for migration tests)."""
    url = await pg_server.create_database(migrated=False)
    yield url
    await pg_server.drop_database(url)


@pytest.fixture
async def world(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[World]:
    """The real bot process against a loopback Discord (``tests/e2e.py``), stopped
    after the test. A test or module marked ``bot_env({...})`` (e.g. ``{"EXTRA_GAMES":
    "tests.nim"}`` for the test game) adds those settings to the bot's environment."""
    marker = request.node.get_closest_marker("bot_env")
    async with open_world(tmp_path, marker.args[0] if marker else None) as opened:
        yield opened
