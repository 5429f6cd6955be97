"""Text: Source Sans Pro (regular and bold), printable names, fitting and drawing.

The font files come with the ``font-source-sans-pro`` package (SIL Open Font
Licence): Latin with every French accent, Greek and Cyrillic, in a real bold
face. Nothing is fetched and no system font is used, so a board looks the
same on every host. Characters the font has no glyph for (emoji, CJK…) are
dropped before drawing, never shown as boxes; a name with nothing printable
left becomes the catalogue's "Player N".
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources

from PIL import ImageDraw, ImageFont

from games import catalogue
from render.shapes import Point

Font = ImageFont.FreeTypeFont

FONT_PACKAGE = "font_source_sans_pro"
REGULAR = "SourceSansPro-Regular.ttf"
BOLD = "SourceSansPro-Bold.ttf"
ELLIPSIS = "…"


@lru_cache(maxsize=2)
def _font_file(name: str) -> bytes:
    return (resources.files(FONT_PACKAGE) / "files" / name).read_bytes()


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> Font:
    """Source Sans Pro at ``size`` px (Bold when ``bold``), cached per size and face."""
    return ImageFont.truetype(io.BytesIO(_font_file(BOLD if bold else REGULAR)), size)


@lru_cache(maxsize=1)
def _probe() -> Font:
    """The regular face with plain character-to-glyph lookup (no shaping), so a
    character the font lacks maps to its .notdef glyph and nothing else does."""
    return ImageFont.truetype(
        io.BytesIO(_font_file(REGULAR)), 24, layout_engine=ImageFont.Layout.BASIC
    )


def _mask_key(ch: str) -> tuple[tuple[int, int], bytes]:
    mask = _probe().getmask(ch)
    return mask.size, bytes(mask)


@lru_cache(maxsize=1)
def _notdef() -> tuple[tuple[int, int], bytes]:
    """What the font draws for a character it lacks (its .notdef box)."""
    return _mask_key("\U0010fffd")  # last private-use code point: no font maps it


@lru_cache(maxsize=8192)
def has_glyph(ch: str) -> bool:
    """True if the font really draws ``ch`` (spaces count; invisible controls do not)."""
    if ch == " ":
        return True
    size, ink = _mask_key(ch)
    if (size, ink) == _notdef():
        return False
    return ch.isspace() or any(ink)  # mapped but inkless: an invisible control


@lru_cache(maxsize=4096)
def printable(text: str) -> str:
    """``text`` reduced to what the font can draw: unknown characters (emoji, CJK…)
    are dropped and the spaces they leave collapsed, so "Zoë 🐪" gives "Zoë"."""
    kept = [
        " " if ch.isspace() else ch
        for ch in unicodedata.normalize("NFC", text)
        if ch.isspace() or has_glyph(ch)
    ]
    return " ".join("".join(kept).split())


def display_name(name: str, seat: int, lang: str) -> str:
    """The printable part of ``name``, or "Player N" (seat + 1) when none is left."""
    return printable(name) or catalogue.text(lang, "common.player", {"number": seat + 1})


@lru_cache(maxsize=8192)
def _length(shown: str, size: int, bold: bool) -> float:
    return font(size, bold).getlength(shown)


def text_width(text: str, size: int, *, bold: bool = False) -> float:
    """Advance width in px of ``text`` as :func:`draw_text` would draw it."""
    return _length(printable(text), size, bold)


@lru_cache(maxsize=4096)
def fit_text(text: str, size: int, max_width: float, *, bold: bool = False) -> str:
    """The printable ``text``, cut with an ellipsis if needed to fit ``max_width`` px."""
    shown = printable(text)
    if _length(shown, size, bold) <= max_width:
        return shown
    if _length(ELLIPSIS, size, bold) > max_width:
        return ""
    low, high = 0, len(shown)  # longest prefix that fits, by bisection
    while low < high:
        mid = (low + high + 1) // 2
        if _length(shown[:mid].rstrip() + ELLIPSIS, size, bold) <= max_width:
            low = mid
        else:
            high = mid - 1
    return shown[:low].rstrip() + ELLIPSIS


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    text: str,
    size: int,
    fill: Sequence[int],
    *,
    anchor: str = "la",
    bold: bool = False,
    outline: Sequence[int] | None = None,
    outline_width: int = 0,
) -> float:
    """Draw the printable ``text`` at ``xy`` (Pillow ``anchor``); returns its width.

    ``outline`` draws a halo of ``outline_width`` px so a label stays legible
    on any background.
    """
    shown = printable(text)
    if not shown:
        return 0.0
    draw.text(
        xy,
        shown,
        font=font(size, bold),
        fill=tuple(fill),
        anchor=anchor,
        stroke_width=outline_width if outline is not None else 0,
        stroke_fill=None if outline is None else tuple(outline),
    )
    return _length(shown, size, bold)
