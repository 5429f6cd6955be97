"""Nomadi rule tests, named after the spec's rule ids (shared/rules/nomadi.md)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.contract import IllegalMove, InvalidMove
from games.nomadi import GAME, SPEC
from games.nomadi.model import (
    BOARD,
    CARD_VALUES,
    PAWNS_EACH,
    Accept,
    Bribe,
    Buy,
    DieMove,
    NoBribe,
    Offer,
    Pay,
    PlaceCard,
    PlacePawn,
    Refuse,
    Reroll,
    parse_square,
)
from games.nomadi.state import NomadiState, Pawn
from games.rng import Rng


def sq(word: str) -> int:
    found = parse_square(word)
    assert found is not None
    return found


def mk(
    pawns: list[tuple[str, int]],
    dice: tuple[int, ...] = (1, 1, 1, 1, 1, 1),
    *,
    players: int = 2,
    active: int = 0,
    cards: dict[str, int] | None = None,
    coins: tuple[int, ...] | None = None,
    course: str = "full",
    bribes: str = "off",
    values: tuple[int, ...] = CARD_VALUES,
) -> NomadiState:
    """A movement-phase state with pawns on the named squares (owner seats)."""
    return NomadiState(
        players=players,
        course=course,
        bribes=bribes,
        phase="turn",
        rng=Rng(7),
        values=values,
        board_cards=tuple(sorted((sq(s), c) for s, c in (cards or {}).items())),
        pile=(),
        held=((),) * players,
        known=((),) * players,
        coins=coins or (5,) * players,
        pawns=tuple(Pawn(owner, sq(s)) for s, owner in pawns),
        active=active,
        dice=dice,
        used=(False,) * len(dice),
    )


def d(die: int, frm: str, to: str) -> DieMove:
    return DieMove(die, sq(frm), sq(to))


def keys(step: object) -> list[str]:
    return [e.key for e in step.events]  # type: ignore[attr-defined]


# ----------------------------------------------------------------- setup


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_pawns_colours_money_and_cards(players: int) -> None:
    s = GAME.new(players, 5)
    assert len(s.pawns) == PAWNS_EACH[players] * players
    assert all(
        sum(p.owner == seat for p in s.pawns) == PAWNS_EACH[players] for seat in range(players)
    )
    assert s.coins == (5,) * players
    assert [sq for sq, _ in s.board_cards] == sorted(BOARD.water) and len(s.pile) == 5
    assert sorted(s.values) == sorted(CARD_VALUES) and sum(s.values) == 15
    assert GAME.view(s, 0).held == ((),) * players


def test_setup_seats_place_cards_then_pawns_round_and_round() -> None:
    """Option setup: alternate, the order as printed (§4.4, §4.5)."""
    s = GAME.new(3, 1, {"setup": "alternate"})
    order = []
    while s.phase != "turn":
        (seat,) = GAME.to_act(s)
        order.append(seat)
        step = GAME.play(s, seat, GAME.legal_moves(s, seat)[0])
        assert step.ends_turn  # one placement per turn
        s = step.state
    assert order[:5] == [0, 1, 2, 0, 1]
    assert order[5:] == [0, 1, 2] * 5
    assert s.active == 0 and len(s.dice) == 6
    assert all(p.square in BOARD.start for p in s.pawns) and len(s.board_cards) == 18


def test_setup_grouped_each_seat_places_its_share_and_its_pawns_in_one_turn() -> None:
    """The default: seat by seat from seat 1, each seat's cards (its round-robin
    share: 2, 2, 1 with 3 players) and all its pawns, in one turn."""
    s = GAME.new(3, 1)
    assert s.phase == "setup"
    order = []
    while s.phase != "turn":
        (seat,) = GAME.to_act(s)
        move = GAME.legal_moves(s, seat)[0]  # cards come first in the list
        step = GAME.play(s, seat, move)
        order.append((seat, type(move).__name__, step.ends_turn))
        s = step.state
    share = (2, 2, 1)
    expected = []
    for seat in range(3):
        placements = ["PlaceCard"] * share[seat] + ["PlacePawn"] * 5
        expected += [(seat, kind, k == len(placements) - 1) for k, kind in enumerate(placements)]
    assert order == expected
    assert s.active == 0 and len(s.dice) == 6
    assert all(p.square in BOARD.start for p in s.pawns) and len(s.board_cards) == 18


def test_setup_grouped_pawns_may_come_before_cards_and_nothing_twice() -> None:
    s = GAME.new(2, 4)
    (seat,) = GAME.to_act(s)
    assert GAME.decisions(s)[0].key == "nomadi.decision.setup"
    for square in ("M16", "N16", "O16", "P16", "M17", "N17", "O17", "P17"):
        s = GAME.apply(s, 0, PlacePawn(sq(square)))
    assert GAME.to_act(s) == (0,) and GAME.decisions(s)[0].key == "nomadi.decision.card"
    with pytest.raises(IllegalMove) as error:
        GAME.play(s, 0, PlacePawn(sq("M18")))
    assert error.value.key == "nomadi.err.pawns_placed"
    s = GAME.apply(GAME.apply(s, 0, PlaceCard(sq("F9"))), 0, PlaceCard(sq("G9")))
    step = GAME.play(s, 0, PlaceCard(sq("H9")))  # the third and last card of seat 1
    assert step.ends_turn and GAME.to_act(step.state) == (1,)
    s = GAME.apply(step.state, 1, PlaceCard(sq("I9")))
    s = GAME.apply(s, 1, PlaceCard(sq("J9")))
    assert GAME.decisions(s)[0].key == "nomadi.decision.pawn"
    with pytest.raises(IllegalMove) as error:
        GAME.play(s, 1, PlaceCard(sq("K9")))
    assert error.value.key == "nomadi.err.cards_placed"
    with pytest.raises(IllegalMove) as error:
        GAME.play(s, 0, PlacePawn(sq("M18")))
    assert error.value.key == "nomadi.err.not_your_turn"


def test_r1_extra_cards_not_in_start_or_goal_nor_on_a_card() -> None:
    s = GAME.new(2, 3)
    legal = {m.square for m in GAME.legal_moves(s, 0) if isinstance(m, PlaceCard)}
    assert not legal & (BOARD.start | BOARD.goal | set(BOARD.water))
    assert len(legal) == 304 - 32 - 13
    with pytest.raises(IllegalMove) as error:
        GAME.play(s, 0, PlaceCard(sq("A1")))
    assert error.value.key == "nomadi.err.card_area"
    with pytest.raises(IllegalMove) as error:
        GAME.play(s, 0, PlaceCard(sq("F2")))
    assert error.value.key == "nomadi.err.card_taken"
    short = GAME.new(2, 3, {"course": "short"})
    legal = {m.square for m in GAME.legal_moves(short, 0) if isinstance(m, PlaceCard)}
    assert sq("A1") in legal and sq("M5") not in legal and sq("P8") not in legal


def test_r1_placed_card_is_unseen_by_everyone() -> None:
    s = GAME.new(2, 3)
    step = GAME.play(s, 0, PlaceCard(sq("F9")))
    assert all(e.to is None for e in step.events) and "value" not in str(step.events)
    assert step.state.known == ((), ())


def test_r2_pawns_go_on_empty_start_squares() -> None:
    s = GAME.new(2, 3, {"setup": "alternate"})
    for _ in range(5):
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, GAME.legal_moves(s, seat)[0])
    assert s.phase == "caravan"
    assert GAME.to_act(s) == (0,)
    assert {m.square for m in GAME.legal_moves(s, 0) if isinstance(m, PlacePawn)} == set(
        BOARD.start
    )
    s = GAME.apply(s, 0, PlacePawn(sq("M16")))
    with pytest.raises(IllegalMove):
        GAME.play(s, 1, PlacePawn(sq("M16")))
    with pytest.raises(IllegalMove) as error:
        GAME.play(s, 1, PlacePawn(sq("A1")))
    assert error.value.key == "nomadi.err.pawn_area"
    grouped = GAME.new(2, 3)
    assert {m.square for m in GAME.legal_moves(grouped, 0) if isinstance(m, PlacePawn)} == set(
        BOARD.start
    )
    with pytest.raises(IllegalMove) as error:
        GAME.play(grouped, 0, PlacePawn(sq("A1")))
    assert error.value.key == "nomadi.err.pawn_area"


# ----------------------------------------------------------------- movement


def test_r3_pawns_in_the_goal_never_move() -> None:
    s = mk([("B4", 0), ("B5", 1)])
    assert all(m.frm != sq("B4") for m in GAME.legal_moves(s, 0) if isinstance(m, DieMove))
    with pytest.raises(IllegalMove) as error:
        GAME.play(s, 0, d(1, "B4", "A5"))
    assert error.value.key == "nomadi.err.arrived"


def test_r4_a_pawn_needs_a_free_side() -> None:
    # K12 surrounded on its four sides.
    s = mk([("K12", 0), ("K11", 1), ("J12", 0), ("L12", 1), ("K13", 0)])
    with pytest.raises(IllegalMove) as error:
        GAME.play(s, 0, d(1, "K12", "J11"))
    assert error.value.key == "nomadi.err.free_side"


def test_r5_worked_example_1_diagonal_step() -> None:
    s = mk([("K12", 0), ("J12", 1)])
    assert d(1, "K12", "J11") in GAME.legal_moves(s, 0)
    step = GAME.play(s, 0, d(1, "K12", "J11"))
    assert {p.square for p in step.state.pawns} == {sq("J11"), sq("J12")}
    assert not step.ends_turn  # five dice left


def test_r5_any_of_the_eight_squares_vertical_included() -> None:
    s = mk([("K12", 0), ("L12", 1), ("L11", 1)])
    legal = GAME.legal_moves(s, 0)
    assert d(1, "K12", "K11") in legal  # straight up
    assert d(1, "K12", "L13") in legal  # diagonal
    assert d(1, "K12", "J11") not in legal  # would touch nothing


def test_r6_worked_example_2_straight_jump_over_two_pawns() -> None:
    s = mk([("J12", 0), ("I12", 1), ("H12", 0)], (3, 1, 1, 1, 1, 1))
    assert d(3, "J12", "G12") in GAME.legal_moves(s, 0)


def test_r6_worked_example_3_jump_over_two_pawns_then_turn() -> None:
    s = mk([("J12", 0), ("I12", 1), ("I11", 0)], (3, 1, 1, 1, 1, 1))
    assert d(3, "J12", "I10") in GAME.legal_moves(s, 0)
    with pytest.raises(IllegalMove) as error:  # J12 > I12 > I11 > H11 turns twice
        GAME.play(s, 0, d(3, "J12", "H11"))
    assert error.value.key == "nomadi.err.jump"


def test_r6_turn_just_before_the_landing_and_never_over_empty_squares() -> None:
    s = mk([("J12", 0), ("I12", 1), ("H12", 1)], (3, 2, 4, 1, 1, 1))
    legal = GAME.legal_moves(s, 0)
    assert d(3, "J12", "H11") in legal and d(3, "J12", "H13") in legal  # turn after 2 steps
    assert d(2, "J12", "I11") in legal  # one pawn, then the turn
    assert d(4, "J12", "F12") not in legal  # only two pawns in the row: no empty square jumped


def test_r7_the_caravan_stays_in_one_piece() -> None:
    s = mk([("J12", 0), ("K12", 1), ("L12", 0)], (1, 1, 1, 1, 1, 1))
    with pytest.raises(IllegalMove) as error:  # K12 away: J12 and L12 would be apart
        GAME.play(s, 0, d(1, "K12", "K13"))
    assert error.value.key == "nomadi.err.contact"
    # a diagonal touch does not connect
    assert d(1, "L12", "L13") not in GAME.legal_moves(s, 0)
    assert d(1, "L12", "L11") not in GAME.legal_moves(s, 0)
    assert d(1, "L12", "K11") in GAME.legal_moves(s, 0)


def test_r8_no_way_back_into_the_start_area_but_jumping_over_it() -> None:
    s = mk([("L16", 0), ("M16", 1), ("N16", 1)], (1, 3, 1, 1, 1, 1))
    legal = GAME.legal_moves(s, 0)
    assert d(1, "L16", "M17") not in legal and d(1, "L16", "M15") in legal
    assert d(1, "N16", "M17") in legal  # never left: may move inside the area
    with pytest.raises(IllegalMove) as error:
        GAME.play(s, 0, d(1, "L16", "M17"))
    assert error.value.key == "nomadi.err.start"
    over = mk([("M15", 0), ("M16", 1), ("M17", 1)], (3, 1, 1, 1, 1, 1))
    assert d(3, "M15", "L17") in GAME.legal_moves(over, 0)  # over M16, M17, out to L17


def test_r9_no_crossing_back_over_the_valley() -> None:
    # H8 is on the goal side (V(H) = 8), H9 on the start side.
    s = mk([("H8", 0), ("I9", 1), ("I8", 1)], (1, 1, 1, 1, 1, 1))
    assert d(1, "H8", "H9") not in GAME.legal_moves(s, 0)
    with pytest.raises(IllegalMove) as error:
        GAME.play(s, 0, d(1, "H8", "H9"))
    assert error.value.key == "nomadi.err.valley"
    # a jump path may pass over start-side squares: J9 over I9, H9 (start side) to G9
    path = mk([("J9", 0), ("I9", 1), ("H9", 1)], (3, 1, 1, 1, 1, 1))
    assert BOARD.goal_side(sq("J9")) and not BOARD.goal_side(sq("I9"))
    assert d(3, "J9", "G9") in GAME.legal_moves(path, 0)


def test_r10_worked_example_5_no_undoing_with_the_other_equal_die() -> None:
    s = mk([("N12", 0), ("M12", 1), ("M11", 1)], (2, 2, 5, 1, 1, 4), players=2)
    s = GAME.apply(s, 0, d(2, "N12", "L12"))
    legal = GAME.legal_moves(s, 0)
    assert d(2, "L12", "N12") not in legal
    with pytest.raises(IllegalMove) as error:
        GAME.play(s, 0, d(2, "L12", "N12"))
    assert error.value.key == "nomadi.err.undo"
    assert any(isinstance(m, DieMove) and m.die == 2 for m in legal)  # other uses of the 2


def test_r11_each_die_once_equal_dice_used_one_by_one() -> None:
    s = mk([("K12", 0), ("J12", 1)], (1, 1, 6, 6, 6, 6))
    s = GAME.apply(s, 0, d(1, "K12", "J13"))
    assert s.used.count(True) == 1 and d(1, "J12", "K13") in GAME.legal_moves(s, 0)


def test_r12_unusable_dice_cost_a_coin_each_and_the_turn_ends_by_itself() -> None:
    s = mk([("K12", 0), ("J12", 1)], (1, 6, 6, 6, 6, 6))
    step = GAME.play(s, 0, d(1, "K12", "J13"))
    assert step.ends_turn and step.state.active == 1
    assert step.state.coins[0] == 5 - 5
    penalty = next(e for e in step.events if e.key == "nomadi.log.penalty")
    assert penalty.params == {"count": 5} and penalty.seat == 0


def test_r12_the_last_die_ends_the_turn() -> None:
    s = mk([("K12", 0), ("J12", 1)], (1, 1, 6, 6, 6, 6))
    step = GAME.play(s, 0, d(1, "K12", "J13"))
    assert not step.ends_turn and GAME.to_act(step.state) == (0,)


def test_r13_no_usable_die_reroll_once_or_pay() -> None:
    s = mk([("K12", 0), ("J12", 1)], (6, 6, 6, 6, 6, 6))
    assert GAME.legal_moves(s, 0) == [Reroll(), Pay()]
    assert GAME.decisions(s)[0].key == "nomadi.decision.reroll"
    paid = GAME.play(s, 0, Pay())
    assert paid.state.coins[0] == -1 and paid.state.active == 1 and paid.ends_turn
    rerolled = GAME.play(s, 0, Reroll())
    after = rerolled.state
    if after.active == 0:  # usable: the turn goes on, no second reroll
        assert Reroll() not in GAME.legal_moves(after, 0) and after.rerolled
    else:
        assert after.coins[0] == -1 and "nomadi.log.no_dice" in keys(rerolled)


# ----------------------------------------------------------------- events


def test_ev1_own_pawn_on_a_card_keeps_it_privately() -> None:
    s = mk([("K12", 0), ("J12", 1)], cards={"J13": 4})
    step = GAME.play(s, 0, d(1, "K12", "J13"))
    t = step.state
    assert t.coins[0] == 6 and t.held[0] == (4,) and t.board_cards == ()
    private = [e for e in step.events if e.to is not None]
    assert [(e.key, e.to, e.params["value"]) for e in private] == [
        ("nomadi.log.card_value", 0, "+2")
    ]
    assert GAME.view(t, 0).held[0] == (2,) and GAME.view(t, 1).held[0] == (None,)


def test_ev1_worked_example_4_card_deal_buy_and_refuse() -> None:
    # Cy (seat 2) moves Ann's (seat 0) pawn onto a +3 card.
    s = mk([("K12", 0), ("J12", 1)], players=3, active=2, cards={"J13": 8})
    step = GAME.play(s, 2, d(1, "K12", "J13"))
    t = step.state
    assert t.coins[2] == 6 and not step.ends_turn
    peek = next(e for e in step.events if e.key == "nomadi.log.peek")
    assert peek.to == 2 and peek.params["value"] == "+3"
    assert GAME.to_act(t) == (2,) and GAME.legal_moves(t, 2) == [Offer(p) for p in range(7)]
    assert GAME.view(t, 2).deal.value == 3 and GAME.view(t, 0).deal.value is None  # type: ignore[union-attr]
    offered = GAME.play(t, 2, Offer(2))
    assert offered.ends_turn and GAME.to_act(offered.state) == (0,)
    assert GAME.decisions(offered.state)[0].key == "nomadi.decision.buy"
    bought = GAME.apply(offered.state, 0, Buy())
    assert bought.coins == (3, 5, 8) and bought.held[0] == (8,)
    assert GAME.view(bought, 2).held[0] == (3,) and GAME.view(bought, 1).held[0] == (None,)
    refused = GAME.apply(offered.state, 0, Refuse())
    assert refused.coins == (5, 5, 6) and refused.held[2] == (8,)
    assert GAME.to_act(refused) == (2,)  # Cy goes on with his dice


def test_ev1_owner_needs_the_money_and_the_price_range() -> None:
    s = mk([("K12", 0), ("J12", 1)], coins=(1, 5), active=1, cards={"J13": 0})
    t = GAME.apply(s, 1, d(1, "K12", "J13"))
    assert GAME.legal_moves(t, 1) == [Offer(0), Offer(1), Offer(2)]
    with pytest.raises(IllegalMove) as error:
        GAME.play(t, 1, Offer(3))
    assert error.value.key == "nomadi.err.price"
    t = GAME.apply(t, 1, Offer(2))
    assert GAME.legal_moves(t, 0) == [Refuse()]
    debtor = mk([("K12", 0), ("J12", 1)], coins=(-3, 5), active=1, cards={"J13": 0})
    debtor = GAME.apply(debtor, 1, d(1, "K12", "J13"))
    assert GAME.legal_moves(debtor, 1) == [Offer(0), Offer(1)]
    free = GAME.apply(debtor, 1, Offer(0))
    assert Buy() in GAME.legal_moves(free, 0)


def test_ev2_last_pawn_out_of_the_start_area_pays_its_owner_once() -> None:
    s = mk([("M16", 1), ("L16", 0), ("L15", 0)])
    step = GAME.play(s, 0, d(1, "M16", "L17"))
    assert "nomadi.log.last_out" in keys(step)
    assert step.state.coins == (5, 10)
    # Once the area is empty no pawn can enter it again (R8), so nobody is paid again.
    again = GAME.play(step.state, 0, d(1, "L17", "K16"))
    assert "nomadi.log.last_out" not in keys(again) and again.state.coins == (5, 10)


def test_ev3_first_across_pays_the_mover_last_across_costs_the_owner() -> None:
    # H9 (start side) -> I8 (goal side, V(I) = 8), beside I9; I9 and I10 stay behind.
    s = mk([("H9", 1), ("I9", 0), ("I10", 0)])
    assert not GAME.view(s, None).crossed
    step = GAME.play(s, 0, d(1, "H9", "I8"))
    assert "nomadi.log.first_cross" in keys(step) and "nomadi.log.last_cross" not in keys(step)
    assert step.state.coins == (10, 5) and GAME.view(step.state, None).crossed
    # I8 crossed before: this is not the first crossing, but H9 was the last pawn behind.
    last = mk([("H9", 1), ("I8", 0)])
    step = GAME.play(last, 0, d(1, "H9", "H8"))
    assert "nomadi.log.first_cross" not in keys(step)
    assert "nomadi.log.last_cross" in keys(step) and step.state.coins == (5, 0)


@pytest.mark.parametrize(("k", "whole", "half"), [(1, 8, 4), (2, 6, 3), (3, 4, 2)])
def test_ev4_goal_payouts_whole_to_one_player_halves_when_shared(
    k: int, whole: int, half: int
) -> None:
    # E4 steps into the goal on D4; k - 1 pawns of seat 2 already there (D3, then C3),
    # joined to the caravan through E3.
    arrived = [[], [("D3", 1), ("E3", 1)], [("D3", 1), ("E3", 1), ("C3", 1)]][k - 1]
    s = mk([("E4", 0), ("E5", 1), ("D5", 1), *arrived])
    assert GAME.view(s, None).arrivals == k - 1
    own = GAME.play(s, 0, d(1, "E4", "D4"))
    assert own.state.coins == (5 + whole, 5) and GAME.view(own.state, None).arrivals == k
    assert GAME.view(own.state, None).pawns[0].arrived
    shared = GAME.play(replace(s, active=1), 1, d(1, "E4", "D4"))
    assert shared.state.coins == (5 + half, 5 + half)


def test_ev4_eg1_third_arrival_ends_the_game_at_once_without_penalty() -> None:
    pawns = [("E4", 0), ("E5", 1), ("D5", 1), ("D3", 1), ("E3", 1), ("C3", 1)]
    s = mk(pawns, (1, 6, 6, 6, 6, 6))
    step = GAME.play(s, 0, d(1, "E4", "D4"))
    t = step.state
    assert t.phase == "over" and t.end == "third" and step.ends_turn
    assert t.coins == (9, 5) and "nomadi.log.penalty" not in keys(step)
    assert GAME.decisions(t) == () and GAME.outcome(t) is not None


def test_eg2_a_whole_round_without_a_usable_die_ends_the_game() -> None:
    s = replace(mk([("K12", 0), ("J12", 1)], (6, 6, 6, 6, 6, 6)), idle=1)
    t = GAME.apply(s, 0, Pay())
    assert t.phase == "over" and t.end == "idle"


def test_eg2_the_game_ends_after_100_full_rounds() -> None:
    s = replace(mk([("K12", 0), ("J12", 1)], (6, 6, 6, 6, 6, 6), active=1), turns=199)
    t = GAME.apply(s, 1, Pay())
    assert t.phase == "over" and t.end == "rounds"


def test_scoring_example_coins_plus_cards_debt_subtracted() -> None:
    values = (3, 2, -2, 3, 3, *CARD_VALUES[5:])
    s = replace(
        mk([("K12", 0), ("J12", 1)], values=values),
        phase="over",
        coins=(14, -1),
        held=((0, 1, 2), (3, 4)),
    )
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.scores == (17, 5) and outcome.winners == (0,)
    assert outcome.breakdown[0] == (("coins", 14), ("cards", 3))


def test_ties_share_the_win() -> None:
    s = replace(mk([("K12", 0), ("J12", 1)]), phase="over", coins=(7, 7))
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winners == (0, 1) and outcome.ranks == (1, 1)


# ----------------------------------------------------------------- options (§10.19)


def test_short_course_goal_is_m5_p8_and_a1_d4_ordinary() -> None:
    s = mk([("L5", 0), ("L4", 1), ("M4", 1)], course="short")
    step = GAME.play(s, 0, d(1, "L5", "M5"))
    assert GAME.view(step.state, None).arrivals == 1 and step.state.coins[0] == 13
    full = mk([("E4", 0), ("E5", 1), ("D5", 1)], course="short")
    moved = GAME.play(full, 0, d(1, "E4", "D4"))
    assert GAME.view(moved.state, None).arrivals == 0 and moved.state.coins[0] == 5


def test_bribes_offer_accept_and_lapse() -> None:
    s = mk([("K12", 0), ("J12", 1)], (1, 1, 6, 6, 6, 6), players=3, bribes="on")
    assert GAME.to_act(s) == (0, 1, 2)
    assert GAME.legal_moves(s, 1)[-1] == NoBribe() and Bribe(5) in GAME.legal_moves(s, 1)
    (move,) = GAME.parse(s, 1, "bribe 3 please move my pawn")
    assert move == Bribe(3, "please move my pawn")
    step = GAME.play(s, 1, move)
    assert step.ends_turn and step.events[0].key == "nomadi.log.bribe_message"
    t = GAME.apply(step.state, 2, NoBribe())
    assert GAME.to_act(t) == (0,) and Accept(1) in GAME.legal_moves(t, 0)
    accepted = GAME.apply(t, 0, Accept(1))
    assert accepted.coins == (8, 2, 5)
    lapsed = GAME.apply(GAME.apply(t, 0, d(1, "K12", "J13")), 0, d(1, "J12", "K13"))
    assert lapsed.active == 1 and lapsed.offers == ()
    assert GAME.decisions(mk([("K12", 0), ("J12", 1)]))[0].seat == 0  # off: nobody else acts


# ----------------------------------------------------------------- notation, views, bot


def test_notation_compound_commands_case_insensitive_and_all_or_nothing() -> None:
    s = mk([("K12", 0), ("J12", 1)], (1, 1, 6, 6, 6, 6))
    assert GAME.parse(s, 0, "1 k12-j13; 1 J12-K13") == (d(1, "K12", "J13"), d(1, "J12", "K13"))
    assert GAME.parse(s, 0, "1 K12-J13 1 J12-K13") == (d(1, "K12", "J13"), d(1, "J12", "K13"))
    with pytest.raises(IllegalMove):
        GAME.parse(s, 0, "1 K12-J13; 1 J13-J9")
    with pytest.raises(InvalidMove):
        GAME.parse(s, 0, "jump K12")
    with pytest.raises(IllegalMove) as error:
        GAME.parse(s, 1, "1 J12-J11")
    assert error.value.key == "nomadi.err.not_your_turn"


def test_resample_keeps_what_the_seat_knows_and_redraws_the_rest() -> None:
    s = mk([("K12", 0), ("J12", 1)], cards={"J13": 4, "A10": 5})
    s = GAME.apply(s, 0, d(1, "K12", "J13"))
    twins = [GAME.resample(s, 0, seed) for seed in range(20)]
    assert all(t.values[4] == s.values[4] for t in twins)
    assert any(t.values[5] != s.values[5] for t in twins)
    assert all(GAME.view(t, 0) == GAME.view(s, 0) for t in twins)


def test_bot_plays_a_legal_move_from_the_view() -> None:
    s = mk([("K12", 0), ("J12", 1)], (1, 1, 6, 6, 6, 6))
    move = SPEC.bot(GAME.view(s, 0), tuple(GAME.legal_moves(s, 0)), Rng(1))
    assert move in GAME.legal_moves(s, 0)


def test_french_words_read_like_the_notation_and_are_suggested_in_french() -> None:
    from games import catalogue

    s = mk([("K12", 0), ("J12", 1)], (1, 1, 6, 6, 6, 6), cards={"J13": 4})
    assert GAME.parse(s, 0, "1 K12-J11") == (d(1, "K12", "J11"),)
    cards = replace(s, phase="cards", pile=(13, 14, 15, 16, 17))
    assert GAME.parse(cards, 0, "carte F9") == (PlaceCard(sq("F9")),)
    assert GAME.parse(cards, 0, "CARTE f9") == GAME.parse(cards, 0, "card F9")
    words = GAME.move_words(PlaceCard(sq("F9")))
    assert words is not None and catalogue.term("fr", words) == "carte F9"
    assert catalogue.term("en", words) == "card F9"
    deal = GAME.apply(replace(s, active=1), 1, d(1, "K12", "J13"))
    assert GAME.parse(deal, 1, "prix 2") == (Offer(2),)
    offered = GAME.apply(deal, 1, Offer(0))
    assert GAME.parse(offered, 0, "acheter") == (Buy(),)
    assert GAME.parse(offered, 0, "refuser") == (Refuse(),)
    for move in (Buy(), Refuse(), Offer(3), Reroll(), Pay(), NoBribe(), Accept(1), Bribe(2)):
        term = GAME.move_words(move)
        assert term is not None
        french = catalogue.term("fr", term)
        assert french != catalogue.term("en", term)
        assert GAME.format_move(move) != french
        assert notation_of(french) == move


def notation_of(text: str) -> object:
    from games.nomadi.notation import parse_text

    (move,) = parse_text(text)
    return move


def test_a_bribe_message_keeps_its_words_even_french_command_words() -> None:
    assert notation_of("soudoyer 3 passe par la carte") == Bribe(3, "passe par la carte")


def test_a_move_opening_a_card_deal_must_end_the_command() -> None:
    s = mk([("K12", 0), ("J12", 1)], (1, 1, 6, 6, 6, 6), active=1, cards={"J13": 4})
    with pytest.raises(IllegalMove) as error:
        GAME.parse(s, 1, "1 K12-J13; offer 2")
    assert error.value.key == "nomadi.err.deal_last"
    assert GAME.parse(s, 1, "1 K12-J13") == (d(1, "K12", "J13"),)


def test_the_board_knows_the_last_path_and_the_previous_turn() -> None:
    s = mk([("J12", 0), ("I12", 1), ("I11", 0)], (3, 6, 6, 6, 6, 6))
    t = GAME.apply(s, 0, d(3, "J12", "I10"))  # worked example 3
    assert t.path == (sq("J12"), sq("I12"), sq("I11"), sq("I10"))
    view = GAME.view(t, None)
    assert view.path == t.path
    assert t.previous is not None and t.previous.seat == 0  # the sixes were unusable
    assert t.previous.moves == ((3, sq("J12"), sq("I10")),) and t.previous.paid == 5
    assert t.active == 1 and view.moves == ()


def test_s10_24_the_card_deal_is_settled_before_the_valley_pays() -> None:
    # Bob (seat 1) moves Ann's pawn from K11 across the valley onto a card on K10.
    s = mk([("K11", 0), ("J11", 1), ("J10", 1)], active=1, cards={"K10": 8})
    moved = GAME.play(s, 1, d(1, "K11", "K10"))
    assert "nomadi.log.first_cross" not in keys(moved) and moved.state.coins == (5, 6)
    priced = GAME.apply(moved.state, 1, Offer(2))
    settled = GAME.play(priced, 0, Buy())
    assert keys(settled).index("nomadi.log.buy") < keys(settled).index("nomadi.log.first_cross")
    assert settled.state.coins == (3, 6 + 2 + 5)


def test_s10_26_a_card_does_not_occupy_its_square() -> None:
    # K12's only empty side holds a card: still a free side (R4), and a 1 may land there.
    pawns = [("K12", 0), *((s, 1) for s in ("J12", "L12", "K13", "J11", "L11", "J13"))]
    s = mk(pawns, cards={"K11": 3})
    assert d(1, "K12", "K11") in GAME.legal_moves(s, 0)
    blocked = mk([*pawns, ("K11", 1)])
    assert not any(
        m.frm == sq("K12") for m in GAME.legal_moves(blocked, 0) if isinstance(m, DieMove)
    )
