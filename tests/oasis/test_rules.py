"""Oasis rule tests, written from the spec (shared/rules/oasis.md) and named after
its rule ids: R1-R26, SC1-SC4, EG1, the decisions §10.x, the worked examples of
§7 and the notation of §11.

Positions are built with ``dataclasses.replace`` on a real game state. Seats are
0-based; ``ME`` and ``OTHER`` below are offsets from the seat that acts.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from games import catalogue
from games.contract import IllegalMove, InvalidMove, bot_move
from games.oasis import SPEC
from games.oasis import rules as oasis_rules
from games.oasis.engine import GAME
from games.oasis.model import (
    AUTO,
    BOARD,
    CONTENT,
    NOCLAIM,
    Bonus,
    Camel,
    CamelMove,
    Reveal,
    Stop,
    Take,
    Tile,
    name,
    parse_square,
)
from games.oasis.state import OasisState, current, noble, order

SEED = 1
ME, OTHER, THIRD = 0, 1, 2  # seat offsets from the seat to act
LANDS = "osd"
EMPTY_BOARD = "." * len(BOARD.cells)


# ----------------------------------------------------------------------------- helpers


def sq(word: str) -> int:
    found = parse_square(word)
    assert found is not None, word
    return found


def names(squares: object) -> set[str]:
    return {name(x) for x in squares}  # type: ignore[attr-defined]


def stop_all(s: OasisState) -> OasisState:
    """Play the offer phase with one-card offers (every offerer stops)."""
    while s.phase == "offer":
        seat = current(s)
        assert seat is not None
        s = GAME.play(s, seat, Stop()).state
    return s


def choosing(
    players: int = 3, seed: int = SEED, offers: list[tuple[str, ...]] | None = None
) -> OasisState:
    """The first choice of round 1; ``offers`` (if given) replace the offers, listed
    in rank order (the Noble's first)."""
    s = stop_all(GAME.new(players, seed))
    assert s.phase == "choose"
    if offers is not None:
        by_seat = [()] * players
        for i, seat in enumerate(order(s)):
            by_seat[seat] = offers[i]
        s = replace(s, offers=tuple(by_seat))
    return s


def ground(tiles: dict[str, str] | None = None) -> str:
    """A ground string from {land letter: "C4 D4 …"}."""
    cells = list(EMPTY_BOARD)
    for land, words in (tiles or {}).items():
        for word in words.split():
            assert BOARD.cells[sq(word)] == ".", word
            cells[sq(word)] = land
    return "".join(cells)


def at_placement(
    pending: tuple[int, int, int, int] = (0, 0, 0, 0),
    tiles: dict[str, str] | None = None,
    pawns: dict[str, int] | None = None,
    herd: dict[str, int] | None = None,
    players: int = 3,
    **fields: object,
) -> tuple[OasisState, int]:
    """A choice-phase position where the seat to act owes ``pending`` (oasis,
    steppe, stony, camels). Pawn and camel owners are offsets from that seat."""
    s = choosing(players)
    me = current(s)
    assert me is not None
    cells = list(EMPTY_BOARD)
    for word, offset in (herd or {}).items():
        assert BOARD.cells[sq(word)] == "=", word
        cells[sq(word)] = str((me + offset) % players)
    s = replace(
        s,
        ground=ground(tiles),
        pawns=tuple(sorted((sq(w), (me + o) % players) for w, o in (pawns or {}).items())),
        herd="".join(cells),
        pending=pending,
        **fields,  # type: ignore[arg-type]
    )
    return s, me


def at_bonus(**fields: object) -> tuple[OasisState, int]:
    """Phase 7 of round 1: the Noble's bonus (R26)."""
    s = replace(choosing(), phase="bonus", cursor=0, **fields)  # type: ignore[arg-type]
    return s, noble(s)


def seats_of(me: int, players: int = 3) -> tuple[int, int, int]:
    return me, (me + 1) % players, (me + 2) % players


def refused(s: OasisState, seat: int, move: object, key: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as error:
        GAME.play(s, seat, move)  # type: ignore[arg-type]
    assert error.value.key == key, str(error.value)
    return error.value


def play(s: OasisState, seat: int, *moves: object) -> OasisState:
    for move in moves:
        s = GAME.play(s, seat, move).state  # type: ignore[arg-type]
    return s


def domain(s: OasisState, word: str) -> set[str]:
    found = oasis_rules.domains(s.ground)
    index = found.of[sq(word)]
    return names(found.squares[index]) if index >= 0 else set()


def owner(s: OasisState, word: str) -> int | None:
    found = oasis_rules.domains(s.ground)
    index = found.of[sq(word)]
    assert index >= 0, f"{word} is in no domain"
    held = oasis_rules.owners(s).get(index)
    return None if held is None else held[0]


def tiles_at(s: OasisState, seat: int, square: str) -> list[Tile]:
    return [m for m in GAME.legal_moves(s, seat) if isinstance(m, Tile) and m.square == sq(square)]


def keys(step: object) -> list[str]:
    return [e.key for e in step.events]  # type: ignore[attr-defined]


def over(s: OasisState, **fields: object) -> OasisState:
    return replace(s, phase="over", end="d", **fields)  # type: ignore[arg-type]


def scores(s: OasisState) -> list[dict[str, int]]:
    result = GAME.outcome(s)
    assert result is not None
    return [dict(lines) for lines in result.breakdown]


def finish_choices(s: OasisState) -> OasisState:
    """Play the rest of the choices with each chooser's first legal move."""
    while s.phase == "choose":
        seat = GAME.to_act(s)[0]
        s = GAME.play(s, seat, GAME.legal_moves(s, seat)[0]).state
    return s


ALL_FREE = " ".join(name(x) for x in sorted(BOARD.free))


def free_but(*words: str) -> str:
    """Every free landscape square except ``words``."""
    skip = {sq(w) for w in words}
    return " ".join(name(x) for x in sorted(BOARD.free) if x not in skip)


# ----------------------------------------------------------------------------- setup (§4)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_components(players: int) -> None:
    s = GAME.new(players, SEED)
    assert sorted(s.ranks) == list(range(1, players + 1))
    assert s.lands == (34, 34, 20)
    assert s.piles == (24, 12, 16, 10)
    # 5 cards per stack (the Noble's first already turned up, R1)
    cards = [c for st in s.stacks for c in st] + list(s.draw) + [c for o in s.offers for c in o]
    assert Counter(cards) == Counter(CONTENT.deck) and len(cards) == 54
    assert sum(len(st) + len(o) for st, o in zip(s.stacks, s.offers, strict=True)) == 5 * players
    assert s.ground == EMPTY_BOARD and s.herd == EMPTY_BOARD and s.pawns == ()


# ----------------------------------------------------------------------------- offers R1-R5


def second_offer(stack: int, seed: int = SEED) -> tuple[OasisState, OasisState, int, int]:
    """The state before the Noble stops (with the second offerer's stack set to
    ``stack`` cards) and the state after, when the second offer has started."""
    s = GAME.new(3, seed)
    first, second = order(s)[0], order(s)[1]
    pool = list(s.stacks[second]) + list(s.draw)
    stacks = list(s.stacks)
    stacks[second] = tuple(pool[:stack])
    before = replace(s, stacks=tuple(stacks), draw=tuple(pool[stack:]))
    return before, GAME.play(before, first, Stop()).state, first, second


def test_r1_first_card_turned_up_automatically() -> None:
    start = GAME.new(3, SEED)
    assert [len(o) for o in start.offers].count(1) == 1
    assert len(start.offers[noble(start)]) == 1 and len(start.stacks[noble(start)]) == 4
    before, after, first, second = second_offer(5)
    assert current(after) == second
    assert after.offers[second] == before.stacks[second][:1]
    assert after.stacks[second] == before.stacks[second][1:]
    assert set(GAME.legal_moves(after, second)) == {Reveal(), Stop()}


def test_r1_r3_r4_stop_draws_two_under_the_stack() -> None:
    before, after, first, _ = second_offer(5)
    # The Noble offered 1 card: he draws 2, under (not on top of) his stack.
    assert after.offers[first] == before.offers[first]
    assert after.stacks[first] == (*before.stacks[first], *before.draw[:2])
    assert after.draw == before.draw[2:]


@pytest.mark.parametrize("stack", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_r2_offer_limit_formula(stack: int, k: int) -> None:
    """R2: k cards may be offered only if 2k <= s + 2; R3/R4: then 3 - k are drawn
    under the stack."""
    before, s, first, second = second_offer(stack)
    while current(s) == second and s.phase == "offer" and len(s.offers[second]) < k:
        if Reveal() not in GAME.legal_moves(s, second):
            refused(s, second, Reveal(), "oasis.err.r2")
            break
        s = GAME.play(s, second, Reveal()).state
    if current(s) == second and s.phase == "offer":
        s = GAME.play(s, second, Stop()).state
    offered = len(s.offers[second])
    allowed = 2 * k <= stack + 2
    assert (offered == k) == allowed
    if not allowed:
        assert offered == max(j for j in (1, 2, 3) if 2 * j <= stack + 2)
    orig = before.stacks[second]
    assert s.offers[second] == orig[:offered]
    drawn = before.draw[2 : 2 + 3 - offered]  # the Noble drew the first two
    assert s.stacks[second] == (*orig[offered:], *drawn)
    assert len(s.stacks[second]) >= 1  # never a round without cards


def test_r2_seed_example_three_cards_cannot_offer_three() -> None:
    before, s, _, second = second_offer(3)
    s = GAME.play(s, second, Reveal()).state
    # Two cards turned up: the offer may not grow, so it is made at once.
    assert len(s.offers[second]) == 2
    assert current(s) != second
    assert len(s.stacks[second]) == 2  # 1 left + 1 drawn


def test_r2_reveal_refused_when_formula_forbids() -> None:
    s = GAME.new(3, SEED)
    first = current(s)
    assert first is not None
    stacks = list(s.stacks)
    stacks[first] = ()  # one card offered out of a stack of 1
    s = replace(s, stacks=tuple(stacks))
    assert GAME.legal_moves(s, first) == [Stop()]
    error = refused(s, first, Reveal(), "oasis.err.r2")
    assert "R2" in str(error)


def test_r3_reshuffle_discard_when_draw_pile_empty() -> None:
    s = GAME.new(3, SEED)
    first = current(s)
    assert first is not None
    discard = ("WL1", "HR1", "OV2", "CD3", "GD2")
    s = replace(s, draw=(), discard=discard)
    step = GAME.play(s, first, Stop())
    after = step.state
    assert "oasis.log.reshuffle" in keys(step)
    drawn = after.stacks[first][len(s.stacks[first]) :]
    assert after.stacks[first][: len(s.stacks[first])] == s.stacks[first]
    assert len(drawn) == 2
    assert after.discard == ()
    # The second offerer then turned up his own top card, not a drawn one.
    assert Counter(drawn) + Counter(after.draw) == Counter(discard)


def test_r3_draw_pile_first_then_reshuffle() -> None:
    s = GAME.new(3, SEED)
    first = current(s)
    assert first is not None
    s = replace(s, draw=("GD3",), discard=("WL1", "WL1"))
    after = GAME.play(s, first, Stop()).state
    assert after.stacks[first][-2:] == ("GD3", "WL1")
    assert after.draw == ("WL1",) and after.discard == ()


def test_r3_both_piles_empty_draws_what_is_available() -> None:
    s = GAME.new(3, SEED)
    first = current(s)
    assert first is not None
    s = replace(s, draw=(), discard=())
    after = GAME.play(s, first, Stop()).state
    assert after.stacks[first] == s.stacks[first]


def test_r5_empty_stack_draws_one_first() -> None:
    before, s, _, second = second_offer(0)
    # The Noble drew 2 cards; the second offerer then draws 1 and offers it.
    assert s.offers[second] == (before.draw[2],)
    # s = 1 allows k = 1 only: the offer is made, 2 more cards are drawn.
    assert current(s) != second
    assert s.stacks[second] == before.draw[3:5]


def test_r5_no_card_anywhere_sits_out() -> None:
    s = GAME.new(3, SEED)
    first, second, third = order(s)
    stacks = list(s.stacks)
    stacks[second] = ()
    s = replace(s, stacks=tuple(stacks), draw=(), discard=())
    step = GAME.play(s, first, Stop())
    s = step.state
    assert "oasis.log.no_offer" in keys(step)
    assert s.out == (second,)
    assert s.offers[second] == ()
    assert current(s) == third
    s = GAME.play(s, third, Stop()).state
    assert s.phase == "choose"
    offers = [()] * 3
    offers[first], offers[third] = ("WL1",), ("HR1",)
    s = replace(s, offers=tuple(offers))
    ranks = s.ranks
    assert GAME.legal_moves(s, first) == [Take(third)]
    assert GAME.legal_moves(s, second) == []
    s = GAME.play(s, first, Take(third)).state
    # The second is skipped (R6); the third takes the Noble's offer at once.
    assert s.taken[first] == third
    assert s.phase != "choose" or s.round == 2
    assert s.ranks[second] == ranks[second]  # keeps his rank tile
    assert s.ranks[third] == 1
    assert s.ranks[first] == ranks[third]
    assert sorted(s.ranks) == [1, 2, 3]


def test_r5_noble_without_cards_keeps_rank_one() -> None:
    s, first = at_bonus()
    stacks = list(s.stacks)
    stacks[first] = ()
    s = replace(s, stacks=tuple(stacks), draw=(), discard=())
    s = play(s, first, Bonus(None))
    assert s.round == 2 and s.out == (first,)
    s = stop_all(s)
    _, b, c = order(s)
    offers = [()] * 3
    offers[b], offers[c] = ("WL1",), ("HR1",)
    s = replace(s, offers=tuple(offers))
    assert GAME.to_act(s) == (b,)
    s = play(s, b, Take(c))
    # c takes b's offer at once; the Noble took nothing and keeps rank 1.
    assert s.ranks[first] == 1
    assert (s.ranks[b], s.ranks[c]) == (3, 2)


# ----------------------------------------------------------------------------- choices R6-R9


def test_r6_choices_in_rank_order() -> None:
    s = choosing(4, offers=[("WL1",), ("HR1",), ("OV2",), ("GD2",)])
    ranked = order(s)
    seen = []
    while s.phase == "choose":
        (seat,) = GAME.to_act(s)
        seen.append(seat)
        s = GAME.play(s, seat, GAME.legal_moves(s, seat)[0]).state
    # The last chooser's single offer is taken for him.
    assert seen == list(ranked[:3])


def test_r7_not_ones_own_offer() -> None:
    s = choosing(offers=[("WL1",), ("HR1",), ("OV2",)])
    a, b, c = order(s)
    assert Take(a) not in GAME.legal_moves(s, a)
    assert set(GAME.legal_moves(s, a)) == {Take(b), Take(c)}
    error = refused(s, a, Take(a), "oasis.err.r7")
    assert "R7" in str(error)


def test_r7_r8_last_chooser_takes_own_offer_and_keeps_tile() -> None:
    s = choosing(offers=[("WL1",), ("HR1",), ("OV2",)])
    a, b, c = order(s)
    s = play(s, a, Take(b))
    step = GAME.play(s, b, Take(a))
    s = step.state
    assert "oasis.log.take_own" in keys(step)
    assert s.taken[c] == c
    assert s.mults[c][3] == 2  # the ovoos of his own offer
    assert s.ranks[c] == 3  # keeps the Merchant
    assert s.ranks[a] == 2 and s.ranks[b] == 1


def test_r8_s10_19_gives_tile_held_at_start_of_round() -> None:
    s = choosing(offers=[("WL1",), ("HR1",), ("OV2",)])
    a, b, c = order(s)
    s = play(s, a, Take(b))
    assert s.received[b] == 1  # public at once (§10.12)
    # b now holds two tiles; he gives the Aristocrat (2), keeps the Noble (1).
    s = play(s, b, Take(c))
    # c is left with a's offer and takes it at once, giving the Merchant.
    assert s.taken[a] == c
    assert s.phase in ("bonus", "offer")
    assert (s.ranks[a], s.ranks[b], s.ranks[c]) == (3, 1, 2)
    # R8: the offer taken first made its owner the Noble.
    assert noble(s) == b


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_r8_one_rank_tile_each_and_first_taken_is_noble(players: int, seed: int) -> None:
    rng = random.Random(seed)
    s = choosing(players, seed, offers=[("WL1",)] * players)
    first_taken = None
    while s.phase == "choose":
        (seat,) = GAME.to_act(s)
        move = rng.choice(GAME.legal_moves(s, seat))
        assert isinstance(move, Take)
        if first_taken is None:
            first_taken = move.seat
        s = GAME.play(s, seat, move).state
        assert sorted(r for r in s.received if r) == sorted(set(r for r in s.received if r))
    assert sorted(s.ranks) == list(range(1, players + 1))
    assert s.ranks[first_taken] == 1


def test_r9_resolve_cards_in_any_order_then_discard() -> None:
    s = choosing(offers=[("WL1",), ("OA2", "CM2", "WL1"), ("HR1",)])
    a, b, _ = order(s)
    discard = s.discard
    s = play(s, a, Take(b))
    assert s.pending == (2, 0, 0, 2)
    assert s.mults[a][1] == 1  # the well at once (§10.17)
    assert s.discard == (*discard, "OA2", "CM2", "WL1")
    legal = GAME.legal_moves(s, a)
    assert any(isinstance(m, Camel) for m in legal)
    assert any(isinstance(m, Tile) and m.land == "o" for m in legal)
    assert not any(isinstance(m, Take) for m in legal)
    # camel first, then a tile, then a camel, then a tile
    s = play(s, a, Camel(sq("K9")), Tile("o", sq("D3")), Camel(sq("M1")))
    assert current(s) == a and s.pending == (1, 0, 0, 0)
    s = play(s, a, Tile("o", sq("D4")))
    assert current(s) == b and s.pending == (0, 0, 0, 0)


# ----------------------------------------------------------------------------- card actions R10-R13


def test_r10_placement_compulsory_while_legal() -> None:
    s = choosing(offers=[("WL1",), ("SD1",), ("HR1",)])
    a, b, c = order(s)
    s = play(s, a, Take(b))
    assert s.pending == (0, 0, 1, 0)
    legal = GAME.legal_moves(s, a)
    assert legal and all(isinstance(m, Tile) and m.land == "d" for m in legal)
    refused(s, a, Take(c), "oasis.err.place_now")
    refused(s, a, Tile("o", sq("D3")), "oasis.err.not_owed")


def test_r10_fewer_tiles_in_pile_places_those() -> None:
    s = choosing(offers=[("WL1",), ("OA2",), ("HR1",)])
    a, b, _ = order(s)
    s = replace(s, lands=(1, 34, 20))
    s = play(s, a, Take(b))
    s = play(s, a, Tile("o", sq("D3")))
    assert s.lands[0] == 0
    assert current(s) == b  # the second tile is lost: the turn is over
    assert s.pending == (0, 0, 0, 0)


def test_r10_empty_pile_card_does_nothing() -> None:
    s = choosing(offers=[("WL1",), ("OA2",), ("HR1",)])
    a, b, _ = order(s)
    s = replace(s, lands=(0, 34, 20))
    s = play(s, a, Take(b))
    assert current(s) == b and s.ground == EMPTY_BOARD


def test_r10_s10_20_unplaceable_tiles_stay_in_pile() -> None:
    s = choosing(offers=[("WL1",), ("OA2",), ("HR1",)])
    a, b, _ = order(s)
    s = replace(s, ground=ground({"d": ALL_FREE}))
    step = GAME.play(s, a, Take(b))
    s = step.state
    assert "oasis.log.lost" in keys(step)
    assert s.lands == (34, 34, 20)
    assert current(s) == b


def test_r10_s10_20_second_tile_unplaceable_stays_in_pile() -> None:
    s = choosing(offers=[("WL1",), ("OA2",), ("HR1",)])
    a, b, _ = order(s)
    s = replace(s, ground=ground({"d": free_but("D3")}))
    s = play(s, a, Take(b))
    assert [m.square for m in GAME.legal_moves(s, a)] == [sq("D3")]
    s = play(s, a, Tile("o", sq("D3")))
    assert s.lands == (33, 34, 20)  # one placed, one still in the pile
    assert current(s) == b


def test_r11_supply_first_then_moves() -> None:
    mine = "G5 G4 H4 I4 I3 J3 K3 K2 L2 M2 M1 F6 E6 E7 D7 D8 C8 C9 C10"  # 19 camels
    s, me = at_placement((0, 0, 0, 3), herd=dict.fromkeys(mine.split(), ME))
    refused(s, me, CamelMove(sq("G5"), sq("K9")), "oasis.err.r11_supply")
    assert all(isinstance(m, Camel) for m in GAME.legal_moves(s, me))
    s = play(s, me, Camel(sq("K9")))
    # supply empty: the rest are moves
    assert s.herd.count(str(me)) == 20
    refused(s, me, Camel(sq("K10")), "oasis.err.r11_move")
    legal = GAME.legal_moves(s, me)
    assert legal and all(isinstance(m, CamelMove) for m in legal)
    s = play(s, me, CamelMove(sq("M1"), sq("K10")))
    assert s.herd[sq("M1")] == "." and s.herd[sq("K10")] == str(me)
    # §10.21: the camel that moved may not move again for this offer
    refused(s, me, CamelMove(sq("K10"), sq("M1")), "oasis.err.moved_twice")
    assert not any(m.frm == sq("K10") for m in GAME.legal_moves(s, me))  # type: ignore[union-attr]
    s = play(s, me, CamelMove(sq("L2"), sq("M1")))
    assert s.pending == (0, 0, 0, 0)
    assert s.herd.count(str(me)) == 20


def test_r11_s10_21_once_per_offer_across_camel_cards() -> None:
    s = choosing(offers=[("WL1",), ("CM2", "CM3"), ("HR1",)])
    a, b, _ = order(s)
    herd = list(EMPTY_BOARD)
    for x in BOARD.track[:20]:
        herd[x] = str(a)
    s = replace(s, herd="".join(herd))
    s = play(s, a, Take(b))
    assert s.pending == (0, 0, 0, 5)
    first, spot = BOARD.track[0], BOARD.track[30]
    s = play(s, a, CamelMove(first, spot))
    for _ in range(4):
        assert not any(m.frm == spot for m in GAME.legal_moves(s, a))  # type: ignore[union-attr]
        refused(s, a, CamelMove(spot, first), "oasis.err.moved_twice")
        move = GAME.legal_moves(s, a)[0]
        s = play(s, a, move)
    assert current(s) == b
    assert s.herd.count(str(a)) == 20


def test_r11_not_anothers_camel() -> None:
    track = [name(x) for x in BOARD.track]
    s, me = at_placement((0, 0, 0, 1), herd={**dict.fromkeys(track[:20], ME), track[20]: OTHER})
    refused(s, me, CamelMove(sq(track[20]), sq(track[30])), "oasis.err.not_your_camel")


def test_r11_track_full_loses_the_rest() -> None:
    track = [name(x) for x in BOARD.track]
    herd = dict.fromkeys(track[:19], OTHER) | dict.fromkeys(track[19:37], THIRD)
    s, me = at_placement((0, 0, 0, 3), herd=herd)
    last = track[37]
    assert GAME.legal_moves(s, me) == [Camel(sq(last))]
    step = GAME.play(s, me, Camel(sq(last)))
    assert "oasis.log.lost_camels" in keys(step)
    assert step.state.pending == (0, 0, 0, 0)
    assert current(step.state) != me


def test_r12_multipliers_taken_face_down() -> None:
    s = choosing(offers=[("WL1",), ("HR2", "GD3", "OV2"), ("HR1",)])
    a, b, c = order(s)
    s = play(s, a, Take(b))
    assert s.mults[a] == (3, 0, 2, 2)
    assert s.piles == (21, 12, 14, 8)
    # Concealed, not secret (§9): others see the count only.
    assert GAME.view(s, a).multipliers[a] == {"goods": 3, "wells": 0, "horses": 2, "ovoos": 2}
    assert GAME.view(s, c).multipliers[a] is None
    assert GAME.view(s, c).multiplier_counts[a] == 7


def test_r12_pile_short_takes_what_is_left() -> None:
    s = choosing(offers=[("WL1",), ("GD3", "HR2"), ("HR1",)])
    a, b, _ = order(s)
    s = replace(s, piles=(1, 12, 0, 10))
    step = GAME.play(s, a, Take(b))
    s = step.state
    assert "oasis.log.pile_short" in keys(step)
    assert s.mults[a] == (1, 0, 0, 0)
    assert s.piles == (0, 12, 0, 10)


def test_r13_three_cards_under_own_stack_unseen() -> None:
    s = choosing(offers=[("WL1",), ("CD3",), ("HR1",)])
    a, b, _ = order(s)
    stack, draw = s.stacks[a], s.draw
    step = GAME.play(s, a, Take(b))
    s = step.state
    assert s.stacks[a] == (*stack, *draw[:3])
    assert s.draw == draw[3:]
    # Unseen: no event shows the drawn cards to anyone.
    assert not any(e.private for e in step.events)
    assert current(s) == b


def test_r13_r9_card_itself_not_drawn_back() -> None:
    s = choosing(offers=[("WL1",), ("CD3",), ("HR1",)])
    a, b, _ = order(s)
    s = replace(s, draw=("GD2",), discard=())
    s = play(s, a, Take(b))
    assert s.stacks[a][-1] == "GD2"
    assert s.discard == ("CD3",)


# ----------------------------------------------------------------------------- placement R14-R20


@pytest.mark.parametrize("word", ["G6", "K9", "C3", "N9", "H9", "A4", "F8"])
def test_r14_not_on_track_or_printed_squares(word: str) -> None:
    s, me = at_placement((2, 2, 1, 0))
    for land in LANDS:
        refused(s, me, Tile(land, sq(word)), "oasis.err.r14")
        assert not tiles_at(s, me, word)


def test_r14_not_on_a_tile() -> None:
    s, me = at_placement((2, 2, 1, 0), tiles={"o": "D3"}, pawns={"D3": ME})
    for land in LANDS:
        refused(s, me, Tile(land, sq("D3")), "oasis.err.r14")


def test_r15_may_not_join_two_own_domains() -> None:
    s, me = at_placement((0, 0, 1, 0), tiles={"d": "C13 E13"}, pawns={"C13": ME, "E13": ME})
    error = refused(s, me, Tile("d", sq("D13")), "oasis.err.r15")
    assert "R15" in str(error)
    assert not tiles_at(s, me, "D13")


def test_r15_may_not_touch_two_unowned_domains() -> None:
    s, me = at_placement((0, 0, 1, 0), tiles={"d": "C13 E13"})
    refused(s, me, Tile("d", sq("D13")), "oasis.err.r15")


def test_r16_may_not_touch_anothers_domain() -> None:
    s, me = at_placement((0, 0, 1, 0), tiles={"d": "C13"}, pawns={"C13": OTHER})
    error = refused(s, me, Tile("d", sq("D13")), "oasis.err.r16")
    assert "R16" in str(error) and "C13" in str(error)


def test_r16_other_types_and_diagonals_touch_freely() -> None:
    s, me = at_placement((1, 1, 1, 0), tiles={"d": "D4 F4"}, pawns={"D4": OTHER, "F4": OTHER})
    # oasis beside the spring C3 and another's stony domain D4: legal
    assert owner(play(s, me, Tile("o", sq("D3"))), "D3") == me
    # steppe beside the track F6 and another's stony domain F4: legal
    assert owner(play(s, me, Tile("s", sq("F5"))), "F5") == me
    # stony desert diagonal to another's stony domain D4: a new domain
    after = play(s, me, Tile("d", sq("E3")))
    assert owner(after, "E3") == me and domain(after, "E3") == {"E3"}


def test_r17_joins_own_domain() -> None:
    s, me = at_placement((0, 0, 1, 0), tiles={"d": "C13"}, pawns={"C13": ME})
    assert tiles_at(s, me, "D13") == [Tile("d", sq("D13"), AUTO)]
    s = play(s, me, Tile("d", sq("D13")))
    assert domain(s, "D13") == {"C13", "D13"}
    assert s.pawns == ((sq("C13"), me),)  # no second pawn (R21)


def test_r18_joins_unowned_domain_claim_optional() -> None:
    s, me = at_placement((0, 0, 1, 0), tiles={"d": "C13"})
    claimed = play(s, me, Tile("d", sq("D13")))
    assert owner(claimed, "C13") == me
    assert claimed.pawns == ((sq("D13"), me),)  # the pawn goes on the new tile
    declined = play(s, me, Tile("d", sq("D13"), NOCLAIM))
    assert owner(declined, "C13") is None and declined.pawns == ()
    assert domain(declined, "C13") == {"C13", "D13"}


@pytest.mark.parametrize("word", ["D3", "B3", "C4", "F2", "G3", "H10", "I9", "J4"])
def test_r19_oasis_starts_beside_spring_or_oasis_bonus(word: str) -> None:
    s, me = at_placement((1, 0, 0, 0))
    s = play(s, me, Tile("o", sq(word)))
    assert owner(s, word) == me


@pytest.mark.parametrize("word", ["E2", "I1", "K1", "B5", "A5", "E12", "F7"])
def test_r19_oasis_cannot_start_elsewhere(word: str) -> None:
    s, me = at_placement((1, 0, 0, 0))
    error = refused(s, me, Tile("o", sq(word)), "oasis.err.r19_o")
    assert "R19" in str(error)


@pytest.mark.parametrize("word", ["F5", "B4", "A5", "H5", "C12", "E12", "M6", "L1"])
def test_r19_steppe_starts_beside_track_or_steppe_bonus(word: str) -> None:
    s, me = at_placement((0, 1, 0, 0))
    s = play(s, me, Tile("s", sq(word)))
    assert owner(s, word) == me


@pytest.mark.parametrize("word", ["E2", "D3", "B2", "I1", "H13", "G9"])
def test_r19_steppe_cannot_start_elsewhere(word: str) -> None:
    s, me = at_placement((0, 1, 0, 0))
    refused(s, me, Tile("s", sq(word)), "oasis.err.r19_s")


def test_r19_stony_desert_starts_anywhere_free() -> None:
    s, me = at_placement((0, 0, 1, 0))
    legal = {m.square for m in GAME.legal_moves(s, me) if isinstance(m, Tile)}
    assert legal == set(BOARD.free)


def test_r19_start_condition_only_for_a_new_domain() -> None:
    s, me = at_placement((0, 1, 0, 0), tiles={"s": "E2"}, pawns={"E2": ME})
    s = play(s, me, Tile("s", sq("E3")))  # E3 touches no track: it joins E2
    assert domain(s, "E3") == {"E2", "E3"}


def test_r20_bonus_square_joins_of_its_type_only() -> None:
    s, me = at_placement((0, 1, 1, 0))
    steppe = play(s, me, Tile("s", sq("B4")))
    assert domain(steppe, "B4") == {"A4", "B4"}
    stony = play(s, me, Tile("d", sq("B4")))
    assert domain(stony, "B4") == {"B4"}


def test_r20_s10_6_domain_grows_onto_free_bonus_square() -> None:
    s, me = at_placement((1, 0, 0, 0), tiles={"o": "G10"}, pawns={"G10": ME})
    assert domain(s, "G10") == {"G10"}
    s = play(s, me, Tile("o", sq("H10")))  # touches G10 and the free bonus H9
    assert domain(s, "H9") == {"G10", "H10", "H9"}


def test_r20_s10_6_bonus_square_never_in_two_domains() -> None:
    # H9 belongs to the domain of G9; I10 is another domain.
    s, me = at_placement((1, 0, 0, 0), tiles={"o": "G9 I10"}, pawns={"G9": OTHER, "I10": ME})
    assert domain(s, "H9") == {"G9", "H9"}
    refused(s, me, Tile("o", sq("I9")), "oasis.err.r15")  # H9 (G9's) and I10
    refused(s, me, Tile("o", sq("H10")), "oasis.err.r15")
    refused(s, me, Tile("o", sq("H8")), "oasis.err.r16")  # H8 touches H9 only: G9's


def test_r20_lone_bonus_group_is_no_domain() -> None:
    s, me = at_placement((1, 0, 0, 0))
    assert domain(s, "H9") == set()
    s = play(s, me, Tile("o", sq("H8")))
    assert domain(s, "H8") == {"H8", "H9"} and owner(s, "H9") == me


# ----------------------------------------------------------------------------- pawns R21-R23


def test_r21_r22_founding_with_supply_must_claim() -> None:
    s, me = at_placement((0, 0, 1, 0), tiles={"d": "C13"}, pawns={"C13": ME})
    assert tiles_at(s, me, "E2") == [Tile("d", sq("E2"), AUTO)]
    error = refused(s, me, Tile("d", sq("E2"), NOCLAIM), "oasis.err.r22_must")
    assert "R22" in str(error)
    refused(s, me, Tile("d", sq("E2"), sq("C13")), "oasis.err.r22_supply")
    s = play(s, me, Tile("d", sq("E2")))
    assert (sq("E2"), me) in s.pawns and owner(s, "E2") == me


FOUR = {"C13": ME, "E13": ME, "G13": ME, "I13": ME}


def test_r22_fifth_domain_move_a_pawn_or_leave_unowned() -> None:
    s, me = at_placement((0, 0, 1, 0), tiles={"d": "C13 E13 G13 I13"}, pawns=FOUR)
    choices = {m.pawn for m in tiles_at(s, me, "L13")}
    assert choices == {AUTO, sq("C13"), sq("E13"), sq("G13"), sq("I13")}
    unowned = play(s, me, Tile("d", sq("L13")))
    assert owner(unowned, "L13") is None and unowned.pawns == s.pawns
    moved = play(s, me, Tile("d", sq("L13"), sq("C13")))
    assert owner(moved, "L13") == me
    assert owner(moved, "C13") is None  # the old domain is abandoned
    assert (sq("C13"), me) not in moved.pawns and (sq("L13"), me) in moved.pawns
    assert len(moved.pawns) == 4


def test_r22_no_supply_explicit_claim_refused() -> None:
    s, me = at_placement((0, 0, 1, 0), tiles={"d": "C13 E13 G13 I13"}, pawns=FOUR)
    with pytest.raises(IllegalMove) as error:
        GAME.parse(s, me, "d L13 claim")
    assert error.value.key == "oasis.err.r22_no_supply"


def test_r22_extend_unowned_with_a_moved_pawn() -> None:
    s, me = at_placement((0, 0, 1, 0), tiles={"d": "C13 E13 G13 I13 K13"}, pawns=FOUR)
    assert owner(s, "K13") is None
    choices = {m.pawn for m in tiles_at(s, me, "L13")}
    assert choices == {AUTO, sq("C13"), sq("E13"), sq("G13"), sq("I13")}
    s = play(s, me, Tile("d", sq("L13"), sq("G13")))
    assert owner(s, "K13") == me and owner(s, "G13") is None
    assert (sq("L13"), me) in s.pawns


def test_r22_extend_unowned_with_supply_choices() -> None:
    s, me = at_placement((0, 0, 1, 0), tiles={"d": "C13 K13"}, pawns={"C13": ME})
    choices = {m.pawn for m in tiles_at(s, me, "L13")}
    assert choices == {AUTO, NOCLAIM, sq("C13")}


def test_r22_own_domain_nothing_to_claim() -> None:
    s, me = at_placement((0, 0, 1, 0), tiles={"d": "C13 G13"}, pawns={"C13": ME, "G13": ME})
    refused(s, me, Tile("d", sq("D13"), sq("G13")), "oasis.err.r22_own")


def test_r23_pawn_only_from_ones_own_domains() -> None:
    s, me = at_placement(
        (0, 0, 1, 0), tiles={"d": "C13 E13 G13 I13 M13"}, pawns={**FOUR, "M13": OTHER}
    )
    refused(s, me, Tile("d", sq("A13"), sq("M13")), "oasis.err.r22_no_pawn")


def test_r23_abandoned_domain_taken_over_only_by_placing_a_tile() -> None:
    # Another player's former domain C12-C13 (abandoned, no pawn).
    s, me = at_placement((0, 0, 1, 0), tiles={"d": "C12 C13"})
    # No move puts a pawn without a tile: every legal move is a new tile.
    for move in GAME.legal_moves(s, me):
        assert isinstance(move, Tile) and s.ground[move.square] == "."
    s = play(s, me, Tile("d", sq("D13")))
    assert owner(s, "C12") == me
    assert s.pawns == ((sq("D13"), me),)


def test_r21_domain_has_one_pawn() -> None:
    s, me = at_placement((0, 0, 2, 0), tiles={"d": "C13"}, pawns={"C13": ME})
    s = play(s, me, Tile("d", sq("D13")), Tile("d", sq("E13")))
    assert s.pawns == ((sq("C13"), me),)


# ----------------------------------------------------------------------------- camels R24-R25


def test_r24_camels_on_empty_track_squares_only() -> None:
    s, me = at_placement((0, 0, 0, 2), herd={"K9": OTHER})
    refused(s, me, Camel(sq("C4")), "oasis.err.r24_track")
    refused(s, me, Camel(sq("K9")), "oasis.err.r24_taken")
    legal = {m.square for m in GAME.legal_moves(s, me)}  # type: ignore[union-attr]
    assert legal == set(BOARD.track) - {sq("K9")}
    s = play(s, me, Camel(sq("K10")), Camel(sq("K8")))  # beside another's camel
    assert s.herd[sq("K10")] == s.herd[sq("K8")] == str(me)


def test_r25_only_the_largest_herd_scores() -> None:
    s, me = at_placement(
        herd={
            **dict.fromkeys(["G5", "G4", "H4"], ME),
            "I4": OTHER,
            **dict.fromkeys(["I3", "J3"], ME),
            **dict.fromkeys(["C9", "C10"], ME),
        }
    )
    mults = list(s.mults)
    mults[me] = (2, 0, 0, 0)
    assert scores(over(s, mults=tuple(mults)))[me]["camels"] == 6


def test_r25_another_camel_breaks_a_herd() -> None:
    s, me = at_placement(herd={"G5": ME, "G4": ME, "H4": OTHER, "I4": ME, "I3": ME})
    mults = list(s.mults)
    mults[me] = (1, 0, 0, 0)
    assert scores(over(s, mults=tuple(mults)))[me]["camels"] == 2


# ----------------------------------------------------------------------------- Noble bonus R26


def test_r26_bonus_any_landscape_or_camel_or_nothing() -> None:
    s, me = at_bonus()
    assert GAME.to_act(s) == (me,)
    legal = GAME.legal_moves(s, me)
    assert Bonus(None) in legal
    lands = {m.action.land for m in legal if isinstance(m, Bonus) and isinstance(m.action, Tile)}
    assert lands == {"o", "s", "d"}
    assert Bonus(Camel(sq("K9"))) in legal
    for action in (Tile("o", sq("D3")), Tile("s", sq("F5")), Tile("d", sq("E2")), Camel(sq("K9"))):
        after = play(s, me, Bonus(action))
        assert after.phase == "offer" and after.round == 2
    passed = play(s, me, Bonus(None))
    assert passed.ground == s.ground and passed.herd == s.herd and passed.round == 2


def test_r26_only_the_noble() -> None:
    s, me = at_bonus()
    other = (me + 1) % 3
    assert GAME.legal_moves(s, other) == []
    refused(s, other, Bonus(None), "oasis.err.not_your_turn")


def test_r26_bonus_follows_placement_rules() -> None:
    s, me = at_bonus(ground=ground({"d": "C13"}))
    s = replace(s, pawns=((sq("C13"), (me + 1) % 3),))
    refused(s, me, Bonus(Tile("o", sq("E2"))), "oasis.err.r19_o")
    refused(s, me, Bonus(Tile("o", sq("G6"))), "oasis.err.r14")
    refused(s, me, Bonus(Camel(sq("C4"))), "oasis.err.r24_track")
    refused(s, me, Bonus(Tile("d", sq("D13"))), "oasis.err.r16")
    after = play(s, me, Bonus(Tile("d", sq("E2"))))
    assert (sq("E2"), me) in after.pawns  # R22 applies: founding claims


def test_r26_no_tile_from_an_empty_pile() -> None:
    s, me = at_bonus(lands=(0, 34, 20))
    legal = GAME.legal_moves(s, me)
    assert not any(isinstance(m.action, Tile) and m.action.land == "o" for m in legal)  # type: ignore[union-attr]
    refused(s, me, Bonus(Tile("o", sq("D3"))), "oasis.err.pile_empty")


def test_r26_bonus_camel_move_when_supply_empty() -> None:
    s, me = at_bonus()
    track = list(BOARD.track)
    herd = list(EMPTY_BOARD)
    for x in track[:20]:
        herd[x] = str(me)
    s = replace(s, herd="".join(herd))
    legal = GAME.legal_moves(s, me)
    assert not any(isinstance(m, Bonus) and isinstance(m.action, Camel) for m in legal)
    assert Bonus(CamelMove(track[0], track[30])) in legal
    refused(s, me, Bonus(Camel(track[30])), "oasis.err.r11_move")
    after = play(s, me, Bonus(CamelMove(track[0], track[30])))
    assert after.herd[track[30]] == str(me) and after.herd[track[0]] == "."


# ----------------------------------------------------------------------------- scoring SC1-SC4


def test_sc_seed_example_144() -> None:
    """§7 example 1: 9 oasis x 5 wells, 8 stony x 4 ovoos, 7 steppe x 7 horses,
    herds of 6 and 4 with 3 goods."""
    s, me = at_placement(
        tiles={
            "o": "A13 B13 C13 D13 E13 G13 H13 I13 J13",  # two domains: 5 + 4
            "s": "A1 B1 C1 D1 E1 F1 G1",
            "d": "A2 B2 C2 D2 E2 F2 A3 B3",
        },
        pawns={"A13": ME, "G13": ME, "A1": ME, "A2": ME},
        herd={
            **dict.fromkeys(["G5", "G4", "H4", "I4", "I3", "J3"], ME),
            **dict.fromkeys(["F6", "E6", "E7", "D7"], ME),
        },
    )
    mults = list(s.mults)
    mults[me] = (3, 5, 7, 4)
    s = over(s, mults=tuple(mults))
    lines = scores(s)[me]
    assert lines == {"camels": 18, "oasis": 45, "steppe": 49, "stony": 32}
    result = GAME.outcome(s)
    assert result is not None and result.scores[me] == 144


def test_sc2_example_bonus_square_h10_h9_g10() -> None:
    """§7 example 2: oasis on H10 beside the bonus H9, later G10: 3 x 2 wells = 6."""
    s, me = at_placement((2, 0, 0, 0))
    s = play(s, me, Tile("o", sq("H10")))
    assert (sq("H10"), me) in s.pawns
    assert domain(s, "H10") == {"H10", "H9"}
    s = play(s, me, Tile("o", sq("G10")))
    assert domain(s, "H10") == {"G10", "H10", "H9"}
    mults = list(s.mults)
    mults[me] = (0, 2, 0, 0)
    assert scores(over(s, mults=tuple(mults)))[me]["oasis"] == 6


def test_sc_example_3_illegal_placements() -> None:
    """§7 example 3: Ann owns {C4}; Bob founds B3; Bob may not place B4; E2 no start."""
    s, bob = at_placement((2, 0, 0, 0), tiles={"o": "C4"}, pawns={"C4": OTHER})
    s = play(s, bob, Tile("o", sq("B3")))
    assert owner(s, "B3") == bob and owner(s, "C4") != bob
    with pytest.raises(IllegalMove) as error:
        GAME.play(s, bob, Tile("o", sq("B4")))
    assert error.value.key in ("oasis.err.r15", "oasis.err.r16")
    # Each rule on its own:
    alone, bob = at_placement((1, 0, 0, 0), tiles={"o": "C4"}, pawns={"C4": OTHER})
    refused(alone, bob, Tile("o", sq("B4")), "oasis.err.r16")
    own, bob = at_placement((1, 0, 0, 0), tiles={"o": "C4 B3"}, pawns={"C4": ME, "B3": ME})
    refused(own, bob, Tile("o", sq("B4")), "oasis.err.r15")
    empty, bob = at_placement((1, 0, 0, 0))
    refused(empty, bob, Tile("o", sq("E2")), "oasis.err.r19_o")


def test_sc_example_4_steppe_start() -> None:
    s, me = at_placement((0, 2, 0, 0))
    s = play(s, me, Tile("s", sq("F5")))
    assert domain(s, "F5") == {"F5"} and owner(s, "F5") == me
    s = play(s, me, Tile("s", sq("B4")))
    assert domain(s, "B4") == {"B4", "A4"} and owner(s, "A4") == me


def test_sc1_sc4_any_zero_factor_gives_zero() -> None:
    s, me = at_placement(
        tiles={"o": "D3", "s": "F5", "d": "E2"},
        pawns={"D3": ME, "F5": ME, "E2": ME},
        herd={"G5": ME, "G4": ME, "K9": OTHER},
    )
    other = (me + 1) % 3
    mults = [(0, 0, 0, 0)] * 3
    mults[other] = (5, 5, 5, 5)  # multipliers but no domain, one camel
    s = over(s, mults=tuple(mults))
    lines = scores(s)
    assert lines[me] == {"camels": 0, "oasis": 0, "steppe": 0, "stony": 0}
    assert lines[other] == {"camels": 5, "oasis": 0, "steppe": 0, "stony": 0}


def test_r21_sc_unowned_and_others_domains_score_nothing() -> None:
    s, me = at_placement(tiles={"d": "A1 B1 D1 E1 G1"}, pawns={"A1": ME, "D1": OTHER})  # G1 unowned
    mults = [(0, 0, 0, 1)] * 3
    s = over(s, mults=tuple(mults))
    lines = scores(s)
    assert lines[me]["stony"] == 2
    assert lines[(me + 1) % 3]["stony"] == 2
    assert lines[(me + 2) % 3]["stony"] == 0


def test_tie_break_lowest_rank_tile_wins() -> None:
    s, me = at_placement(herd={"K9": THIRD})
    third = (me + 2) % 3
    mults = [(0, 0, 0, 0)] * 3
    mults[third] = (1, 0, 0, 0)
    s = over(s, mults=tuple(mults))
    for ranks in ((1, 2, 3), (3, 1, 2), (2, 3, 1)):
        result = GAME.outcome(replace(s, ranks=ranks))
        assert result is not None
        assert result.winners == (third,)
        tied = [seat for seat in range(3) if seat != third]
        best = min(tied, key=lambda seat: ranks[seat])
        worst = max(tied, key=lambda seat: ranks[seat])
        assert result.ranks[best] == 2 and result.ranks[worst] == 3
    everyone = GAME.outcome(replace(s, ranks=(2, 3, 1), mults=((0, 0, 0, 0),) * 3))
    assert everyone is not None and everyone.winners == (2,)
    assert len(set(everyone.ranks)) == 3  # always a single winner


# ----------------------------------------------------------------------------- end of game EG1


def test_eg1_pile_emptied_mid_round_round_finishes_with_bonus() -> None:
    s = choosing(offers=[("WL1",), ("OA2",), ("HR1",)])
    a, b, c = order(s)
    s = replace(s, lands=(1, 34, 20))
    s = play(s, a, Take(b), Tile("o", sq("D3")))
    assert s.lands[0] == 0
    assert s.phase == "choose" and current(s) == b  # the round goes on
    s = finish_choices(s)
    assert s.phase == "bonus" and s.end == ""  # the bonus before the end check
    assert noble(s) == b
    s = play(s, b, Bonus(Tile("s", sq("F5"))))
    assert s.phase == "over" and s.end == "o"
    assert GAME.outcome(s) is not None
    assert s.ground[sq("F5")] == "s"


def test_eg1_bonus_empties_a_pile() -> None:
    s, me = at_bonus(lands=(34, 34, 1))
    passed = play(s, me, Bonus(None))
    assert passed.phase == "offer"
    s = play(s, me, Bonus(Tile("d", sq("E2"))))
    assert s.phase == "over" and s.end == "d"


def test_eg1_s10_20_unplaced_tile_does_not_end_the_game() -> None:
    s = choosing(offers=[("WL1",), ("OA2",), ("HR1",)])
    a, b, _ = order(s)
    s = replace(s, lands=(1, 34, 20), ground=ground({"d": ALL_FREE}))
    s = play(s, a, Take(b))
    assert s.lands[0] == 1
    s = finish_choices(s)
    if s.phase == "bonus":
        s = play(s, noble(s), Bonus(None))
    assert s.phase == "offer" and s.round == 2


def test_eg1_full_track_ends_after_the_bonus() -> None:
    track = list(BOARD.track)
    s, me = at_bonus()
    herd = list(EMPTY_BOARD)
    for i, x in enumerate(track[:37]):
        herd[x] = str((me + 1 + i % 2) % 3)
    s = replace(s, herd="".join(herd))
    passed = play(s, me, Bonus(None))
    assert passed.phase == "offer" and passed.round == 2
    s = play(s, me, Bonus(Camel(track[37])))
    assert s.phase == "over" and s.end == "track"


def test_eg1_track_filled_during_choices_then_bonus() -> None:
    track = list(BOARD.track)
    s = choosing(offers=[("WL1",), ("CM2",), ("HR1",)])
    a, b, c = order(s)
    herd = list(EMPTY_BOARD)
    for i, x in enumerate(track[:36]):
        herd[x] = str((b, c)[i % 2])
    s = replace(s, herd="".join(herd))
    s = play(s, a, Take(b), Camel(track[36]), Camel(track[37]))
    assert "." not in "".join(s.herd[x] for x in track)
    assert s.phase == "choose"
    s = finish_choices(s)
    assert s.phase == "bonus" and s.end == ""
    s = play(s, noble(s), Bonus(Tile("d", sq("E2"))))
    assert s.phase == "over" and s.end == "track"
    assert s.ground[sq("E2")] == "d"


# ----------------------------------------------------------------------------- notation §11


def test_notation_multi_placement_is_atomic() -> None:
    s, me = at_placement((2, 0, 0, 1))
    before = GAME.dump(s)
    with pytest.raises(IllegalMove) as error:
        GAME.parse(s, me, "o D3; camel K9; o E2")
    assert error.value.key == "oasis.err.r19_o"
    assert str(error.value).startswith("R19")
    assert GAME.dump(s) == before
    moves = GAME.parse(s, me, "o D3; o D4; camel K9")
    assert moves == (Tile("o", sq("D3")), Tile("o", sq("D4")), Camel(sq("K9")))


def test_notation_error_names_the_rule() -> None:
    s, me = at_placement((1, 0, 0, 0), tiles={"o": "C4"}, pawns={"C4": OTHER})
    with pytest.raises(IllegalMove) as error:
        GAME.parse(s, me, "o B4")
    assert error.value.key == "oasis.err.r16"
    assert "R16" in str(error.value) and "C4" in str(error.value)
    with pytest.raises(InvalidMove):
        GAME.parse(s, me, "o Z4")
    with pytest.raises(InvalidMove):
        GAME.parse(s, me, "dance")


def test_notation_claim_noclaim() -> None:
    s, me = at_placement((0, 0, 2, 0), tiles={"d": "K13"})
    assert GAME.parse(s, me, "d L13 claim") == (Tile("d", sq("L13"), AUTO),)
    assert GAME.parse(s, me, "d L13 noclaim") == (Tile("d", sq("L13"), NOCLAIM),)
    assert GAME.parse(s, me, "D l13") == (Tile("d", sq("L13"), AUTO),)
    with pytest.raises(IllegalMove) as own:
        GAME.parse(s, me, "d L13; d M13 claim")  # M13 joins one's own domain
    assert own.value.key == "oasis.err.r22_own"
    with pytest.raises(IllegalMove) as error:
        GAME.parse(s, me, "d E2 noclaim")  # founding with a pawn in supply
    assert error.value.key == "oasis.err.r22_must"


def test_notation_claim_from_any_square_of_the_domain() -> None:
    s, me = at_placement(
        (0, 0, 1, 0),
        tiles={"d": "C13 D13 C12 G13 I13 E1"},
        pawns={"C13": ME, "G13": ME, "I13": ME, "E1": ME},
    )
    for word in ("C13", "D13", "C12"):
        assert GAME.parse(s, me, f"d L13 claim from {word}") == (Tile("d", sq("L13"), sq("C13")),)
    s = play(s, me, *GAME.parse(s, me, "stony L13 claim from D13"))
    assert owner(s, "L13") == me and owner(s, "C12") is None


def test_notation_bonus() -> None:
    s, me = at_bonus()
    assert GAME.parse(s, me, "bonus pass") == (Bonus(None),)
    assert GAME.parse(s, me, "bonus s F5") == (Bonus(Tile("s", sq("F5"))),)
    assert GAME.parse(s, me, "bonus camel K9") == (Bonus(Camel(sq("K9"))),)
    assert GAME.parse(s, me, "BONUS PASSER") == (Bonus(None),)


def test_notation_offers_and_takes() -> None:
    s = GAME.new(3, SEED)
    first = current(s)
    assert first is not None
    assert GAME.parse(s, first, "reveal") == (Reveal(),)
    assert GAME.parse(s, first, "Révéler") == (Reveal(),)
    assert GAME.parse(s, first, "stop") == (Stop(),)
    c = choosing(offers=[("WL1",), ("HR1",), ("OV2",)])
    a, b, _ = order(c)
    assert GAME.parse(c, a, f"take {b + 1}") == (Take(b),)
    assert GAME.parse(c, a, f"prendre {b + 1}") == (Take(b),)
    with pytest.raises(IllegalMove) as error:
        GAME.parse(c, a, f"take {a + 1}")
    assert error.value.key == "oasis.err.r7"


def test_notation_french_words() -> None:
    s, me = at_placement(
        (2, 0, 1, 1),
        tiles={"d": "C13 E13 G13 I13 K13"},
        pawns={"C13": ME, "E13": ME, "G13": ME, "I13": ME},
    )
    assert GAME.parse(s, me, "chameau K9") == (Camel(sq("K9")),)
    assert GAME.parse(s, me, "d L13 sans pion") == (Tile("d", sq("L13"), AUTO),)
    assert GAME.parse(s, me, "d A1 pion de C13") == (Tile("d", sq("A1"), sq("C13")),)
    assert GAME.parse(s, me, "o C4; o D4; chameau K9") == (
        Tile("o", sq("C4")),
        Tile("o", sq("D4")),
        Camel(sq("K9")),
    )
    s2, me2 = at_placement((0, 0, 1, 0), tiles={"d": "K13"})
    assert GAME.parse(s2, me2, "d L13 sans pion") == (Tile("d", sq("L13"), NOCLAIM),)


def test_notation_o_c4_sans_pion() -> None:
    # "o C4 sans pion": declining when extending an unowned oasis domain at C5.
    s, me = at_placement((1, 0, 0, 0), tiles={"o": "C5"})
    assert GAME.parse(s, me, "o C4 sans pion") == (Tile("o", sq("C4"), NOCLAIM),)
    with pytest.raises(IllegalMove) as error:
        GAME.parse(s, me, "o D3 sans pion")  # founding with supply: compulsory
    assert error.value.key == "oasis.err.r22_must"


def test_notation_d_j7_pion_de_c4() -> None:
    s, me = at_placement(
        (1, 0, 1, 0),
        tiles={"o": "C4", "d": "C13 E13 G13"},
        pawns={"C4": ME, "C13": ME, "E13": ME, "G13": ME},
    )
    assert GAME.parse(s, me, "d J7 pion de C4") == (Tile("d", sq("J7"), sq("C4")),)


def sampled_states() -> list[tuple[OasisState, int]]:
    out = []
    for players, seed in ((3, 11), (4, 12), (5, 13)):
        rng = random.Random(seed)
        s = GAME.new(players, seed)
        n = 0
        while s.phase != "over":
            seat = GAME.to_act(s)[0]
            if n % 9 == 0:
                out.append((s, seat))
            legal = GAME.legal_moves(s, seat)
            s = GAME.play(s, seat, rng.choice(legal)).state
            n += 1
    return out


SAMPLED = sampled_states()


def test_notation_format_move_round_trips() -> None:
    phases = set()
    for s, seat in SAMPLED:
        phases.add(s.phase if s.phase != "choose" or not any(s.pending) else "place")
        for move in GAME.legal_moves(s, seat):
            text = GAME.format_move(move)
            assert GAME.parse(s, seat, text) == (move,), text
            words = GAME.move_words(move)
            if words is not None:
                french = catalogue.term("fr", words)
                assert GAME.parse(s, seat, french) == (move,), french
    assert phases >= {"offer", "choose", "place", "bonus"}


def test_bot_plays_legal_moves() -> None:
    s = GAME.new(4, 5)
    for i in range(400):
        if s.phase == "over":
            break
        seat = GAME.to_act(s)[0]
        move = bot_move(GAME, SPEC.bot, s, seat, i)
        assert move in GAME.legal_moves(s, seat)
        s = GAME.play(s, seat, move).state
    assert s.phase == "over"
