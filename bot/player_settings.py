"""Each player's /settings (language, DMs), read from the database at most
once every :data:`FRESH_SECONDS` per player.

The language is asked before every interaction (each keystroke of an
autocomplete included) and the DM choice after every turn post, and they
almost never change: reading them each time was a database trip per
keystroke. A change made through this process is seen at once; one made
through another process of the same bot, within those seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.storage import Storage, UserSettings

FRESH_SECONDS = 30.0
MAX_PLAYERS = 50_000  # remembered at once; past that, the stale ones are dropped


class PlayerSettings:
    def __init__(
        self,
        storage: Storage,
        *,
        fresh_seconds: float = FRESH_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.storage = storage
        self.fresh_seconds = fresh_seconds
        self.clock = clock
        self._known: dict[int, tuple[float, UserSettings]] = {}  # user -> (read at, settings)

    async def of(self, user_id: int) -> UserSettings:
        now = self.clock()
        known = self._known.get(user_id)
        if known is not None and now - known[0] < self.fresh_seconds:
            return known[1]
        settings = await self.storage.user_settings(user_id)
        if len(self._known) >= MAX_PLAYERS:
            self._drop_stale(now)
        self._known[user_id] = (now, settings)
        return settings

    async def language(self, user_id: int) -> str | None:
        """The player's chosen language (``en``, ``fr``), or None: Discord's locale."""
        return (await self.of(user_id)).lang

    def forget(self, user_id: int) -> None:
        """The player's settings just changed here: read them again next time."""
        self._known.pop(user_id, None)

    def _drop_stale(self, now: float) -> None:
        stale = [u for u, (at, _) in self._known.items() if now - at >= self.fresh_seconds]
        for user in stale or list(self._known):  # all fresh: start over
            del self._known[user]
