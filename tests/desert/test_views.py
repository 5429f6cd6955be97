"""What each seat may see (spec §9): only water-hole values are concealed."""

from __future__ import annotations

from dataclasses import replace

from games.contract import bot_move
from games.desert import GAME, DesertState, DesertView, Placement
from games.desert.ai import choose_move
from games.desert.board import COORDS, SIZE
from games.desert.scoring import water_points
from tests.desert.helpers import play, position

SEED = 987_654_321_987


def conceal(p: Placement) -> Placement:
    return replace(
        p, water_points=None, areas=tuple(replace(a, water_points=None) for a in p.areas)
    )


def as_spectator(view: DesertView) -> DesertView:
    """A seat's view with its own concealed values blanked out."""
    return replace(
        view,
        viewer=None,
        info=tuple(replace(i, water_points=None, total=None) for i in view.info),
        last_turn=tuple(conceal(p) for p in view.last_turn),
    )


def assert_no_leak(state: DesertState) -> None:
    over = state.phase == "over"
    spectator = GAME.view(state, None)
    for viewer in (None, *range(state.players)):
        view = GAME.view(state, viewer)
        for info in view.info:
            visible = over or info.seat == viewer
            assert (info.water_points is not None) is visible
            assert (info.total is not None) is visible
            assert info.water_count == len(state.water_taken[info.seat])  # public
            if visible:
                assert info.water_points == water_points(state, info.seat)
        for shown, real in zip(view.last_turn, state.last_turn, strict=True):
            if over or shown.seat == viewer:
                assert shown == real
            else:
                assert shown == conceal(real)
        text = repr(view)
        assert str(state.rng.state) not in text and str(SEED) not in text
        assert "Rng" not in text
        if not over:
            # Nothing else differs between what a seat and a spectator see.
            assert as_spectator(view) == spectator


def test_no_view_shows_another_seats_water_values() -> None:
    areas = 0
    for players in (2, 5):
        state = GAME.new(players, SEED)
        taken = 0
        while GAME.to_act(state):
            assert_no_leak(state)
            seat = GAME.to_act(state)[0]
            state = GAME.apply(state, seat, bot_move(GAME, choose_move, state, seat, state.turn))
            taken += any(p.water_points for p in state.last_turn)
            areas += any(p.areas for p in state.last_turn)
        assert_no_leak(state)
        assert taken  # the game did exercise the concealment
    assert areas


def test_area_water_values_are_concealed_from_others() -> None:
    state = position(
        4, leaders={"B10": (0, "white"), "K10": (1, "white")}, water={"A10": 3}, seed=SEED
    )
    state = play(state, 0, "white B9 white B11")
    mine = GAME.view(state, 0).last_turn[1].areas[0]
    theirs = GAME.view(state, 1).last_turn[1].areas[0]
    assert mine.water_points == 3 and theirs.water_points is None
    assert theirs.water_spaces == ((1, 10),)  # the space itself is public (§10.26)
    assert GAME.view(state, 1).info[0].water_count == 1
    assert_no_leak(state)


def test_final_view_shows_everything() -> None:
    state = GAME.new(3, SEED)
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, bot_move(GAME, choose_move, state, seat, SEED))
    outcome = GAME.outcome(state)
    assert outcome is not None
    view = GAME.view(state, None)
    assert view.outcome == outcome and view.to_act == ()
    assert tuple(i.total for i in view.info) == outcome.scores
    for info, parts in zip(view.info, outcome.breakdown, strict=True):
        assert dict(parts)["water"] == info.water_points
        assert dict(parts)["oases"] == info.oasis_points
        assert dict(parts)["areas"] == info.area_points


def test_view_contents() -> None:
    state = position(
        4,
        leaders={"C5": (0, "orange"), "K10": (1, "white")},
        camels={"C6": (0, "orange")},
        seat=1,
        allowance=1,
    )
    view = GAME.view(state, 1)
    assert len(view.terrain) == SIZE and view.terrain[(8, 5)] == "mountain"
    assert len(view.active) == 219
    assert view.pieces[(3, 5)].leader and not view.pieces[(3, 6)].leader
    assert view.pieces[(11, 10)].seat == 1
    assert view.to_act == (1,) and view.allowance_left == 1 and view.rider_round == 0
    assert view.info[0].caravan_lengths["orange"] == 2
    assert view.info[0].leaders_left == ("white", "yellow", "pink", "green")
    assert view.water == {COORDS[i]: v for i, v in enumerate(state.water) if v}
