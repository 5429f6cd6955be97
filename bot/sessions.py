"""Games as sessions: a stored record with its state loaded, for every part of
the runtime (the game service, turn clocks and absences, undo).

One object holds what they share (the storage, the hosted games, the CPU
pool, the cache of loaded states), so each part is given this instead of a
whole service it would call back into.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Mapping
from typing import Any

from bot import registry
from bot.cpu import INLINE, CpuPool
from bot.errors import UserError
from bot.player_settings import PlayerSettings
from bot.session import Session
from bot.storage import GameRecord, StaleVersion, Storage
from games.contract import GameSpec

log = logging.getLogger(__name__)

RECENT_SECONDS = 2.0  # how old a channel's game autocomplete may be shown from
RECENT_CHANNELS = 4096  # channels remembered at once for it
LOADED_STATES = 256  # game states kept loaded, by (kind, game, version)


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
        # Loaded states by (kind, game, version): a version never changes once
        # written, and autocomplete, buttons and posts read the same one often.
        self._states: OrderedDict[tuple[str, int, int], Any] = OrderedDict()
        self.settings = PlayerSettings(storage)  # players' /settings, read now and then
        self.clock = time.monotonic
        # Each channel's open game as last read or written here: (when, session).
        self._recent: dict[int, tuple[float, Session]] = {}

    def forget_cached_states(self) -> None:
        """Drop loaded states (benchmarks measure the cold path with it)."""
        self._states.clear()

    def _state_of(self, record: GameRecord, spec: GameSpec) -> Any:
        key = (record.kind, record.id, record.version)
        state = self._states.get(key)
        if state is None:
            assert record.state is not None
            state = spec.engine.load(record.state)
            self._keep(key, state)
        else:
            self._states.move_to_end(key)
        return state

    def _keep(self, key: tuple[str, int, int], state: Any) -> None:
        self._states[key] = state
        while len(self._states) > LOADED_STATES:
            self._states.popitem(last=False)

    def written(self, record: GameRecord, spec: GameSpec, state: Any) -> Session:
        """The session of a record this process just wrote with ``state`` (states
        are never changed in place): the next read of that version need not load
        it from JSON again, and autocomplete shows it at once."""
        self._keep((record.kind, record.id, record.version), state)
        session = Session(record, spec, state)
        self._note_newer(session)
        return session

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
            state = self._state_of(record, spec)
        except Exception:
            log.exception("Game %s (version %s) cannot be loaded", record.id, record.version)
            return Session(record, spec, None, broken="unreadable")
        session = Session(record, spec, state)
        self._note_newer(session)
        return session

    def _note_newer(self, session: Session) -> None:
        """A newer version of a remembered channel's game (this process wrote or
        read it) replaces the one autocomplete would show."""
        known = self._recent.get(session.record.channel_id)
        if known is not None and _order(session) > _order(known[1]):
            self._recent[session.record.channel_id] = (self.clock(), session)

    async def recent_in_channel(self, channel_id: int) -> Session | None:
        """The channel's open game, read at most :data:`RECENT_SECONDS` ago: for
        autocomplete, asked on every keystroke. What this process writes shows at
        once; another process's move, within those seconds (and a move sent from a
        stale list is checked against the database like any other)."""
        now = self.clock()
        known = self._recent.get(channel_id)
        if known is not None and now - known[0] < RECENT_SECONDS:
            return known[1] if known[1].record.status in ("lobby", "active") else None
        session = await self.in_channel(channel_id)
        if session is None:
            self._recent.pop(channel_id, None)
            return None
        if len(self._recent) >= RECENT_CHANNELS:
            self._recent = {c: k for c, k in self._recent.items() if now - k[0] < RECENT_SECONDS}
        self._recent[channel_id] = (now, session)
        return session

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


def _order(session: Session) -> tuple[int, int]:
    """Later games, then later versions, come after (ids and versions only grow)."""
    return session.record.id, session.record.version
