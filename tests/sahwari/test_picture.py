"""The Sahwari images, drawn from states built by hand (no engine plays yet).

States come from ``new_state`` + ``with_leaders`` changed with
``dataclasses.replace``: items taken off tiles, cards placed in a clan row,
convoys given, faces known, the game over. Pixel tests compare unquantised
images (``render_sahwari_image``); texts are checked through
``render.text.recording_text``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from functools import cache

import pytest
from PIL import Image, ImageChops, ImageDraw

from games import catalogue
from games.contract import bot_move
from games.sahwari import GAME, SPEC, board
from games.sahwari import clan as clans
from games.sahwari.ai import choose_move
from games.sahwari.board import parse_tile as T
from games.sahwari.content import CARD_IDS, CONTENT
from games.sahwari.highlight import last_move, straight_path
from games.sahwari.last_move import LastMove, dump_last, load_last
from games.sahwari.picture import (
    BAND,
    HAND_WIDTH,
    MAP_BOTTOM,
    MAP_Y,
    SIDE_X,
    STRIKE,
    STRIP_X0,
    STRIP_X1,
    WIDTH,
    SahwariPicture,
    render_sahwari,
    render_sahwari_hand,
    render_sahwari_image,
    row_lines,
    strip_height,
    tile_box,
    tile_centre,
    view_last,
)
from games.sahwari.picture_icons import CLAN, INFLUENCE, KINDS, effect_icon
from games.sahwari.state import SahwariState, new_state, with_leaders
from games.sahwari.table import Table
from games.sahwari.views import SahwariView, build_view
from render.palette import GOLD, RGB, player_style
from render.png import MAX_PNG_BYTES
from render.text import MIN_PHONE_PX, DrawnText, phone_px, recording_text
from tests.pictures import decode, near
from tests.sahwari import scenario

NAMES = ("Alice", "Bob", "Chloé", "Driss")
NEEDED = {"space", "coordinate", "status", "name", "score", "title"}
LEADERS = ("merchant", "spy", "explorer", "brigand")


def started(players: int = 3, seed: int = 7) -> SahwariState:
    s = new_state(players, seed)
    return with_leaders(replace(s, stack=()), LEADERS[:players])


def blue_on_map(s: SahwariState) -> list[tuple[int, str]]:
    return [(tile, i) for tile, items in enumerate(s.table.items) for i in items if i[0] == "B"]


@cache
def mid_game() -> SahwariState:
    """Seat 0 took a blue token (unused) and a yellow one, holds cards with a
    cube and a dead junction; seat 1 has a padlocked slot; seat 2 nothing."""
    s = started()
    (tile, blue), *_ = blue_on_map(s)
    yellow_tile, yellow = next(
        (t, i) for t, items in enumerate(s.table.items) for i in items if i[0] == "Y"
    )
    table = s.table.take(tile, blue).take(yellow_tile, yellow)
    row = clans.ClanRow()
    for card, side in (("C01", "left"), ("C20", "left"), ("C07", "right"), ("C16", "right")):
        row = clans.place_card(row, card, side)
    row = clans.put_cube(row, "L1")
    other = clans.place_card(clans.ClanRow(), "C07", "right")
    other = clans.put_cube(other, "R1")
    other = clans.remove_cube_and_padlock(other, "R1")
    c0 = replace(
        s.clans[0],
        row=row,
        storage=3,
        track=2,
        convoys=(blue, yellow),
        attack_tokens=1,
        locked=(2,),
    )
    c1 = replace(s.clans[1], row=other)
    return replace(s, table=table, clans=(c0, c1, *s.clans[2:]), known=((blue, (0,)),), round=3)


def own_blue(s: SahwariState) -> str:
    return s.clans[0].convoys[0]


def drawn(view: SahwariView, lang: str = "en") -> tuple[Image.Image, list[DrawnText]]:
    with recording_text() as texts:
        image = render_sahwari_image(view, NAMES[: view.players], lang)
    return image, texts


def same(a: SahwariView, b: SahwariView) -> bool:
    names = NAMES[: a.players]
    return render_sahwari_image(a, names).tobytes() == render_sahwari_image(b, names).tobytes()


# --------------------------------------------------------------------------- the PNG


@pytest.mark.parametrize("players", [2, 3, 4])
def test_png_opens_with_the_expected_width(players: int) -> None:
    png = render_sahwari(build_view(started(players), 0), NAMES[:players])
    assert len(png) <= MAX_PNG_BYTES
    image = decode(png)
    assert image.width == WIDTH == 1200
    assert image.height <= 1800


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("over", [False, True])
def test_every_label_is_legible_at_phone_width(lang: str, over: bool) -> None:
    s = replace(mid_game(), over=over)
    image, texts = drawn(build_view(s, 0), lang)
    roles = {t.role for t in texts}
    assert roles >= NEEDED, NEEDED - roles
    assert all(t.role for t in texts)
    small = [(t.role, t.text, t.size) for t in texts if phone_px(t.size, image.width) < 9]
    small += [
        (t.role, t.text, t.size)
        for t in texts
        if phone_px(t.size, image.width) < MIN_PHONE_PX.get(t.role, 9)
    ]
    assert not small


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_hand_is_legible_at_phone_width(lang: str) -> None:
    with recording_text() as texts:
        png = render_sahwari_hand(build_view(mid_game(), 0), NAMES[:3], lang)
    assert png is not None
    image = decode(png)
    assert image.width == HAND_WIDTH
    assert {t.role for t in texts} >= {"status", "name", "score", "title", "value"}
    for t in texts:
        assert phone_px(t.size, image.width) >= MIN_PHONE_PX.get(t.role, 9), t


def test_coordinates_and_tile_names_are_drawn() -> None:
    _, texts = drawn(build_view(mid_game(), None))
    coords = {t.text for t in texts if t.role == "coordinate"}
    assert coords >= set("ABCDE12345")
    spaces = {t.text.split(" ")[0] for t in texts if t.role == "space"}
    assert spaces == {board.name(tile) for tile in board.TILES}


def test_every_seat_colour_is_present() -> None:
    s = started(4)
    image = render_sahwari_image(build_view(s, None), NAMES)
    colours = {c for _, c in image.getcolors(maxcolors=1 << 20) or []}
    for seat in range(4):
        assert player_style(seat).colour in colours, seat


def test_french_words() -> None:
    _, en = drawn(build_view(mid_game(), 0), "en")
    _, fr = drawn(build_view(mid_game(), 0), "fr")
    assert any("Round 3" in t.text for t in en)
    assert any("Manche 3" in t.text for t in fr)
    assert any(t.text == "Guilde" for t in fr)


# --------------------------------------------------------------------------- hidden information


def test_the_board_is_the_same_for_the_owner_of_an_unused_blue_token() -> None:
    s = mid_game()
    handle = s.table.handle(own_blue(s))
    assert dict(build_view(s, 0).faces)[handle] == own_blue(s)
    assert handle not in dict(build_view(s, None).faces)
    assert same(build_view(s, None), build_view(s, 0))
    assert same(build_view(s, 1), build_view(s, 0))


def test_the_board_is_the_same_for_a_spy() -> None:
    s = mid_game()
    (_, blue), *_ = blue_on_map(s)
    spied = replace(s, known=(*s.known, (blue, (1,))))
    spy_view = build_view(spied, 1)
    assert set(spy_view.faces) > set(build_view(spied, None).faces)
    assert same(build_view(spied, None), spy_view)


def _swapped(s: SahwariState, a: str, b: str) -> SahwariState:
    """The same state with the faces of blue tokens ``a`` and ``b`` exchanged."""
    swap = {a: b, b: a}
    t = s.table
    table: Table = replace(
        t,
        items=tuple(tuple(swap.get(i, i) for i in items) for items in t.items),
        handles=tuple(swap.get(h, h) for h in t.handles),
    )
    return replace(s, table=table)


def test_swapping_face_down_tokens_changes_nothing() -> None:
    s = mid_game()
    (_, a), (_, b), *_ = blue_on_map(s)
    other = _swapped(s, a, b)
    assert other.table.handles != s.table.handles
    for seat in (None, 0, 1):
        assert same(build_view(s, seat), build_view(other, seat))


def test_swapping_an_owned_unused_token_changes_nothing_on_the_board() -> None:
    s = mid_game()
    (_, b), *_ = blue_on_map(s)
    a = own_blue(s)
    swap = {a: b, b: a}
    c0 = replace(s.clans[0], convoys=tuple(swap.get(t, t) for t in s.clans[0].convoys))
    other = replace(_swapped(s, a, b), clans=(c0, *s.clans[1:]), known=((b, (0,)),))
    assert same(build_view(s, 0), build_view(other, 0))


def test_a_used_token_shows_its_face_to_everyone() -> None:
    s = mid_game()
    blue = own_blue(s)
    used = replace(s, clans=(replace(s.clans[0], used=(blue,)), *s.clans[1:]))
    _, texts = drawn(build_view(used, None))
    assert any(blue in t.text for t in texts)
    _, before = drawn(build_view(s, 0))
    assert not any(blue in t.text for t in before)


def hand_texts(view: SahwariView) -> list[str] | None:
    with recording_text() as texts:
        png = render_sahwari_hand(view, NAMES[: view.players])
    return None if png is None else [t.text for t in texts]


def test_the_hand_shows_known_faces_only_to_its_viewer() -> None:
    s = mid_game()
    blue = own_blue(s)
    mine = hand_texts(build_view(s, 0))
    theirs = hand_texts(build_view(s, 1))
    assert mine is not None and theirs is not None
    assert any(blue in text for text in mine)
    assert not any(blue in text for text in theirs)
    assert hand_texts(build_view(s, None)) is None


def test_the_hand_shows_a_spied_face() -> None:
    s = mid_game()
    (_, blue), *_ = blue_on_map(s)
    spied = replace(s, known=(*s.known, (blue, (1,))))
    texts = hand_texts(build_view(spied, 1))
    assert texts is not None and any(blue in text for text in texts)
    mine = hand_texts(build_view(spied, 0))
    assert mine is not None and not any(blue in text for text in mine)


# --------------------------------------------------------------------------- the end


def test_the_final_image_shows_the_score_lines_and_the_winner() -> None:
    s = replace(mid_game(), over=True)
    view = build_view(s, None)
    assert view.scores is not None and view.winners == (0,)
    _, texts = drawn(view)
    words = {t.text for t in texts}
    for title in ("Convoys", "Cards", "Storage", "Track", "Slots", "Leader", "Clan", "Total"):
        assert title in words, title
    total = sum(points for _, points in view.scores[0])
    assert str(total) in words
    status = " ".join(t.text for t in texts if t.role == "status")
    assert "Winner" in status and "Alice" in status


def test_nobody_wins_is_said() -> None:
    s = replace(started(2), over=True)
    view = build_view(s, None)
    assert view.winners == ()
    _, texts = drawn(view, "fr")
    status = " ".join(t.text for t in texts if t.role == "status")
    assert "personne ne gagne" in status


def test_the_hand_holds_a_long_clan_row_inside_its_canvas() -> None:
    """Eight cards and the sheet: the row wraps before its cards leave the image
    (with six cards a line the sixth was drawn past the right edge)."""
    s = started()
    row = clans.ClanRow()
    for number in range(1, 31):
        if len(row.cards) < 8:
            card = f"C{number:02}"
            side = clans.placement_sides(row, card)[0]
            row = clans.place_card(row, card, side)
    assert len(row.cards) == 8
    s = replace(s, clans=(replace(s.clans[0], row=row), *s.clans[1:]))
    with recording_text() as texts:
        png = render_sahwari_hand(build_view(s, 0), NAMES[:3])
    assert png is not None
    image = decode(png)
    for t in texts:
        assert 12 < t.xy[0] < image.width - 12, t


# --------------------------------------------------------------------------- games played by the AI

AI_ROUNDS = 8  # a mid-game board: the first state of this round


@cache
def ai_game(players: int, seed: int = 3) -> tuple[SahwariState, ...]:
    """Every state of a game the AI plays from the start to round ``AI_ROUNDS``."""
    s = GAME.new(players, seed, {"leaders": "random", "layout": "standard"})
    states = [s]
    for k in range(4000):
        if s.over or s.round >= AI_ROUNDS:
            break
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, bot_move(GAME, choose_move, s, seat, seed * 1000 + k))
        states.append(s)
    return tuple(states)


def last_turn(states: Sequence[SahwariState]) -> tuple[SahwariState, SahwariState]:
    """(the start of the last seat's turn, the state after it) in a played game."""
    end = len(states) - 1
    seat = states[end - 1].active
    start = end - 1
    while start > 0 and states[start - 1].active == seat:
        start -= 1
    return states[start], states[end]


def public(s: SahwariState) -> SahwariView:
    return build_view(s, None)


@cache
def ai_board(players: int) -> tuple[SahwariView, LastMove]:
    """A mid-game public view and the turn that led to it."""
    before, after = last_turn(ai_game(players))
    return public(after), last_move(public(before), public(after))


def drawn_last(
    view: SahwariView, last: LastMove | None, lang: str = "en"
) -> tuple[Image.Image, list[DrawnText]]:
    with recording_text() as texts:
        image = render_sahwari_image(view, NAMES[: view.players], lang, last=last)
    return image, texts


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 4])
def test_a_mid_game_board_is_legible_at_phone_width(players: int, lang: str) -> None:
    """Every text drawn (tile names, values on cards and chips, the legend…)
    is at least 9 px high once the image is shown 550 px wide."""
    view, last = ai_board(players)
    assert view.round == AI_ROUNDS and last
    image, texts = drawn_last(view, last, lang)
    assert {t.role for t in texts} >= NEEDED | {"value"}
    assert all(t.role in MIN_PHONE_PX for t in texts), {t.role for t in texts}
    small = [t for t in texts if phone_px(t.size, image.width) < MIN_PHONE_PX[t.role]]
    assert not small, small[:5]
    assert all(phone_px(t.size, image.width) >= 9 for t in texts)


def kinds_on_board(view: SahwariView) -> set[str]:
    """The effect kinds the public board shows: card edges (recruitment row and
    clan rows), the clan sheet's openings and every token face drawn."""
    cards = [*view.row, *(card for c in view.clans for card in c.row.cards)]
    kinds = {
        edge.ability
        for card in cards
        for edge in (CONTENT.card(card).left, CONTENT.card(card).right)
    }
    sheet = CONTENT.clan_sheet
    kinds |= {sheet.left.ability, sheet.right.ability}
    faces = dict(view.faces)
    handles = [h for items in view.items for h in items if h not in ("A", "R")]
    for handle in handles:
        if not handle.startswith("V") or any(handle in c.used for c in view.clans) or view.over:
            face = faces.get(handle)
            if face:
                kinds |= set(CONTENT.token(face).effects)
    return kinds


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_legend_names_every_effect_kind_on_the_board(players: int, lang: str) -> None:
    view, last = ai_board(players)
    _, texts = drawn_last(view, last, lang)
    shown = {t.text for t in texts if t.role == "title"}
    present = kinds_on_board(view)
    assert len(present) >= 6  # a mid-game board shows most kinds
    for kind in present | set(KINDS):  # the legend lists them all, always
        word = catalogue.text(lang, f"sahwari.render.legend.{kind}")
        assert word in shown, (kind, word)
    for entry in (INFLUENCE, CLAN):
        assert catalogue.text(lang, f"sahwari.render.legend.{entry}") in shown


# The three-letter codes the board used to draw for the effects, per language.
OLD_CODES = {
    "en": {"CRD", "REF", "SPY", "CHS", "BRD", "BWL", "TOR", "ATK"},
    "fr": {"CRT", "REN", "ESP", "COF", "OIS", "BOL", "TOR", "ATQ"},
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_effect_code_is_drawn_any_more(lang: str) -> None:
    """Effects are pictograms: none of the old three-letter codes (CRD, ESP…) is drawn."""
    codes = OLD_CODES[lang]
    view, last = ai_board(4)
    _, texts = drawn_last(view, last, lang)
    with recording_text() as hand:
        render_sahwari_hand(build_view(ai_game(4)[-1], 0), NAMES, lang)
    words = {w.strip("·:,") for t in [*texts, *hand] for w in t.text.split()}
    assert not words & codes


def test_effect_icons_are_distinct_pictures() -> None:
    icons = {kind: effect_icon(kind, 28) for kind in KINDS}
    for kind, icon in icons.items():
        assert icon.size == (28, 28) and icon.mode == "RGBA"
        assert icon.getbbox() is not None, kind
        assert effect_icon(kind, 28) is icon  # drawn once
    pixels = {kind: icon.tobytes() for kind, icon in icons.items()}
    assert len(set(pixels.values())) == len(KINDS)


def strips_top_of(view: SahwariView, seat: int) -> int:
    return MAP_BOTTOM + 8 + sum(strip_height(c.row) for c in view.clans[:seat])


def test_clan_rows_show_abilities_and_values_not_ids() -> None:
    """Each card of a strip shows its two colours' letters and its two values
    (with its pictograms), never its id; every strip text is legible."""
    view, last = ai_board(4)
    image, texts = drawn_last(view, last)
    top = strips_top_of(view, 0)
    bottom = strips_top_of(view, view.players)
    in_strips = [t for t in texts if top <= t.xy[1] <= bottom]
    ids = set(CARD_IDS)
    assert not [t for t in in_strips if t.text in ids]
    cards = sum(len(c.row.cards) for c in view.clans)
    letters = [t for t in in_strips if t.text in {"R", "G", "P", "O"}]
    values = [t for t in in_strips if t.text in {"0", "1", "2"}]
    assert len(letters) == 2 * cards
    assert len(values) >= 2 * cards + 2 * view.players  # cards and sheets
    assert all(t.role == "value" for t in letters + values)
    assert all(phone_px(t.size, image.width) >= MIN_PHONE_PX[t.role] for t in in_strips)


def placed(cards: Sequence[str]) -> clans.ClanRow:
    """A clan row holding ``cards``, each put on the first side rule K6 allows."""
    r = clans.ClanRow()
    for card in cards:
        r = clans.place_card(r, card, clans.placement_sides(r, card)[0])
    return r


@cache
def long_rows() -> SahwariState:
    """Four clans; seat 0 holds 17 cards (more than a strip's line), seat 1 nine."""
    s = scenario.started(4)
    s = scenario.with_row(s, 0, placed(CARD_IDS[:17]))
    return scenario.with_row(s, 1, placed(CARD_IDS[17:26]))


def test_a_long_clan_row_goes_on_a_second_line_inside_the_canvas() -> None:
    s = long_rows()
    assert len(s.clans[0].row.cards) == 17
    view = public(s)
    assert len(row_lines(view.clans[0].row)) == 2 and len(row_lines(view.clans[1].row)) == 1
    image, texts = drawn_last(view, None)
    top, bottom = strips_top_of(view, 0), strips_top_of(view, 1)
    mine = [t for t in texts if top <= t.xy[1] <= bottom]
    assert len([t for t in mine if t.text in {"R", "G", "P", "O"}]) == 2 * 17
    for t in texts:
        assert 10 < t.xy[0] < image.width - 10, t
        assert 0 < t.xy[1] < image.height, t
    # no card colour is drawn in the strips' margins
    bottom = strips_top_of(view, view.players)
    for box in ((0, top, STRIP_X0 + 12, bottom), (STRIP_X1 - 12, top, WIDTH, bottom)):
        assert not set(colours_in(image, box)) & set(BAND.values()), box


# --------------------------------------------------------------------------- the last move


def moved(s: SahwariState) -> SahwariState:
    """Seat 0's turn, by hand: its camel from B2 north to B1 where it takes a
    cube, a card recruited on the right, a guild camel from C3 to C4."""
    s = scenario.camels(s, P1="B1", G1="C4")
    t = s.table.take(T("B1"), "A")
    s = replace(s, table=t)
    card = s.table.row[0]
    side = clans.placement_sides(s.clans[0].row, card)[0]
    s = scenario.with_row(s, 0, clans.place_card(s.clans[0].row, card, side))
    return s


def test_the_last_move_is_read_from_the_public_views() -> None:
    before = scenario.started(4)
    after = moved(before)
    last = last_move(public(before), public(after))
    assert last.seat == 0
    assert dict(last.camels) == {"P1": (T("B2"), T("B1")), "G1": (T("C3"), T("C4"))}
    assert last.taken == ((T("B1"), "A"),)
    assert last.cards == ((0, after.clans[0].row.cards[-1]),)
    assert last.row == (0,)
    assert last.tiles == {T("B1"), T("C4")}
    assert not last.robbed and not last.removed and not last.slots
    assert load_last(json.loads(json.dumps(dump_last(last)))) == last


def test_a_straight_path_lists_every_tile_crossed() -> None:
    assert straight_path(T("A1"), T("A4")) == (T("A1"), T("A2"), T("A3"), T("A4"))
    assert straight_path(T("E3"), T("B3")) == (T("E3"), T("D3"), T("C3"), T("B3"))
    assert straight_path(T("A1"), T("B2")) == (T("A1"), T("B2"))  # a placement


def test_two_steps_of_a_turn_chain_into_one_move() -> None:
    first = LastMove(seat=0, camels=(("G1", (T("C3"), T("C4"))),), taken=((T("B1"), "A"),))
    second = LastMove(seat=0, camels=(("G1", (T("C4"), T("C5"))), ("P1", (T("B2"), T("B1")))))
    both = first.then(second)
    assert dict(both.camels) == {"G1": (T("C3"), T("C4"), T("C5")), "P1": (T("B2"), T("B1"))}
    assert both.taken == first.taken and both.tiles == {T("B1"), T("C5")}


def allowed_mask(view: SahwariView, last: LastMove) -> Image.Image:
    """Where the highlight of ``last`` may change the board: the tiles of each
    path and of the items taken, the changed seats' strips, the recruitment row."""
    size = render_sahwari_image(view, NAMES[: view.players]).size
    mask = Image.new("1", size, 0)
    paint = ImageDraw.Draw(mask)
    tiles = {t for _, path in last.camels for t in path} | last.tiles
    for tile in tiles:
        x0, y0, x1, y1 = tile_box(tile)
        paint.rectangle((x0 - 6, y0 - 6, x1 + 6, y1 + 6), fill=1)
    for _, path in last.camels:  # a path's arrow may cut across (a placement)
        (ax, ay), (bx, by) = tile_centre(path[0]), tile_centre(path[-1])
        paint.rectangle(
            (min(ax, bx) - 80, min(ay, by) - 80, max(ax, bx) + 80, max(ay, by) + 80), fill=1
        )
    seats = {s for s, _ in (*last.cards, *last.slots, *last.padlocks, *last.convoys, *last.used)}
    for seat in seats:
        paint.rectangle(
            (0, strips_top_of(view, seat), WIDTH, strips_top_of(view, seat + 1)), fill=1
        )
    if last.row:
        paint.rectangle((SIDE_X - 8, MAP_Y + 190, WIDTH, MAP_Y + 520), fill=1)
    return mask


def changed(a: Image.Image, b: Image.Image, box: tuple[float, float, float, float]) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


def colours_in(image: Image.Image, box: tuple[float, float, float, float]) -> list[RGB]:
    """Every colour of ``image`` (RGB) inside ``box``."""
    found = image.crop(box).getcolors(maxcolors=1 << 16) or []
    return [(c[0], c[1], c[2]) for _, c in found if isinstance(c, tuple)]


def test_the_last_move_is_highlighted_around_what_moved_and_nowhere_else() -> None:
    before = scenario.started(4)
    after = moved(before)
    view = public(after)
    last = last_move(public(before), view)
    plain = render_sahwari_image(view, NAMES)
    lit = render_sahwari_image(view, NAMES, last=last)
    assert plain.size == lit.size
    diff = ImageChops.difference(plain, lit).convert("L").point(lambda v: 255 if v else 0)
    outside = ImageChops.subtract(diff, allowed_mask(view, last).convert("L"))
    assert outside.getbbox() is None, outside.getbbox()
    # …and it is drawn where expected: the stops framed in gold, the path's start
    for stop in ("B1", "C4"):
        x0, y0, x1, y1 = tile_box(T(stop))
        assert any(near(c, GOLD, 40) for c in colours_in(lit, (x0, y0, x1, y0 + 8))), stop
    for start in ("B2", "C3"):
        assert changed(plain, lit, tile_box(T(start))), start
    # the new card on seat 0's strip, the row position it left
    assert changed(plain, lit, (0, strips_top_of(view, 0), WIDTH, strips_top_of(view, 1)))
    assert not changed(plain, lit, (0, strips_top_of(view, 1), WIDTH, strips_top_of(view, 4)))
    assert changed(plain, lit, (SIDE_X, MAP_Y + 190, SIDE_X + 200, MAP_Y + 360))


def test_an_attack_rings_its_target_and_crosses_the_removed_convoy() -> None:
    """Seat 0 attacks: seat 1's camel (P2 on D4) loses a slot's cube (padlocked),
    and a convoy lying on C4 is removed from the game (rule A6)."""
    s = scenario.started(4)
    s = scenario.with_row(s, 1, scenario.row([], ["C10"], cubes=["R1"]))
    handle = s.table.handle("B12")  # on C4
    before = s
    row = clans.remove_cube_and_padlock(s.clans[1].row, "R1")
    s = scenario.with_clan(s, 1, replace(s.clans[1], row=row))
    t = s.table.take(T("C4"), "B12")
    s = replace(s, table=t, removed=("B12",))
    last = last_move(public(before), public(s))
    assert last.padlocks == ((1, "R1"),) and last.robbed == (1,)
    assert last.removed == ((T("C4"), handle),) and not last.taken
    view = public(s)
    plain = render_sahwari_image(view, NAMES)
    lit = render_sahwari_image(view, NAMES, last=last)
    x0, y0, x1, y1 = tile_box(T("D4"))
    assert changed(plain, lit, (x0, y0, x1, y1))  # the red ring around P2
    assert any(near(c, STRIKE, 30) for c in colours_in(lit, (x0, y0, x1, y1)))
    assert changed(plain, lit, tile_box(T("C4")))  # the removed convoy, crossed
    assert changed(plain, lit, (0, strips_top_of(view, 1), WIDTH, strips_top_of(view, 2)))
    _, texts = drawn_last(view, last)
    assert any(t.text == handle and t.role == "value" for t in texts)


def test_the_last_move_looks_the_same_to_every_seat() -> None:
    before, after = last_turn(ai_game(4))
    last = last_move(public(before), public(after))
    boards = {
        render_sahwari_image(build_view(after, seat), NAMES, last=last).tobytes()
        for seat in (None, 0, 1, 2, 3)
    }
    assert len(boards) == 1


def test_the_picture_reads_the_last_move_the_view_carries() -> None:
    before = scenario.started(4)
    after = moved(before)
    view = public(after)
    last = last_move(public(before), view)
    carried = public(replace(after, last=last))  # the state's last move, in its view
    assert view_last(carried) == last and view_last(view) is None
    expected = render_sahwari_image(view, NAMES, last=last).tobytes()
    assert render_sahwari_image(carried, NAMES).tobytes() == expected
    assert decode(SahwariPicture().board(carried, NAMES, "en")).size == (
        WIDTH,
        len(expected) // (3 * WIDTH),
    )


def test_the_engine_keeps_the_turn_being_played_lit_and_starts_afresh_each_turn() -> None:
    """Each step adds to the turn's record; the next seat's first step replaces
    it; the record is saved with the state, and games saved before it load."""
    s = GAME.new(3, 8)
    seen_turns = 0
    for i in range(150):
        (seat,) = GAME.to_act(s)
        before = s
        s = GAME.play(s, seat, bot_move(GAME, SPEC.bot, s, seat, i)).state
        if not before.clans:
            continue  # leaders being chosen: nothing on the board
        turn = before.active
        assert s.last.seat == turn
        if before.last.seat == turn:  # a later step of the same turn: nothing forgotten
            for name in ("taken", "removed", "cards", "convoys", "used"):
                earlier = getattr(before.last, name)
                assert getattr(s.last, name)[: len(earlier)] == earlier, name
        else:
            seen_turns += 1
        assert GAME.load(GAME.dump(s)) == s
    assert seen_turns >= 10
    old = GAME.dump(s)
    del old["last"]
    assert not GAME.load(old).last
