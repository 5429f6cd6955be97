"""Regions of the Through the Desert board replayed from the pixels they got
the last time the same things were drawn there.

:class:`RegionMemo` keeps the pixels a drawing left in a box, by what decides
them (its key), and pastes them back when the same key comes again: the
score panel (each seat's board of one state draws the same panel), the
last turn's rings (over whatever lies under them, which then joins the key).
Memos are emptied when :func:`render.text.recording_text` starts, so the
first picture drawn while recording draws (and lists) every text.

Sahwari's picture has the same memo (:mod:`games.sahwari.picture_layers`);
each game keeps its own until they move to :mod:`render`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from PIL import Image

from render.shapes import Box
from render.text import drawing_cache


class _Lru:
    """A bounded dict, oldest first out, emptied by :func:`recording_text`."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()  # pictures may be drawn in threads
        self._items: OrderedDict[Hashable, Image.Image] = OrderedDict()

    def get(self, key: Hashable) -> Image.Image | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: Hashable, item: Image.Image) -> None:
        with self._lock:
            self._items[key] = item
            if len(self._items) > self.size:
                self._items.popitem(last=False)

    def cache_clear(self) -> None:
        with self._lock:
            self._items.clear()


class RegionMemo:
    """The pixels of boxes as drawings left them, by key.

    :meth:`draw` pastes the kept pixels of ``key`` into ``box``, or runs
    ``paint`` (which must draw inside ``box`` only) and keeps what it left.
    A key must say everything that decides those pixels: what is drawn, the
    box (Pillow rounds coordinates in ways a shift of the box may change),
    and what lay in the box before, unless it is always the same there;
    ``behind=True`` adds the box's pixels to the key.
    """

    def __init__(self, size: int) -> None:
        self._kept = drawing_cache(_Lru(size))

    def draw(
        self,
        image: Image.Image,
        box: Box,
        key: Hashable,
        paint: Callable[[], None],
        *,
        behind: bool = False,
    ) -> None:
        region = (int(box[0]), int(box[1]), int(box[2]) + 1, int(box[3]) + 1)
        if behind:
            key = (key, image.crop(region).tobytes())
        kept = self._kept.get(key)
        if kept is not None:
            image.paste(kept, region[:2])
            return
        paint()
        self._kept.put(key, image.crop(region))
