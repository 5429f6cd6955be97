"""Cheap drawing for Sahwari's pictures: texts replayed from their glyph masks,
and regions replayed from the pixels they got the last time.

A board draws about 180 labels, and FreeType rendering each one anew took
half of a render. :func:`place_text` draws a text the first time it is asked
for at a place (through :func:`render.text.draw_text`, so
:func:`render.text.recording_text` lists it) and keeps its glyph masks; the
next time the same text is asked for at the same place, the masks are filled
in its colours, which gives Pillow's very pixels (its ``draw.text`` fills the
same masks). By place, not by text alone: Pillow renders a glyph at the pen's
sub-pixel offset, and a text recorded once per place is recorded once per
picture. Only plain texts (Source Sans Pro alone, left to right) take this
way; any other goes to :func:`~render.text.draw_text` every time.

:class:`RegionMemo` keeps the pixels a drawing left in a box, by what decides
them (its key), and pastes them back when the same key comes again.

Both are emptied when :func:`render.text.recording_text` starts, so the first
picture drawn while recording draws (and lists) every text.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache
from typing import Generic, TypeVar

from PIL import Image, ImageDraw

from render.shapes import Box, Point
from render.text import FACES, MAIN, draw_text, drawing_cache, font, printable, text_runs
from render.text import text_width as _text_width

# (x, y, mask) per pass, from the text's pen position in whole px: the halo
# first (if any), then the letters.
Masks = tuple[tuple[int, int, Image.Image], ...]

_PROBE = ImageDraw.Draw(Image.new("L", (1, 1)))
T = TypeVar("T")


class _Lru(Generic[T]):
    """A bounded dict, oldest first out, emptied by :func:`recording_text`."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()  # pictures may be drawn in threads
        self._items: OrderedDict[Hashable, T] = OrderedDict()

    def get(self, key: Hashable) -> T | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: Hashable, item: T) -> None:
        with self._lock:
            self._items[key] = item
            if len(self._items) > self.size:
                self._items.popitem(last=False)

    def cache_clear(self) -> None:
        with self._lock:
            self._items.clear()


# Texts by place: a few hundred on a board, more over a game (camels move).
_PLACED_TEXTS: _Lru[Masks] = drawing_cache(_Lru(2048))


@lru_cache(maxsize=4096)
def _plain(shown: str) -> bool:
    """Drawn by one Pillow call in the main font, as :func:`draw_text` does it."""
    runs = text_runs(shown)
    return len(runs) == 1 and runs[0][1:] == (FACES[MAIN].name, "ltr")


@lru_cache(maxsize=1024)
def _glyph_masks(
    shown: str, size: int, bold: bool, anchor: str, start: Point, stroke: int
) -> Masks:
    """The masks Pillow fills to draw ``shown`` from a pen position whose
    fractional part is ``start`` (it renders glyphs at sub-pixel offsets)."""
    face = font(size, bold)
    left, top, right, bottom = _PROBE.textbbox(
        start, shown, font=face, anchor=anchor, stroke_width=stroke
    )
    # drawn from a pen position whose whole part is >= 0 (Pillow truncates it)
    x0, y0 = min(math.floor(left) - 2, 0), min(math.floor(top) - 2, 0)
    room = (math.ceil(right) - x0 + 2, math.ceil(bottom) - y0 + 2)
    masks = []
    for width in (stroke, 0) if stroke else (0,):
        mask = Image.new("L", room, 0)
        pen = (start[0] - x0, start[1] - y0)
        ImageDraw.Draw(mask).text(
            pen, shown, fill=255, font=face, anchor=anchor, stroke_width=width
        )
        ink = mask.getbbox()
        if ink is not None:
            masks.append((x0 + ink[0], y0 + ink[1], mask.crop(ink)))
    return tuple(masks)


def place_text(
    image: Image.Image,
    xy: Point,
    text: str,
    size: int,
    fill: Sequence[int],
    *,
    anchor: str = "la",
    bold: bool = False,
    outline: Sequence[int] | None = None,
    outline_width: int = 0,
    role: str = "",
) -> float:
    """:func:`render.text.draw_text` on ``image`` (RGB): the same pixels, from
    cached glyph masks when this text was drawn at this place before. Returns
    its width."""
    shown = printable(text)
    stroke = outline_width if outline is not None else 0
    key = (shown, xy[0], xy[1], size, bold, anchor, stroke)
    masks = _PLACED_TEXTS.get(key)
    opaque = len(fill) == 3 and (outline is None or len(outline) == 3)
    if masks is None or not opaque:
        # translucent colours blend as the board's RGBA draw blended them
        draw = ImageDraw.Draw(image, None if opaque else "RGBA")
        width = draw_text(
            draw,
            xy,
            text,
            size,
            fill,
            anchor=anchor,
            bold=bold,
            outline=outline,
            outline_width=outline_width,
            role=role,
        )
        if shown and _plain(shown):
            start = (math.modf(xy[0])[0], math.modf(xy[1])[0])
            _PLACED_TEXTS.put(key, _glyph_masks(shown, size, bold, anchor, start, stroke))
        return width
    _fill_masks(image, masks, (int(xy[0]), int(xy[1])), fill, outline if stroke else None)
    return _text_width(shown, size, bold=bold)


def _fill_masks(
    image: Image.Image,
    masks: Masks,
    pen: tuple[int, int],
    fill: Sequence[int],
    halo: Sequence[int] | None,
) -> None:
    """Fill the halo's mask, then the letters', as Pillow's ``draw.text`` does
    (it skips the letters when they are the halo's colour)."""
    colours = [tuple(fill)]
    if halo is not None:
        colours = [tuple(halo)] + ([] if tuple(halo) == tuple(fill) else colours)
    for (dx, dy, mask), colour in zip(masks, colours, strict=False):
        image.paste(colour, (pen[0] + dx, pen[1] + dy), mask)


# --------------------------------------------------------------------------- regions


class RegionMemo:
    """The pixels of boxes as drawings left them, by key (see the module doc).

    :meth:`draw` pastes the kept pixels of ``key`` into ``box``, or runs
    ``paint`` (which must draw inside ``box`` only) and keeps what it left.
    A key must say everything that decides those pixels: what is drawn, the
    box (Pillow rounds coordinates in ways a shift of the box may change),
    and what lay in the box before, unless it is always the same there or
    the drawing covers it whole; ``behind=True`` adds the box's pixels to
    the key, for a drawing over a background that varies (a camel).
    """

    def __init__(self, size: int) -> None:
        self._kept: _Lru[Image.Image] = drawing_cache(_Lru(size))

    def draw(
        self,
        image: Image.Image,
        box: Box,
        key: Hashable,
        paint: Callable[[], None],
        *,
        behind: bool = False,
    ) -> None:
        region = _whole_px(box)
        if behind:
            key = (key, image.crop(region).tobytes())
        kept = self._kept.get(key)
        if kept is not None:
            image.paste(kept, region[:2])
            return
        paint()
        self._kept.put(key, image.crop(region))


def _whole_px(box: Box) -> tuple[int, int, int, int]:
    """The pixels a drawing confined to ``box`` may touch (Pillow truncates)."""
    return (int(box[0]), int(box[1]), int(box[2]) + 1, int(box[3]) + 1)
