"""Text: Source Sans Pro (regular and bold), printable names, fitting and drawing,
and the sizes that stay legible on a phone.

The font files come with the ``font-source-sans-pro`` package (SIL Open Font
Licence): Latin with every French accent, Greek and Cyrillic, in a real bold
face. Nothing is fetched and no system font is used, so a board looks the
same on every host. Characters the font has no glyph for (emoji, CJK…) are
dropped before drawing, never shown as boxes, and so are invisible ones
(bidi overrides, zero-width spaces, soft hyphens, controls) and combining
marks stacked past :data:`MAX_MARKS`; a name is capped at :data:`NAME_LIMIT`
characters, and one with nothing printable left becomes the catalogue's
"Player N".

Legibility: Discord shows a posted image about :data:`PHONE_WIDTH` px wide
on a phone, so a label drawn ``size`` px high on an image ``width`` px wide
is seen ``size * PHONE_WIDTH / width`` px high. :data:`MIN_PHONE_PX` gives,
per role of a text (the ``role`` of :func:`draw_text`), the least seen size:
9 px for secondary labels (space names, coordinates, titles), 11 px for
what players read first (status line, names, scores). :func:`legible_size`
turns that into the size to draw; :func:`recording_text` lists every text
drawn, with its size and role, so tests can check it.
"""

from __future__ import annotations

import io
import math
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Protocol, TypeVar

from PIL import Image, ImageDraw, ImageFont

from games import catalogue
from render.shapes import Point

Font = ImageFont.FreeTypeFont

FONT_PACKAGE = "font_source_sans_pro"
REGULAR = "SourceSansPro-Regular.ttf"
BOLD = "SourceSansPro-Bold.ttf"
ELLIPSIS = "…"
NAME_LIMIT = 32  # characters of a player's name drawn at most (Discord's own limit)
MAX_MARKS = 2  # combining marks drawn on one letter: more would overflow its line
# Never drawn, even where the font maps them (the soft hyphen has ink):
# controls, format characters (bidi overrides and isolates, zero-width
# spaces and joiners, BOM, soft hyphen…) and lone surrogates.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})

# --------------------------------------------------------------------------- legibility

PHONE_WIDTH = 550  # px: how wide Discord shows a posted image on a phone
MIN_PHONE_PX: Mapping[str, int] = {
    # what players read first
    "status": 11,  # the status line: phase, who plays, who won
    "name": 11,  # players' names
    "score": 11,  # scores and other per-player values
    # secondary labels
    "space": 9,  # a square's name on the board ("F7")
    "coordinate": 9,  # column letters and row numbers around a grid
    "title": 9,  # column titles, row labels
    "badge": 9,  # small tags ("AI", "resigned")
    "value": 9,  # numbers printed on pieces and tokens
}


def phone_px(size: float, width: int) -> float:
    """How high a ``size`` px text of an image ``width`` px wide is seen on a phone."""
    return size * PHONE_WIDTH / width


def legible_size(role: str, width: int, size: int = 0) -> int:
    """``size``, raised if needed so a ``role`` text stays legible on an image
    ``width`` px wide once shown on a phone (:data:`MIN_PHONE_PX`)."""
    return max(size, math.ceil(MIN_PHONE_PX[role] * width / PHONE_WIDTH - 1e-9))


@dataclass(frozen=True)
class DrawnText:
    """One :func:`draw_text` call, as :func:`recording_text` lists it."""

    text: str  # as drawn (printable)
    size: int
    role: str
    bold: bool
    xy: tuple[float, float]
    anchor: str


_RECORDS: ContextVar[tuple[list[DrawnText], ...]] = ContextVar("_RECORDS", default=())


class _Cache(Protocol):
    def cache_clear(self) -> None: ...


_C = TypeVar("_C", bound=_Cache)
_DRAWING_CACHES: list[Callable[[], None]] = []


def drawing_cache(cached: _C) -> _C:
    """Register an ``lru_cache``d function that draws text (a sprite, a layer),
    so :func:`recording_text` empties it and sees its texts drawn again.

    Use above ``@lru_cache``: ``@drawing_cache`` then ``@lru_cache(maxsize=…)``.
    """
    _DRAWING_CACHES.append(cached.cache_clear)
    return cached


@contextmanager
def recording_text() -> Iterator[list[DrawnText]]:
    """Every text drawn inside the ``with`` block (this thread or task), in order.

    Cached drawings (see :func:`drawing_cache`) are emptied first so their
    texts are drawn, hence listed, too. For tests and tools.
    """
    for clear in _DRAWING_CACHES:
        clear()
    log: list[DrawnText] = []
    token = _RECORDS.set((*_RECORDS.get(), log))
    try:
        yield log
    finally:
        _RECORDS.reset(token)


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


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


@lru_cache(maxsize=4096)
def printable(text: str) -> str:
    """``text`` reduced to what the font can draw: unknown characters (emoji, CJK…)
    and invisible ones (:data:`INVISIBLE_CATEGORIES`) are dropped and the spaces
    they leave collapsed, so "Zoë 🐪" gives "Zoë" and "\u202eevil" "evil"; a
    letter keeps at most :data:`MAX_MARKS` combining marks."""
    kept: list[str] = []
    marks = MAX_MARKS  # marks the last character may still take (none at the start)
    for ch in unicodedata.normalize("NFC", text):
        if ch.isspace():
            kept.append(" ")
            marks = MAX_MARKS
        elif unicodedata.category(ch) in INVISIBLE_CATEGORIES:
            continue
        elif _is_mark(ch):
            if marks < MAX_MARKS and has_glyph(ch):
                kept.append(ch)
            marks += 1
        elif has_glyph(ch):
            kept.append(ch)
            marks = 0
        else:  # a dropped letter drops its marks too
            marks = MAX_MARKS
    return " ".join("".join(kept).split())


def _whole(text: str, end: int) -> int:
    """``end``, moved back so ``text[:end]`` leaves no combining mark off its letter."""
    while 0 < end < len(text) and _is_mark(text[end]):
        end -= 1
    return end


def cap(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending with "…" when cut,
    never between a letter and its combining marks."""
    if len(text) <= limit:
        return text
    return text[: _whole(text, limit - len(ELLIPSIS))].rstrip() + ELLIPSIS


def display_name(name: str, seat: int, lang: str) -> str:
    """The printable part of ``name`` capped at :data:`NAME_LIMIT` characters,
    or "Player N" (seat + 1) when none is left."""
    shown = printable(name)
    if not shown:
        return catalogue.text(lang, "common.player", {"number": seat + 1})
    return cap(shown, NAME_LIMIT)


def display_names(names: Sequence[str], players: int, lang: str) -> list[str]:
    """A printable name per seat; "Player N" stands in for missing or unprintable ones."""
    return [
        display_name(names[seat] if seat < len(names) else "", seat, lang)
        for seat in range(players)
    ]


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
    return shown[: _whole(shown, low)].rstrip() + ELLIPSIS


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
    role: str = "",
) -> float:
    """Draw the printable ``text`` at ``xy`` (Pillow ``anchor``); returns its width.

    ``outline`` draws a halo of ``outline_width`` px so a label stays legible
    on any background. ``role`` (a :data:`MIN_PHONE_PX` key) says what the
    text is for, so tests can check it is legible on a phone.
    """
    shown = printable(text)
    if not shown:
        return 0.0
    for log in _RECORDS.get():
        log.append(DrawnText(shown, size, role, bold, (float(xy[0]), float(xy[1])), anchor))
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


@lru_cache(maxsize=1024)
def _stamp(
    shown: str,
    size: int,
    bold: bool,
    anchor: str,
    fill: tuple[int, ...],
    outline: tuple[int, ...] | None,
    outline_width: int,
) -> tuple[tuple[int, int], Image.Image]:
    """A text (on its halo) as an RGBA image, with its offset from the anchor point."""
    face = font(size, bold)
    stroke = outline_width if outline is not None else 0
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    left, top, right, bottom = probe.textbbox(
        (0, 0), shown, font=face, anchor=anchor, stroke_width=stroke
    )
    left, top = math.floor(left), math.floor(top)
    box = (math.ceil(right) - left, math.ceil(bottom) - top)
    stamp = Image.new("RGBA", box, (*(outline or fill)[:3], 0))
    if outline is not None and stroke:
        halo = Image.new("L", box, 0)
        ImageDraw.Draw(halo).text(
            (-left, -top), shown, fill=255, font=face, anchor=anchor, stroke_width=stroke
        )
        stamp.putalpha(halo)
    text = Image.new("L", box, 0)
    ImageDraw.Draw(text).text((-left, -top), shown, fill=255, font=face, anchor=anchor)
    ink = Image.new("RGBA", box, (*fill[:3], 0))
    ink.putalpha(text)
    stamp.alpha_composite(ink)
    return (left, top), stamp


def stamp_text(
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
) -> None:
    """Like :func:`draw_text`, from a cached stamp: for the same labels drawn on
    every render (square names…), many times faster. ``xy`` is rounded to
    whole px; ``image`` is RGB."""
    shown = printable(text)
    if not shown:
        return
    for log in _RECORDS.get():
        log.append(DrawnText(shown, size, role, bold, (float(xy[0]), float(xy[1])), anchor))
    halo = None if outline is None else tuple(outline)
    (dx, dy), stamp = _stamp(shown, size, bold, anchor, tuple(fill), halo, outline_width)
    image.paste(stamp, (round(xy[0]) + dx, round(xy[1]) + dy), stamp)
