"""The Sahwari images, drawn from states built by hand (no engine plays yet).

States come from ``new_state`` + ``with_leaders`` changed with
``dataclasses.replace``: items taken off tiles, cards placed in a clan row,
convoys given, faces known, the game over. Pixel tests compare unquantised
images (``render_sahwari_image``); texts are checked through
``render.text.recording_text``.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest
from PIL import Image

from games.sahwari import board
from games.sahwari import clan as clans
from games.sahwari.picture import (
    HAND_WIDTH,
    WIDTH,
    render_sahwari,
    render_sahwari_hand,
    render_sahwari_image,
)
from games.sahwari.state import SahwariState, new_state, with_leaders
from games.sahwari.table import Table
from games.sahwari.views import SahwariView, build_view
from render.palette import player_style
from render.png import MAX_PNG_BYTES
from render.text import MIN_PHONE_PX, DrawnText, phone_px, recording_text
from tests.pictures import decode

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
