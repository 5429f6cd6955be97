"""Regions of an image pasted back from the pixels they got the last time the
same things were drawn there, so a board mostly pastes what it drew before.

Encoding the PNG is the floor of a render's cost; drawing every text and
shape again cost as much again, while most of a board repeats from one move
to the next. :class:`RegionCache` keeps a region's pixels under a key that
says everything deciding them, and draws *through* the image: a region it
lacks is drawn in place, by the usual code, then kept. So the picture is the
one drawn without a cache, and :func:`render.text.recording_text` (which
empties every region cache, as any :func:`render.text.drawing_cache`) lists
every text where it is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable

from PIL import Image

from render.lru import Lru
from render.shapes import Box, Point
from render.text import drawing_cache, font

Region = tuple[int, int, int, int]  # left, top, right, bottom: whole px, right and bottom excluded


class RegionCache:
    """Regions of images, each under a key holding what decides its pixels:
    what is drawn, the region (Pillow rounds coordinates in ways a shift may
    change), and what lies under it unless that is always the same there
    (``behind=True`` adds the region's pixels to the key). The least recently
    used go first beyond ``size``."""

    def __init__(self, size: int) -> None:
        self._kept: Lru[Image.Image] = drawing_cache(Lru(size))

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: Hashable) -> Image.Image | None:
        return self._kept.get(key)

    def cache_clear(self) -> None:
        self._kept.cache_clear()

    def keep(self, key: Hashable, region: Region, image: Image.Image) -> Image.Image:
        """Keep ``region`` of ``image`` as it is now; returns its pixels."""
        pixels = image.crop(region)
        self._kept.put(key, pixels)
        return pixels

    def draw(
        self,
        image: Image.Image,
        region: Region,
        key: Hashable,
        paint: Callable[[], None],
        *,
        behind: bool = False,
    ) -> None:
        """Paste the region kept under ``key``, or ``paint`` it (in place: it must
        draw inside ``region`` only) and keep it."""
        if behind:
            key = (key, image.crop(region).tobytes())
        pixels = self._kept.get(key)
        if pixels is None:
            paint()
            self.keep(key, region, image)
        else:
            image.paste(pixels, region[:2])


def whole(box: Box, top: int = 0) -> Region:
    """The px a drawing inside ``box`` moved ``top`` px down may touch (Pillow
    draws a shape's right and bottom edges on the px they name)."""
    return (
        math.floor(box[0]),
        math.floor(box[1]) + top,
        math.floor(box[2]) + 1,
        math.floor(box[3]) + 1 + top,
    )


def union(regions: Iterable[Region]) -> Region:
    """The smallest region holding every one of ``regions``."""
    lefts, tops, rights, bottoms = zip(*regions, strict=True)
    return min(lefts), min(tops), max(rights), max(bottoms)


def text_region(text: str, size: int, xy: Point, anchor: str, *, bold: bool) -> Region:
    """The px a one-font text may ink at ``xy`` (a px more all round, as
    :func:`render.text.stamp_text` rounds ``xy`` to whole px)."""
    left, top, right, bottom = font(size, bold).getbbox(text, anchor=anchor)
    x, y = xy
    return (
        math.floor(x + left) - 1,
        math.floor(y + top) - 1,
        math.ceil(x + right) + 1,
        math.ceil(y + bottom) + 1,
    )


def square_runs(squares: Iterable[int], columns: int) -> list[tuple[int, ...]]:
    """``squares`` (ascending indices of a board ``columns`` wide) in runs of
    neighbours along a board row: the squares whose names one region holds."""
    runs: list[list[int]] = []
    for sq in squares:
        if runs and sq == runs[-1][-1] + 1 and sq % columns:
            runs[-1].append(sq)
        else:
            runs.append([sq])
    return [tuple(run) for run in runs]
