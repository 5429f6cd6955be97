"""Board image of Through the Desert, drawn from a :class:`DesertView`.

Layout: the hex board on top (coordinates on all four sides), a score table
below it. The terrain, coordinates and out-of-play section never change
during a game, so they form a static layer cached per (map, active squares,
language); each render copies it and draws only what moves: areas, oases,
water holes, caravans, the last-turn highlight and the table.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from games.core import Seat
from games.desert.board import SMALL_FIRST_COLUMN
from games.desert.model import (
    COLOUR_CODES,
    COLOURS,
    COLUMNS,
    ROWS,
    Coord,
    DesertView,
    PlayerInfo,
    Terrain,
    coord_name,
)
from render.common import (
    INK,
    PAPER,
    RGB,
    HexGrid,
    LayerCache,
    Point,
    clean_label,
    draw_panel,
    draw_player_marker,
    draw_text,
    fit_text,
    hex_corners,
    hex_neighbour,
    mix,
    player_style,
    png_bytes,
    shape_points,
    supersampled,
    with_alpha,
)

# --------------------------------------------------------------------------- words

WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "to_play": "to play",
        "supply": "Supply",
        "water": "Water",
        "oases": "Oases",
        "areas": "Areas",
        "caravans": "Caravans",
        "total": "Total",
        "game_over": "Game over",
        "winner": "Winner",
        "winners": "Winners",
        "setup": "Setup: put back one leader colour",
        "riders": "Riders · round {round}/{rounds}",
        "camels": "Camels · turn {turn}",
        "after": "after {turn} camel turns",
        "left": "{n} to place",
        "out": "OUT OF PLAY",
        "pts": "pts",
        "seat": "Player",
        "won": "{label}: {names}",
    },
    "fr": {
        "to_play": "à jouer",
        "supply": "Réserve",
        "water": "Eau",
        "oases": "Oasis",
        "areas": "Zones",
        "caravans": "Caravanes",
        "total": "Total",
        "game_over": "Partie terminée",
        "winner": "Vainqueur",
        "winners": "Vainqueurs",
        "setup": "Mise en place : défausse d'une couleur",
        "riders": "Cavaliers · manche {round}/{rounds}",
        "camels": "Chameaux · tour {turn}",
        "after": "après {turn} tours de chameaux",
        "left": "{n} à poser",
        "out": "HORS JEU",
        "pts": "pts",
        "seat": "Joueur",
        "won": "{label} : {names}",
    },
}


def word(lang: str, key: str, **params: object) -> str:
    table = WORDS.get(lang, WORDS["en"])
    return table.get(key, WORDS["en"][key]).format(**params)


# --------------------------------------------------------------------------- look

RADIUS = 36.0  # hex centre to corner, px
MARGIN_X = 44  # room for the row numbers
MARGIN_TOP = 40  # room for the column letters
GRID = HexGrid(RADIUS, (MARGIN_X + math.sqrt(3) * RADIUS / 2, MARGIN_TOP + RADIUS))
_BOARD_W, _BOARD_H = GRID.size(len(COLUMNS), ROWS)
WIDTH = round(_BOARD_W) + 2 * MARGIN_X
BOARD_BOTTOM = round(MARGIN_TOP + _BOARD_H + 40)  # below the bottom letters

BACKGROUND: RGB = (46, 38, 31)
SAND: RGB = (236, 218, 170)
SAND_EDGE: RGB = (196, 168, 118)
PALM_SAND: RGB = (222, 220, 160)
OASIS_FILL: RGB = (150, 200, 120)
MOUNTAIN: RGB = (92, 76, 64)
MOUNTAIN_PEAK: RGB = (150, 128, 110)
SNOW: RGB = (240, 234, 224)
OUT_FILL: RGB = (150, 146, 140)
OUT_HATCH: RGB = (120, 116, 112)
WATER_RING: RGB = (110, 160, 205)
WATER_FILL: RGB = (26, 104, 180)
BORDER_LINE: RGB = (120, 36, 24)
LABEL: RGB = (160, 132, 90)
PANEL: RGB = (62, 52, 43)
PANEL_EDGE: RGB = (92, 78, 64)
SUPPLY_ROW: RGB = (54, 45, 37)
ABSENT: RGB = (140, 124, 104)
PANEL_ROW: RGB = (74, 63, 52)
PANEL_HILITE: RGB = (104, 88, 60)
MUTED: RGB = (190, 176, 150)
WARN: RGB = (255, 140, 90)
GOLD: RGB = (255, 204, 40)
LOW_SUPPLY = 4  # supplies at or below this are shown in warning colour

# Camel colours (not player colours); each piece also shows its letter.
CAMEL_RGB: Mapping[str, RGB] = {
    "white": (248, 248, 242),
    "yellow": (250, 214, 30),
    "orange": (242, 132, 24),
    "pink": (246, 158, 206),
    "green": (96, 190, 86),
}

# --------------------------------------------------------------------------- public API


def render_desert(view: DesertView, names: Sequence[str], lang: str = "en") -> bytes:
    """PNG bytes of the board and score table as ``view`` shows them.

    ``names[i]`` is seat i's display name; names that are missing or that
    the font cannot show at all fall back to "Player N". Pure and CPU-only:
    safe in ``asyncio.to_thread``.
    """
    return png_bytes(render_desert_image(view, names, lang))


def render_desert_image(view: DesertView, names: Sequence[str], lang: str = "en") -> Image.Image:
    """The same picture as a Pillow RGB image (for tests and tools)."""
    image = _canvas(view, lang).copy()
    draw = ImageDraw.Draw(image, "RGBA")
    _draw_oases(image, view)
    _draw_areas(image, draw, view)
    _draw_water(image, view)
    _draw_caravan_links(draw, view)
    _draw_pieces(image, view)
    _draw_last_turn(draw, view)
    _draw_panel(image, draw, view, display_names(view, names, lang), lang)
    return image


# --------------------------------------------------------------------------- static layers

# The board (terrain, grid, coordinates, out-of-play hatching) per board setup,
# and the canvas (board + score-table frame) per player count and columns.
# About 3 MB and 4.5 MB each; a process rarely needs more than a few.
_BOARDS = LayerCache(maxsize=4)
_CANVASES = LayerCache(maxsize=8)


def _canvas(view: DesertView, lang: str) -> Image.Image:
    board_key = (tuple(sorted(view.terrain.items())), view.active, lang)
    columns = tuple(_score_columns(view))
    key = (board_key, view.players, columns)

    def build() -> Image.Image:
        board = _BOARDS.get(board_key, lambda: _build_board(view.terrain, view.active, lang))
        return _build_canvas(board, view.players, columns, lang)

    return _CANVASES.get(key, build)


def _in_small(coord: Coord) -> bool:
    return coord[0] >= SMALL_FIRST_COLUMN


def _is_out(coord: Coord, terrain: Mapping[Coord, Terrain], active: frozenset[Coord]) -> bool:
    """Out of play: a square of a section this player count does not use.

    A section is unused when none of its playable squares is active (2-3
    players); its mountains are greyed out with it.
    """
    if terrain.get(coord) != "mountain":
        return coord not in active
    return _small_section_unused(terrain, active) and _in_small(coord)


def _small_section_unused(terrain: Mapping[Coord, Terrain], active: frozenset[Coord]) -> bool:
    return not any(_in_small(c) for c in active)


def _build_board(
    terrain: Mapping[Coord, Terrain], active: frozenset[Coord], lang: str
) -> Image.Image:
    """Terrain, grid, section border and coordinates, drawn once per board setup."""
    size = (WIDTH, BOARD_BOTTOM)
    scale = 3

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        draw.rectangle((0, 0, size[0] * k, size[1] * k), fill=BACKGROUND)
        for coord, kind in terrain.items():
            _paint_hex(draw, coord, kind, _is_out(coord, terrain, active), k)
        _paint_section_border(draw, terrain, k)

    layer = supersampled(size, paint, scale=scale).convert("RGB")
    if _small_section_unused(terrain, active):
        _hatch_out_of_play(layer, terrain, active, lang)
    draw = ImageDraw.Draw(layer)
    _draw_square_labels(draw, active)
    _draw_coordinates(draw)
    return layer


def _scaled(points: Sequence[Point], k: float) -> list[Point]:
    return [(x * k, y * k) for x, y in points]


def _paint_hex(draw: ImageDraw.ImageDraw, coord: Coord, kind: Terrain, out: bool, k: float) -> None:
    corners = _scaled(GRID.corners(*coord), k)
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
    if kind == "water":
        rr = r * 0.42
        draw.ellipse(
            (centre[0] - rr, centre[1] - rr, centre[0] + rr, centre[1] + rr),
            outline=WATER_RING,
            width=round(2.5 * k),
        )
    elif kind == "palm":
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
    bx, by = base
    trunk = (170, 142, 96) if faint else (120, 78, 40)
    leaf = (168, 176, 104) if faint else (34, 120, 48)
    edge = (150, 130, 90) if faint else INK
    top = (bx + size * 0.12, by - size * 1.0)
    draw.line(
        [(bx, by + size * 0.55), (bx + size * 0.14, by - size * 0.2), top],
        fill=trunk,
        width=max(1, round(size * 0.18)),
        joint="curve",
    )
    for angle in (-150, -110, -65, -20, 25):
        a = math.radians(angle)
        tip = (top[0] + math.cos(a) * size * 0.95, top[1] + math.sin(a) * size * 0.75 + size * 0.3)
        mid = (top[0] + math.cos(a) * size * 0.5, top[1] + math.sin(a) * size * 0.55 - size * 0.08)
        normal = (-math.sin(a) * size * 0.13, math.cos(a) * size * 0.13)
        leaf_poly = [
            top,
            (mid[0] + normal[0], mid[1] + normal[1]),
            tip,
            (mid[0] - normal[0], mid[1] - normal[1]),
        ]
        draw.polygon(leaf_poly, fill=leaf, outline=edge, width=max(1, round(size / 22)))


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
                draw.line(_scaled([a, b], k), fill=BORDER_LINE, width=width)
                for x, y in (a, b):  # round joints so the zigzag has no notches
                    rr = width / 2
                    draw.ellipse((x * k - rr, y * k - rr, x * k + rr, y * k + rr), fill=BORDER_LINE)


def _hatch_out_of_play(
    layer: Image.Image, terrain: Mapping[Coord, Terrain], active: frozenset[Coord], lang: str
) -> None:
    """Diagonal hatching plus a label over the unused section (2-3 players)."""
    mask = Image.new("L", layer.size, 0)
    mdraw = ImageDraw.Draw(mask)
    out = [c for c in terrain if _is_out(c, terrain, active)]
    for coord in out:
        mdraw.polygon(GRID.corners(*coord, scale=0.97), fill=110)
    hatch = Image.new("RGB", layer.size, OUT_HATCH)
    lines = Image.new("L", layer.size, 0)
    ldraw = ImageDraw.Draw(lines)
    for x in range(-layer.height, layer.width, 14):
        ldraw.line([(x, layer.height), (x + layer.height, 0)], fill=255, width=3)
    mask = Image.composite(mask, Image.new("L", layer.size, 0), lines)
    layer.paste(hatch, (0, 0), mask)
    _draw_out_label(layer, out, word(lang, "out"))


def _draw_out_label(layer: Image.Image, out: Sequence[Coord], text: str) -> None:
    """Vertical "out of play" label down the middle of the unused section."""
    xs = [GRID.centre(*c)[0] for c in out]
    ys = [GRID.centre(*c)[1] for c in out]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    length = round(max(ys) - min(ys))
    label = Image.new("RGBA", (length, 60), (0, 0, 0, 0))
    draw_text(
        ImageDraw.Draw(label),
        (length / 2, 30),
        text,
        34,
        (60, 56, 52),
        anchor="mm",
        outline=(205, 200, 192),
        outline_width=3,
    )
    rotated = label.rotate(90, expand=True)
    layer.paste(rotated, (round(cx - rotated.width / 2), round(cy - rotated.height / 2)), rotated)


def _draw_square_labels(draw: ImageDraw.ImageDraw, active: frozenset[Coord]) -> None:
    """Tiny names in every playable square, so a move can be read off the board."""
    for coord in active:
        cx, cy = GRID.centre(*coord)
        draw_text(draw, (cx, cy + RADIUS * 0.66), coord_name(coord), 11, LABEL, anchor="mm")


def _draw_coordinates(draw: ImageDraw.ImageDraw) -> None:
    """Column letters above row 1 and below row 14, row numbers at both ends.

    Rows zigzag, so each label sits next to the end square of its own row.
    """
    for col, letter in enumerate(COLUMNS, start=1):
        x1, y1 = GRID.centre(col, 1)
        draw_text(draw, (x1, y1 - RADIUS - 6), letter, 22, PAPER, anchor="ms", bold=True)
        xb, yb = GRID.centre(col, ROWS)
        draw_text(draw, (xb, yb + RADIUS + 6), letter, 22, PAPER, anchor="ma", bold=True)
    for row in range(1, ROWS + 1):
        xl, y = GRID.centre(1, row)
        draw_text(draw, (xl - GRID.width / 2 - 6, y), str(row), 20, PAPER, anchor="rm", bold=True)
        xr, _ = GRID.centre(len(COLUMNS), row)
        draw_text(draw, (xr + GRID.width / 2 + 6, y), str(row), 20, PAPER, anchor="lm", bold=True)


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
        draw.polygon(_scaled(hex_corners(centre, RADIUS * 0.95), k), fill=with_alpha(colour, 70))

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


@lru_cache(maxsize=4)
def _water_sprite(value: int) -> Image.Image:
    d = round(RADIUS * 0.9) + 4

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        c = d / 2 * k
        r = RADIUS * 0.44 * k
        draw.ellipse((c - r, c - r, c + r, c + r), fill=PAPER)
        r2 = r - 2 * k
        draw.ellipse((c - r2, c - r2, c + r2, c + r2), fill=WATER_FILL, outline=INK, width=round(k))

    sprite = supersampled((d, d), paint, _SPRITE)
    draw_text(
        ImageDraw.Draw(sprite), (d / 2, d / 2 + 1), str(value), 24, PAPER, anchor="mm", bold=True
    )
    return sprite


@lru_cache(maxsize=64)
def _piece_sprite(seat: Seat, colour: str, leader: bool) -> Image.Image:
    """A caravan piece: the OWNER's shape, rimmed in the owner's colour, filled
    with the CAMEL colour and lettered with it (w y o p g); leaders are bigger,
    lettered in capitals and wear a crown (their rider)."""
    style = player_style(seat)
    radius = RADIUS * (0.68 if leader else 0.56)
    d = round(radius * 2.9)
    centre = (d / 2, d / 2 + (radius * 0.12 if leader else 0))
    fill = CAMEL_RGB.get(colour, PAPER)

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        c = (centre[0] * k, centre[1] * k)
        r = radius * k
        draw.polygon(shape_points(style.shape, c, r * 1.05), fill=INK)
        draw.polygon(shape_points(style.shape, c, r * 0.95), fill=style.colour)
        draw.polygon(shape_points(style.shape, c, r * 0.74), fill=INK)
        draw.polygon(shape_points(style.shape, c, r * 0.69), fill=fill)
        if leader:  # the rider: a crown on top of the piece
            lift = 1.3 if style.shape == "triangle" else 1.02
            _paint_crown(draw, (c[0], c[1] - r * lift), r * 0.5)

    sprite = supersampled((d, d), paint, _SPRITE)
    letter = COLOUR_CODES.get(colour, "?")
    text_y = centre[1] + (radius * 0.18 if style.shape == "triangle" else 0)
    draw_text(
        ImageDraw.Draw(sprite),
        (centre[0], text_y),
        letter.upper() if leader else letter,
        round(radius * (0.86 if leader else 0.95)),
        INK,
        anchor="mm",
        bold=leader,
    )
    return sprite


def _paint_crown(draw: ImageDraw.ImageDraw, centre: Point, size: float) -> None:
    cx, cy = centre
    w, h = size, size * 0.7
    points = [
        (cx - w, cy + h / 2),
        (cx - w, cy - h / 2),
        (cx - w / 2, cy),
        (cx, cy - h * 0.75),
        (cx + w / 2, cy),
        (cx + w, cy - h / 2),
        (cx + w, cy + h / 2),
    ]
    draw.polygon(points, fill=GOLD, outline=INK, width=max(1, round(size / 7)))


# --------------------------------------------------------------------------- dynamic layers


def _draw_oases(image: Image.Image, view: DesertView) -> None:
    sprite = _oasis_sprite()
    for coord in view.oases:
        _paste(image, sprite, GRID.centre(*coord))


def _paste(image: Image.Image, sprite: Image.Image, centre: Point) -> None:
    image.paste(
        sprite, (round(centre[0] - sprite.width / 2), round(centre[1] - sprite.height / 2)), sprite
    )


def _draw_areas(image: Image.Image, draw: ImageDraw.ImageDraw, view: DesertView) -> None:
    """Enclosed squares: hatched in the owner's colour, outlined along their edge."""
    for coord, seat in view.areas.items():
        _paste(image, _area_tile(seat), GRID.centre(*coord))
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
        _paste(image, _water_sprite(value), GRID.centre(*coord))


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
            draw.line([a, b], fill=player_style(piece.seat).colour, width=5)


def _draw_pieces(image: Image.Image, view: DesertView) -> None:
    for coord, piece in view.pieces.items():
        _paste(image, _piece_sprite(piece.seat, piece.colour, piece.leader), GRID.centre(*coord))


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


def _draw_last_turn(draw: ImageDraw.ImageDraw, view: DesertView) -> None:
    """A black-and-white ring: visible on sand, areas, pieces and in any colour vision."""
    placed, enclosed = _last_turn_squares(view)
    for coord in enclosed:
        ring = GRID.corners(*coord, scale=0.8)
        draw.polygon(ring, outline=INK, width=5)
        draw.polygon(GRID.corners(*coord, scale=0.8 - 2 / RADIUS), outline=PAPER, width=2)
    for coord in placed:
        draw.polygon(GRID.corners(*coord, scale=0.98), outline=INK, width=8)
        draw.polygon(GRID.corners(*coord, scale=0.98 - 3 / RADIUS), outline=PAPER, width=3)


# --------------------------------------------------------------------------- score table

PANEL_PAD = 14
STATUS_H = 46
HEADER_H = 40
SUPPLY_H = 38
ROW_H = 46
TABLE_LEFT = MARGIN_X - 6
TABLE_RIGHT = WIDTH - MARGIN_X + 6
NAME_X = TABLE_LEFT + 12
COLOUR_X0 = NAME_X + 400  # centre of the first caravan column
COLOUR_STEP = 62
SCORE_X0 = COLOUR_X0 + COLOUR_STEP * (len(COLOURS) - 1) + 50
NAME_SIZE = 24


def _panel_height(players: int) -> int:
    return 2 * PANEL_PAD + STATUS_H + HEADER_H + SUPPLY_H + ROW_H * players + 8


def _row_top(seat: Seat) -> float:
    return BOARD_BOTTOM + PANEL_PAD + STATUS_H + HEADER_H + SUPPLY_H + ROW_H * seat


def _score_columns(view: DesertView) -> list[str]:
    """Running scores during play; the engine's final breakdown once it is over."""
    if view.outcome is not None and view.outcome.breakdown:
        return [key for key, _ in view.outcome.breakdown[0]] + ["total"]
    return ["water", "oases", "areas", "total"]


def _column_x(columns: Sequence[str]) -> list[float]:
    """Centres of the score columns, spread over the room right of the caravans."""
    step = (TABLE_RIGHT - 10 - SCORE_X0) / len(columns)
    return [SCORE_X0 + step * (i + 0.5) for i in range(len(columns))]


def display_names(view: DesertView, names: Sequence[str], lang: str) -> list[str]:
    """A printable name per seat; "Seat N" stands in for missing or unprintable ones."""
    out: list[str] = []
    for seat in range(view.players):
        name = names[seat] if seat < len(names) else ""
        out.append(clean_label(name) or f"{word(lang, 'seat')} {seat + 1}")
    return out


def _build_canvas(
    board: Image.Image, players: int, columns: Sequence[str], lang: str
) -> Image.Image:
    """Board plus the parts of the score table that do not change during a game."""
    canvas = Image.new("RGB", (WIDTH, BOARD_BOTTOM + _panel_height(players)), BACKGROUND)
    canvas.paste(board, (0, 0))
    draw = ImageDraw.Draw(canvas)
    top = BOARD_BOTTOM
    draw_panel(
        draw,
        (TABLE_LEFT - 14, top, TABLE_RIGHT + 14, top + _panel_height(players) - 12),
        PANEL,
        outline=PANEL_EDGE,
    )
    header_y = top + PANEL_PAD + STATUS_H
    _draw_header(draw, columns, _column_x(columns), lang, header_y)
    supply_y = header_y + HEADER_H
    draw.rounded_rectangle(
        (TABLE_LEFT, supply_y + 2, TABLE_RIGHT, supply_y + SUPPLY_H - 4), radius=8, fill=SUPPLY_ROW
    )
    draw_text(
        draw,
        (COLOUR_X0 - 40, supply_y + SUPPLY_H / 2 - 1),
        word(lang, "supply"),
        20,
        MUTED,
        anchor="rm",
        bold=True,
    )
    for seat in range(players):
        _draw_row_frame(draw, seat, highlight=False)
    return canvas


def _draw_header(
    draw: ImageDraw.ImageDraw, columns: Sequence[str], xs: Sequence[float], lang: str, y: float
) -> None:
    """Camel-colour discs (lettered) over the caravan columns, titles over the scores."""
    mid = y + HEADER_H / 2
    for i, colour in enumerate(COLOURS):
        cx = COLOUR_X0 + COLOUR_STEP * i
        draw.ellipse(
            (cx - 15, mid - 15, cx + 15, mid + 15), fill=CAMEL_RGB[colour], outline=INK, width=2
        )
        draw_text(draw, (cx, mid), COLOUR_CODES[colour], 18, INK, anchor="mm", bold=True)
    for key, x in zip(columns, xs, strict=True):
        title = word(lang, key) if key in WORDS["en"] else key.title()
        draw_text(draw, (x, mid), title, 20, MUTED, anchor="mm", bold=True)


def _draw_row_frame(draw: ImageDraw.ImageDraw, seat: Seat, *, highlight: bool) -> None:
    """Row background with the seat's colour strip, shape and number."""
    y = _row_top(seat)
    box = (TABLE_LEFT, y + 3, TABLE_RIGHT, y + ROW_H - 3)
    draw.rounded_rectangle(
        box,
        radius=8,
        fill=PANEL_HILITE if highlight else PANEL_ROW,
        outline=GOLD if highlight else None,
        width=2,
    )
    style = player_style(seat)
    mid = y + ROW_H / 2
    draw.rectangle((box[0], box[1] + 6, box[0] + 5, box[3] - 6), fill=style.colour)
    draw_player_marker(draw, seat, (NAME_X + 22, mid), 13)
    draw_text(draw, (NAME_X + 44, mid), style.letter, 22, MUTED, anchor="lm", bold=True)


def _draw_panel(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: DesertView, names: Sequence[str], lang: str
) -> None:
    _draw_status(draw, view, names, lang)
    _draw_supply(draw, view)
    columns = _score_columns(view)
    xs = _column_x(columns)
    longest = _longest(view)
    for seat in range(view.players):
        _draw_player_row(image, draw, view, seat, names[seat], longest)
        _draw_scores(draw, view, seat, columns, xs, lang)


def _status_text(view: DesertView, names: Sequence[str], lang: str) -> tuple[str, str]:
    """(phase line, who acts or who won)."""
    if view.outcome is not None:
        winners = view.outcome.winners
        label = word(lang, "winners" if len(winners) > 1 else "winner")
        who = ", ".join(names[s] for s in winners)
        phase = f"{word(lang, 'game_over')} · {word(lang, 'after', turn=view.turn)}"
        return phase, word(lang, "won", label=label, names=who)
    if view.phase == "over":  # over, but no outcome given: nothing more to say
        return word(lang, "game_over"), ""
    if view.phase == "discard":
        phase = word(lang, "setup")
    elif view.phase == "riders":
        rounds = 4 if view.players == 5 else 5
        phase = word(lang, "riders", round=view.rider_round, rounds=rounds)
    else:
        phase = word(lang, "camels", turn=view.turn + 1)
    who = ", ".join(names[s] for s in view.to_act)
    if not who:
        return phase, ""
    text = f"{who} {word(lang, 'to_play')}"
    if view.phase == "camels" and view.allowance_left:
        text += f" · {word(lang, 'left', n=view.allowance_left)}"
    return phase, text


def _draw_status(
    draw: ImageDraw.ImageDraw, view: DesertView, names: Sequence[str], lang: str
) -> None:
    phase, who = _status_text(view, names, lang)
    mid = BOARD_BOTTOM + PANEL_PAD + STATUS_H / 2 - 4
    phase_w = draw_text(draw, (NAME_X, mid), phase, 26, PAPER, anchor="lm", bold=True)
    if not who:
        return
    right = TABLE_RIGHT - 6
    text = fit_text(who, 26, right - NAME_X - phase_w - 80)
    over = view.outcome is not None
    width = draw_text(draw, (right, mid), text, 26, GOLD if over else PAPER, anchor="rm", bold=True)
    if over:
        _paint_crown(draw, (right - width - 24, mid), 13)
    else:
        _draw_arrow(draw, (right - width - 22, mid), 11)


def _draw_arrow(draw: ImageDraw.ImageDraw, centre: Point, size: float) -> None:
    cx, cy = centre
    draw.polygon(
        [(cx - size * 0.7, cy - size), (cx + size, cy), (cx - size * 0.7, cy + size)],
        fill=GOLD,
        outline=INK,
    )


def _draw_supply(draw: ImageDraw.ImageDraw, view: DesertView) -> None:
    """Camels left per colour; low stocks stand out, since an empty one ends the game."""
    mid = BOARD_BOTTOM + PANEL_PAD + STATUS_H + HEADER_H + SUPPLY_H / 2 - 1
    for i, colour in enumerate(COLOURS):
        n = view.supply.get(colour, 0)
        low = n <= LOW_SUPPLY
        draw_text(
            draw,
            (COLOUR_X0 + COLOUR_STEP * i, mid),
            str(n),
            22,
            WARN if low else PAPER,
            anchor="mm",
            bold=low,
        )


def _longest(view: DesertView) -> dict[str, set[Seat]]:
    """Per colour, the seats now holding the longest caravan (SC4, ties included)."""
    best: dict[str, set[Seat]] = {}
    for colour in COLOURS:
        lengths = {i.seat: i.caravan_lengths.get(colour, 0) for i in view.info}
        top = max(lengths.values(), default=0)
        best[colour] = {s for s, n in lengths.items() if n == top and n > 0}
    return best


def _draw_player_row(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: DesertView,
    seat: Seat,
    name: str,
    longest: Mapping[str, set[Seat]],
) -> None:
    """Name (with an arrow when to play, a crown when a winner) and caravan pills."""
    acting = seat in view.to_act
    winner = view.outcome is not None and seat in view.outcome.winners
    if acting or winner:
        _draw_row_frame(draw, seat, highlight=True)
    mid = _row_top(seat) + ROW_H / 2
    name_x = NAME_X + 66
    room = COLOUR_X0 - 40 - name_x - (34 if acting or winner else 0)
    width = draw_text(
        draw,
        (name_x, mid),
        fit_text(name, NAME_SIZE, room),
        NAME_SIZE,
        PAPER,
        anchor="lm",
        bold=acting or winner,
    )
    if acting:
        _draw_arrow(draw, (name_x + width + 20, mid), 10)
    elif winner:
        _paint_crown(draw, (name_x + width + 22, mid), 12)
    info = view.info[seat]
    for i, colour in enumerate(COLOURS):
        pill = _pill(colour, *_caravan_cell(info, colour, seat in longest[colour]))
        _paste(image, pill, (COLOUR_X0 + COLOUR_STEP * i, mid))


def _caravan_cell(info: PlayerInfo, colour: str, longest: bool) -> tuple[str, str]:
    """(text, kind) of one caravan cell: absent, leader still to place, or its length."""
    if colour == info.discarded or colour not in info.colours:
        return "", "absent"
    length = info.caravan_lengths.get(colour, 0)
    if colour in info.leaders_left or length == 0:
        return "-", "unplaced"
    return str(length), "longest" if longest else "normal"


@lru_cache(maxsize=512)
def _pill(colour: str, text: str, kind: str) -> Image.Image:
    """A caravan cell: its length on a pill of the camel colour.

    "absent" (5 players: the colour put back) is crossed out, "unplaced" is
    an empty outline, "longest" gets a white rim and a gold star.
    """
    size = (62, 40)
    fill = CAMEL_RGB.get(colour, PAPER)

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        box = (7 * k, 6 * k, 55 * k, 36 * k)
        if kind == "absent":
            draw.rounded_rectangle(box, radius=15 * k, outline=ABSENT, width=round(2 * k))
            for a, b in (((21, 13), (41, 29)), ((21, 29), (41, 13))):
                draw.line(
                    [(a[0] * k, a[1] * k), (b[0] * k, b[1] * k)], fill=ABSENT, width=round(3 * k)
                )
        elif kind == "unplaced":
            draw.rounded_rectangle(box, radius=15 * k, outline=fill, width=round(2 * k))
        else:
            rim = (PAPER, 3) if kind == "longest" else (INK, 1)
            draw.rounded_rectangle(
                box, radius=15 * k, fill=fill, outline=rim[0], width=round(rim[1] * k)
            )
        if kind == "longest":
            star = shape_points("star", (53 * k, 8 * k), 6.5 * k)
            draw.polygon(star, fill=GOLD, outline=INK, width=round(k))

    pill = supersampled(size, paint, _SPRITE)
    if text:
        ink = MUTED if kind == "unplaced" else INK
        draw_text(
            ImageDraw.Draw(pill), (31, 21), text, 22, ink, anchor="mm", bold=kind == "longest"
        )
    return pill


def _draw_scores(
    draw: ImageDraw.ImageDraw,
    view: DesertView,
    seat: Seat,
    columns: Sequence[str],
    xs: Sequence[float],
    lang: str,
) -> None:
    mid = _row_top(seat) + ROW_H / 2
    winner = view.outcome is not None and seat in view.outcome.winners
    for key, x in zip(columns, xs, strict=True):
        text = _score_cell(view, view.info[seat], key, lang)
        strong = key == "total"
        colour = GOLD if strong and winner else PAPER
        draw_text(draw, (x, mid), text, 24 if strong else 22, colour, anchor="mm", bold=strong)


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
        return f"{info.water_count} ({info.water_points} {word(lang, 'pts')})"
    if key == "oases":
        return str(info.oasis_points)
    if key == "areas":
        return str(info.area_points)
    return "?" if info.total is None else str(info.total)
