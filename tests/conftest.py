"""Fixtures shared by several test modules."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.service import GameService
from bot.storage import Storage, open_storage
from tests.contract import all_specs


@pytest.fixture
def sentinel() -> Iterator[socket.socket]:
    """A port that listens but never answers: any connection attempt shows in its backlog."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        s.setblocking(False)
        yield s


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    """A real SQLite file, migrated, closed after the test."""
    store = await open_storage(f"sqlite:///{tmp_path / 'games.db'}")
    yield store
    await store.close()


@pytest.fixture
def service(storage: Storage) -> GameService:
    """The game service on that file, hosting every game (the test game too)."""
    return GameService(storage, all_specs())
