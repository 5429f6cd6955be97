"""Fonts that keep the glyph masks they rendered, so a text drawn again costs
a lookup and a bitmap fill instead of FreeType rendering it anew.

Pillow's ``ImageDraw.text`` asks the font for a mask (``getmask2``) and fills
it with the ink; everything else (colour, blending, halo passes) stays in
``ImageDraw``. Keeping the mask under every argument of that call (text,
anchor, stroke, and the pen's sub-pixel offset ``start``, which Pillow renders
glyphs at) hands Pillow the very mask it would have made: same pixels, for
every text of every picture (panel, labels, names), with no change to callers.

Colour (``RGBA``) masks are left alone: Pillow writes the ink into them.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from PIL import ImageFont

from render.lru import Lru

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

Mask = tuple["ImagingCore", tuple[int, int]]  # Pillow's mask and its offset from the pen

# A board draws a few hundred texts, some at several sub-pixel offsets; a
# mask is a few KB (text height by width), so this stays a few MB.
MASKS: Lru[Mask] = Lru(4096)


class MaskKeepingFont(ImageFont.FreeTypeFont):
    """A FreeType font whose masks are kept in :data:`MASKS` under ``ident``
    (what sets its glyphs: face, size, weight, layout) and its arguments."""

    ident: Hashable = None

    def getmask2(self, text: str | bytes, mode: str = "", *args: Any, **kwargs: Any) -> Mask:
        if mode == "RGBA" or self.ident is None:
            return super().getmask2(text, mode, *args, **kwargs)
        frozen = args
        if any(isinstance(arg, list) for arg in args):  # Pillow's features: a list
            frozen = tuple(tuple(arg) if isinstance(arg, list) else arg for arg in args)
        key = (self.ident, text, mode, frozen, tuple(kwargs.items()))
        kept = MASKS.get(key)
        if kept is None:
            kept = super().getmask2(text, mode, *args, **kwargs)
            MASKS.put(key, kept)
        return kept
