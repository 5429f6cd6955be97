"""Oasis invariants over whole random games (spec R14-R25, §2 component counts)."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.oasis import rules
from games.oasis.engine import GAME
from games.oasis.model import BOARD, CONTENT, LANDS, MULTIPLIERS, adjacent
from games.oasis.state import OasisState

TILES = {"o": 34, "s": 34, "d": 20}
MULTIPLIER_TOTALS = {"goods": 24, "wells": 12, "horses": 16, "ovoos": 10}
DECK = Counter(CONTENT.deck)
MAX_MOVES = 3000


def domain_sets(s: OasisState) -> dict[str, list[frozenset[int]]]:
    found = rules.domains(s.ground)
    out: dict[str, list[frozenset[int]]] = {land: [] for land in LANDS}
    for land, squares in zip(found.land, found.squares, strict=True):
        out[land].append(squares)
    return out


def check(
    s: OasisState, before: dict[str, list[frozenset[int]]]
) -> dict[str, list[frozenset[int]]]:
    """Every invariant of one position; returns its domains for the next check."""
    n = s.players
    found = rules.domains(s.ground)
    now = domain_sets(s)

    # Tiles only on free landscape squares (R14); camels only on the track (R24).
    for x, tile in enumerate(s.ground):
        if tile != ".":
            assert BOARD.cells[x] == ".", f"tile on a printed or track square {x}"
            assert tile in LANDS
    for x, camel in enumerate(s.herd):
        if camel != ".":
            assert BOARD.cells[x] == "=", f"camel off the track {x}"
            assert int(camel) < n

    # No two domains of one type touch (R15): adjacent squares of one landscape
    # that are in domains are in the same one.
    for x in range(len(s.ground)):
        if found.of[x] < 0:
            continue
        for y in adjacent(x):
            if found.of[y] >= 0 and found.land[found.of[y]] == found.land[found.of[x]]:
                assert found.of[x] == found.of[y]

    # Domains only grow; no domain ever merges with another (R15, R20).
    for land in LANDS:
        for old in before[land]:
            holders = [d for d in now[land] if old <= d]
            assert len(holders) == 1, f"a {land} domain shrank or vanished"
        for d in now[land]:
            assert sum(1 for old in before[land] if old <= d) <= 1, f"two {land} domains merged"

    # Pawns: on tiles, at most one per domain (R21), at most 4 each (R22).
    per_domain = Counter(found.of[x] for x, _ in s.pawns)
    for x, owner in s.pawns:
        assert s.ground[x] != ".", "a pawn off a tile"
        assert 0 <= owner < n
    assert all(count == 1 for count in per_domain.values())
    pawns = Counter(owner for _, owner in s.pawns)
    assert all(pawns[seat] <= CONTENT.pawns for seat in range(n))

    # Camels: at most 20 each on the track (one per square by construction of herd).
    assert all(s.herd.count(str(seat)) <= CONTENT.camels for seat in range(n))

    # Components are conserved (§2).
    for i, land in enumerate(LANDS):
        assert s.lands[i] >= 0
        assert s.lands[i] + s.ground.count(land) == TILES[land]
    for i, kind in enumerate(MULTIPLIERS):
        assert s.piles[i] >= 0
        assert s.piles[i] + sum(m[i] for m in s.mults) == MULTIPLIER_TOTALS[kind]
    on_table = [c for seat, offer in enumerate(s.offers) if s.taken[seat] < 0 for c in offer]
    cards = Counter(
        [c for st_ in s.stacks for c in st_] + list(s.draw) + list(s.discard) + on_table
    )
    assert cards == DECK, "cards lost or duplicated"

    # Every player holds exactly one rank tile (R8).
    assert sorted(s.ranks) == list(range(1, n + 1))
    assert all(p >= 0 for p in s.pending)
    return now


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32), data=st.data())
def test_invariants_over_random_games(players: int, seed: int, data: st.DataObject) -> None:
    s = GAME.new(players, seed)
    seen = check(s, {land: [] for land in LANDS})
    for _ in range(MAX_MOVES):
        if s.phase == "over":
            break
        (seat,) = GAME.to_act(s)
        legal = GAME.legal_moves(s, seat)
        assert legal
        move = legal[data.draw(st.integers(0, len(legal) - 1))]
        s = GAME.play(s, seat, move).state
        seen = check(s, seen)
    assert s.phase == "over"
    assert GAME.load(GAME.dump(s)) == s
    outcome = GAME.outcome(s)
    assert outcome is not None and len(outcome.winners) == 1
