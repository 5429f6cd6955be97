"""Board image of Through the Desert, drawn from a :class:`DesertView`.

Layout: the hex board on top (coordinates on all four sides), the shared
score panel (:mod:`render.panel`) below it. With 2-3 players the small
section (columns P-S) is out of play and left out: the image stops after
column O (the coordinates stay the real ones). Hexes have the same size at
every player count, so a 2-3 player board is about 1000 px wide and a 4-5
player board about 1240.

Legible on a phone (Discord shows the image about 550 px wide there): the
name of every square a piece may still take is written in it, dark on a
light halo, at a size that stays legible once shrunk
(:func:`render.text.legible_size`), and so are the coordinates and the
panel. The terrain and coordinates never change during a game, so they
form a static layer cached per board setup; each render draws over it only
what moves: areas, oases, water holes, space names, caravans, the last-turn
highlight and the panel. Words come from the catalogue (``desert.board.*``
and the shared ``common.*``).

Cost: what a few values decide comes from the pixels it got last time, by
those values (:mod:`render.memo`): the board with its oases and areas
(enclosed a few times a game), each square's name, the last turn's rings,
the caravan columns' titles, and the panel's rows (:mod:`render.panel_memo`);
the picture is the same to the pixel. About 8 MB of memos in all.

Pieces carry the owner's mark: the owner's shape, rimmed in ink, filled
with the owner's colour darkened just enough to stay distinct from every
camel colour (:func:`render.palette.distinct_shade`, see
:func:`mark_colour`); inside it a disc of the camel colour, ringed in ink,
shows the colour's letter at a size legible on a phone, so a piece reads
without colour vision too: its shape says whose, its letter which caravan.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

from PIL import Image, ImageDraw

from games import catalogue
from games.contract import Seat
from games.desert.board import SMALL_FIRST_COLUMN  # importing games.desert adds its catalogue
from games.desert.model import (
    COLOURS,
    COLUMNS,
    ROWS,
    Coord,
    DesertView,
    PlayerInfo,
    Terrain,
    coord_name,
)
from render.grids import HexGrid, draw_grid_labels, hex_corners, hex_neighbour
from render.memo import RegionCache, whole
from render.palette import (
    BACKDROP,
    GOLD,
    INK,
    MUTED,
    PAPER,
    RGB,
    distinct_shade,
    mix,
    player_style,
    with_alpha,
)
from render.panel import Cell, Column, Panel, Row, panel_height, panel_metrics
from render.panel_memo import draw_panel_cached
from render.png import png_bytes
from render.shapes import Box, Point, draw_crown, draw_palm, shape_points
from render.sprites import paste_centred, scaled, supersampled
from render.text import draw_text, drawing_cache, font, legible_size, stamp_text

TerrainKey = tuple[tuple[Coord, Terrain], ...]

# --------------------------------------------------------------------------- look

RADIUS = 34.6  # hex centre to corner, px: the 2-3 player board (A-O) is 1000 px wide
MARGIN_X = 36  # room for the row numbers
MARGIN_TOP = 38  # room for the column letters
GRID = HexGrid(RADIUS, (MARGIN_X + math.sqrt(3) * RADIUS / 2, MARGIN_TOP + RADIUS))
_BOARD_H = GRID.size(len(COLUMNS), ROWS)[1]
BOARD_BOTTOM = round(MARGIN_TOP + _BOARD_H + 38)  # below the bottom letters
MAIN_COLUMNS = SMALL_FIRST_COLUMN - 1  # A-O: what 2-3 players use


def board_width(columns: int) -> int:
    """Image width when the board shows its first ``columns`` columns."""
    return round(GRID.size(columns, ROWS)[0]) + 2 * MARGIN_X


WIDTH = board_width(len(COLUMNS))  # 4-5 players: every column

# Text sizes: the same at every player count, legible even on the widest image.
SPACE_SIZE = legible_size("space", WIDTH)  # square names ("F7")
COORD_SIZE = legible_size("coordinate", WIDTH)  # letters and numbers around the board
VALUE_SIZE = legible_size("value", WIDTH, 24)  # water hole values
LETTER_SIZE = legible_size("value", WIDTH, 22)  # the camel colour's letter on a piece

SAND: RGB = (236, 218, 170)
SAND_EDGE: RGB = (196, 168, 118)
PALM_SAND: RGB = (222, 220, 160)
OASIS_FILL: RGB = (150, 200, 120)
MOUNTAIN: RGB = (92, 76, 64)
MOUNTAIN_PEAK: RGB = (150, 128, 110)
SNOW: RGB = (240, 234, 224)
OUT_FILL: RGB = (150, 146, 140)
OUT_HATCH: RGB = (120, 116, 112)
WATER_FILL: RGB = (26, 104, 180)
BORDER_LINE: RGB = (120, 36, 24)
LABEL: RGB = (84, 62, 36)  # square names: dark brown…
LABEL_HALO: RGB = (248, 240, 214)  # …on a light halo, legible on sand, areas and hatching
ABSENT: RGB = (140, 124, 104)
LOW_SUPPLY = 4  # supplies at or below this are shown in warning colour

WATER_DY = -0.27  # water hole disc centre, in radii below the square's centre (above: < 0)
WATER_R = 0.4  # water hole disc radius, in radii
CAMEL_R = 0.64  # a camel piece's radius, in radii…
LEADER_R = 0.7  # …a leader's
DISC_R = 0.57  # the camel-colour disc in a piece, in the piece's radius…
DISC_RING = 2.2  # …and the ink ring around it, px

# Camel colours (not player colours); each piece also shows its letter.
CAMEL_RGB: Mapping[str, RGB] = {
    "white": (248, 248, 242),
    "yellow": (250, 214, 30),
    "orange": (242, 132, 24),
    "pink": (246, 158, 206),
    "green": (96, 190, 86),
}


def mark_colour(seat: Seat) -> RGB:
    """The seat's colour as its mark on pieces: darkened only as far as needed to
    stay distinct (CIEDE2000 ≥ 30) from every camel colour it may sit on."""
    return distinct_shade(player_style(seat).colour, tuple(CAMEL_RGB.values()))


# --------------------------------------------------------------------------- public API


def render_desert(
    view: DesertView,
    names: Sequence[str],
    lang: str = "en",
    tags: Sequence[str | None] | None = None,
) -> bytes:
    """PNG bytes of the board and score panel as ``view`` shows them.

    ``names[i]`` is seat i's display name; names that are missing or that
    the font cannot show at all fall back to "Player N". ``tags[i]``, when
    given, marks seat i's row: "bot" (an AI plays it), "resigned" or None.
    Pure and CPU-only: safe in a worker process (bot/cpu.py).
    """
    return png_bytes(render_desert_image(view, names, lang, tags))


def render_desert_image(
    view: DesertView,
    names: Sequence[str],
    lang: str = "en",
    tags: Sequence[str | None] | None = None,
) -> Image.Image:
    """The same picture as a Pillow RGB image (for tests and tools)."""
    panel = score_panel(view, names, lang, tags)
    terrain: TerrainKey = tuple(sorted(view.terrain.items()))
    columns = shown_columns(view)
    width = board_width(columns)
    # every pixel is drawn below: the ground, then the panel
    image = Image.new("RGB", (width, BOARD_BOTTOM + panel_height(panel, width)), None)
    draw = ImageDraw.Draw(image)  # opaque colours only: blending would be ~9x slower
    _draw_ground(image, draw, view, terrain, columns)
    _draw_water(image, view)
    _draw_space_names(image, view)
    _draw_caravan_links(draw, view)
    _draw_pieces(image, view, lang)
    _draw_last_turn(image, draw, view)
    _draw_score_panel(image, panel, lang)
    return image


def shown_columns(view: DesertView) -> int:
    """Columns drawn: A-O when the small section is out of play (2-3 players), else all."""
    return MAIN_COLUMNS if _small_section_unused(view.active) else len(COLUMNS)


def placeable(view: DesertView) -> list[Coord]:
    """Squares a piece may still take (some player, some colour): the ones whose
    name is written on the board. Free playable squares, water holes included."""
    return sorted(c for c in view.active if c not in view.pieces and c not in view.oases)


# --------------------------------------------------------------------------- static layers

# The board (terrain, grid, coordinates) per board setup: 4 MB each; a
# process rarely needs more than a few. Shared: callers paste it, never draw on it.


def _in_small(coord: Coord) -> bool:
    return coord[0] >= SMALL_FIRST_COLUMN


def _is_out(coord: Coord, terrain: Mapping[Coord, Terrain], active: frozenset[Coord]) -> bool:
    """Out of play: a sand square this player count does not use (greyed out)."""
    return terrain.get(coord) != "mountain" and coord not in active


def _small_section_unused(active: frozenset[Coord]) -> bool:
    return not any(_in_small(c) for c in active)


@drawing_cache
@lru_cache(maxsize=2)  # the ground (:func:`_draw_ground`) keeps the board of the latest render
def _board_layer(terrain_items: TerrainKey, active: frozenset[Coord], columns: int) -> Image.Image:
    """Terrain, grid, section border and coordinates of the first ``columns``
    columns, drawn once per board setup."""
    terrain = {c: kind for c, kind in terrain_items if c[0] <= columns}
    size = (board_width(columns), BOARD_BOTTOM)
    scale = 3

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        draw.rectangle((0, 0, size[0] * k, size[1] * k), fill=BACKDROP)
        for coord, kind in terrain.items():
            _paint_hex(draw, coord, kind, _is_out(coord, terrain, active), k)
        _paint_section_border(draw, terrain, k)

    layer = supersampled(size, paint, scale=scale).convert("RGB")
    draw = ImageDraw.Draw(layer)
    draw_grid_labels(draw, GRID, columns, ROWS, columns=COLUMNS, size=COORD_SIZE)
    return layer


def _paint_hex(draw: ImageDraw.ImageDraw, coord: Coord, kind: Terrain, out: bool, k: float) -> None:
    corners = scaled(GRID.corners(*coord), k)
    centre = (GRID.centre(*coord)[0] * k, GRID.centre(*coord)[1] * k)
    r = RADIUS * k
    if kind == "mountain":
        fill = mix(MOUNTAIN, OUT_FILL, 0.6) if out else MOUNTAIN
        draw.polygon(corners, fill=fill, outline=mix(fill, INK, 0.4), width=round(k))
        _paint_peaks(draw, centre, r, out)
        return
    if out:
        draw.polygon(corners, fill=OUT_FILL, outline=OUT_HATCH, width=round(k))
        return
    fill = PALM_SAND if kind == "palm" else SAND
    draw.polygon(corners, fill=fill, outline=SAND_EDGE, width=round(1.5 * k))
    if kind == "palm":
        _paint_palm(draw, (centre[0], centre[1] - r * 0.38), r * 0.42, faint=True)


def _paint_peaks(draw: ImageDraw.ImageDraw, centre: Point, r: float, out: bool) -> None:
    """Two snow-capped peaks: mountains read as mountains without colour."""
    cx, cy = centre
    peak = mix(MOUNTAIN_PEAK, OUT_FILL, 0.5) if out else MOUNTAIN_PEAK
    snow = mix(SNOW, OUT_FILL, 0.5) if out else SNOW
    for dx, h, w in ((-0.22, 0.62, 0.42), (0.2, 0.5, 0.36)):
        base_y = cy + r * 0.42
        top = (cx + dx * r, base_y - h * r)
        left = (cx + (dx - w) * r, base_y)
        right = (cx + (dx + w) * r, base_y)
        draw.polygon([top, right, left], fill=peak, outline=INK, width=max(1, round(r / 30)))
        cap = 0.32  # fraction of the peak height under snow
        draw.polygon(
            [
                top,
                (top[0] + (right[0] - top[0]) * cap, top[1] + (right[1] - top[1]) * cap),
                (top[0], top[1] + h * r * cap * 0.8),
                (top[0] + (left[0] - top[0]) * cap, top[1] + (left[1] - top[1]) * cap),
            ],
            fill=snow,
        )


def _paint_palm(draw: ImageDraw.ImageDraw, base: Point, size: float, *, faint: bool) -> None:
    """A palm tree whose trunk foot is ``base``; ``faint`` is the printed site mark."""
    if faint:
        draw_palm(draw, base, size, (170, 142, 96), (168, 176, 104), (150, 130, 90))
    else:
        draw_palm(draw, base, size, (120, 78, 40), (34, 120, 48), INK)


def _paint_section_border(
    draw: ImageDraw.ImageDraw, terrain: Mapping[Coord, Terrain], k: float
) -> None:
    """The thick zigzag line between columns O and P."""
    width = round(5 * k)
    for coord in terrain:
        if not _in_small(coord):
            continue
        for d in range(6):
            other = hex_neighbour(*coord, d)
            if other in terrain and not _in_small(other):
                a, b = GRID.edge(*coord, d)
                draw.line(scaled([a, b], k), fill=BORDER_LINE, width=width)
                for x, y in (a, b):  # round joints so the zigzag has no notches
                    rr = width / 2
                    draw.ellipse((x * k - rr, y * k - rr, x * k + rr, y * k + rr), fill=BORDER_LINE)


# --------------------------------------------------------------------------- sprites

_SPRITE = 4  # supersampling factor for sprites


@lru_cache(maxsize=8)
def _area_tile(seat: Seat) -> Image.Image:
    """A translucent hex hatched in the owner's colour, laid over an area square.

    Translucent so the square's own marks (name, water ring) stay readable.
    """
    colour = player_style(seat).colour
    w, h = math.ceil(GRID.width) + 2, math.ceil(2 * RADIUS) + 2
    centre = (w / 2, h / 2)

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        draw.polygon(scaled(hex_corners(centre, RADIUS * 0.95), k), fill=with_alpha(colour, 70))

    tile = supersampled((w, h), paint, _SPRITE)
    lines = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ldraw = ImageDraw.Draw(lines)
    for x in range(-h, w, 9):
        ldraw.line([(x, h), (x + h, 0)], fill=with_alpha(colour, 200), width=2)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).polygon(hex_corners(centre, RADIUS * 0.93), fill=255)
    tile.alpha_composite(Image.composite(lines, Image.new("RGBA", (w, h), (0, 0, 0, 0)), mask))
    return tile


@lru_cache(maxsize=1)
def _oasis_sprite() -> Image.Image:
    size = (round(GRID.width), round(2 * RADIUS))

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        cx, cy = size[0] / 2 * k, size[1] / 2 * k
        draw.polygon(hex_corners((cx, cy), RADIUS * 0.96 * k), fill=OASIS_FILL)
        rr = RADIUS * 0.5 * k
        draw.ellipse(
            (cx - rr, cy + rr * 0.2, cx + rr, cy + rr * 0.95),
            fill=(90, 160, 210),
            outline=INK,
            width=round(k),
        )  # the pool at the palm's foot
        _paint_palm(
            draw, (cx - RADIUS * 0.08 * k, cy + RADIUS * 0.3 * k), RADIUS * 0.6 * k, faint=False
        )

    return supersampled(size, paint, _SPRITE)


@drawing_cache
@lru_cache(maxsize=4)
def _water_sprite(value: int) -> Image.Image:
    """A water hole: its value in white on a blue disc (pasted above the square's name)."""
    d = round(RADIUS * WATER_R * 2) + 4

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        c = d / 2 * k
        r = RADIUS * WATER_R * k
        draw.ellipse((c - r, c - r, c + r, c + r), fill=PAPER)
        r2 = r - 2 * k
        draw.ellipse((c - r2, c - r2, c + r2, c + r2), fill=WATER_FILL, outline=INK, width=round(k))

    sprite = supersampled((d, d), paint, _SPRITE)
    draw_text(
        ImageDraw.Draw(sprite),
        (d / 2, d / 2 + 1),
        str(value),
        VALUE_SIZE,
        PAPER,
        anchor="mm",
        bold=True,
        role="value",
    )
    return sprite


def colour_letter(colour: str, lang: str) -> str:
    """The camel colour's letter in the game's language (white: w in English, b in French)."""
    return catalogue.text(lang, f"desert.colour_letter.{colour}")


def _piece_geometry(leader: bool) -> tuple[float, int, Point]:
    """A piece's radius, its sprite's side and the shape's centre in the sprite
    (a leader's lower, under its crown)."""
    radius = RADIUS * (LEADER_R if leader else CAMEL_R)
    d = round(radius * 2.9)
    return radius, d, (d / 2, d / 2 + (radius * 0.12 if leader else 0))


def piece_disc(seat: Seat, leader: bool) -> tuple[Point, float]:
    """The camel-colour disc of a piece, in its sprite: centre and radius (px).
    It sits at the shape's middle: a triangle's is lower than its box's."""
    radius, _, (x, y) = _piece_geometry(leader)
    if player_style(seat).shape == "triangle":
        y += radius * 0.12
    return (x, y), radius * DISC_R


def _letter_at(text: str, size: int, centre: Point) -> Point:
    """Where to anchor ``text`` ("ls": left, baseline) so its ink is centred on
    ``centre``, descenders and capitals alike ("mm" centres the font's line,
    not the letter, which left a "y" low in its disc)."""
    left, top, right, bottom = font(size, True).getbbox(text, anchor="ls")
    return centre[0] - (left + right) / 2, centre[1] - (top + bottom) / 2


@drawing_cache
@lru_cache(maxsize=128)  # 5 seats x 5 colours x leader or camel x 2 languages
def _piece_sprite(seat: Seat, colour: str, leader: bool, lang: str = "en") -> Image.Image:
    """A caravan piece: the OWNER's shape, rimmed in ink and filled with the
    owner's mark colour, holding a disc of the CAMEL colour in a thick ink
    ring, lettered with the camel colour (w y o p g in English) at a size
    legible on a phone (:data:`LETTER_SIZE`); leaders are bigger, lettered in
    capitals and wear a crown (their rider). The disc has the same room in
    every shape, so the letter never runs into the ink; the ink ring keeps
    band and fill apart, and the band's colour is never close to the
    fill's (:func:`mark_colour`)."""
    style = player_style(seat)
    radius, d, centre = _piece_geometry(leader)
    disc_centre, disc = piece_disc(seat, leader)
    fill = CAMEL_RGB.get(colour, PAPER)
    mark = mark_colour(seat)

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        c = (centre[0] * k, centre[1] * k)
        r = radius * k
        draw.polygon(shape_points(style.shape, c, r * 1.08), fill=INK)
        draw.polygon(shape_points(style.shape, c, r * 0.96), fill=mark)
        x, y = disc_centre[0] * k, disc_centre[1] * k
        ring = (disc + DISC_RING) * k
        draw.ellipse((x - ring, y - ring, x + ring, y + ring), fill=INK)
        draw.ellipse((x - disc * k, y - disc * k, x + disc * k, y + disc * k), fill=fill)
        if leader:  # the rider: a crown on top of the piece
            lift = 1.3 if style.shape == "triangle" else 1.02
            draw_crown(draw, (c[0], c[1] - r * lift), r * 0.5)

    sprite = supersampled((d, d), paint, _SPRITE)
    letter = colour_letter(colour, lang)
    text = letter.upper() if leader else letter
    draw_text(
        ImageDraw.Draw(sprite),
        _letter_at(text, LETTER_SIZE, disc_centre),
        text,
        LETTER_SIZE,
        INK,
        anchor="ls",
        bold=True,
        role="value",
    )
    return sprite


# --------------------------------------------------------------------------- dynamic layers

# The board with its oases and areas, by what they are (in the order they are
# drawn): a game encloses areas a few times only, so most of its boards start
# from the same ground. 4 MB each.
_GROUNDS = RegionCache(1)


def _draw_ground(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: DesertView,
    terrain: TerrainKey,
    columns: int,
) -> None:
    key = (terrain, view.active, columns, tuple(view.oases), tuple(view.areas.items()))
    paint = partial(_paint_ground, image, draw, view, terrain, columns)
    _GROUNDS.draw(image, whole((0, 0, image.width - 1, BOARD_BOTTOM - 1)), key, paint)


def _paint_ground(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: DesertView,
    terrain: TerrainKey,
    columns: int,
) -> None:
    image.paste(_board_layer(terrain, view.active, columns), (0, 0))
    _draw_oases(image, view)
    _draw_areas(image, draw, view)


def _draw_oases(image: Image.Image, view: DesertView) -> None:
    sprite = _oasis_sprite()
    for coord in view.oases:
        paste_centred(image, sprite, GRID.centre(*coord))


def _draw_areas(image: Image.Image, draw: ImageDraw.ImageDraw, view: DesertView) -> None:
    """Enclosed squares: hatched in the owner's colour, outlined along their edge."""
    for coord, seat in view.areas.items():
        paste_centred(image, _area_tile(seat), GRID.centre(*coord))
    for coord, seat in view.areas.items():
        line = player_style(seat).dark
        for d in range(6):
            if view.areas.get(hex_neighbour(*coord, d)) == seat:
                continue
            a, b = GRID.edge(*coord, d, scale=0.93)
            draw.line([a, b], fill=line, width=5)
            for x, y in (a, b):
                draw.ellipse((x - 2.5, y - 2.5, x + 2.5, y + 2.5), fill=line)


def _draw_water(image: Image.Image, view: DesertView) -> None:
    for coord, value in view.water.items():
        x, y = GRID.centre(*coord)
        paste_centred(image, _water_sprite(value), (x, y + WATER_DY * RADIUS))


def space_name_anchor(view: DesertView, coord: Coord) -> Point:
    """Where a square's name goes (baseline centre): the middle of the square,
    or under the disc of a water hole (a palm site that holds no palm can hold
    one too: what counts is the disc, not the terrain)."""
    x, y = GRID.centre(*coord)
    if coord in view.water:
        return x, y + RADIUS * 0.6
    return x, y + SPACE_SIZE * 0.34


# Square names as drawn, by square and what lies under the name there (the
# terrain, an area's hatching, a water hole's disc): a board names up to 190.
_NAMES = RegionCache(256)


def _draw_space_names(image: Image.Image, view: DesertView) -> None:
    """The name of every square a piece may still take, legible on a phone: a
    player reads where to place straight off the board."""
    columns = shown_columns(view)
    for coord in placeable(view):
        if coord[0] > columns:
            continue
        at = space_name_anchor(view, coord)
        under = (view.terrain.get(coord), view.areas.get(coord), view.water.get(coord))
        paint = partial(_stamp_name, image, coord, at)
        _NAMES.draw(image, whole(_name_box(coord, at)), (coord, at, under), paint)


def _stamp_name(image: Image.Image, coord: Coord, at: Point) -> None:
    stamp_text(
        image,
        at,
        coord_name(coord),
        SPACE_SIZE,
        LABEL,
        anchor="ms",
        bold=True,
        outline=LABEL_HALO,
        outline_width=2,
        role="space",
    )


def _name_box(coord: Coord, at: Point) -> Box:
    """The pixels :func:`_stamp_name` may touch, and one more all round: the
    stamp's box, placed as :func:`render.text.stamp_text` places it."""
    left, top, right, bottom = _name_extent(coord_name(coord))
    x, y = round(at[0]), round(at[1])
    return x + left - 1, y + top - 1, x + right, y + bottom


@lru_cache(maxsize=512)
def _name_extent(name: str) -> tuple[int, int, int, int]:
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    box = probe.textbbox((0, 0), name, font=font(SPACE_SIZE, True), anchor="ms", stroke_width=2)
    return math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3])


def _draw_caravan_links(draw: ImageDraw.ImageDraw, view: DesertView) -> None:
    """Join neighbouring pieces of one caravan, so each caravan reads as a chain."""
    for coord, piece in view.pieces.items():
        for d in (0, 1, 2):  # each pair once
            other = hex_neighbour(*coord, d)
            twin = view.pieces.get(other)
            if twin is None or (twin.seat, twin.colour) != (piece.seat, piece.colour):
                continue
            a, b = GRID.centre(*coord), GRID.centre(*other)
            draw.line([a, b], fill=INK, width=10)
            draw.line([a, b], fill=mark_colour(piece.seat), width=5)


def _draw_pieces(image: Image.Image, view: DesertView, lang: str) -> None:
    """Each piece's sprite centred on its square (as :func:`paste_centred`
    places it), only the part with ink: a third of a sprite is clear corners."""
    for coord, piece in view.pieces.items():
        (dx, dy), ink = _piece_ink(piece.seat, piece.colour, piece.leader, lang)
        side = _piece_geometry(piece.leader)[1]
        x, y = GRID.centre(*coord)
        image.paste(ink, (round(x - side / 2) + dx, round(y - side / 2) + dy), ink)


@drawing_cache  # emptied with the sprite, so the letter is drawn (and recorded) again
@lru_cache(maxsize=128)
def _piece_ink(
    seat: Seat, colour: str, leader: bool, lang: str
) -> tuple[tuple[int, int], Image.Image]:
    """The piece's sprite cut to its ink, and where that starts in the sprite."""
    sprite = _piece_sprite(seat, colour, leader, lang)
    box = sprite.getbbox() or (0, 0, 1, 1)
    return (box[0], box[1]), sprite.crop(box)


def _last_turn_squares(view: DesertView) -> tuple[set[Coord], set[Coord]]:
    """(squares placed on, squares enclosed) during the last turn."""
    placed: set[Coord] = set()
    enclosed: set[Coord] = set()
    for p in view.last_turn:
        if p.at is not None:
            placed.add(p.at)
        for area in p.areas:
            enclosed.update(area.spaces)
    return placed, enclosed - placed


# The last turn's rings as drawn, by square and what lay under them: Pillow
# draws a thick outline through a mask as big as the image (1.6 MB a ring).
_RINGS = RegionCache(8)


def _draw_last_turn(image: Image.Image, draw: ImageDraw.ImageDraw, view: DesertView) -> None:
    """A black-and-white ring: visible on sand, areas, pieces and in any colour vision."""
    placed, enclosed = _last_turn_squares(view)
    for coord in enclosed:
        paint = partial(_ring, draw, coord, 0.8, 5, 2)
        _RINGS.draw(image, whole(_hex_box(coord, 0.8)), (coord, 0.8), paint, behind=True)
    for coord in placed:
        paint = partial(_ring, draw, coord, 0.98, 8, 3)
        _RINGS.draw(image, whole(_hex_box(coord, 0.98)), (coord, 0.98), paint, behind=True)


def _ring(draw: ImageDraw.ImageDraw, coord: Coord, scale: float, outer: int, inner: int) -> None:
    """An ink ring just inside the hex ``scale`` times as big as a square, and
    a paper one ``inner`` px wide inside it."""
    draw.polygon(GRID.corners(*coord, scale=scale), outline=INK, width=outer)
    draw.polygon(GRID.corners(*coord, scale=scale - inner / RADIUS), outline=PAPER, width=inner)


def _hex_box(coord: Coord, scale: float) -> Box:
    """The box of the hex ``scale`` times as big as the square (outlines go inside it)."""
    corners = GRID.corners(*coord, scale=scale)
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1


# --------------------------------------------------------------------------- score panel


# The panel as drawn, by what it shows: each seat's board of one state draws
# the same panel, but for a seat's own water points.
def _draw_score_panel(image: Image.Image, panel: Panel, lang: str) -> None:
    image.paste(BACKDROP, (0, BOARD_BOTTOM, image.width, image.height))
    draw_panel_cached(image, panel, lang, top=BOARD_BOTTOM)


# px at the panel's design width (render.panel.DESIGN_WIDTH), scaled with the image
CARAVAN_W = 52  # one caravan column: a pill
NAME_W = 222  # marker and name
TOTAL_W = 60  # the total column (the other scores share what is left)


def score_panel(
    view: DesertView,
    names: Sequence[str],
    lang: str,
    tags: Sequence[str | None] | None = None,
) -> Panel:
    """The shared panel filled in for this view: phase and who plays (or the
    winners), the supply per colour, each player's caravans and scores.
    ``tags[seat]`` ("bot", "resigned" or None) badges that seat's row."""
    keys = _score_columns(view)
    caravans = tuple(Column(_DiscTitle(colour, lang), width=CARAVAN_W) for colour in COLOURS)
    scores = tuple(
        Column(
            _score_title(key, lang, over=view.outcome is not None),
            width=TOTAL_W if key == "total" else None,
            space_before=14 if i == 0 else 0,
        )
        for i, key in enumerate(keys)
    )
    stock = (view.supply.get(colour, 0) for colour in COLOURS)
    supply = Row(
        tuple(Cell(str(n), warning=n <= LOW_SUPPLY) for n in stock) + ("",) * len(keys),
        name=catalogue.text(lang, "desert.board.supply"),
    )
    longest = _longest(view)
    players = tuple(
        Row(
            tuple(_caravan_cell(info, c, info.seat in longest[c]) for c in COLOURS)
            + tuple(Cell(_score_cell(view, info, k, lang), strong=k == "total") for k in keys),
            seat=info.seat,
            name=names[info.seat] if info.seat < len(names) else "",
            tag=tags[info.seat] if tags is not None and info.seat < len(tags) else None,
        )
        for info in view.info
    )
    over = view.outcome is not None or view.phase == "over"
    note = ""
    if view.phase == "camels" and view.allowance_left and not over:
        note = catalogue.text(lang, "desert.board.left", {"count": view.allowance_left})
    return Panel(
        status=_status(view, lang),
        columns=caravans + scores,
        rows=(supply, *players),
        acting=() if over else view.to_act,
        winners=view.outcome.winners if view.outcome is not None else (),
        note=note,
        name_width=NAME_W,
    )


def _status(view: DesertView, lang: str) -> str:
    """The phase line: setup, riders round, camel round, or game over. Rounds,
    not turns: "turn 32" counted every seat's turns and read as one's own."""
    over = catalogue.text(lang, "common.game_over")
    if view.outcome is not None:
        ended = catalogue.text(lang, "desert.board.round", {"round": camel_round(view)})
        return f"{over} · {ended}"
    if view.phase == "over":  # over, but no outcome given: nothing more to say
        return over
    if view.phase == "discard":
        return catalogue.text(lang, "desert.board.setup")
    if view.phase == "riders":
        rounds = 4 if view.players == 5 else 5
        return catalogue.text(
            lang, "desert.board.riders", {"round": view.rider_round, "rounds": rounds}
        )
    return catalogue.text(lang, "desert.board.camels", {"round": camel_round(view)})


def camel_round(view: DesertView) -> int:
    """The camel round being played (or the last one, once over): every seat
    takes one turn a round, in seat order."""
    turns = view.turn if view.outcome is not None else view.turn + 1
    return max(1, -(-turns // view.players))


def _score_columns(view: DesertView) -> list[str]:
    """Running scores during play; the engine's final breakdown once it is over."""
    if view.outcome is not None and view.outcome.breakdown:
        return [key for key, _ in view.outcome.breakdown[0]] + ["total"]
    return ["water", "oases", "areas", "total"]


def _score_title(key: str, lang: str, *, over: bool = True) -> str:
    """A score column's title. During play the water column counts the holes
    taken (their values are private), so it says so: beside Oases and Areas,
    which count points, a bare "Water: 1" read as one point."""
    if key == "water" and not over:
        return catalogue.text(lang, "desert.board.water_holes")
    if key == "total":
        return catalogue.text(lang, "common.total")
    return catalogue.text(lang, f"desert.board.{key}", default=key.title())


@dataclass(frozen=True)
class _DiscTitle:
    """Column title: a disc of the camel colour with its letter. A value (not
    a closure), so the panel holding it is one too and keys its memo."""

    colour: str
    lang: str

    def __call__(self, image: Image.Image, draw: ImageDraw.ImageDraw, box: Box) -> None:
        cx, mid = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        r = panel_metrics(image.width).px(15) + 1
        paint = partial(self.paint, image, draw, (cx, mid))
        # on the panel's card, which is all one colour there
        _TITLES.draw(image, whole((cx - r, mid - r, cx + r, mid + r)), (self, cx, mid), paint)

    def paint(self, image: Image.Image, draw: ImageDraw.ImageDraw, centre: Point) -> None:
        m = panel_metrics(image.width)
        (cx, mid), r = centre, m.px(15)
        fill = CAMEL_RGB[self.colour]
        draw.ellipse((cx - r, mid - r, cx + r, mid + r), fill=fill, outline=INK, width=m.h(2))
        draw_text(
            draw,
            (cx, mid),
            colour_letter(self.colour, self.lang),
            m.title_size,
            INK,
            anchor="mm",
            bold=True,
            role="title",
        )


_TITLES = RegionCache(10)  # the caravan columns' titles as drawn, in two languages


def _longest(view: DesertView) -> dict[str, set[Seat]]:
    """Per colour, the seats now holding the longest caravan (SC4, ties included)."""
    best: dict[str, set[Seat]] = {}
    for colour in COLOURS:
        lengths = {i.seat: i.caravan_lengths.get(colour, 0) for i in view.info}
        top = max(lengths.values(), default=0)
        best[colour] = {s for s, n in lengths.items() if n == top and n > 0}
    return best


def _caravan_cell(info: PlayerInfo, colour: str, longest: bool) -> Cell:
    """A pill: absent (colour put back), leader still to place, or the caravan's length."""
    if colour == info.discarded or colour not in info.colours:
        text, kind = "", "absent"
    elif colour in info.leaders_left or info.caravan_lengths.get(colour, 0) == 0:
        text, kind = "-", "unplaced"
    else:
        text = str(info.caravan_lengths[colour])
        kind = "longest" if longest else "normal"
    return Cell(paint=_PillCell(colour, text, kind))


@dataclass(frozen=True)
class _PillCell:
    """A caravan cell's painter (a value, as :class:`_DiscTitle` is)."""

    colour: str
    text: str
    kind: str

    def __call__(self, image: Image.Image, draw: ImageDraw.ImageDraw, box: Box) -> None:
        pill = _pill(self.colour, self.text, self.kind, image.width)
        paste_centred(image, pill, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))


@drawing_cache
@lru_cache(maxsize=512)
def _pill(colour: str, text: str, kind: str, width: int) -> Image.Image:
    """A caravan cell of a panel ``width`` px wide: its length on a pill of the
    camel colour.

    "absent" (5 players: the colour put back) is crossed out, "unplaced" is
    an empty outline, "longest" gets a white rim and a gold star.
    """
    m = panel_metrics(width)
    size = (round(m.px(CARAVAN_W)), round(m.px(40)))
    fill = CAMEL_RGB.get(colour, PAPER)

    w, h = CARAVAN_W, 40  # the design, in px at the panel's design width

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        k *= m.scale
        box = (4 * k, 6 * k, (w - 4) * k, (h - 5) * k)
        radius = (h - 11) / 2 * k
        if kind == "absent":
            draw.rounded_rectangle(box, radius=radius, outline=ABSENT, width=round(2 * k))
            cx, cy = w / 2, (h + 1) / 2
            for sx in (-1, 1):
                draw.line(
                    [((cx - 9 * sx) * k, (cy - 8) * k), ((cx + 9 * sx) * k, (cy + 8) * k)],
                    fill=ABSENT,
                    width=round(3 * k),
                )
        elif kind == "unplaced":
            draw.rounded_rectangle(box, radius=radius, outline=fill, width=round(2 * k))
        else:
            rim = (PAPER, 3) if kind == "longest" else (INK, 1)
            draw.rounded_rectangle(
                box, radius=radius, fill=fill, outline=rim[0], width=round(rim[1] * k)
            )
        if kind == "longest":
            star = shape_points("star", ((w - 5) * k, 8 * k), 6.5 * k)
            draw.polygon(star, fill=GOLD, outline=INK, width=round(k))

    pill = supersampled(size, paint, _SPRITE)
    if text:
        ink = MUTED if kind == "unplaced" else INK
        draw_text(
            ImageDraw.Draw(pill),
            (size[0] / 2, size[1] / 2 + m.px(1)),
            text,
            m.cell_size,
            ink,
            anchor="mm",
            bold=kind == "longest",
            role="score",
        )
    return pill


def _score_cell(view: DesertView, info: PlayerInfo, key: str, lang: str) -> str:
    """One score of one player: final breakdown when over, public running scores before.

    Water shows the number of holes taken, and their points only where the
    view may see them (spec §9); the total likewise.
    """
    if view.outcome is not None:
        if key == "total":
            return str(view.outcome.scores[info.seat])
        if view.outcome.breakdown:
            return str(dict(view.outcome.breakdown[info.seat]).get(key, ""))
    if key == "water":
        if info.water_points is None:
            return str(info.water_count)
        points = catalogue.text(lang, "common.pts", {"count": info.water_points})
        return f"{info.water_count} ({points})"
    if key == "oases":
        return str(info.oasis_points)
    if key == "areas":
        return str(info.area_points)
    return "?" if info.total is None else str(info.total)


# --------------------------------------------------------------------------- the platform's entry


class DesertPicture:
    """What the platform draws with (``SPEC.picture``), in a worker process."""

    def board(
        self, view: DesertView, names: Sequence[str], lang: str, tags: Sequence[str | None] = ()
    ) -> bytes:
        return render_desert(view, names, lang, tags or None)

    def hand(self, view: DesertView, names: Sequence[str], lang: str) -> bytes | None:
        return None  # the seat's water values are in the text and on its own board

    def seat_colour(self, seat: int) -> RGB:
        return player_style(seat).colour
