"""Games as sessions: a stored record with its state loaded, for every part of
the runtime (the game service, turn clocks and absences, undo).

One object holds what they share (the storage, the hosted games, the CPU
pool, the cache of loaded states), so each part is given this instead of a
whole service it would call back into.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from bot import registry
from bot.cpu import INLINE, CpuPool
from bot.errors import UserError
from bot.session import Session
from bot.storage import GameRecord, StaleVersion, Storage
from games.contract import GameSpec

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Saved:
    """A stored state, equal and hashed by (kind, game, version) only.

    So an ``lru_cache`` can key on it: autocomplete reloads the same state
    often, and a version never changes once written.
    """

    kind: str
    game_id: int
    version: int
    data: Mapping[str, Any] = field(compare=False, hash=False)


class Sessions:
    """Loads games as sessions, and turns a lost race into the player's "stale"."""

    def __init__(
        self,
        storage: Storage,
        games: Mapping[str, GameSpec] | None = None,
        cpu: CpuPool = INLINE,
    ) -> None:
        self.storage = storage
        self.games = games if games is not None else registry.specs()
        self.cpu = cpu  # where AI seats think and undo is judged (worker processes)
        self._decode = lru_cache(maxsize=64)(self._decode_uncached)

    def forget_cached_states(self) -> None:
        """Drop loaded states (benchmarks measure the cold path with it)."""
        self._decode.cache_clear()

    def _decode_uncached(self, saved: _Saved) -> Any:
        return self.games[saved.kind].engine.load(saved.data)

    def spec(self, key: str) -> GameSpec:
        spec = self.games.get(key)
        if spec is None:
            raise UserError("game.unknown_kind", game=key)
        return spec

    def of(self, record: GameRecord) -> Session:
        """The record with its state loaded; never raises: a game that cannot be
        loaded comes back ``broken`` (and is logged) instead of locking anything."""
        spec = self.games.get(record.kind)
        if spec is None:
            log.error("Game %s is of kind %r, which this bot does not host", record.id, record.kind)
            return Session(record, None, None, broken="unknown_kind")
        if record.state is None:
            return Session(record, spec)
        try:
            state = self._decode(_Saved(record.kind, record.id, record.version, record.state))
        except Exception:
            log.exception("Game %s (version %s) cannot be loaded", record.id, record.version)
            return Session(record, spec, None, broken="unreadable")
        return Session(record, spec, state)

    async def get(self, game_id: int) -> Session | None:
        record = await self.storage.get_game(game_id)
        return None if record is None else self.of(record)

    async def in_channel(self, channel_id: int) -> Session | None:
        """The channel's open game (a lobby or a running game), if any."""
        record = await self.storage.active_game(channel_id)
        return None if record is None else self.of(record)

    async def required(self, channel_id: int) -> Session:
        """The channel's open game, or the player's "no game here"."""
        session = await self.in_channel(channel_id)
        if session is None:
            raise UserError("game.none_here")
        return session

    async def latest_in(self, channel_id: int) -> Session:
        """The channel's game: the open one, else the last finished or cancelled one
        (it stays visible until a new game starts there)."""
        record = await self.storage.latest_game(channel_id)
        if record is None:
            raise UserError("game.none_here")
        return self.of(record)

    @staticmethod
    async def unless_stale(write: Awaitable[GameRecord]) -> GameRecord:
        """Await a versioned write; a lost race becomes the player's "the board
        changed" (``game.stale``)."""
        try:
            return await write
        except StaleVersion as exc:
            raise UserError("game.stale") from exc
