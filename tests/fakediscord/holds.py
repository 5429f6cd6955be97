"""Holding the bot's answer to an interaction callback, to stop the bot at that point.

The fake applies the callback as Discord would (a deferred command shows its
"thinking…" message, everyone sees it) but does not answer the bot's HTTP
request until the test releases it. The bot is then waiting on Discord at a
known point (for a move: just after saving it), where a test can kill it
without racing it.
"""

from __future__ import annotations

import asyncio

from .interactions import AUTOCOMPLETE, InteractionRecord


class CallbackHold:
    """One held callback: the first one, after it was made, that ``command`` names
    (a slash command's name, e.g. ``"desert move"``; None: any). Autocomplete
    answers are never held."""

    def __init__(self, command: str | None = None) -> None:
        self.command = command
        self.record: InteractionRecord | None = None
        self._reached = asyncio.Event()
        self._released = asyncio.Event()

    def matches(self, record: InteractionRecord) -> bool:
        if record.type == AUTOCOMPLETE or self._reached.is_set():
            return False
        return self.command is None or record.name == self.command

    async def reached(self, timeout: float = 10.0) -> InteractionRecord:
        """Once the bot's callback came in (and was applied): its interaction."""
        try:
            await asyncio.wait_for(self._reached.wait(), timeout)
        except TimeoutError:
            raise TimeoutError(f"no callback to {self.command or 'any command'} came") from None
        assert self.record is not None
        return self.record

    def release(self) -> None:
        """Answer the held request (to a dead socket, if the bot was killed meanwhile)."""
        self._released.set()

    async def hold(self, record: InteractionRecord) -> None:
        """In the callback's handler, after it was applied: wait for the release."""
        self.record = record
        self._reached.set()
        await self._released.wait()
