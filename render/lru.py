"""A small bounded, thread-safe mapping, least recently used out first: the
store behind every drawing cache of :mod:`render` (glyph masks, regions).

Threads: the bot renders boards in a pool, and a process's caches are shared.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class Lru(Generic[T]):
    """At most ``size`` items; :meth:`cache_clear` lets
    :func:`render.text.drawing_cache` empty it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[Hashable, T] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> T | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: Hashable, item: T) -> None:
        with self._lock:
            self._items[key] = item
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def cache_clear(self) -> None:
        with self._lock:
            self._items.clear()
