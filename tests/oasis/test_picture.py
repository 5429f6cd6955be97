"""The Oasis board image, drawn from real engine states.

Games are seeded and played by the baseline AI (``games.contract.bot_move``), so
the renderer sees what the engine really produces: offers being made,
offers being taken and placed, the Noble's bonus and finished games, for 3
to 5 players. Pixel tests use the unquantised image (``render_oasis_image``);
texts are checked through ``render.text.recording_text`` (every text drawn,
with its size and role).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache

import pytest
from PIL import Image

from games import catalogue
from games.contract import bot_move
from games.oasis import SPEC, OasisState
from games.oasis.engine import GAME
from games.oasis.model import BOARD, COLUMNS, HEIGHT, LANDS, MULTIPLIERS, OasisView, name
from games.oasis.picture import (
    BOARD_BOTTOM,
    CAMEL_R,
    CELL,
    DOMAIN_EDGE,
    DOMAIN_LINE,
    GRID,
    LAND_FILL,
    PAWN_R,
    PILES_H,
    SAND,
    TRACK,
    WATER,
    WIDTH,
    box_of,
    centre_of,
    domain_edges,
    named_squares,
    offer_columns,
    offer_words,
    pawn_centre,
    render_oasis,
    render_oasis_hand,
    render_oasis_image,
    score_panel,
    score_texts,
    seat_colour,
    status_words,
    table_height,
    tile_sprite,
)
from games.oasis.views import multiplier_count, supply_params
from render.palette import CVD_MATRICES, INK, PAPER, RGB, player_style, worst_delta_e
from render.panel import panel_height, panel_layout
from render.png import MAX_PNG_BYTES
from render.text import (
    MIN_PHONE_PX,
    PHONE_WIDTH,
    DrawnText,
    display_names,
    font,
    phone_px,
    recording_text,
)
from tests.pictures import decode, near, pixel

NAMES = ("Alice", "Bob", "Chloé", "Driss", "Eve")
PLAYERS = (3, 4, 5)
PHASES = ("offer", "take", "place", "bonus", "over")
NEEDED = {"space", "coordinate", "status", "name", "score", "title"}
SQUARES = len(COLUMNS) * HEIGHT


# --------------------------------------------------------------------------- games


@cache
def game(players: int, seed: int = 1) -> tuple[OasisState, ...]:
    """Every state of a seeded AI game, from the new game to the end."""
    state = GAME.new(players, seed)
    states = [state]
    n = 0
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        state = GAME.play(state, seat, bot_move(GAME, SPEC.bot, state, seat, seed * 1000 + n)).state
        states.append(state)
        n += 1
    return tuple(states)


PREDICATES: dict[str, Callable[[OasisState], bool]] = {
    # an offer being made, after a few rounds, with earlier offers on the table
    "offer": lambda s: s.phase == "offer" and s.round >= 3 and sum(map(bool, s.offers)) >= 2,
    # a chooser about to take an offer, some already taken
    "take": lambda s: s.phase == "choose" and not any(s.pending) and max(s.taken) >= 0,
    # placements still owed, some already made (the last squares)
    "place": lambda s: s.phase == "choose" and any(s.pending) and bool(s.last) and s.round >= 4,
    "bonus": lambda s: s.phase == "bonus" and s.round >= 2,
    "over": lambda s: s.phase == "over",
}


@cache
def state_at(players: int, phase: str) -> OasisState:
    """The first state of a game in ``phase`` (trying a few seeds for rare ones)."""
    for seed in range(1, 8):
        found = next((s for s in game(players, seed) if PREDICATES[phase](s)), None)
        if found is not None:
            return found
    raise LookupError(f"no {phase} state for {players} players")


def view_at(players: int, phase: str, seat: int | None = None) -> OasisView:
    return GAME.view(state_at(players, phase), seat)


def check_png(png: bytes, view: OasisView) -> Image.Image:
    assert len(png) <= MAX_PNG_BYTES
    assert len(png) < 200 * 1024  # well under Discord's comfort zone
    image = decode(png)
    panel = score_panel(view, NAMES[: view.players], "en")
    assert image.size == (WIDTH, BOARD_BOTTOM + table_height(view) + panel_height(panel, WIDTH))
    assert 1000 <= image.width <= 1400 and image.height <= 1900
    return image


def drawn(
    view: OasisView,
    names: Sequence[str] = NAMES,
    lang: str = "en",
    tags: Sequence[str | None] | None = None,
) -> tuple[Image.Image, list[DrawnText]]:
    with recording_text() as texts:
        image = render_oasis_image(view, names[: view.players], lang, tags)
    return image, texts


def words(texts: Sequence[DrawnText], role: str | None = None) -> list[str]:
    return [t.text for t in texts if role is None or t.role == role]


def whole_px(box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    return round(box[0]), round(box[1]), round(box[2]), round(box[3])


def share(image: Image.Image, box: tuple[float, float, float, float], rgb: RGB) -> float:
    """The part of ``box`` painted (nearly) ``rgb``."""
    crop = image.crop(whole_px(box))
    colours = crop.getcolors(crop.width * crop.height) or []
    hits = sum(n for n, c in colours if isinstance(c, tuple) and near(c, rgb, 6))
    return hits / (crop.width * crop.height)


def offer_names(view: OasisView, texts: Sequence[DrawnText], column: str) -> list[DrawnText]:
    """The names drawn in a column of the offer table ("player" or "taken"),
    top to bottom."""
    columns = offer_columns(view, display_names(NAMES, view.players, "en"), "en")
    left = getattr(columns, column)
    top, bottom = BOARD_BOTTOM, BOARD_BOTTOM + table_height(view)
    found = [
        t
        for t in texts
        if t.role == "name" and top < t.xy[1] < bottom and left < t.xy[0] < left + 60
    ]
    return sorted(found, key=lambda t: t.xy[1])


def board(image: Image.Image) -> bytes:
    return image.crop((0, 0, WIDTH, BOARD_BOTTOM)).tobytes()


# --------------------------------------------------------------------------- smoke


@pytest.mark.parametrize("players", PLAYERS)
def test_renders_every_phase_for_every_player_count(players: int) -> None:
    for phase in PHASES:
        view = view_at(players, phase)
        assert view.players == players
        if phase == "over":
            assert view.scores is not None and view.end
        if phase == "place":
            assert view.pending and view.last
        check_png(render_oasis(view, NAMES[:players]), view)


def test_rendering_is_deterministic() -> None:
    view = view_at(4, "place")
    assert render_oasis(view, NAMES[:4]) == render_oasis(view, NAMES[:4])


def test_unknown_language_falls_back_to_english() -> None:
    _, texts = drawn(view_at(3, "take"), lang="de")
    assert any(t.text.startswith("Round ") for t in texts)


def test_hostile_names_never_break_the_image() -> None:
    names = [
        "x" * 300,
        "**bold** `code` <@123> @everyone ||spoiler||",
        "\u202eevil\u202c \u2066Zoë\u2069",
        "🐪🐪🐪",
        "",
    ]
    view = view_at(5, "place")
    tags = ["bot", "resigned", None, "bot", None]
    check_png(render_oasis(view, names, tags=tags), view)
    check_png(render_oasis(view, names[:2]), view)  # fewer names than seats
    shown = display_names(names, view.players, "en")
    assert shown[2] == "evil Zoë" and shown[3] == "Player 4"
    _, texts = drawn(view, names)
    assert not any("\u202e" in t.text or "\u2066" in t.text for t in texts)
    for t in texts:
        assert 0 <= t.xy[0] <= WIDTH


# --------------------------------------------------------------------------- the board


def test_coordinates_go_around_the_grid_and_open_squares_are_named() -> None:
    view = view_at(5, "place")
    _, texts = drawn(view)
    coords = words(texts, "coordinate")
    for letter in COLUMNS:
        assert coords.count(letter) == 2  # above and below
    for row in range(1, HEIGHT + 1):
        assert coords.count(str(row)) == 2  # left and right
    spaces = words(texts, "space")
    assert sorted(spaces) == sorted(name(sq) for sq in named_squares(view))
    taken = {sq for sq, _ in view.tiles} | {sq for sq, _ in view.camels}
    assert not {name(sq) for sq in taken} & set(spaces)
    printed = set(BOARD.springs) | set(BOARD.bonus)
    assert not {name(sq) for sq in printed} & set(spaces)
    # every empty free square and empty track square is named
    empty_track = [sq for sq in BOARD.track if sq not in taken]
    assert empty_track and all(name(sq) in spaces for sq in empty_track)
    # A1 top left, O13 bottom right, as typed
    assert centre_of(0) == GRID.centre(1, 1)
    assert centre_of(SQUARES - 1) == GRID.centre(15, 13)


def test_printed_squares_and_the_track_are_told_apart() -> None:
    view = view_at(3, "offer")
    image = render_oasis_image(view, NAMES[:3])
    taken = {sq for sq, _ in view.camels} | {sq for sq, _ in view.tiles}
    for sq in range(SQUARES):
        if sq in taken or sq in view.last:
            continue
        left, top, _, _ = box_of(sq)
        corner = pixel(image, (left + 4, top + 4))
        kind = BOARD.kind(sq)
        if kind == "=":
            assert near(corner, TRACK, 3), name(sq)
        elif kind in ("*", "."):
            assert near(corner, SAND, 3), name(sq)
        else:  # a bonus square: its landscape, faint, under a white star
            assert not near(corner, SAND, 12) and not near(corner, TRACK, 12), name(sq)
    # a spring holds a pool of water, a bonus square a star with its letter
    for sq in BOARD.springs:
        x, y = centre_of(sq)
        assert near(pixel(image, (x + CELL * 0.25, y + CELL * 0.22)), WATER, 12), name(sq)
    for sq in BOARD.bonus:
        assert near(pixel(image, (centre_of(sq)[0] - 9, centre_of(sq)[1] + 6)), PAPER, 12)
    _, texts = drawn(view)
    letters = [t.text for t in texts if t.role == "value" and t.text in LANDS]
    for land in LANDS:
        assert letters.count(land) >= 3  # three bonus squares of each type (and tiles)


def test_landscapes_and_the_board_differ_for_every_colour_vision() -> None:
    colours = [*LAND_FILL.values(), SAND, TRACK]
    for i, a in enumerate(colours):
        for b in colours[i + 1 :]:
            assert worst_delta_e(a, b) >= 12, (a, b)
    # and every tile carries its letter, so no landscape rests on colour alone
    view = view_at(4, "over")
    _, texts = drawn(view)
    letters = [t.text for t in texts if t.role == "value" and t.text in LANDS]
    assert set(letters) == set(LANDS)


def test_tiles_show_their_landscape() -> None:
    view = view_at(4, "over")
    image = render_oasis_image(view, NAMES[:4])
    pawns = {d.pawn for d in view.domains if d.pawn is not None}
    for sq, land in view.tiles:
        if sq in pawns or sq in view.last:
            continue
        assert share(image, box_of(sq), LAND_FILL[land]) > 0.3, (name(sq), land)


def test_pieces_differ_by_colour_and_shape() -> None:
    assert len({player_style(seat).shape for seat in range(5)}) == 5
    assert len({seat_colour(seat) for seat in range(5)}) == 5


def test_each_seat_has_its_colour_on_the_board_and_in_the_panel() -> None:
    view = view_at(5, "over")
    image = render_oasis_image(view, NAMES)
    whole = (0, 0, WIDTH, BOARD_BOTTOM)
    for seat in range(5):
        assert share(image, whole, seat_colour(seat)) > 0.002, seat
    panel = score_panel(view, NAMES, "en")
    assert [row.colour for row in panel.rows] == [seat_colour(seat) for seat in range(5)]
    top = BOARD_BOTTOM + table_height(view)
    for seat, box in enumerate(panel_layout(panel, image.width).rows):
        strip = (box[0] + 2, top + (box[1] + box[3]) / 2)
        assert near(pixel(image, strip), seat_colour(seat)), seat


def test_camels_and_pawns_show_their_owner() -> None:
    view = view_at(4, "over")
    image = render_oasis_image(view, NAMES[:4])
    pieces = [(sq, seat) for sq, seat in view.camels]
    pieces += [
        (d.pawn, d.owner) for d in view.domains if d.pawn is not None and d.owner is not None
    ]
    assert len(pieces) > 20
    pawns = {d.pawn for d in view.domains if d.pawn is not None}
    for sq, owner in pieces:
        left, top, right, bottom = box_of(sq)
        box = (left + 12, top + 12, right - 12, bottom - 12)
        if sq in pawns:  # a pawn stands in the corner, its tile shows around it
            x, y = pawn_centre(sq)
            box = (x - PAWN_R * 0.7, y - PAWN_R * 0.7, x + PAWN_R * 0.7, y + PAWN_R * 0.7)
        own = share(image, box, seat_colour(owner))
        assert own > 0.15, (name(sq), owner, own)
        for other in range(view.players):
            if other != owner:
                assert share(image, box, seat_colour(other)) < own / 3, (name(sq), other)


def test_domains_are_framed_by_owner_and_unowned_ones_are_dashed() -> None:
    view = next(
        GAME.view(s, None)
        for s in game(4)
        if any(d.owner is None for d in GAME.view(s, None).domains)
        and any(d.owner is not None for d in GAME.view(s, None).domains)
    )
    image = render_oasis_image(view, NAMES[:4])
    for domain in view.domains:
        colours = []
        for sq, side in domain_edges(domain.squares):
            x0, y0, x1, y1 = box_of(sq)
            for along in (0.35, 0.5):  # the frame's middle, along the side
                x = {"left": x0 + 4, "right": x1 - 3}.get(side, x0 + (x1 - x0) * along)
                y = {"top": y0 + 4, "bottom": y1 - 3}.get(side, y0 + (y1 - y0) * along)
                colours.append(pixel(image, (x, y)))
        if domain.owner is None:
            assert any(near(c, PAPER) for c in colours) and any(near(c, INK) for c in colours)
            assert not any(near(c, seat_colour(s)) for c in colours for s in range(4))
        else:
            assert all(near(c, seat_colour(domain.owner)) for c in colours), domain


def test_herds_are_joined_along_the_track() -> None:
    view = view_at(4, "over")
    owner = dict(view.camels)
    pairs = [
        (a, b)
        for a in owner
        for b in owner
        if a < b and owner[a] == owner[b] and b in (a + 1, a + len(COLUMNS))
    ]
    assert pairs
    image = render_oasis_image(view, NAMES[:4])
    for a, b in pairs:
        (xa, ya), (xb, yb) = centre_of(a), centre_of(b)
        assert near(pixel(image, ((xa + xb) / 2, (ya + yb) / 2)), seat_colour(owner[a]))


def test_the_last_placements_are_highlighted() -> None:
    view = view_at(4, "place")
    assert view.last and view.last_seat is not None
    plain = replace(view, last=(), last_seat=None)
    a, b = render_oasis_image(view, NAMES[:4]), render_oasis_image(plain, NAMES[:4])
    for sq in view.last:
        box = whole_px(box_of(sq))
        assert a.crop(box).tobytes() != b.crop(box).tobytes(), name(sq)
    far = next(
        sq
        for sq in range(SQUARES)
        if all(abs(sq % 15 - o % 15) + abs(sq // 15 - o // 15) > 2 for o in view.last)
    )
    box = whole_px(box_of(far))
    assert a.crop(box).tobytes() == b.crop(box).tobytes()
    _, texts = drawn(view)
    said = catalogue.text("en", "oasis.render.last", {"player": NAMES[view.last_seat]})
    assert said in words(texts, "title")


# --------------------------------------------------------------------------- the table


@pytest.mark.parametrize("phase", ["offer", "take", "place"])
def test_offers_are_drawn_in_rank_order_with_their_cards(phase: str) -> None:
    view = view_at(5, phase)
    _, texts = drawn(view)
    cards = words(texts, "score")
    for seat in range(5):
        for code in view.offers[seat]:
            assert offer_words(code, "en") in cards, code
    # the rows follow the rank order (the hierarchy), each with its rank tile
    assert [t.text for t in offer_names(view, texts, "player")] == [
        NAMES[seat] for seat in view.order
    ]
    ranks = [t.text for t in texts if t.role == "score" and t.text.isdigit()]
    for seat in range(5):
        assert str(view.ranks[seat]) in ranks
    if phase == "offer":
        waiting = catalogue.text("en", "oasis.render.waiting")
        assert waiting in words(texts, "title")


def test_taken_offers_are_dimmed_and_show_who_took_them() -> None:
    view = view_at(4, "take")
    taken = [seat for seat in range(4) if view.taken[seat] is not None]
    assert taken
    top = BOARD_BOTTOM
    bottom = top + table_height(view)
    a = render_oasis_image(view, NAMES[:4])
    untaken = replace(view, taken=(None,) * 4)
    b = render_oasis_image(untaken, NAMES[:4])
    assert a.crop((0, top, WIDTH, bottom)).tobytes() != b.crop((0, top, WIDTH, bottom)).tobytes()
    assert board(a) == board(b)
    # the tile received in exchange shows in the panel's rank column
    received = [seat for seat in range(4) if view.received[seat]]
    assert received
    panel = score_panel(view, NAMES[:4], "en")
    for seat in received:
        cell = panel.rows[seat].cells[0]
        assert not isinstance(cell, str | int) and not callable(cell)
        assert cell.text == f"{view.ranks[seat]} \u2192 {view.received[seat]}"


def test_piles_are_counted() -> None:
    view = view_at(3, "place")
    _, texts = drawn(view)
    said = words(texts, "score")
    assert catalogue.text("en", "oasis.render.draw", {"count": view.draw}) in " ".join(said)
    discard = catalogue.text("en", "oasis.render.discard", {"count": len(view.discard)})
    assert discard in " ".join(said)
    for land in LANDS:
        assert f"{catalogue.text('en', f'oasis.land.{land}')} {view.lands[land]}" in said
    for kind in MULTIPLIERS:
        assert f"{catalogue.text('en', f'oasis.multiplier.{kind}')} {view.piles[kind]}" in said
    track = catalogue.text("en", "oasis.render.track", {"count": len(view.camels), "total": 38})
    assert track in said


def test_seats_without_an_offer_are_said_to_sit_out() -> None:
    view = view_at(3, "take")
    seat = view.order[-1]
    out = replace(
        view,
        out=(seat,),
        offers=tuple(() if s == seat else o for s, o in enumerate(view.offers)),
        taken=tuple(None if s == seat else t for s, t in enumerate(view.taken)),
    )
    _, texts = drawn(out)
    assert catalogue.text("en", "oasis.render.no_offer") in words(texts, "title")


# --------------------------------------------------------------------------- the panel


def test_the_panel_shows_each_players_public_state() -> None:
    view = view_at(5, "place")
    panel = score_panel(view, NAMES, "en")
    titles = [c.title for c in panel.columns if isinstance(c.title, str)]
    assert titles == ["Rank", "Stack", "Multipliers", "Supply", "Herd"]
    _, texts = drawn(view)
    said = words(texts, "score")
    for seat in range(5):
        row = panel.rows[seat]
        values = [c.text for c in row.cells if not isinstance(c, str | int) and not callable(c)]
        assert values[1:3] == [str(view.stacks[seat]), str(view.multiplier_counts[seat])]
        assert values[3:] == [""] + [str(view.herds[seat])] + [
            str(view.owned[seat][land]) for land in LANDS
        ]
        assert str(view.pawns_left[seat]) in said and str(view.camels_left[seat]) in said


@pytest.mark.parametrize("phase", ["offer", "take", "place", "bonus"])
def test_the_status_says_the_phase_and_what_the_acting_seat_owes(phase: str) -> None:
    view = view_at(4, phase)
    panel = score_panel(view, NAMES[:4], "en")
    assert panel.acting == view.awaiting and view.awaiting == (view.current,)
    status, note = status_words(view, "en")
    assert status.startswith(f"Round {view.round} · ")
    if phase == "offer":
        assert note in ("reveal or stop", "stop now")
        assert (note == "reveal or stop") == view.can_reveal
    elif phase == "take":
        assert note == "take an offer"
    elif phase == "place":
        owed = ", ".join(
            catalogue.text(
                "en",
                "oasis.owed.camels" if kind == "camels" else "oasis.owed.tiles",
                {"count": count, "land": catalogue.text("en", f"oasis.land.{kind}")},
            )
            for kind, count in view.pending
        )
        assert note == f"place {owed}"
    else:
        assert status.endswith("Noble bonus") and note


def test_the_end_says_why_and_breaks_the_score_down() -> None:
    view = view_at(5, "over")
    assert view.scores is not None
    status, note = status_words(view, "en")
    reason = {
        "track": "the camel track is full",
        **{
            land: f"the {catalogue.text('en', f'oasis.land.{land}')} pile is empty"
            for land in LANDS
        },
    }
    assert status == f"Game over · {reason[view.end]}" and note == ""
    assert status_words(replace(view, end="d"), "fr")[0] == (
        "Partie terminée · la pile désert de pierre est vide"
    )
    panel = score_panel(view, NAMES, "en")
    assert panel.winners == view.winners and panel.acting == ()
    assert [c.title for c in panel.columns] == [
        "Camels",
        "Oasis",
        "Steppe",
        "Stony desert",
        "Total",
    ]
    for seat in range(5):
        held = view.multipliers[seat]
        assert held is not None
        cells = score_texts(view, seat)
        lines = dict(view.scores[seat])
        assert cells[0] == f"{view.herds[seat]} × {held['goods']} = {lines['camels']}"
        assert cells[1] == f"{view.owned[seat]['o']} × {held['wells']} = {lines['oasis']}"
        assert cells[3] == f"{view.owned[seat]['d']} × {held['ovoos']} = {lines['stony']}"
    _, texts = drawn(view)
    assert catalogue.text("en", "oasis.render.scoring") in words(texts, "title")


def test_the_panel_crowns_the_engines_winner() -> None:
    """The tie-break (§8: the lowest rank tile) is the engine's; the board
    crowns whoever the view names, and nobody during play."""
    view = view_at(3, "over")
    assert len(view.winners) == 1
    assert score_panel(view, NAMES, "en").winners == view.winners
    other = (view.winners[0] + 1) % 3
    assert score_panel(replace(view, winners=(other,)), NAMES, "en").winners == (other,)
    assert score_panel(view_at(3, "place"), NAMES, "en").winners == ()


def test_bot_and_resigned_seats_are_badged() -> None:
    view = view_at(3, "take")
    _, texts = drawn(view, tags=[None, "bot", "resigned"])
    assert {t.text for t in texts if t.role == "badge"} == {"AI", "resigned"}


# --------------------------------------------------------------------------- words and legibility


@pytest.mark.parametrize(
    ("players", "phase", "lang"),
    [
        (3, "offer", "en"),
        (4, "place", "fr"),
        (5, "take", "en"),
        (5, "bonus", "fr"),
        (4, "over", "fr"),
    ],
)
def test_every_label_is_legible_at_phone_width(players: int, phase: str, lang: str) -> None:
    view = view_at(players, phase)
    image, texts = drawn(view, lang=lang)
    roles = {t.role for t in texts}
    assert roles >= NEEDED, NEEDED - roles
    too_small = [
        (t.role, t.text, t.size)
        for t in texts
        if phone_px(t.size, image.width) < MIN_PHONE_PX.get(t.role, 9)
    ]
    assert not too_small
    smallest = {r: min(t.size for t in texts if t.role == r) for r in NEEDED}
    for role in ("space", "coordinate", "title"):
        assert smallest[role] * PHONE_WIDTH / image.width >= 9, role
    for role in ("status", "name", "score"):
        assert smallest[role] * PHONE_WIDTH / image.width >= 11, role
    assert all(t.role for t in texts)  # every text says what it is for


def test_french_render_uses_french_words() -> None:
    view = view_at(4, "take")
    _, english = drawn(view, lang="en")
    _, french = drawn(view, lang="fr")
    en, fr = set(words(english)), set(words(french))
    assert {"Rank", "Stack", "Supply", "Herd", "Offers, in rank order", "Landscape"} <= en
    assert {"Rang", "Pile", "Réserve", "Troupeau", "Offres, par ordre de rang", "Paysage"} <= fr
    assert not {"Rank", "Stack", "Supply", "Herd"} & fr
    assert {"Joueur", "Offre", "Prise par"} <= fr and {"Player", "Offer", "Taken by"} <= en
    for seat in range(4):
        for code in view.offers[seat]:
            assert offer_words(code, "fr") in fr


# --------------------------------------------------------------------------- hidden information


def regrouped(state: OasisState, seat: int) -> OasisState:
    """``state`` with ``seat``'s multiplier tiles split differently (same total)."""
    held = list(state.mults[seat])
    total = sum(held)
    assert total >= 1
    other = [0] * len(held)
    other[(held.index(max(held)) + 1) % len(held)] = total
    assert other != held
    mults = tuple(tuple(other) if s == seat else m for s, m in enumerate(state.mults))
    return replace(state, mults=mults)


def secret_state() -> tuple[OasisState, int]:
    """A mid-game state where a seat holds multiplier tiles."""
    state = state_at(4, "place")
    seat = max(range(4), key=lambda s: sum(state.mults[s]))
    assert sum(state.mults[seat]) >= 2
    return state, seat


def test_the_board_is_the_same_whatever_a_seats_multipliers() -> None:
    state, seat = secret_state()
    other = regrouped(state, seat)
    public = render_oasis_image(GAME.view(state, None), NAMES[:4])
    assert public.tobytes() == render_oasis_image(GAME.view(other, None), NAMES[:4]).tobytes()
    # the owner's own view draws the same board as everyone's
    for s in (state, other):
        own = render_oasis_image(GAME.view(s, seat), NAMES[:4])
        assert own.tobytes() == public.tobytes()


def test_the_board_is_the_same_whatever_the_stacks_and_draw_pile_hold() -> None:
    state, _ = secret_state()
    public = render_oasis(GAME.view(state, None), NAMES[:4])
    for seed in (1, 2, 3):
        redealt = GAME.resample(state, None, seed)
        assert redealt.stacks != state.stacks or redealt.draw != state.draw
        assert render_oasis(GAME.view(redealt, None), NAMES[:4]) == public


MULTIPLIER_WORDS = {
    catalogue.text(lang, f"oasis.multiplier.{kind}")
    for lang in ("en", "fr")
    for kind in MULTIPLIERS
}


def test_no_multiplier_type_is_written_on_a_mid_game_board() -> None:
    """No text tells which multiplier tiles a seat holds face down; the cards
    face up on the table ("2 goods") are public, everyone saw them turned up."""
    state, seat = secret_state()
    view = GAME.view(state, None)
    for lang in ("en", "fr"):
        _, mine = drawn(GAME.view(state, seat), lang=lang)
        _, public = drawn(view, lang=lang)
        assert words(mine) == words(public)
        face_up = {offer_words(code, lang) for offer in view.offers for code in offer}
        for text in words(mine):
            if text in face_up:
                continue
            lowered = text.lower()
            assert lowered not in MULTIPLIER_WORDS, text
            for word in MULTIPLIER_WORDS:
                assert not re.search(rf"\d+\s+{word}\b", lowered), text
                assert not re.search(rf"\b{word}\s*[:=]\s*\d", lowered), text


# --------------------------------------------------------------------------- the hand


def test_the_hand_shows_the_viewers_multipliers_and_supply() -> None:
    state, seat = secret_state()
    assert render_oasis_hand(GAME.view(state, None), NAMES[:4]) is None
    view = GAME.view(state, seat)
    mine = view.multipliers[seat]
    assert mine is not None
    for lang in ("en", "fr"):
        with recording_text() as texts:
            png = render_oasis_hand(view, NAMES[:4], lang)
        assert png is not None and len(png) < 100 * 1024
        image = decode(png)
        assert 500 <= image.width <= 1000
        said = words(texts, "score")
        for kind in MULTIPLIERS:
            count = catalogue.term(lang, multiplier_count(kind, mine[kind]))
            assert count in said, count
        supply = catalogue.text(lang, "oasis.hand.supply", supply_params(view, seat))
        assert supply in said
        assert catalogue.text(lang, "oasis.hand.stack", {"count": view.stacks[seat]}) in said
        assert display_names(NAMES, 4, lang)[seat] in words(texts, "name")
        for t in texts:
            assert phone_px(t.size, image.width) >= MIN_PHONE_PX.get(t.role, 9), t
    # what each multiplies: goods the largest herd, wells the oasis squares…
    with recording_text() as texts:
        render_oasis_hand(view, NAMES[:4], "en")
    said = words(texts, "score")
    assert f"× largest herd ({view.herds[seat]})" in said
    assert f"× oasis squares ({view.owned[seat]['o']})" in said
    assert f"= {mine['goods'] * view.herds[seat]}" in said


def test_another_split_gives_another_hand() -> None:
    state, seat = secret_state()
    a = render_oasis_hand(GAME.view(state, seat), NAMES[:4])
    b = render_oasis_hand(GAME.view(regrouped(state, seat), seat), NAMES[:4])
    assert a is not None and b is not None and a != b


def test_the_hand_stays_legible_with_hostile_names() -> None:
    view = view_at(5, "take", seat=2)
    with recording_text() as texts:
        png = render_oasis_hand(view, ["", "", "\u202e" + "W" * 300, "", ""], "en")
    assert png is not None
    image = decode(png)
    for t in texts:
        assert phone_px(t.size, image.width) >= MIN_PHONE_PX.get(t.role, 9), t
        assert t.xy[0] <= image.width


@pytest.mark.parametrize(
    ("lang", "kind", "count", "said"),
    [
        ("en", "wells", 1, "1 well"),
        ("en", "wells", 2, "2 wells"),
        ("en", "horses", 1, "1 horse"),
        ("fr", "wells", 1, "1 fontaine"),
        ("fr", "horses", 3, "3 chevaux"),
        ("fr", "goods", 0, "0 marchandise"),
    ],
)
def test_hand_counts_agree_with_their_number(lang: str, kind: str, count: int, said: str) -> None:
    """The hand said "1 wells": each count now takes its own singular or plural."""
    assert catalogue.term(lang, multiplier_count(kind, count)) == said


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_piles_name_each_multiplier_and_nothing_overlaps(lang: str) -> None:
    """The multiplier piles were bare icons with numbers: they now say what they
    are, as the landscape piles do, without running into the card piles."""
    view = view_at(5, "take")
    with recording_text() as texts:
        render_oasis(view, NAMES[:5], lang)
    said = words(texts, "score")
    for kind in MULTIPLIERS:
        word = catalogue.text(lang, f"oasis.multiplier.{kind}")
        assert f"{word} {view.piles.get(kind, 0)}" in said
    lines: dict[float, list[tuple[float, float]]] = {}
    for t in texts:
        if t.role == "score":
            left, _, right, _ = font(t.size, t.bold).getbbox(t.text, anchor=t.anchor)
            lines.setdefault(t.xy[1], []).append((t.xy[0] + left, t.xy[0] + right))
    for spans in lines.values():
        spans.sort()
        for (_, end), (start, _) in itertools.pairwise(spans):
            assert end + 8 <= start, spans


# --------------------------------------------------------------------------- phone: offers


def table_texts(view: OasisView, texts: Sequence[DrawnText]) -> list[DrawnText]:
    """The texts drawn in the offer table (between the piles and the panel)."""
    top = BOARD_BOTTOM + PILES_H
    bottom = BOARD_BOTTOM + table_height(view)
    return [t for t in texts if top < t.xy[1] < bottom]


@pytest.mark.parametrize("players", [3, 5])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_offer_table_is_legible_at_phone_width(players: int, lang: str) -> None:
    """The table read like "1 ▸ 2 ● Alice [Ovoos ×2] … ▸ [2]": it is now a
    table under column titles, every text at least 9 px high on a phone
    (names and cards 11), in a mid-game round with offers on the table,
    some already taken."""
    view = view_at(players, "take")
    assert sum(map(bool, view.offers)) >= 2 and any(t is not None for t in view.taken)
    image, texts = drawn(view, lang=lang)
    for t in texts:  # the whole image, sprites' texts included
        seen = phone_px(t.size, image.width)
        assert t.role and seen >= max(9, MIN_PHONE_PX[t.role]), (t.role, t.text, seen)
    table = table_texts(view, texts)
    titles = [
        catalogue.text(lang, key)
        for key in (
            "oasis.render.col.rank",
            "oasis.picture.col.player",
            "oasis.picture.col.offer",
            "oasis.picture.col.taken",
        )
    ]
    heads = [t for t in table if t.role == "title" and t.text in titles]
    assert [t.text for t in sorted(heads, key=lambda t: t.xy[0])] == titles
    assert len({t.xy[1] for t in heads}) == 1  # one line of column titles
    assert {t.role for t in table} <= {"title", "name", "score"}


@pytest.mark.parametrize("players", [3, 5])
def test_the_offer_table_names_who_offers_and_who_took(players: int) -> None:
    view = view_at(players, "take")
    image, texts = drawn(view)
    offering = offer_names(view, texts, "player")
    assert [t.text for t in offering] == [NAMES[seat] for seat in view.order]
    takers = offer_names(view, texts, "taken")
    taken = [view.taken[seat] for seat in view.order if view.taken[seat] is not None]
    assert taken and [t.text for t in takers] == [NAMES[s] for s in taken if s is not None]
    # each name has its seat's colour swatch (token) just left of it
    rows = [(seat, t) for seat, t in zip(view.order, offering, strict=True)]
    rows += [(s, t) for s, t in zip(taken, takers, strict=True) if s is not None]
    for seat, t in rows:
        x, y = t.xy[0] - 8 - CAMEL_R, t.xy[1]
        swatch = (x - 6, y - 6, x + 6, y + 6)
        assert share(image, swatch, seat_colour(seat)) > 0.3, (seat, t.text)
    # the offers not yet taken say so, in the taker's column
    dashes = [t for t in table_texts(view, texts) if t.text == "\u2014"]
    assert len(dashes) == sum(1 for s in view.order if view.offers[s] and view.taken[s] is None)


OFFER_WORDS = {
    "en": {
        "OA2": "2 oasis tiles",
        "ST2": "2 steppe tiles",
        "SD1": "1 stony desert tile",
        "CM2": "2 camels",
        "CM3": "3 camels",
        "GD2": "2 goods",
        "GD3": "3 goods",
        "WL1": "1 well",
        "HR1": "1 horse",
        "HR2": "2 horses",
        "OV2": "2 ovoos",
        "CD3": "3 cards",
    },
    "fr": {
        "OA2": "2 tuiles oasis",
        "ST2": "2 tuiles steppe",
        "SD1": "1 tuile désert de pierre",
        "CM2": "2 chameaux",
        "CM3": "3 chameaux",
        "GD2": "2 marchandises",
        "GD3": "3 marchandises",
        "WL1": "1 fontaine",
        "HR1": "1 cheval",
        "HR2": "2 chevaux",
        "OV2": "2 ovoos",
        "CD3": "3 cartes",
    },
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_each_card_says_what_it_gives(lang: str) -> None:
    """A card on the table says what taking it gives: landscape tiles, camels,
    cards, or multiplier tiles by their word (goods, wells, horses, ovoos)."""
    assert {code: offer_words(code, lang) for code in OFFER_WORDS[lang]} == OFFER_WORDS[lang]


def test_multiplier_cards_carry_their_word_on_the_board() -> None:
    view = next(
        GAME.view(s, None)
        for s in game(5)
        if s.round >= 2
        and any(code[:2] in ("GD", "WL", "HR", "OV") for o in s.offers for code in o)
    )
    codes = [c for o in view.offers for c in o if c[:2] in ("GD", "WL", "HR", "OV")]
    for lang in ("en", "fr"):
        _, texts = drawn(view, lang=lang)
        cards = words(table_texts(view, texts), "score")
        for code in codes:
            assert OFFER_WORDS[lang][code] in cards, code


# --------------------------------------------------------------------------- one-tile domains

PROTANOPIA = tuple(v for row in CVD_MATRICES["protanopia"] for v in (*row, 0.0))


def protanopia(image: Image.Image) -> Image.Image:
    """``image`` as seen with protanopia: a simple colour matrix on its RGB."""
    return image.convert("RGB").convert("RGB", PROTANOPIA)


def one_tile_domains() -> tuple[OasisView, list[tuple[int, str]]]:
    """A mid-game view with owned domains of a single tile, of every landscape,
    and those domains' (pawn square, landscape)."""
    for s in game(4):
        view = GAME.view(s, None)
        tiles = dict(view.tiles)
        found = [
            (d.pawn, tiles[d.pawn])
            for d in view.domains
            if d.owner is not None
            and d.pawn is not None
            and d.pawn not in view.last
            and sum(sq in tiles for sq in d.squares) == 1
        ]
        if {land for _, land in found} == set(LANDS):
            return view, found
    raise LookupError("no one-tile domain of every landscape")


def visible_pixels(sq: int) -> list[tuple[int, int]]:
    """The pixels of a square inside any domain frame and clear of its pawn."""
    x0, y0, x1, y1 = whole_px(box_of(sq))
    inset = DOMAIN_LINE + DOMAIN_EDGE + 2  # the domain frame, its ink edge, the rounding
    px, py = pawn_centre(sq)
    reach = PAWN_R * 1.25 + 5  # the pawn: its shape (a square's corners), halo and shadow
    return [
        (x, y)
        for y in range(y0 + inset, y1 - inset)
        for x in range(x0 + inset, x1 - inset)
        if math.hypot(x - px, y - py) > reach
    ]


def bare_tile(sq: int, land: str) -> Image.Image:
    """The square as its tile alone draws it (nothing on top), in RGB."""
    x0, y0, x1, y1 = whole_px(box_of(sq))
    canvas = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 255))
    sprite = tile_sprite(land, CELL - 2)
    canvas.alpha_composite(sprite, (1, 1))
    return canvas.convert("RGB")


def mean_difference(a: Image.Image, b: Image.Image, pixels: Sequence[tuple[int, int]]) -> float:
    total = 0
    for x, y in pixels:
        pa, pb = pixel(a, (x, y)), pixel(b, (x, y))
        total += sum(abs(i - j) for i, j in zip(pa, pb, strict=True))
    return total / (3 * len(pixels))


def test_a_pawn_leaves_its_tiles_type_in_sight() -> None:
    """On a one-tile domain the owner pawn hid the tile: under protanopia an
    oasis and a stony desert differ by little more than their pattern and
    letter. The pawn now stands in a corner; most of the tile inside its
    frame shows exactly as the bare tile does, and under a simulated
    protanopia what shows matches its own landscape's tile far better than
    any other's."""
    view, domains = one_tile_domains()
    image = render_oasis_image(view, NAMES[:4])
    seen = protanopia(image)
    for sq, land in domains:
        x0, y0, _, _ = whole_px(box_of(sq))
        inner = (CELL - 2 * (DOMAIN_LINE + DOMAIN_EDGE + 2)) ** 2
        pixels = visible_pixels(sq)
        assert len(pixels) >= 0.45 * inner, name(sq)  # a centred pawn left only corners
        crop = image.crop(whole_px(box_of(sq)))
        local = [(x - x0, y - y0) for x, y in pixels]
        tile = bare_tile(sq, land)
        same = sum(1 for xy in local if near(pixel(crop, xy), pixel(tile, xy), 8))
        assert same >= 0.95 * len(local), (name(sq), land, same / len(local))
        # under protanopia, the tile in sight still says which landscape it is
        crop = seen.crop(whole_px(box_of(sq)))
        gaps = {
            other: mean_difference(crop, protanopia(bare_tile(sq, other)), local) for other in LANDS
        }
        others = min(gap for other, gap in gaps.items() if other != land)
        assert gaps[land] < 10 and others > max(25, 4 * gaps[land]), (name(sq), land, gaps)
