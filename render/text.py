"""Text: fonts for every player's name, printable names, fitting and drawing,
and the sizes that stay legible on a phone.

Fonts: every file comes with a package this project installs (SIL Open Font
Licence), found through :mod:`importlib.resources`; no system font is ever
used and nothing is fetched, so a board looks the same on every host.
:data:`FACES` is the chain, tried character by character:

- Source Sans Pro (``font-source-sans-pro``): Latin with every French
  accent, Greek and Cyrillic, in a real bold face. It draws every character
  it has; the fallbacks below are only asked for their own scripts' blocks.
- Noto Sans Arabic (``fontpkg-noto-sans-arabic``): Arabic, Persian, Urdu;
  a variable font, bold at weight 700.
- Heebo (``fontpkg-heebo``): Hebrew; a variable font, bold at weight 700.
- Noto Sans CJK JP (``noto-cjk-sans-jp-regular``): the whole of Noto Sans
  CJK (kana, hangul, about 30,000 ideographs, simplified and traditional),
  Japanese glyph forms by default. One weight only: bold is synthetic, the
  glyphs thickened by a stroke of their own colour (:func:`_embolden`).

Fallback fonts are loaded only when a character needs them, and cached per
size like the main one, so a name Source Sans Pro draws alone costs what it
always did (one Pillow call, same pixels).

Drawing: a text is cut into runs, one per font and direction
(:func:`text_runs`). Right-to-left text (Arabic, Hebrew) is laid out with a
small bidi algorithm: the first strong letter sets the direction of the
whole text, digits stay left to right, neutrals (spaces, punctuation) follow
the letters around them, and runs are put in visual order as the Unicode
bidi algorithm (rule L2) does. Each run is shaped by Pillow's Raqm layout
(HarfBuzz: Arabic letters joined, marks placed), ``direction="rtl"`` for
right-to-left ones. Raqm needs the host's FriBiDi library; where it is
missing, Arabic is shaped here into its presentation forms and runs are
reversed by hand (:func:`shape_arabic`), so the name still reads right.
Widths (:func:`text_width`, :func:`fit_text`) add up the same runs, so
measuring matches drawing; vertical anchors use Source Sans Pro's metrics
whatever font draws, so a name lines up with the Latin labels beside it.

Characters no font of the chain draws (emoji, rare symbols) are dropped
before drawing, never shown as boxes, and so are invisible ones (bidi
overrides, zero-width spaces, soft hyphens, controls) and combining marks
stacked past :data:`MAX_MARKS`; a name is capped at :data:`NAME_LIMIT`
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

import math
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Protocol, TypeVar

import PIL
from PIL import Image, ImageDraw, ImageFont, features

from games import catalogue
from render.glyphs import MASKS, MaskKeepingFont
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

# --------------------------------------------------------------------------- fonts

Blocks = tuple[tuple[int, int], ...]  # inclusive code point ranges

ARABIC: Blocks = (
    (0x0600, 0x06FF),  # Arabic
    (0x0750, 0x077F),  # Arabic Supplement
    (0x0870, 0x08FF),  # Arabic Extended-B and -A
    (0xFB50, 0xFDFF),  # Arabic Presentation Forms-A
    (0xFE70, 0xFEFF),  # Arabic Presentation Forms-B
)
HEBREW: Blocks = (
    (0x0590, 0x05FF),  # Hebrew
    (0xFB1D, 0xFB4F),  # Hebrew presentation forms
)
CJK: Blocks = (
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x2E80, 0x2FDF),  # CJK Radicals Supplement, Kangxi Radicals
    (0x2FF0, 0x303F),  # Ideographic Description, CJK Symbols and Punctuation
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x31FF),  # Bopomofo, Hangul Compatibility Jamo, Kanbun, CJK Strokes…
    (0x3200, 0x33FF),  # Enclosed CJK Letters and Months, CJK Compatibility
    (0x3400, 0x4DBF),  # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xA960, 0xA97F),  # Hangul Jamo Extended-A
    (0xAC00, 0xD7FF),  # Hangul Syllables, Hangul Jamo Extended-B
    (0xF900, 0xFAFF),  # CJK Compatibility Ideographs
    (0xFE30, 0xFE4F),  # CJK Compatibility Forms
    (0xFF00, 0xFFEF),  # Halfwidth and Fullwidth Forms
    (0x20000, 0x3134F),  # CJK Unified Ideographs Extensions B to G
)


@dataclass(frozen=True)
class Face:
    """A font of the chain: the package that brings it and what it is asked for."""

    name: str
    package: str  # the import name of the package holding the file
    regular: str  # the file's name, or the start of it (``NotoSansArabic[`` for
    # ``NotoSansArabic[wdth,wght].ttf``), in the package or its ``files`` folder
    bold: str = ""  # a real bold file, if any
    bold_weight: int = 0  # or, for a variable font, the weight ("wght") of its bold
    blocks: Blocks = ()  # the code points it draws; empty: any it has a glyph for

    @property
    def synthetic_bold(self) -> bool:
        """No bold face: bold is drawn thickened (:func:`_embolden`)."""
        return not self.bold and not self.bold_weight


FACES: tuple[Face, ...] = (
    Face("Source Sans Pro", FONT_PACKAGE, REGULAR, bold=BOLD),
    Face(
        "Noto Sans Arabic",
        "fontpkg_noto_sans_arabic",
        "NotoSansArabic[",
        bold_weight=700,
        blocks=ARABIC,
    ),
    Face("Heebo", "fontpkg_heebo", "Heebo[", bold_weight=700, blocks=HEBREW),
    # One weight only (a second one would add 17 MB): bold is synthetic.
    Face("Noto Sans CJK JP", "noto_cjk_sans_jp_regular", "NotoSansCJKjp-Regular", blocks=CJK),
)
MAIN = 0  # Source Sans Pro: the face of every Latin label, whose metrics place all text

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


drawing_cache(MASKS)  # glyph masks draw no text themselves; emptied all the same


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


RAQM = features.check_feature("raqm")  # shaping and bidi by HarfBuzz/FriBiDi (see above)
# Pillow takes a fractional stroke width from 11.1 on; before, whole pixels only.
_FRACTIONAL_STROKE = tuple(int(p) for p in PIL.__version__.split(".")[:2]) >= (11, 1)


@lru_cache(maxsize=16)
def font_path(face: int, bold: bool = False) -> Path:
    """The file of ``FACES[face]`` (its bold file when ``bold`` and it has one),
    inside the package that brings it."""
    spec = FACES[face]
    wanted = spec.bold if bold and spec.bold else spec.regular
    root = resources.files(spec.package)
    for folder in (root / "files", root):
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.startswith(wanted) and entry.name.endswith((".ttf", ".otf")):
                return Path(str(entry))
    raise FileNotFoundError(f"{wanted} is not in the {spec.package} package")


def _load(face: int, size: int, bold: bool, layout: ImageFont.Layout | None = None) -> Font:
    spec = FACES[face]
    loaded = MaskKeepingFont(str(font_path(face, bold)), size, layout_engine=layout)
    loaded.ident = (face, size, bold, layout)  # what sets its glyphs, for its kept masks
    if bold and spec.bold_weight:  # a variable font: its weight axis to bold
        axes = loaded.get_variation_axes()
        loaded.set_variation_by_axes(
            [
                spec.bold_weight if axis["name"] == b"Weight" else float(axis["default"] or 0)
                for axis in axes
            ]
        )
    return loaded


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> Font:
    """Source Sans Pro at ``size`` px (Bold when ``bold``), cached per size and face."""
    return _load(MAIN, size, bold)


@lru_cache(maxsize=64)
def _fallback(face: int, size: int, bold: bool) -> Font:
    # a fallback holds a lot (Noto Sans CJK: about 1 MB a size), so fewer are kept
    return _load(face, size, bold and not FACES[face].synthetic_bold)


def face_font(face: int, size: int, bold: bool = False) -> Font:
    """``FACES[face]`` at ``size`` px, bold if it has a bold (see :func:`_embolden`)."""
    return font(size, bold) if face == MAIN else _fallback(face, size, bold)


def _embolden(face: int, size: int, bold: bool) -> float:
    """The stroke, in the text's own colour, that makes a face with no bold look bold."""
    if not bold or not FACES[face].synthetic_bold:
        return 0
    return size / 40 if _FRACTIONAL_STROKE else max(1, round(size / 40))


# --------------------------------------------------------------------------- glyphs


@lru_cache(maxsize=len(FACES))
def _probe(face: int = MAIN) -> Font:
    """A face with plain character-to-glyph lookup (no shaping), so a character
    it lacks maps to its .notdef glyph and nothing else does."""
    return _load(face, 24, False, ImageFont.Layout.BASIC)


def _mask_key(face: int, ch: str) -> tuple[tuple[int, int], bytes]:
    mask = _probe(face).getmask(ch)
    return mask.size, bytes(mask)


@lru_cache(maxsize=len(FACES))
def _notdef(face: int) -> tuple[tuple[int, int], bytes]:
    """What a face draws for a character it lacks (its .notdef box)."""
    return _mask_key(face, "\U0010fffd")  # last private-use code point: no font maps it


@lru_cache(maxsize=16384)
def _face_has(face: int, ch: str) -> bool:
    if ch == " ":
        return True
    size, ink = _mask_key(face, ch)
    if (size, ink) == _notdef(face):
        return False
    return ch.isspace() or any(ink)  # mapped but inkless: an invisible control


@lru_cache(maxsize=len(FACES))
def _installed(face: int) -> bool:
    """Whether a fallback's package and file are there: if not, its script is
    dropped like emoji (so "Player N" at worst), rather than the board failing."""
    try:
        font_path(face)
    except (ModuleNotFoundError, FileNotFoundError):
        return False
    return True


@lru_cache(maxsize=8192)
def _candidates(ch: str) -> tuple[int, ...]:
    """The faces that may draw ``ch``, in order: Source Sans Pro, then the
    fallback whose blocks hold it."""
    point = ord(ch)
    return (MAIN,) + tuple(
        i
        for i, spec in enumerate(FACES)
        if i != MAIN and any(low <= point <= high for low, high in spec.blocks) and _installed(i)
    )


@lru_cache(maxsize=8192)
def face_of(ch: str) -> int | None:
    """The face that draws ``ch`` (an index in :data:`FACES`), None if none does."""
    return next((face for face in _candidates(ch) if _face_has(face, ch)), None)


def has_glyph(ch: str) -> bool:
    """True if a font of the chain really draws ``ch`` (spaces count; invisible
    controls do not)."""
    return face_of(ch) is not None


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


@lru_cache(maxsize=4096)
def printable(text: str) -> str:
    """``text`` reduced to what the fonts can draw: unknown characters (emoji…)
    and invisible ones (:data:`INVISIBLE_CATEGORIES`) are dropped and the spaces
    they leave collapsed, so "Zoë 🐪" gives "Zoë" and "\u202eevil" "evil"; a
    letter keeps at most :data:`MAX_MARKS` combining marks. Kept text is NFC."""
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


# --------------------------------------------------------------------------- runs and bidi

_RTL_CLASSES = frozenset({"R", "AL"})


def _levels(text: str) -> list[int]:
    """A bidi embedding level per character of ``text`` (0: left to right in a
    left-to-right text, 1: right to left, 2: left to right inside right to
    left), a simplification of the Unicode bidi algorithm enough for names:
    no explicit embeddings (printable text has none), numbers kept whole."""
    classes: list[str] = []
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind == "NSM":  # a mark goes with its letter
            kind = classes[-1] if classes else "ON"
        classes.append(kind)
    rtl = next((kind in _RTL_CLASSES for kind in classes if kind in _RTL_CLASSES | {"L"}), False)
    base = "R" if rtl else "L"
    # strong direction per character: "L", "R", "N" (a number after right to
    # left text, or any Arabic-Indic one) or "" (neutral, resolved below)
    strong: list[str] = []
    last = base
    for kind in classes:
        if kind == "L" or kind in _RTL_CLASSES:
            last = "L" if kind == "L" else "R"
            strong.append(last)
        elif kind == "EN":
            strong.append("L" if last == "L" else "N")
        elif kind == "AN":
            strong.append("N")
        else:
            strong.append("")
    side = {"L": "L", "R": "R", "N": "R"}  # numbers count as right to left for neutrals
    i = 0
    while i < len(strong):
        if strong[i]:
            i += 1
            continue
        j = i
        while j < len(strong) and not strong[j]:
            j += 1
        before = side[strong[i - 1]] if i else base
        after = side[strong[j]] if j < len(strong) else base
        strong[i:j] = [before if before == after else base] * (j - i)
        i = j
    if rtl:
        return [{"L": 2, "R": 1, "N": 2}[s] for s in strong]
    return [{"L": 0, "R": 1, "N": 2}[s] for s in strong]


@dataclass(frozen=True)
class _Run:
    """Characters of one face and direction, as Pillow is given them."""

    text: str  # what Pillow draws: logical order with Raqm, visual order without
    face: int
    direction: str | None  # "ltr" or "rtl" for Raqm; None: drawn as is
    chars: str  # the characters, in reading order
    rtl: bool


def _visual(logical: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """Runs ``(text, face, level)`` from logical to visual order (bidi rule L2)."""
    runs = list(logical)
    top = max(level for _, _, level in runs)
    for level in range(top, 0, -1):
        i = 0
        while i < len(runs):
            if runs[i][2] < level:
                i += 1
                continue
            j = i
            while j < len(runs) and runs[j][2] >= level:
                j += 1
            runs[i:j] = runs[i:j][::-1]
            i = j
    return runs


@lru_cache(maxsize=4096)
def _runs(shown: str) -> tuple[_Run, ...]:
    """The printable ``shown`` cut into runs of one face and one direction,
    left to right as drawn. A combining mark stays with its letter's face
    when that face has it."""
    levels = _levels(shown)
    logical: list[tuple[str, int, int]] = []
    face = MAIN
    for ch, level in zip(shown, levels, strict=True):
        if not (logical and _is_mark(ch) and _face_has(face, ch)):
            face = face_of(ch) or MAIN
        if logical and logical[-1][1:] == (face, level):
            logical[-1] = (logical[-1][0] + ch, face, level)
        else:
            logical.append((ch, face, level))
    if not logical:
        return ()
    found: list[_Run] = []
    for text, face, level in _visual(logical):
        rtl = level % 2 == 1
        if RAQM:
            found.append(_Run(text, face, "rtl" if rtl else "ltr", text, rtl))
        else:
            shaped = shape_arabic(text, face) if rtl and face == ARABIC_FACE else text
            found.append(_Run(_reverse(shaped) if rtl else shaped, face, None, text, rtl))
    return tuple(found)


def text_runs(text: str) -> list[tuple[str, str, str]]:
    """How the printable ``text`` is drawn: ``(characters, font name,
    direction)`` per run, left to right on the image (characters in reading
    order). For tests and tools."""
    return [
        (run.chars, FACES[run.face].name, "rtl" if run.rtl else "ltr")
        for run in _runs(printable(text))
    ]


def _simple(runs: tuple[_Run, ...]) -> bool:
    """One left-to-right run of Source Sans Pro: drawn by one Pillow call, as always."""
    return len(runs) == 1 and runs[0].face == MAIN and not runs[0].rtl


# --------------------------------------------------------------------------- Arabic without Raqm

ARABIC_FACE = next(i for i, spec in enumerate(FACES) if spec.blocks == ARABIC)
_FORMS = ("isolated", "final", "initial", "medial")
_LAM, _ALEFS, _TATWEEL = "\u0644", "\u0622\u0623\u0625\u0627", "\u0640"


@lru_cache(maxsize=1)
def _arabic_forms() -> dict[tuple[str, str], str]:
    """``(letter, form) -> presentation form``, read from Unicode's
    decompositions of the presentation forms blocks (lam-alef ligatures too)."""
    forms: dict[tuple[str, str], str] = {}
    for point in (*range(0xFE70, 0xFF00), *range(0xFB50, 0xFE00)):
        tag, *parts = unicodedata.decomposition(chr(point)).split() or [""]
        letters = "".join(chr(int(part, 16)) for part in parts)
        if tag[1:-1] in _FORMS and (len(letters) == 1 or letters[:1] == _LAM):
            forms.setdefault((letters, tag[1:-1]), chr(point))
    return forms


def _joins(ch: str, side: str) -> bool:
    """Whether Arabic ``ch`` joins the letter before it ("final") or after it ("initial")."""
    return ch == _TATWEEL or (ch, side) in _arabic_forms()


def shape_arabic(text: str, face: int = ARABIC_FACE) -> str:
    """``text`` (logical order) with each Arabic letter replaced by its joined
    form (isolated, final, initial or medial presentation form) and lam-alef
    by its ligature, where ``FACES[face]`` has the glyph: how Arabic is drawn
    when Pillow has no Raqm to shape it."""
    forms = _arabic_forms()
    letters = [i for i, ch in enumerate(text) if not _is_mark(ch)]  # marks are transparent
    out = list(text)
    skip: set[int] = set()
    for n, i in enumerate(letters):
        if i in skip:
            continue
        ch = text[i]
        before = text[letters[n - 1]] if n else ""  # an alef (of a lam-alef) never joins on
        after = text[letters[n + 1]] if n + 1 < len(letters) else ""
        joined = bool(before) and _joins(before, "initial") and _joins(ch, "final")
        if ch == _LAM and after and after in _ALEFS:
            ligature = forms.get((ch + after, "final" if joined else "isolated"))
            if ligature and _face_has(face, ligature):
                out[i], out[letters[n + 1]] = ligature, ""
                skip.add(letters[n + 1])
                continue
        joins_on = bool(after) and _joins(ch, "initial") and _joins(after, "final")
        form = ("medial" if joins_on else "final") if joined else "initial" if joins_on else ""
        shaped = forms.get((ch, form or "isolated"))
        if shaped and _face_has(face, shaped):
            out[i] = shaped
    return "".join(out)


_MIRRORED = str.maketrans("()[]{}<>«»‹›", ")(][}{><»«›‹")


def _reverse(text: str) -> str:
    """``text`` in reverse order, as drawn right to left without Raqm: brackets
    mirrored, and each letter's combining marks put before it (a mark has no
    advance, so it then lies on the letter drawn after it)."""
    clusters: list[str] = []
    for ch in text.translate(_MIRRORED):
        if clusters and _is_mark(ch):
            clusters[-1] = ch + clusters[-1]
        else:
            clusters.append(ch)
    return "".join(reversed(clusters))


# --------------------------------------------------------------------------- measuring


@lru_cache(maxsize=8192)
def _run_length(run: _Run, size: int, bold: bool) -> float:
    return face_font(run.face, size, bold).getlength(run.text, direction=run.direction)


@lru_cache(maxsize=8192)
def _length(shown: str, size: int, bold: bool) -> float:
    runs = _runs(shown)
    if _simple(runs):
        return font(size, bold).getlength(shown)
    return sum(_run_length(run, size, bold) for run in runs)


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


# --------------------------------------------------------------------------- drawing


@dataclass(frozen=True)
class _Placed:
    """A text's runs placed for one anchor: each run's pen position (left end,
    baseline) relative to the anchor point."""

    runs: tuple[tuple[_Run, float], ...]  # (run, its left end from the text's)
    left: float  # the text's left end, from the anchor point
    baseline: float  # the baseline, from the anchor point
    bold: bool
    size: int


@lru_cache(maxsize=4096)
def _place(shown: str, size: int, bold: bool, anchor: str) -> _Placed:
    """Where the runs of ``shown`` go for a Pillow ``anchor``: horizontally on
    the whole width, vertically on Source Sans Pro's ascender, middle,
    baseline or descender (``t``/``b``: the ink of all runs)."""
    runs = _runs(shown)
    placed: list[tuple[_Run, float]] = []
    x = 0.0
    for run in runs:
        placed.append((run, x))
        x += _run_length(run, size, bold)
    left = -x * {"l": 0.0, "m": 0.5, "r": 1.0}[anchor[0]]
    vertical = anchor[1]
    if vertical in "tb":
        tops, bottoms = zip(
            *(
                face_font(run.face, size, bold).getbbox(
                    run.text, anchor="ls", direction=run.direction
                )[1::2]
                for run in runs
            ),
            strict=True,
        )
        baseline = -float(min(tops)) if vertical == "t" else -float(max(bottoms))
    else:
        main = font(size, bold)
        baseline = float(main.getbbox("x", anchor="l" + vertical)[1])
        baseline -= main.getbbox("x", anchor="ls")[1]
    return _Placed(tuple(placed), left, baseline, bold, size)


def _draw_runs(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    placed: _Placed,
    fill: tuple[int, ...],
    outline: tuple[int, ...] | None,
    outline_width: int,
) -> None:
    """Draw placed runs at anchor point ``xy``: every halo first, then every run."""
    x0, y = xy[0] + placed.left, xy[1] + placed.baseline
    passes: list[tuple[tuple[int, ...], float]] = [(fill, 0.0)]
    if outline is not None and outline_width:
        passes.insert(0, (outline, float(outline_width)))
    for colour, halo in passes:
        for run, x in placed.runs:
            face = face_font(run.face, placed.size, placed.bold)
            stroke = halo + _embolden(run.face, placed.size, placed.bold)
            draw.text(
                (x0 + x, y),
                run.text,
                font=face,
                fill=colour,
                anchor="ls",
                direction=run.direction,
                stroke_width=stroke,
                stroke_fill=colour if stroke else None,
            )


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
    if _simple(_runs(shown)):
        draw.text(
            xy,
            shown,
            font=font(size, bold),
            fill=tuple(fill),
            anchor=anchor,
            stroke_width=outline_width if outline is not None else 0,
            stroke_fill=None if outline is None else tuple(outline),
        )
    else:
        halo = None if outline is None else tuple(outline)
        at = (float(xy[0]), float(xy[1]))
        _draw_runs(draw, at, _place(shown, size, bold, anchor), tuple(fill), halo, outline_width)
    return _length(shown, size, bold)


def draw_text_on(
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
    """:func:`draw_text` straight on ``image``; translucent colours blend with
    what is under them, as on an ``RGBA`` draw. Returns the text's width."""
    opaque = len(fill) == 3 and (outline is None or len(outline) == 3)
    return draw_text(
        ImageDraw.Draw(image, None if opaque else "RGBA"),
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


def _ink_box(placed: _Placed, stroke: int) -> tuple[int, int, int, int]:
    """The box, from the anchor point, that the placed runs' ink (and halo) fills."""
    boxes = []
    for run, x in placed.runs:
        width = stroke + _embolden(run.face, placed.size, placed.bold)
        left, top, right, bottom = face_font(run.face, placed.size, placed.bold).getbbox(
            run.text, anchor="ls", direction=run.direction, stroke_width=width
        )
        dx, dy = placed.left + x, placed.baseline
        boxes.append((left + dx, top + dy, right + dx, bottom + dy))
    return (
        math.floor(min(b[0] for b in boxes)),
        math.floor(min(b[1] for b in boxes)),
        math.ceil(max(b[2] for b in boxes)),
        math.ceil(max(b[3] for b in boxes)),
    )


def _stamp_runs(
    placed: _Placed, fill: tuple[int, ...], outline: tuple[int, ...] | None, stroke: int
) -> tuple[tuple[int, int], Image.Image]:
    """:func:`_stamp` for text of several runs or right to left."""
    left, top, right, bottom = _ink_box(placed, stroke)
    box = (right - left, bottom - top)
    origin = (float(-left), float(-top))
    stamp = Image.new("RGBA", box, (*(outline or fill)[:3], 0))
    if outline is not None and stroke:
        halo = Image.new("L", box, 0)
        _draw_runs(ImageDraw.Draw(halo), origin, placed, (255,), (255,), stroke)
        stamp.putalpha(halo)
    text = Image.new("L", box, 0)
    _draw_runs(ImageDraw.Draw(text), origin, placed, (255,), None, 0)
    ink = Image.new("RGBA", box, (*fill[:3], 0))
    ink.putalpha(text)
    stamp.alpha_composite(ink)
    return (left, top), stamp


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
    stroke = outline_width if outline is not None else 0
    if not _simple(_runs(shown)):
        return _stamp_runs(_place(shown, size, bold, anchor), fill, outline, stroke)
    face = font(size, bold)
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
