"""A tiny "something changed" broadcast for waiting on predicates with a timeout."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Signal:
    def __init__(self) -> None:
        self._event: asyncio.Event | None = None

    def notify(self) -> None:
        if self._event is not None:
            self._event.set()
            self._event = None

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float, what: str) -> T:
        """Return the first truthy ``predicate()``; raise TimeoutError naming ``what``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout:.1f}s waiting for {what}")
            if self._event is None:
                self._event = asyncio.Event()
            try:
                await asyncio.wait_for(self._event.wait(), remaining)
            except TimeoutError:
                continue
