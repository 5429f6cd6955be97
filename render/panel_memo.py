"""The score panel drawn from rows kept by what they show: on most moves one
or two rows change, so the others, the status line and the column titles are
pasted back (:class:`render.memo.RegionCache`), and what changed is drawn by
:func:`render.panel.draw_panel` itself, in place: the same pixels.

Each region is kept as the whole panel has it, once every part is in place;
a row's region holds its rounded row and the card's px around it, which are
the same under every row.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from functools import lru_cache

from PIL import Image

from render.memo import Region, RegionCache
from render.palette import BACKDROP
from render.panel import Panel, PanelLayout, draw_panel, panel_layout, render_panel
from render.shapes import Box

# The status line, the column titles and up to 5 rows: a panel's regions,
# kept for the boards of every game a process draws in turn.
PANEL_REGIONS = RegionCache(32)
Keyed = tuple[Hashable, Region]  # a region of the panel and its key


def draw_panel_cached(image: Image.Image, panel: Panel, lang: str, *, top: int) -> None:
    """:func:`render.panel.draw_panel`, with the status line, the column titles
    and each row pasted back when an earlier render drew them the same: the
    card and what is missing are drawn by ``draw_panel`` itself, in place."""
    layout = panel_layout(panel, image.width)
    heads = _head_keys(panel, layout, lang, top)
    keyed = heads + _row_keys(panel, layout, lang, top)
    parts: list[str | int] = [*("status", "header")[: len(heads)], *range(len(panel.rows))]
    kept = [PANEL_REGIONS.get(key) for key, _ in keyed]
    missing = {part for part, pixels in zip(parts, kept, strict=True) if pixels is None}
    draw_panel(image, panel, lang, top=top, parts=missing)
    for pixels, (_, region) in zip(kept, keyed, strict=True):
        if pixels is not None:
            image.paste(pixels, region[:2])
    for pixels, (key, region) in zip(kept, keyed, strict=True):
        if pixels is None:  # kept from the panel as a whole, as it now is
            PANEL_REGIONS.keep(key, region, image)


def _head_keys(panel: Panel, layout: PanelLayout, lang: str, top: int) -> list[Keyed]:
    """The status line's and the column titles' regions, with what decides their pixels."""
    shape = (panel.columns, panel.name_width, layout.width, lang, top)
    seats = panel.winners or panel.acting
    names = tuple(row.name for row in panel.rows if row.seat in seats)
    status = ("status", panel.status, panel.note, panel.acting, panel.winners, names, shape)
    heads: list[Keyed] = [(status, _region(layout.status, top))]
    if layout.header is not None:
        heads.append((("titles", shape), _region(layout.header, top)))
    return heads


def _row_keys(panel: Panel, layout: PanelLayout, lang: str, top: int) -> list[Keyed]:
    """Each row's region, with what decides its pixels."""
    shape = (panel.columns, panel.name_width, layout.width, lang)
    seats = panel.winners or panel.acting
    keyed: list[Keyed] = []
    for row, box in zip(panel.rows, layout.rows, strict=True):
        lit = row.seat is not None and row.seat in seats
        region = _region(box, top)
        keyed.append((("row", row, lit, bool(panel.winners), shape, region), region))
    return keyed


def _region(box: Box, top: int) -> Region:
    """The px a panel part inside ``box`` may touch, ``top`` px down: Pillow
    rounds a rounded row's fractional right end up (to the card inside, which
    is the same under every row)."""
    left, upper, right, lower = box
    return (
        math.floor(left),
        math.floor(upper) + top,
        math.ceil(right) + 1,
        math.ceil(lower) + 1 + top,
    )


@lru_cache(maxsize=8)  # a height per player count
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
