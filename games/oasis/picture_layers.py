"""Cached regions of a board image, so a render mostly pastes what it drew before.

Encoding the PNG is the floor of a render's cost; drawing every text and
shape again cost as much again. Most of the image repeats from one render
to the next: a panel row whose player did nothing, the piles, the names of
the open squares of a board row. :class:`RegionCache` keeps such regions
under what decides their pixels and pastes them back;
:func:`draw_panel_cached` draws the shared score panel that way.

Both draw *through* the image: a region missing from the cache is drawn in
place, by the usual code, then kept. So the picture is exactly the one drawn
without a cache, and :func:`render.text.recording_text` (which empties these
caches, as any :func:`render.text.drawing_cache`) lists every text where it is.

Nomadi has the same module (``games/nomadi/picture_layers.py``); both belong
in ``render/``, next to :mod:`render.panel`.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import replace

from PIL import Image, ImageDraw

from render.palette import BACKDROP
from render.panel import Cell, Panel, PanelLayout, draw_panel, panel_layout, render_panel
from render.shapes import Box, Point
from render.text import drawing_cache, font

Region = tuple[int, int, int, int]  # left, top, right, bottom: whole px, right and bottom excluded


class RegionCache:
    """Regions of images, each kept under a key holding everything that decides
    its pixels (what is drawn, where, and what lies under it); the least
    recently used go first beyond ``maxsize``."""

    def __init__(self, maxsize: int) -> None:
        self._maxsize = maxsize
        self._regions: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self._lock = threading.Lock()  # renders may share a process's caches
        drawing_cache(self)  # emptied when texts are recorded, so they are drawn again

    def cache_clear(self) -> None:
        with self._lock:
            self._regions.clear()

    def get(self, key: Hashable) -> Image.Image | None:
        with self._lock:
            region = self._regions.get(key)
            if region is not None:
                self._regions.move_to_end(key)
            return region

    def keep(self, key: Hashable, region: Region, image: Image.Image) -> Image.Image:
        """Keep ``region`` of ``image`` as it is now; returns its pixels."""
        pixels = image.crop(region)
        with self._lock:
            self._regions[key] = pixels
            self._regions.move_to_end(key)
            while len(self._regions) > self._maxsize:
                self._regions.popitem(last=False)
        return pixels

    def draw(
        self, image: Image.Image, key: Hashable, region: Region, paint: Callable[[], None]
    ) -> None:
        """Paste the region kept under ``key``, or ``paint`` it (in place: it must
        draw inside ``region`` only) and keep it."""
        pixels = self.get(key)
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


# --------------------------------------------------------------------------- the score panel

PANEL_REGIONS = RegionCache(12)  # the status line, the column titles, rows
Keyed = tuple[Hashable, Region]  # a region of the panel and its key


def draw_panel_cached(
    image: Image.Image, panel: Panel, lang: str, *, top: int, blank: Image.Image
) -> None:
    """:func:`render.panel.draw_panel`, with the status line, the column titles
    and each row pasted back when an earlier render drew them the same.

    What is missing is drawn by ``draw_panel`` itself, in place: the status
    line, the column titles and the highlighted rows by the panel cut after
    the last highlighted row (see :func:`_cut_panel`), any other row by a
    panel of that row alone. The cards those smaller panels leave around
    their rows are then covered by the whole panel's empty card, taken from
    ``blank`` (the image before the panel, its :func:`panel_card` in place,
    as ``image`` has it), and every region pasted back.
    """
    layout = panel_layout(panel, image.width)
    heads = _head_keys(panel, layout, lang, top)
    keyed = heads + _row_keys(panel, layout, lang, top)
    kept = [PANEL_REGIONS.get(key) for key, _ in keyed]
    if None in kept:
        if _draw_missing(image, panel, layout, keyed, kept, len(heads), lang, top):
            return  # the whole panel, drawn as without a cache
        # smaller panels drew their cards over the others' regions
        image.paste(blank.crop((0, top, layout.width, top + layout.height)), (0, top))
    for pixels, (_, region) in zip(kept, keyed, strict=True):
        assert pixels is not None  # kept by an earlier render or drawn above
        image.paste(pixels, region[:2])


def _draw_missing(
    image: Image.Image,
    panel: Panel,
    layout: PanelLayout,
    keyed: Sequence[Keyed],
    kept: list[Image.Image | None],
    heads: int,
    lang: str,
    top: int,
) -> bool:
    """Draw the regions missing from ``kept`` (the status line, the titles, then
    the rows) and keep them, in ``kept`` too; True when that drew the whole
    panel as :func:`render.panel.draw_panel` does."""
    seats = set(panel.winners or panel.acting)
    lit = [i for i, row in enumerate(panel.rows) if row.seat in seats]
    cut = heads + (max(lit) + 1 if lit else 0)  # the regions the cut panel holds
    if None in kept[:cut]:
        # all missing but maybe the status line, and nothing after the cut: the whole panel
        whole = cut == len(keyed) and all(pixels is None for pixels in kept[1:])
        draw_panel(image, _cut_panel(panel, kept[:cut], heads), lang, top=top)
        for i, (key, region) in enumerate(keyed[:cut]):
            if kept[i] is None:
                kept[i] = PANEL_REGIONS.keep(key, region, image)
        if whole:
            return True
    for i in range(cut, len(keyed)):
        if kept[i] is None:
            _draw_lone_row(image, panel, layout, i - heads, lang, top)
            kept[i] = PANEL_REGIONS.keep(*keyed[i], image)
    return False


def _cut_panel(panel: Panel, kept: Sequence[Image.Image | None], heads: int) -> Panel:
    """The panel cut after its last highlighted row (whose player the status
    line names), drawing only what is missing from ``kept`` (the status line
    and titles, then the rows): column titles that are kept become blank
    painters (the titles' line stays, empty), kept rows lose their cells
    (their place and name stay, and they are pasted back whole)."""
    columns = panel.columns
    if heads > 1 and kept[1] is not None:
        columns = tuple(replace(column, title=_no_title) for column in columns)
    rows = tuple(
        row if pixels is None else replace(row, cells=tuple(Cell() for _ in row.cells))
        for row, pixels in zip(panel.rows, kept[heads:], strict=False)
    )
    return replace(panel, columns=columns, rows=rows)


def _no_title(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A column title drawn as nothing: the titles' line stays where it is."""


def _head_keys(panel: Panel, layout: PanelLayout, lang: str, top: int) -> list[Keyed]:
    """The status line's and the column titles' regions, with what decides their pixels."""
    shape = (panel.columns, panel.name_width, layout.width, lang, top)
    seats = panel.winners or panel.acting
    names = tuple(row.name for row in panel.rows if row.seat in seats)
    status = ("status", panel.status, panel.note, panel.acting, panel.winners, names, shape)
    heads: list[Keyed] = [(status, whole(layout.status, top))]
    if layout.header is not None:
        heads.append((("titles", shape), whole(layout.header, top)))
    return heads


def _row_keys(panel: Panel, layout: PanelLayout, lang: str, top: int) -> list[Keyed]:
    """Each row's region, with what decides its pixels."""
    shape = (panel.columns, panel.name_width, layout.width, lang)
    seats = panel.winners or panel.acting
    keyed: list[Keyed] = []
    for row, box in zip(panel.rows, layout.rows, strict=True):
        lit = row.seat is not None and row.seat in seats
        region = whole(box, top)
        keyed.append((("row", row, lit, bool(panel.winners), shape, region), region))
    return keyed


def _draw_lone_row(
    image: Image.Image, panel: Panel, layout: PanelLayout, index: int, lang: str, top: int
) -> None:
    """Row ``index``, not highlighted, drawn in place by a panel of that row alone
    (no status, no column titles)."""
    untitled = tuple(replace(column, title="") for column in panel.columns)
    lone = Panel(
        status="", columns=untitled, rows=(panel.rows[index],), name_width=panel.name_width
    )
    slot = panel_layout(lone, layout.width).rows[0][1]
    draw_panel(image, lone, lang, top=top + round(layout.rows[index][1] - slot))


def panel_card(width: int, height: int) -> Image.Image:
    """The panel's empty card, ``height`` px high: an empty panel's card (no
    status, no rows) with its straight middle stretched."""
    empty = render_panel(Panel(status="", columns=(), rows=()), width, "en", background=BACKDROP)
    half = empty.height // 2
    card = Image.new("RGB", (width, height), BACKDROP)
    card.paste(empty.crop((0, 0, width, half)), (0, 0))
    middle = empty.crop((0, half, width, half + 1))
    stretched = middle.resize((width, height - empty.height + 1), Image.Resampling.NEAREST)
    card.paste(stretched, (0, half))
    card.paste(empty.crop((0, half, width, empty.height)), (0, height - (empty.height - half)))
    return card
