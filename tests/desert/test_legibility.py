"""The Through the Desert board read on a phone: Discord shows a posted image
about 550 px wide there, so every label a player needs must stay legible
once the image is shrunk to that width.

"Legible" (render.text.MIN_PHONE_PX): the font size drawn times 550 / image
width is at least 9 px for secondary labels (space names, coordinates,
titles) and 11 px for the status line, names and scores. The sizes are the
ones really drawn, listed by ``render.text.recording_text``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import replace

import pytest
from PIL import Image

from games.desert.model import COLOURS, COLUMNS, DesertView, coord_name
from games.desert.picture import (
    BOARD_BOTTOM,
    CAMEL_RGB,
    GRID,
    MAIN_COLUMNS,
    RADIUS,
    SAND,
    SPACE_SIZE,
    WATER_DY,
    WATER_R,
    _piece_sprite,
    board_width,
    colour_letter,
    piece_disc,
    placeable,
    render_desert_image,
    score_panel,
    shown_columns,
    space_name_anchor,
)
from render.text import MIN_PHONE_PX, PHONE_WIDTH, DrawnText, font, phone_px, recording_text
from tests.desert.test_picture import MID_GAME_MOVES, NAMES, view_of

NEEDED = {"space", "coordinate", "status", "name", "score", "title"}


def drawn(
    view: DesertView, names: Sequence[str], lang: str = "en", tags: Sequence[str | None] = ()
) -> tuple[Image.Image, list[DrawnText]]:
    with recording_text() as texts:
        image = render_desert_image(view, names, lang, list(tags) or None)
    return image, texts


def on_phone(image: Image.Image) -> Image.Image:
    height = round(image.height * PHONE_WIDTH / image.width)
    return image.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("stage", ["mid", "over"])
def test_every_label_is_legible_at_phone_width(players: int, stage: str) -> None:
    view = view_of(players, MID_GAME_MOVES[players] if stage == "mid" else None)
    image, texts = drawn(view, NAMES[:players], "fr" if stage == "over" else "en")
    width = image.width
    roles = {t.role for t in texts}
    assert roles >= NEEDED, NEEDED - roles
    too_small = [
        (t.role, t.text, t.size, round(phone_px(t.size, width), 2))
        for t in texts
        if t.role in MIN_PHONE_PX and phone_px(t.size, width) < MIN_PHONE_PX[t.role]
    ]
    assert not too_small
    # the headline figures, spelled out
    smallest = {r: min(t.size for t in texts if t.role == r) for r in NEEDED}
    assert smallest["space"] * PHONE_WIDTH / width >= 9
    for role in ("status", "name", "score"):
        assert smallest[role] * PHONE_WIDTH / width >= 11, role


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_square_a_piece_may_take_is_named(players: int) -> None:
    view = view_of(players, MID_GAME_MOVES[players])
    _, texts = drawn(view, NAMES[:players])
    names = [t.text for t in texts if t.role == "space"]
    assert sorted(names) == sorted(coord_name(c) for c in placeable(view))
    assert len(names) == len(set(names))
    # water holes included, occupied squares and oases not
    assert any(coord_name(c) in names for c in view.water)
    assert not any(coord_name(c) in names for c in view.pieces)
    assert not any(coord_name(c) in names for c in view.oases)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_status_names_and_scores_are_drawn_at_a_legible_size(players: int) -> None:
    view = view_of(players, MID_GAME_MOVES[players])
    image, texts = drawn(view, NAMES[:players])
    panel = score_panel(view, NAMES[:players], "en")

    def sizes(role: str, text: str) -> list[int]:
        return [t.size for t in texts if t.role == role and text in t.text]

    minimum = 11 * image.width / PHONE_WIDTH
    assert min(sizes("status", panel.status)) >= minimum
    acting = NAMES[view.to_act[0]]
    assert min(sizes("status", acting)) >= minimum  # whose turn
    for name in NAMES[:players]:
        assert min(sizes("name", name)) >= minimum
    for info in view.info:
        assert min(sizes("score", str(info.oasis_points))) >= minimum


@pytest.mark.parametrize("players", [2, 5])
def test_space_names_keep_their_height_once_shrunk(players: int) -> None:
    """Pixels, not sizes: in the 550 px image the names' capitals are ≥ 6 px high
    (a 9 px font), dark on light."""
    view = view_of(players, MID_GAME_MOVES[players])
    image = render_desert_image(view, NAMES[:players])
    small = on_phone(image)
    f = PHONE_WIDTH / image.width
    heights = []
    for coord in placeable(view):
        if coord in view.water:
            continue
        x, y = space_name_anchor(view, coord)
        box = (round((x - 20) * f), round((y - SPACE_SIZE) * f), round((x + 20) * f), round(y * f))
        ink = small.crop(box).convert("L").point(lambda v: 255 if v < 140 else 0).getbbox()
        assert ink is not None, coord_name(coord)
        heights.append(ink[3] - ink[1])
    assert statistics.median(heights) >= 6


def bare(view: DesertView) -> DesertView:
    """The board without what the setup draws at random (water holes, oases)."""
    return replace(view, water={}, oases=frozenset())


def rightmost_sand(image: Image.Image) -> int:
    board = image.crop((0, 0, image.width, BOARD_BOTTOM))
    xs = [
        x
        for x in range(board.width - 1, -1, -1)
        if SAND in {board.getpixel((x, y)) for y in range(0, board.height, 2)}
    ]
    return xs[0]


@pytest.mark.parametrize("players", [2, 3])
def test_unused_small_section_is_cropped(players: int) -> None:
    view = view_of(players, 0)
    assert shown_columns(view) == MAIN_COLUMNS == COLUMNS.index("O") + 1
    image, texts = drawn(view, NAMES[:players])
    full = render_desert_image(view_of(4, 0), NAMES[:4])
    assert image.width == board_width(MAIN_COLUMNS) < full.width == board_width(len(COLUMNS))
    # the coordinates are the real ones, A to O, and no letter of P-S is drawn
    letters = [t for t in texts if t.role == "coordinate" and t.text.isalpha()]
    assert {t.text for t in letters} == set(COLUMNS[:MAIN_COLUMNS])
    assert max(letters, key=lambda t: t.xy[0]).text == "O"
    # no terrain past column O: the rightmost sand pixel is in an O square
    o_right = max(GRID.centre(MAIN_COLUMNS, row)[0] for row in (1, 2)) + GRID.width / 2
    assert rightmost_sand(image) <= o_right
    assert rightmost_sand(full) > o_right + 3 * GRID.width  # 4 players: up to S
    # …and the squares A-O are drawn exactly where the full board has them
    box = (0, 0, round(o_right) - round(GRID.width), BOARD_BOTTOM)
    two, four = (render_desert_image(bare(view_of(n, 0)), NAMES[:n]).crop(box) for n in (2, 4))
    assert two.tobytes() == four.tobytes()


@pytest.mark.parametrize("players", [4, 5])
def test_four_and_five_players_keep_every_column(players: int) -> None:
    view = view_of(players, MID_GAME_MOVES[players])
    image, texts = drawn(view, NAMES[:players])
    letters = {t.text for t in texts if t.role == "coordinate" and t.text.isalpha()}
    assert letters == set(COLUMNS)
    assert image.width == board_width(len(COLUMNS))


def test_image_widths_stay_in_the_design_range() -> None:
    assert 1000 <= board_width(MAIN_COLUMNS) < board_width(len(COLUMNS)) <= 1400


@pytest.mark.parametrize("players", [2, 5])
def test_a_water_holes_name_stays_below_its_disc(players: int) -> None:
    """Setup also puts water holes on the palm sites left without a palm: their
    name was printed over the water hole's value, as on a plain square."""
    view = view_of(players, None)
    site = min(c for c, kind in view.terrain.items() if kind == "palm" and c not in view.oases)
    pieces = {c: piece for c, piece in view.pieces.items() if c != site}
    view = replace(view, water={**view.water, site: 2}, pieces=pieces)
    assert site in placeable(view)
    for coord in placeable(view):
        if coord not in view.water:
            continue
        x, y = GRID.centre(*coord)
        disc_bottom = y + (WATER_DY + WATER_R) * RADIUS
        name_top = space_name_anchor(view, coord)[1] - 0.7 * SPACE_SIZE
        assert name_top >= disc_bottom, coord_name(coord)


@pytest.mark.parametrize("players", [4, 5])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_letters_on_the_pieces_are_legible_at_phone_width(players: int, lang: str) -> None:
    """At 4-5 players the board is widest: each piece's camel-colour letter was
    drawn 18 px high on a 1241 px image, 8 px on a phone (its x-height about
    5). It now stays at least 9 px there, as a "value", and every text drawn
    says what it is for."""
    view = view_of(players, MID_GAME_MOVES[players])
    assert any(piece.leader for piece in view.pieces.values())
    assert any(not piece.leader for piece in view.pieces.values())
    image, texts = drawn(view, NAMES[:players], lang)
    assert all(t.role for t in texts)
    letters = {colour_letter(colour, lang) for colour in COLOURS}
    # the colour letters but the column letters around the board (coordinates)
    # and the panel's column titles (below the board): those on the pieces
    on_pieces = [
        t
        for t in texts
        if t.text.lower() in letters and t.role != "coordinate" and t.xy[1] < BOARD_BOTTOM
    ]
    drawn_letters = {t.text for t in on_pieces}
    shown = {
        colour_letter(piece.colour, lang).upper()
        if piece.leader
        else colour_letter(piece.colour, lang)
        for piece in view.pieces.values()
    }
    assert shown <= drawn_letters
    for t in on_pieces:
        assert t.role in ("value", "badge"), t
        assert phone_px(t.size, image.width) >= 9, (t.text, t.size, image.width)


@pytest.mark.parametrize("seat", range(5))
@pytest.mark.parametrize("leader", [False, True])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_letter_on_a_piece_stays_inside_its_disc(seat: int, leader: bool, lang: str) -> None:
    """A bigger letter must not run into the ink: on every seat's shape the
    letter's ink box stays inside the camel-colour disc, and the disc shows
    the camel colour around it."""
    for colour in COLOURS:
        with recording_text() as texts:
            sprite = _piece_sprite(seat, colour, leader, lang)
        (letter,) = texts
        (cx, cy), radius = piece_disc(seat, leader)
        left, top, right, bottom = font(letter.size, letter.bold).getbbox(
            letter.text, anchor=letter.anchor
        )
        x, y = letter.xy
        for px, py in ((left, top), (right, top), (left, bottom), (right, bottom)):
            assert math.hypot(x + px - cx, y + py - cy) <= radius + 1, (colour, letter.text)
        # the letter's ink is centred on the disc
        assert abs(x + (left + right) / 2 - cx) <= 1 and abs(y + (top + bottom) / 2 - cy) <= 1
        fill = CAMEL_RGB[colour]
        for side in (-1, 1):  # the camel colour on either side of the letter
            rim = sprite.getpixel((round(cx + side * (radius - 2)), round(cy)))
            assert isinstance(rim, tuple)
            assert max(abs(a - b) for a, b in zip(rim[:3], fill, strict=True)) <= 12, colour
