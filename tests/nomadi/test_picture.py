"""The Nomadi board image, drawn from real engine states.

Games are seeded and played by the baseline AI, so the renderer sees what
the engine really produces: setup (grouped by player, or cards then caravan
with the alternate setup), movement turns, card
deals waiting for a price or an answer, and finished games, on both courses
and for 2 to 5 players. Pixel tests use the unquantised image
(``render_nomadi_image``); texts are checked through
``render.text.recording_text`` (every text drawn, with its size and role).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache

import pytest
from PIL import Image

from games import catalogue
from games.nomadi.ai import choose_move
from games.nomadi.engine import GAME
from games.nomadi.model import (
    BOARD,
    COLUMNS,
    HEIGHT,
    Bribe,
    NomadiView,
    PlaceCard,
    name,
    parse_square,
)
from games.nomadi.picture import (
    BOARD_BOTTOM,
    CELL,
    GRID,
    OASIS_FILL,
    PATH,
    SAND_GOAL,
    SAND_START,
    SPACE_SIZE,
    START_FILL,
    VALLEY_LINE,
    WATER_SQUARE,
    WIDTH,
    acting,
    amount,
    box_of,
    cards_text,
    centre_of,
    dice_bar_height,
    goal_squares,
    move_paths,
    named_squares,
    pawn_colour,
    pawn_rim,
    render_nomadi,
    render_nomadi_hand,
    render_nomadi_image,
    score_panel,
    signed,
    tag_centre,
    valley_segments,
)
from games.nomadi.state import NomadiState
from games.rng import Rng
from render.palette import BACKDROP, RGB, contrast_ratio, worst_delta_e
from render.panel import panel_layout
from render.png import MAX_PNG_BYTES
from render.text import (
    MIN_PHONE_PX,
    PHONE_WIDTH,
    DrawnText,
    display_names,
    phone_px,
    recording_text,
)
from tests.nomadi.test_rules import d, mk
from tests.pictures import decode, near, pixel

NAMES = ("Alice", "Bob", "Chloé", "Driss", "Eve")
COURSES = ("full", "short")
PHASES = ("setup", "cards", "caravan", "turn", "deal", "priced", "over")
ALTERNATE = ("cards", "caravan")  # phases of the alternate setup only
NEEDED = {"space", "coordinate", "status", "name", "score", "title"}
CARD_VALUE = re.compile(r"[+\u2212-]\d")  # "+3", "−2": a card value as drawn


# --------------------------------------------------------------------------- games


@cache
def game(
    players: int, course: str = "full", seed: int = 3, setup: str = "grouped"
) -> tuple[NomadiState, ...]:
    """Every state of a seeded AI game, from the new game to the end."""
    state = GAME.new(players, seed, {"course": course, "setup": setup})
    rng = Rng.from_seed(seed)
    states = [state]
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        move = choose_move(GAME.view(state, seat), GAME.legal_moves(state, seat), rng)
        state = GAME.play(state, seat, move).state
        states.append(state)
    return tuple(states)


PREDICATES: dict[str, Callable[[NomadiState], bool]] = {
    "setup": lambda s: s.phase == "setup" and any(p.square >= 0 for p in s.pawns),
    "cards": lambda s: s.phase == "cards" and len(s.pile) <= 3,
    "caravan": lambda s: s.phase == "caravan" and any(p.square >= 0 for p in s.pawns),
    "turn": lambda s: s.phase == "turn" and s.turns >= 4 and len(s.history) >= 2 and not s.deal,
    "deal": lambda s: s.deal is not None and s.deal.price < 0,
    "priced": lambda s: s.deal is not None and s.deal.price >= 0,
    "over": lambda s: s.phase == "over",
}


@cache
def state_at(players: int, phase: str, course: str = "full") -> NomadiState:
    """The first state of a game in ``phase`` (trying a few seeds for rare ones)."""
    setup = "alternate" if phase in ALTERNATE else "grouped"
    for seed in range(3, 12):
        states = game(players, course, seed, setup)
        found = next((s for s in states if PREDICATES[phase](s)), None)
        if found is not None:
            return found
    raise LookupError(f"no {phase} state for {players} players, {course} course")


def view_at(players: int, phase: str, course: str = "full", seat: int | None = None) -> NomadiView:
    return GAME.view(state_at(players, phase, course), seat)


def check_png(png: bytes) -> Image.Image:
    assert len(png) <= MAX_PNG_BYTES
    assert len(png) < 200 * 1024  # well under Discord's comfort zone
    image = decode(png)
    assert image.width == WIDTH == 1000
    assert BOARD_BOTTOM < image.height <= 1700
    return image


def drawn(
    view: NomadiView,
    names: Sequence[str] = NAMES,
    lang: str = "en",
    tags: Sequence[str | None] | None = None,
) -> tuple[Image.Image, list[DrawnText]]:
    with recording_text() as texts:
        image = render_nomadi_image(view, names[: view.players], lang, tags)
    return image, texts


def square_at(word: str) -> int:
    found = parse_square(word)
    assert found is not None
    return found


def square_box(sq: int) -> tuple[int, int, int, int]:
    left, top, right, bottom = box_of(sq)
    return round(left), round(top), round(right), round(bottom)


# --------------------------------------------------------------------------- smoke


@pytest.mark.parametrize("course", COURSES)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_renders_every_phase_for_every_player_count(players: int, course: str) -> None:
    heights = {}
    for phase in PHASES:
        view = view_at(players, phase, course)
        assert view.course == course
        if phase == "over":
            assert view.final is not None
        if phase in ("deal", "priced"):
            assert view.deal is not None
        image = check_png(render_nomadi(view, NAMES[:players]))
        heights[phase] = image.height
    # the dice bar appears once the dice roll, and only then
    assert heights["setup"] == heights["cards"] == heights["caravan"] < heights["turn"]


def test_rendering_is_deterministic() -> None:
    view = view_at(4, "turn")
    assert render_nomadi(view, NAMES[:4]) == render_nomadi(view, NAMES[:4])


def test_unknown_language_falls_back_to_english() -> None:
    _, texts = drawn(view_at(3, "turn"), lang="de")
    assert any(t.text.startswith("Round ") for t in texts)


def test_hostile_names_never_break_the_image() -> None:
    names = [
        "x" * 300,  # long
        "**bold** `code` <@123> @everyone ||spoiler||",  # markdown and mentions
        "\u202eevil\u202c \u2066Zoë\u2069",  # bidi overrides and isolates
        "🐪🐪🐪",  # nothing printable: "Player 4"
        "",
    ]
    view = view_at(5, "deal")
    check_png(render_nomadi(view, names, tags=["bot", "resigned", None, "bot", None]))
    check_png(render_nomadi(view, names[:2]))  # fewer names than seats
    shown = display_names(names, view.players, "en")
    assert shown[2] == "evil Zoë" and shown[3] == "Player 4" and shown[4] == "Player 5"
    assert len(shown[0]) == 32 and shown[0].endswith("…")
    _, texts = drawn(view, names)
    assert not any("\u202e" in t.text or "\u2066" in t.text for t in texts)
    # the owner's name in the deal note is cut, never spills past the image
    for t in texts:
        assert 0 <= t.xy[0] <= WIDTH


# --------------------------------------------------------------------------- the board


def test_coordinates_go_around_the_grid_and_every_free_square_is_named() -> None:
    view = view_at(5, "turn")
    _, texts = drawn(view)
    coords = [t.text for t in texts if t.role == "coordinate"]
    for letter in COLUMNS:
        assert coords.count(letter) == 2  # above and below
    for row in range(1, HEIGHT + 1):
        assert coords.count(str(row)) == 2  # left and right
    spaces = [t.text for t in texts if t.role == "space"]
    assert sorted(spaces) == sorted(name(sq) for sq in named_squares(view))
    pawns = {p.square for p in view.pawns if p.square >= 0}
    assert len(spaces) == len(COLUMNS) * HEIGHT - len(pawns)
    assert not {name(sq) for sq in pawns} & set(spaces)
    assert {name(sq) for sq in view.cards} <= set(spaces)  # a card does not occupy its square


def test_square_letters_are_where_players_read_them() -> None:
    a1, p19 = GRID.centre(1, 1), GRID.centre(16, 19)
    assert a1[0] < p19[0] and a1[1] < p19[1]  # A1 top left, P19 bottom right
    for word in ("A1", "M16", "P19", "K6"):
        sq = parse_square(word)
        assert sq is not None and name(sq) == word
        col = COLUMNS.index(word[0]) + 1
        assert centre_of(sq) == GRID.centre(col, int(word[1:]))


def test_valley_segments_follow_the_spec() -> None:
    segments = valley_segments()
    horizontal = [s for s in segments if s[0][1] == s[1][1]]
    vertical = [s for s in segments if s[0][0] == s[1][0]]
    assert len(horizontal) == 16 and len(vertical) == 8
    for c, v in enumerate(BOARD.valley):  # under each column's row V
        left, _, right, bottom = GRID.box(c + 1, v)
        assert ((left, bottom), (right, bottom)) in horizontal
    # spec §3.2: between B|C at row 10, E|F 10, G|H 9, I|J 9, J|K 10, K|L 11, M|N 11, O|P 10
    spec = [("B", 10), ("E", 10), ("G", 9), ("I", 9), ("J", 10), ("K", 11), ("M", 11), ("O", 10)]
    found = []
    for (x, y0), (_, y1) in vertical:
        col = round((x - GRID.origin[0]) / CELL)  # the column on its left, 1-based
        row = round((y0 - GRID.origin[1]) / CELL) + 1
        assert y1 - y0 == CELL
        found.append((COLUMNS[col - 1], row))
    assert sorted(found) == sorted(spec)


def test_valley_line_is_drawn_between_squares() -> None:
    image = render_nomadi_image(view_at(3, "cards"), NAMES[:3])
    for (x0, y0), (x1, y1) in valley_segments():
        mid = ((x0 + x1) / 2, (y0 + y1) / 2)
        assert near(pixel(image, mid), VALLEY_LINE), mid
        # the line is thick, and it stays on the boundary
        if y0 == y1:
            assert near(pixel(image, (mid[0], mid[1] - 2)), VALLEY_LINE)
            assert not near(pixel(image, (mid[0], mid[1] - CELL * 0.3)), VALLEY_LINE, 40)
            assert not near(pixel(image, (mid[0], mid[1] + CELL * 0.3)), VALLEY_LINE, 40)
        else:
            assert not near(pixel(image, (mid[0] - CELL * 0.3, mid[1])), VALLEY_LINE, 40)
            assert not near(pixel(image, (mid[0] + CELL * 0.3, mid[1])), VALLEY_LINE, 40)


@pytest.mark.parametrize("course", COURSES)
def test_each_square_is_tinted_by_its_kind_and_side(course: str) -> None:
    view = view_at(2, "cards", course)
    image = render_nomadi_image(view, NAMES[:2])
    goal = goal_squares(course)
    for sq in range(len(COLUMNS) * HEIGHT):
        if sq in goal or sq in view.path:
            continue  # palms and a pool there; the last card placed is framed
        left, top, _, _ = box_of(sq)
        fill = pixel(image, (left + 5, top + 5))
        if sq in BOARD.start:
            expected = START_FILL
        elif sq in BOARD.water:
            expected = WATER_SQUARE
        else:
            expected = SAND_GOAL if BOARD.goal_side(sq) else SAND_START
        assert near(fill, expected, 3), (name(sq), fill)
    assert SAND_GOAL != SAND_START


def oasis_share(image: Image.Image, squares: frozenset[int]) -> float:
    boxes = [box_of(sq) for sq in squares]
    crop = image.crop(
        (
            round(min(b[0] for b in boxes)),
            round(min(b[1] for b in boxes)),
            round(max(b[2] for b in boxes)),
            round(max(b[3] for b in boxes)),
        )
    )
    colours = crop.getcolors(crop.width * crop.height) or []
    green = sum(n for n, c in colours if isinstance(c, tuple) and near(c, OASIS_FILL, 4))
    return green / (crop.width * crop.height)


def test_the_short_course_moves_the_goal_to_the_finish_card() -> None:
    full = render_nomadi_image(view_at(2, "cards", "full"), NAMES[:2])
    short = render_nomadi_image(view_at(2, "cards", "short"), NAMES[:2])
    assert goal_squares("full") == BOARD.goal and goal_squares("short") == BOARD.short_goal
    assert name(min(BOARD.short_goal)) == "M5" and name(max(BOARD.short_goal)) == "P8"
    assert oasis_share(full, BOARD.goal) > 0.5 and oasis_share(full, BOARD.short_goal) == 0
    assert oasis_share(short, BOARD.short_goal) > 0.5 and oasis_share(short, BOARD.goal) == 0


def test_pawns_show_their_owners_colour() -> None:
    view = view_at(5, "turn")
    image = render_nomadi_image(view, NAMES)
    colours = {seat: pawn_colour(seat) for seat in range(5)}
    assert len(set(colours.values())) == 5
    on_board = [p for p in view.pawns if p.square >= 0]
    assert len(on_board) == 15
    for pawn in on_board:
        left, top, right, bottom = box_of(pawn.square)
        crop = image.crop((round(left) + 6, round(top) + 6, round(right) - 6, round(bottom) - 6))
        counts = crop.getcolors(crop.width * crop.height) or []

        def share(rgb: RGB, counts: Sequence[tuple[int, object]] = counts) -> int:
            return sum(n for n, c in counts if isinstance(c, tuple) and near(c, rgb, 6))

        own = share(colours[pawn.owner])
        assert own > 250, (name(pawn.square), pawn.owner, own)
        for other, rgb in colours.items():
            if other != pawn.owner:
                assert share(rgb) < own / 4, (name(pawn.square), pawn.owner, other)


def test_pawns_still_in_the_box_are_not_drawn() -> None:
    view = view_at(4, "caravan")
    assert any(p.square < 0 for p in view.pawns)
    bare = replace(view, pawns=tuple(p for p in view.pawns if p.square >= 0))
    board = (0, 0, WIDTH, BOARD_BOTTOM)  # the panel counts the pawns left to place
    a, b = render_nomadi_image(view, NAMES[:4]), render_nomadi_image(bare, NAMES[:4])
    assert a.crop(board).tobytes() == b.crop(board).tobytes()


def test_arrived_pawns_wear_a_mark() -> None:
    view = view_at(3, "over")
    arrived = [i for i, p in enumerate(view.pawns) if p.arrived]
    assert arrived
    plain = replace(view, pawns=tuple(replace(p, arrived=False) for p in view.pawns))
    a, b = render_nomadi_image(view, NAMES[:3]), render_nomadi_image(plain, NAMES[:3])
    for i in arrived:
        box = square_box(view.pawns[i].square)
        assert a.crop(box).tobytes() != b.crop(box).tobytes()


def test_the_last_move_path_and_its_landing_are_highlighted() -> None:
    view = view_at(4, "turn")
    assert len(view.path) >= 2 and view.moves
    with_path = render_nomadi_image(view, NAMES[:4])
    without = render_nomadi_image(replace(view, path=(), moves=(), previous=None), NAMES[:4])
    for sq in view.path:  # start, every jumped square and the landing
        box = square_box(sq)
        assert with_path.crop(box).tobytes() != without.crop(box).tobytes(), name(sq)
    far = next(
        sq
        for sq in range(len(COLUMNS) * HEIGHT)
        if all(abs(sq % 16 - p % 16) > 2 for p in view.path + tuple(m[1] for m in view.moves))
    )
    box = square_box(far)
    assert with_path.crop(box).tobytes() == without.crop(box).tobytes()


def test_each_move_of_the_turn_is_tagged_with_its_die() -> None:
    view = view_at(5, "turn")
    assert len(view.moves) >= 2
    image, texts = drawn(view)
    untagged = render_nomadi_image(replace(view, moves=()), NAMES)
    for die, frm, _ in view.moves:
        x, y = tag_centre(frm)
        box = (round(x) - 8, round(y) - 8, round(x) + 8, round(y) + 8)
        assert image.crop(box).tobytes() != untagged.crop(box).tobytes(), (die, name(frm))
    values = {t.text for t in texts if t.role == "value"}
    assert {str(die) for die, _, _ in view.moves} <= values


def test_face_down_cards_are_drawn_where_they_lie() -> None:
    view = view_at(3, "turn")
    taken = [w for w in BOARD.water if w not in view.cards]
    loose = [sq for sq in view.cards if sq not in BOARD.water]
    assert loose  # the five cards placed in setup
    image = render_nomadi_image(view, NAMES[:3])
    bare = render_nomadi_image(replace(view, cards=()), NAMES[:3])
    for sq in view.cards:
        box = square_box(sq)
        assert image.crop(box).tobytes() != bare.crop(box).tobytes(), name(sq)
    for sq in taken:  # a water point without its card shows the well only
        if all(p.square != sq for p in view.pawns):
            box = square_box(sq)
            assert image.crop(box).tobytes() == bare.crop(box).tobytes(), name(sq)


# --------------------------------------------------------------------------- hidden values


def value_texts(texts: list[DrawnText]) -> list[str]:
    return [t.text for t in texts if CARD_VALUE.search(t.text)]


@pytest.mark.parametrize("phase", ["turn", "deal", "priced"])
def test_public_views_never_show_a_card_value(phase: str) -> None:
    for players in (2, 5):
        view = view_at(players, phase)
        assert view.viewer is None
        _, texts = drawn(view)
        debts = {amount(c) for c in view.coins if c < 0}
        assert [t for t in value_texts(texts) if t not in debts] == []
        assert all("?" not in t.text or t.role != "score" for t in texts)  # nothing known


def test_the_mover_sees_the_card_he_prices_and_nobody_else_does() -> None:
    state = state_at(5, "deal")
    deal = state.deal
    assert deal is not None
    mover = GAME.view(state, deal.mover)
    assert mover.deal is not None and mover.deal.value is not None
    value = signed(mover.deal.value)
    _, texts = drawn(mover)
    assert any(t.text == value and t.role == "value" for t in texts)  # the card, face up
    assert any(value in t.text and t.role == "status" for t in texts)  # and in the note
    for seat in (None, deal.owner):
        other = GAME.view(state, seat)
        _, texts = drawn(other)
        assert not any(t.text == value and t.role == "value" for t in texts)
        assert not any(value in t.text and t.role == "status" for t in texts)
        assert any(t.text == "?" and t.role == "value" for t in texts)  # the card, face down


def test_the_status_says_who_prices_and_who_answers() -> None:
    view = view_at(4, "deal")
    assert view.deal is not None and view.deal.price is None
    panel = score_panel(view, NAMES[:4], "en")
    assert panel.acting == (view.deal.mover,)
    assert NAMES[view.deal.owner] in panel.note and "price" in panel.note
    assert name(view.deal.square) in panel.status
    priced = view_at(4, "priced")
    assert priced.deal is not None and priced.deal.price is not None
    panel = score_panel(priced, NAMES[:4], "fr")
    assert panel.acting == (priced.deal.owner,)
    assert panel.note == f"acheter pour {priced.deal.price} ou refuser"


def test_own_values_show_in_a_seats_view_and_all_values_once_over() -> None:
    state = state_at(5, "over")
    over = GAME.view(state, None)
    assert over.final is not None
    panel = score_panel(over, NAMES, "en")
    for seat, row in enumerate(panel.rows):
        cell = row.cells[2]
        assert not isinstance(cell, str | int) and not callable(cell)
        assert cell.text == cards_text(over, seat)
        known = [value for value in over.held[seat] if value is not None]
        assert len(known) == len(over.held[seat])
        if known:  # the total fits a cell; the final log line lists every value
            assert cell.text == f"{len(known)} (= {signed(sum(known))})"
    _, texts = drawn(over)
    total = [t for t in texts if t.role == "score"]
    for score in over.final:
        assert any(t.text == amount(score) for t in total)
    # mid-game, a seat sees its own cards' values, not the others'
    mid = next(s for s in game(5) if s.phase == "turn" and sum(map(len, s.held)) >= 3)
    holder = next(seat for seat in range(5) if mid.held[seat])
    mine = GAME.view(mid, holder)
    assert all(v is not None for v in mine.held[holder])
    assert "(" in cards_text(mine, holder) and "?" not in cards_text(mine, holder)
    public = GAME.view(mid, None)
    assert cards_text(public, holder) == str(len(mid.held[holder]))


def test_debts_are_shown_with_a_minus_and_as_a_warning() -> None:
    view = view_at(3, "turn")
    view = replace(view, coins=(-3, *view.coins[1:]))
    panel = score_panel(view, NAMES[:3], "en")
    coins = panel.rows[0].cells[1]
    assert not isinstance(coins, str | int) and not callable(coins)
    assert coins.text == "\u22123" and coins.warning
    check_png(render_nomadi(view, NAMES[:3]))


# --------------------------------------------------------------------------- dice and turns


def test_used_dice_are_greyed_and_the_last_turn_is_summed_up() -> None:
    view = view_at(5, "turn")
    assert any(view.used) and not all(view.used)
    top = BOARD_BOTTOM
    bar = (0, top, WIDTH, top + dice_bar_height(view))
    fresh = replace(view, used=(False,) * len(view.dice))
    a, b = render_nomadi_image(view, NAMES), render_nomadi_image(fresh, NAMES)
    assert a.crop(bar).tobytes() != b.crop(bar).tobytes()
    assert view.previous is not None
    _, texts = drawn(view)
    words = [t.text for t in texts]
    assert "Dice" in words and "Last turn" in words
    assert NAMES[view.previous.seat] in words
    paid = replace(view.previous, used=(True,) * 4 + (False,) * 2, paid=2)
    _, texts = drawn(replace(view, previous=paid, rerolled=True))
    words = [t.text for t in texts]
    assert "paid 2" in words and "rolled again" in words


def test_setup_has_no_dice_bar() -> None:
    view = view_at(3, "cards")
    assert dice_bar_height(view) == 0 and not view.dice
    assert dice_bar_height(view_at(3, "turn")) > 0


def test_acting_seat_matches_the_engine() -> None:
    for players in (2, 3, 5):
        for state in game(players)[:-1]:
            view = GAME.view(state, None)
            assert acting(view) == GAME.to_act(state)[:1], state.phase
    assert acting(view_at(2, "over")) == ()


def test_bribe_offers_are_listed() -> None:
    state = GAME.new(3, 5, {"bribes": "on"})
    rng = Rng.from_seed(5)
    while state.phase != "turn" or state.deal is not None:
        seat = GAME.to_act(state)[0]
        move = choose_move(GAME.view(state, seat), GAME.legal_moves(state, seat), rng)
        state = GAME.play(state, seat, move).state
    briber = next(seat for seat in range(3) if seat != state.active)
    state = GAME.play(state, briber, Bribe(2, "go **left** \u202eplease")).state
    view = GAME.view(state, None)
    panel = score_panel(view, NAMES[:3], "en")
    titles = [c.title for c in panel.columns if isinstance(c.title, str)]
    assert titles[-1] == "Offer"
    offer = panel.rows[briber].cells[-1]
    assert not isinstance(offer, str | int) and not callable(offer)
    assert offer.text.startswith("2 ")
    check_png(render_nomadi(view, NAMES[:3]))
    off = score_panel(view_at(3, "turn"), NAMES[:3], "en")
    assert "Offer" not in [c.title for c in off.columns]


# --------------------------------------------------------------------------- words and legibility


@pytest.mark.parametrize(("players", "phase"), [(2, "turn"), (5, "turn"), (5, "deal"), (3, "over")])
def test_every_label_is_legible_at_phone_width(players: int, phase: str) -> None:
    view = view_at(players, phase)
    image, texts = drawn(view, lang="fr" if phase == "over" else "en")
    roles = {t.role for t in texts}
    assert roles >= NEEDED, NEEDED - roles
    too_small = [
        (t.role, t.text, t.size)
        for t in texts
        if phone_px(t.size, image.width) < MIN_PHONE_PX.get(t.role, 9)
    ]
    assert not too_small
    smallest = {r: min(t.size for t in texts if t.role == r) for r in NEEDED}
    assert smallest["space"] * PHONE_WIDTH / image.width >= 9
    assert smallest["coordinate"] * PHONE_WIDTH / image.width >= 9
    for role in ("status", "name", "score"):
        assert smallest[role] * PHONE_WIDTH / image.width >= 11, role
    assert SPACE_SIZE * PHONE_WIDTH / WIDTH >= 9  # so square names go in every free square
    assert all(t.role for t in texts)  # every text says what it is for


def test_french_render_uses_french_words() -> None:
    view = view_at(4, "turn")
    _, english = drawn(view, lang="en")
    _, french = drawn(view, lang="fr")
    en = {t.text for t in english}
    fr = {t.text for t in french}
    assert {"Coins", "Cards", "Pawns", "Dice", "Last turn", "blue", "yellow"} <= en
    assert {"Pièces", "Cartes", "Pions", "Dés", "Tour précédent", "bleu", "jaune"} <= fr
    assert not {"Coins", "Cards", "Pawns", "Dice", "Last turn"} & fr
    status = catalogue.text("fr", "nomadi.render.status.round", {"round": view.rounds + 1})
    assert any(t.text == status and t.role == "status" for t in french)
    over = score_panel(view_at(4, "over"), NAMES[:4], "fr")
    assert over.status == "Partie terminée · le troisième pion a atteint l'oasis"
    setup = score_panel(view_at(4, "caravan"), NAMES[:4], "fr")
    assert setup.status == "Préparation : formation de la caravane"
    assert re.fullmatch(r"restent? \d+ pions?", setup.note)


def test_the_status_says_why_the_game_ended_and_when_no_die_can_be_used() -> None:
    over = view_at(2, "over")
    assert over.end == "third"
    assert score_panel(over, NAMES[:2], "en").status == (
        "Game over · the third pawn reached the oasis"
    )
    turn = view_at(2, "turn")
    stuck = replace(turn, roll_choice=True)
    assert score_panel(stuck, NAMES[:2], "en").note == "no usable die: reroll or pay"
    assert score_panel(turn, NAMES[:2], "en").note == ""


def test_the_panel_marks_each_seat_in_its_pawn_colour() -> None:
    view = view_at(3, "turn")
    panel = score_panel(view, NAMES[:3], "en")
    assert [row.colour for row in panel.rows] == [pawn_colour(seat) for seat in range(3)]
    image = render_nomadi_image(view, NAMES[:3])
    top = BOARD_BOTTOM + dice_bar_height(view)
    for seat, box in enumerate(panel_layout(panel, image.width).rows):
        strip = (box[0] + 2, top + (box[1] + box[3]) / 2)  # the colour strip at the row's left
        assert near(pixel(image, strip), pawn_colour(seat)), seat


def test_bot_and_resigned_seats_are_badged() -> None:
    view = view_at(3, "turn")
    panel = score_panel(view, NAMES[:3], "en", [None, "bot", "resigned"])
    assert [r.tag for r in panel.rows] == [None, "bot", "resigned"]
    assert score_panel(view, NAMES[:3], "en", ["bot"]).rows[2].tag is None
    _, texts = drawn(view, tags=[None, "bot", "resigned"])
    badges = {t.text for t in texts if t.role == "badge"}
    assert badges == {"AI", "resigned"}


def test_winners_are_crowned_once_over() -> None:
    view = view_at(4, "over")
    assert view.final is not None
    panel = score_panel(view, NAMES[:4], "en")
    best = max(view.final)
    assert panel.winners == tuple(s for s, v in enumerate(view.final) if v == best)
    assert panel.acting == ()
    assert panel.columns[-1].title == "Total"


# --------------------------------------------------------------------------- the hand


def test_the_hand_shows_a_seats_cards_and_the_card_it_prices() -> None:
    state = state_at(5, "deal")
    assert state.deal is not None
    assert render_nomadi_hand(GAME.view(state, None), NAMES) is None
    mover = GAME.view(state, state.deal.mover)
    assert mover.deal is not None and mover.deal.value is not None
    with recording_text() as texts:
        png = render_nomadi_hand(mover, NAMES, "en")
    assert png is not None and len(png) < 100 * 1024
    image = decode(png)
    assert 500 <= image.width <= 1000
    assert any(t.text == signed(mover.deal.value) and t.role == "value" for t in texts)
    assert any(t.text == NAMES[state.deal.mover] and t.role == "name" for t in texts)
    owner = GAME.view(state, state.deal.owner)
    with recording_text() as texts:
        assert render_nomadi_hand(owner, NAMES, "fr") is not None
    assert not any(t.role == "value" and t.text == signed(mover.deal.value) for t in texts) or any(
        v == mover.deal.value for v in owner.held[state.deal.owner]
    )
    assert any(t.text.startswith("Pièces") for t in texts)
    # the hand of a seat holding cards shows each value, and their total
    over = state_at(5, "over")
    seat = max(range(5), key=lambda s: len(over.held[s]))
    view = GAME.view(over, seat)
    with recording_text() as texts:
        assert render_nomadi_hand(view, NAMES, "en") is not None
    values = {t.text for t in texts if t.role == "value" and CARD_VALUE.search(t.text)}
    held = [v for v in view.held[seat] if v is not None]
    assert values == {signed(v) for v in held}
    total = sum(held)
    assert any(signed(total) in t.text and t.role == "title" for t in texts)


def test_the_hand_stays_legible_with_hostile_names() -> None:
    view = view_at(5, "turn", seat=2)
    with recording_text() as texts:
        png = render_nomadi_hand(view, ["", "", "\u202e" + "W" * 300, "", ""], "en")
    assert png is not None
    image = decode(png)
    for t in texts:
        assert phone_px(t.size, image.width) >= MIN_PHONE_PX.get(t.role, 9), t


def test_the_end_reveals_every_card_in_full_in_the_log() -> None:
    """The panel shows each hand's total; the final lines list every value, so the
    reveal is never cut ("8 (+2 −2 +2 +3 −2 −1 +…")."""
    seed = 3
    state = GAME.new(4, seed, {"course": "full"})
    rng = Rng.from_seed(seed)
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        move = choose_move(GAME.view(state, seat), GAME.legal_moves(state, seat), rng)
        result = GAME.play(state, seat, move)
        state = result.state
    revealed = {e.seat: e.params["values"] for e in result.events if e.key == "nomadi.log.revealed"}
    assert set(revealed) == set(range(4))
    for seat, held in enumerate(state.held):
        assert revealed[seat] == (" ".join(signed(state.values[c]) for c in held) or "–")
    keys = [e.key for e in result.events]
    assert keys.index("nomadi.log.revealed") < keys.index("nomadi.log.final")


def test_the_move_path_wears_a_colour_no_seat_wears() -> None:
    """The path was gold, the yellow player's hue: it read as his move."""
    for seat in range(5):
        assert worst_delta_e(PATH, pawn_colour(seat)) >= 15, seat


def test_every_pawn_stands_out_on_the_dark_panel() -> None:
    """The black seat's pawn had an ink rim: on the panel's dark backdrop its
    outline vanished. Each pawn shows by its fill or by its rim."""
    for seat in range(5):
        fill = pawn_colour(seat)
        shown = max(contrast_ratio(fill, BACKDROP), contrast_ratio(pawn_rim(fill), BACKDROP))
        assert shown >= 2, seat


def test_the_grouped_setup_says_what_the_placing_seat_has_left() -> None:
    state = GAME.new(2, 3)
    english = score_panel(GAME.view(state, None), NAMES[:2], "en")
    assert english.status == "Setup: cards and caravan"
    assert english.note == "3 cards and 8 pawns to place"
    assert english.acting == (0,)
    french = score_panel(GAME.view(state, None), NAMES[:2], "fr")
    assert (french.status, french.note) == (
        "Préparation : cartes et caravane",
        "3 cartes et 8 pions à poser",
    )
    for square in ("F9", "G9", "H9"):
        state = GAME.apply(state, 0, PlaceCard(square_at(square)))
    assert score_panel(GAME.view(state, None), NAMES[:2], "en").note == "8 pawns left"
    check_png(render_nomadi(GAME.view(state, 1), NAMES[:2]))


@pytest.mark.parametrize("dice", [(3, 1, 6, 6, 6, 6), (3, 1, 1, 6, 6, 6)])
def test_an_earlier_jump_is_drawn_along_the_squares_it_crossed(dice: tuple[int, ...]) -> None:
    """Jumps were drawn as straight arrows, a diagonal across a turning jump.
    Worked example 3 (J12 over I12 and I11 to I10), then a 1: the jump's arrow
    runs along J12, I12, I11, I10, the way R6 defines it, and never cuts the
    corner; so in the turn (two 1s) and as the last turn (6s unusable)."""
    state = mk([("J12", 0), ("I12", 1), ("I11", 0)], dice)
    state = GAME.apply(state, 0, d(3, "J12", "I10"))
    state = GAME.apply(state, 0, d(1, "I12", "H11"))
    view = GAME.view(state, None)
    assert (state.active == 0) == (dice[2] == 1)  # the second 1 keeps the turn going
    jump, step = move_paths(view)
    assert jump == tuple(square_at(w) for w in ("J12", "I12", "I11", "I10"))
    assert step == (square_at("I12"), square_at("H11"))
    for a, b in zip(jump, jump[1:], strict=False):
        (ac, ar), (bc, br) = (a % 16, a // 16), (b % 16, b // 16)
        assert abs(ac - bc) + abs(ar - br) == 1  # orthogonal unit steps only
    shown = render_nomadi_image(view, NAMES[:2])
    bare = render_nomadi_image(replace(view, moves=(), previous=None, path=()), NAMES[:2])

    def between(a: str, b: str) -> tuple[float, float]:
        (ax, ay), (bx, by) = centre_of(square_at(a)), centre_of(square_at(b))
        return (ax + bx) / 2, (ay + by) / 2

    for a, b in (("J12", "I12"), ("I11", "I10")):  # along the path, between the pawns
        assert pixel(shown, between(a, b)) != pixel(bare, between(a, b)), (a, b)
    corner_cut = between("J12", "I10")  # where a straight arrow would pass
    assert pixel(shown, corner_cut) == pixel(bare, corner_cut)
