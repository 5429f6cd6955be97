"""Smoke and pixel tests of the Through the Desert board image.

Views come from real seeded games played by the baseline AI, so the renderer
is exercised on what the engine really produces.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest
from PIL import Image, ImageChops

from games import catalogue
from games.contract import bot_move
from games.desert.ai import choose_move
from games.desert.board import COORDS, GRID_NEIGHBOURS, index
from games.desert.engine import GAME
from games.desert.model import COLOURS, AreaGain, DesertView, Placement, coord_name, parse_coord
from games.desert.picture import (
    BOARD_BOTTOM,
    CAMEL_RGB,
    GRID,
    _piece_sprite,
    camel_round,
    mark_colour,
    render_desert,
    render_desert_image,
    score_panel,
)
from games.desert.state import DesertState
from render.grids import hex_neighbour
from render.palette import (
    DISTINCT_DELTA_E,
    INK,
    PLAYER_STYLES,
    contrast_ratio,
    delta_e,
    luminance,
    worst_delta_e,
)
from render.panel import ROW_HILITE, Cell, panel_layout
from render.png import MAX_PNG_BYTES
from render.text import display_names, fit_text, printable, text_width
from tests.pictures import decode

NAMES = ("Alice", "Bob", "Chloé", "Driss", "Eve")
SEED = 11
MID_GAME_MOVES = {2: 30, 3: 40, 4: 50, 5: 60}


@cache
def play(players: int, moves: int | None) -> DesertState:
    """A seeded game after ``moves`` AI moves (None: to the end)."""
    state = GAME.new(players, SEED)
    done = 0
    while GAME.to_act(state) and (moves is None or done < moves):
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, bot_move(GAME, choose_move, state, seat, done))
        done += 1
    return state


def view_of(players: int, moves: int | None, seat: int | None = None) -> DesertView:
    return GAME.view(play(players, moves), seat)


def check_png(png: bytes) -> Image.Image:
    assert len(png) <= MAX_PNG_BYTES
    image = decode(png)
    assert 1000 <= image.width <= 1400
    assert 800 <= image.height <= 1600
    return image


# --------------------------------------------------------------------------- smoke


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("stage", ["start", "mid", "over"])
def test_renders_every_player_count_and_stage(players: int, stage: str) -> None:
    moves = {"start": 0, "mid": MID_GAME_MOVES[players], "over": None}[stage]
    view = view_of(players, moves)
    if stage == "over":
        assert view.outcome is not None
    check_png(render_desert(view, NAMES[:players]))


def test_french_labels_and_private_view() -> None:
    check_png(render_desert(view_of(4, 50, seat=1), NAMES[:4], lang="fr"))
    check_png(render_desert(view_of(3, None), NAMES[:3], lang="fr"))


def test_unknown_language_falls_back_to_english() -> None:
    check_png(render_desert(view_of(2, 10), NAMES[:2], lang="de"))


def test_awkward_names_never_crash() -> None:
    names = [
        "🐪🐪🐪",  # nothing printable: falls back to "Player 1"
        "Zoë 🌵 Ça va",
        "日本語のなまえ",
        "x" * 300,
        "",
    ]
    view = view_of(5, 60)
    check_png(render_desert(view, names))
    check_png(render_desert(view, names[:2]))  # fewer names than seats
    shown = display_names(names, view.players, "en")
    assert shown[0] == "Player 1" and shown[2] == "日本語のなまえ" and shown[4] == "Player 5"
    assert shown[1] == "Zoë Ça va"  # no stray double space where the cactus was


def test_rendering_is_deterministic() -> None:
    view = view_of(3, 40)
    assert render_desert(view, NAMES[:3]) == render_desert(view, NAMES[:3])


# --------------------------------------------------------------------------- pixels


def square_box(name: str, half: float = 0.8) -> tuple[int, int, int, int]:
    coord = parse_coord(name)
    assert coord is not None
    x, y = GRID.centre(*coord)
    r = GRID.radius * half
    return round(x - r), round(y - r), round(x + r), round(y + r)


def changed_pixels(
    a: Image.Image, b: Image.Image, box: tuple[int, int, int, int], tolerance: int = 24
) -> int:
    """Pixels in ``box`` that differ clearly (palette quantisation may shift a colour a bit)."""
    diff = ImageChops.difference(a.crop(box), b.crop(box)).convert("L")
    return sum(diff.point(lambda v: 255 if v > tolerance else 0).histogram()[255:])


def test_last_move_highlight_marks_its_square() -> None:
    view = view_of(4, 50)
    placed = [p.at for p in view.last_turn if p.at is not None]
    assert placed
    with_mark = decode(render_desert(view, NAMES[:4]))
    without = decode(render_desert(replace(view, last_turn=()), NAMES[:4]))
    for coord in placed:
        assert changed_pixels(with_mark, without, square_box(coord_name(coord), 1.0)) > 50
    # and nothing far away changes: the top-left mountain A1
    assert changed_pixels(with_mark, without, square_box("A1")) == 0


def test_enclosed_area_of_last_turn_is_highlighted() -> None:
    # Hand-made: enclosures are rare early on, and only the marking matters here.
    view = view_of(2, 10)
    empty = next(c for c in sorted(view.active) if c not in view.pieces and c not in view.water)
    gain = AreaGain(spaces=(empty,), water_spaces=(), water_points=None, oases=())
    placement = Placement(seat=0, kind="camel", colour="white", at=None, areas=(gain,))
    marked = replace(view, last_turn=(placement,))
    a = render_desert_image(marked, NAMES[:2])
    b = render_desert_image(replace(view, last_turn=()), NAMES[:2])
    x, y = GRID.centre(*empty)
    box = (round(x - 30), round(y - 34), round(x + 30), round(y + 34))
    assert changed_pixels(a, b, box) > 50


def test_small_section_is_left_out_with_two_players_only() -> None:
    def bare(players: int) -> Image.Image:  # without what the setup draws at random
        view = replace(view_of(players, 0), water={}, oases=frozenset())
        return decode(render_desert(view, NAMES[:players]))

    two, four = bare(2), bare(4)
    assert two.width < four.width
    for name in ("Q3", "R6", "S11"):  # squares of the small section: off the 2-player image
        assert square_box(name, half=0.5)[0] >= two.width
        sand = four.crop(square_box(name, half=0.5)).getpixel((0, 0))
        assert isinstance(sand, tuple) and max(sand) - min(sand) > 40  # drawn, in colour
    # the main section looks the same in both
    assert changed_pixels(two, four, square_box("E4", half=0.5)) == 0
    assert changed_pixels(two, four, square_box("N9", half=0.5)) == 0


def test_pieces_and_areas_appear_on_the_board() -> None:
    view = view_of(5, None)
    empty_board = decode(render_desert(replace(view, pieces={}, areas={}), NAMES))
    full = decode(render_desert(view, NAMES))
    coord = next(iter(view.pieces))
    assert changed_pixels(full, empty_board, square_box(coord_name(coord), half=0.4)) > 100


# --------------------------------------------------------------------------- common helpers


def test_hex_neighbours_match_the_board() -> None:
    for sq, coord in enumerate(COORDS):
        ours = {hex_neighbour(*coord, d) for d in range(6)}
        on_board = {c for c in ours if 1 <= c[0] <= 19 and 1 <= c[1] <= 14}
        assert {index(c) for c in on_board} == set(GRID_NEIGHBOURS[sq])


def test_hex_centres_zigzag_with_even_rows_shifted_right() -> None:
    a1, a2, b1 = GRID.centre(1, 1), GRID.centre(1, 2), GRID.centre(2, 1)
    assert a2[0] == pytest.approx(a1[0] + GRID.width / 2)
    assert b1[0] == pytest.approx(a1[0] + GRID.width)
    assert a2[1] > a1[1]


def test_text_helpers_keep_accents_and_drop_unknown_glyphs() -> None:
    assert printable("Réserve") == "Réserve"
    assert printable("🐪 Zoë 🐪") == "Zoë"
    assert printable("日本 🐪") == "日本"
    cut = fit_text("x" * 300, 24, 200)
    assert cut.endswith("…") and text_width(cut, 24) <= 200


def test_player_styles_never_rely_on_colour_alone() -> None:
    assert len({s.shape for s in PLAYER_STYLES}) == len(PLAYER_STYLES) == 5
    assert len({s.letter for s in PLAYER_STYLES}) == 5
    assert len({s.colour for s in PLAYER_STYLES}) == 5


def test_outcome_without_breakdown_and_over_without_outcome() -> None:
    view = view_of(2, None)
    assert view.outcome is not None
    check_png(render_desert(replace(view, outcome=replace(view.outcome, breakdown=())), NAMES))
    check_png(render_desert(replace(view, outcome=None), NAMES))


# --------------------------------------------------------------------------- words and panel


def test_board_words_come_from_the_catalogue() -> None:
    view = view_of(3, 40)
    english = render_desert_image(view, NAMES[:3], "en")
    french = render_desert_image(view, NAMES[:3], "fr")
    panel_box = (0, BOARD_BOTTOM, english.width, english.height)
    assert changed_pixels(english, french, panel_box) > 500
    # the terrain is the same in both
    assert changed_pixels(english, french, square_box("E4")) == 0
    fr = score_panel(view, NAMES[:3], "fr")
    assert fr.rows[0].name == catalogue.text("fr", "desert.board.supply") == "Réserve"
    titles = [c.title for c in fr.columns if isinstance(c.title, str)]
    assert titles == ["Points d'eau", "Oasis", "Surfaces", "Total"]  # holes counted, not points
    assert fr.status == catalogue.text("fr", "desert.board.camels", {"round": camel_round(view)})
    assert fr.status == f"Chameaux · manche {view.turn // 3 + 1}"  # rounds of 3 turns, not turns


def test_final_breakdown_titles_and_winners() -> None:
    view = view_of(3, None)
    assert view.outcome is not None
    panel = score_panel(view, NAMES[:3], "fr")
    titles = [c.title for c in panel.columns if isinstance(c.title, str)]
    assert titles == ["Eau", "Oasis", "Surfaces", "Caravanes", "Total"]
    assert panel.winners == view.outcome.winners and panel.acting == ()
    assert panel.status == f"Partie terminée · manche {camel_round(view)}"


def hilite_pixels(image: Image.Image, box: tuple[float, float, float, float]) -> int:
    crop = image.crop((round(box[0]), round(box[1]), round(box[2]), round(box[3])))
    colours = crop.getcolors(crop.width * crop.height) or []
    return sum(count for count, colour in colours if colour == ROW_HILITE)


@pytest.mark.parametrize("players", [2, 5])
def test_panel_highlights_the_acting_players_row(players: int) -> None:
    view = view_of(players, MID_GAME_MOVES[players])
    assert len(view.to_act) == 1
    image = render_desert_image(view, NAMES[:players])
    panel = score_panel(view, NAMES[:players], "en")
    layout = panel_layout(panel, image.width)
    assert panel.acting == view.to_act
    for row, (x0, y0, x1, y1) in zip(panel.rows, layout.rows, strict=True):
        count = hilite_pixels(image, (x0, y0 + BOARD_BOTTOM, x1, y1 + BOARD_BOTTOM))
        if row.seat in view.to_act:
            assert count > 5000
        else:
            assert count == 0


def test_supply_running_low_is_a_warning() -> None:
    view = view_of(3, None)
    panel = score_panel(view, NAMES[:3], "en")
    supply = panel.rows[0]
    assert supply.seat is None
    assert any(view.supply[c] <= 4 for c in COLOURS)  # a game ends on an empty supply
    for colour, cell in zip(COLOURS, supply.cells, strict=False):
        assert isinstance(cell, Cell)
        assert cell.warning == (view.supply[colour] <= 4)
        assert cell.text == str(view.supply[colour])


# --------------------------------------------------------------------------- owner marks on pieces


def test_owner_marks_never_look_like_the_camel_they_sit_on() -> None:
    """Every (seat, camel colour) pair: the mark's colour differs clearly from the
    fill (CIEDE2000 ≥ 30), also for colour-blind eyes where the hues are alike."""
    alike = {(1, "orange"), (2, "green"), (3, "pink")}  # vermillion, bluish green, purple
    for seat, style in enumerate(PLAYER_STYLES):
        mark = mark_colour(seat)
        assert style.colour == mark or delta_e(style.colour, mark) < 25  # still the seat's hue
        for camel, fill in CAMEL_RGB.items():
            assert delta_e(mark, fill) >= DISTINCT_DELTA_E == 30, (seat, camel)
            if (seat, camel) in alike:
                assert worst_delta_e(mark, fill) >= 20, (seat, camel)
            # and the band stands out from the ink rings around it
            assert contrast_ratio(mark, INK) >= 2, seat
    # the raw seat colours were too close to some camels: the shading did something
    assert delta_e(PLAYER_STYLES[1].colour, CAMEL_RGB["orange"]) < 15
    assert delta_e(PLAYER_STYLES[3].colour, CAMEL_RGB["pink"]) < 15


def runs(pixels: list[str]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for kind in pixels:
        if out and out[-1][0] == kind:
            out[-1] = (kind, out[-1][1] + 1)
        else:
            out.append((kind, 1))
    return out


@pytest.mark.parametrize("seat", range(5))
@pytest.mark.parametrize("colour", COLOURS)
def test_pieces_ring_the_mark_in_ink(seat: int, colour: str) -> None:
    """From the camel fill outwards: a thick ink ring, the owner's mark, ink again."""
    sprite = _piece_sprite(seat, colour, False)
    fill, mark = CAMEL_RGB[colour], mark_colour(seat)

    def kind(xy: tuple[int, int]) -> str:
        pixel = sprite.getpixel(xy)
        assert isinstance(pixel, tuple)
        if pixel[3] < 250:
            return "outside"
        for name, ref in (("fill", fill), ("mark", mark)):
            if max(abs(a - b) for a, b in zip(pixel[:3], ref, strict=True)) <= 16:
                return name
        return "ink" if luminance(pixel) < luminance(mark) / 2 else "edge"

    cx, cy = sprite.width // 2, sprite.height // 2
    column = [kind((cx, y)) for y in range(cy, -1, -1)]  # straight up: every shape has a corner
    last_fill = max(i for i, k in enumerate(column) if k == "fill")
    # 1 px runs are anti-aliased blends (ink + orange looks like dark vermillion)
    solid = [
        k
        for k, n in runs(column[last_fill + 1 :])
        for _ in range(n)
        if k != "edge" and (n > 1 or k not in ("fill", "mark"))
    ]
    outward = runs(solid)
    assert [k for k, _ in outward][:4] == ["ink", "mark", "ink", "outside"]
    assert outward[0][1] >= 2 and outward[1][1] >= 3  # a thick ring, a band you can see


# --------------------------------------------------------------------------- seat tags


def test_bot_and_resigned_seats_are_badged() -> None:
    view = view_of(3, 40)
    plain = render_desert_image(view, NAMES[:3], "en")
    assert render_desert(view, NAMES[:3], "en") == render_desert(view, NAMES[:3], "en", None)
    tagged = render_desert_image(view, NAMES[:3], "en", [None, "bot", "resigned"])
    panel = score_panel(view, NAMES[:3], "en", [None, "bot", "resigned"])
    assert [r.tag for r in panel.rows] == [None, None, "bot", "resigned"]
    layout = panel_layout(panel, plain.width)
    for row, (x0, y0, _, y1) in zip(panel.rows, layout.rows, strict=True):
        box = (round(x0), round(y0) + BOARD_BOTTOM, round(layout.name[1]), round(y1) + BOARD_BOTTOM)
        changed = changed_pixels(plain, tagged, box)
        assert (changed > 150) == (row.tag is not None), row
    # a short list of tags is fine: the seats past it have none
    assert score_panel(view, NAMES[:3], "en", ["bot"]).rows[2].tag is None
