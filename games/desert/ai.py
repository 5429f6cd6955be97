"""A greedy baseline player: scores every legal atomic move, plays the best.

It values what a move scores now (water, oases, enclosed areas) and what it
prepares (water and oases within reach, leading a colour's caravan race,
room to grow). Deterministic: ties go to the first move in ``legal_moves``
order, or are broken by a tiny noise drawn from ``rng_seed`` when one is given.
"""

from __future__ import annotations

from games.core import Rng, Seat
from games.desert import rules, scoring
from games.desert.board import Layout, hex_distance, index, layout
from games.desert.engine import GAME
from games.desert.model import COLOURS, Discard, Move, PlaceCamel, PlaceLeader
from games.desert.state import EMPTY, NCOLOURS, DesertState, caravan_id

OASIS = float(scoring.OASIS_POINTS)
REACH_DECAY = 0.55  # how much a target one step further away is still worth
NOISE = 1e-3


def choose_move(state: DesertState, seat: Seat, rng_seed: int | None = None) -> Move:
    """The move this player makes now; raises ValueError if it has none."""
    legal = GAME.legal_moves(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no move to make")
    if len(legal) == 1:
        return legal[0]
    first = legal[0]
    if isinstance(first, Discard):
        scores = [0.0] * len(legal)  # nothing is known yet; any colour will do
    elif isinstance(first, PlaceLeader):
        scores = _leader_scores(state, seat, legal)
    else:
        scores = _camel_scores(state, seat, legal)
    if rng_seed is not None:
        rng = Rng.from_seed(rng_seed)
        for i in range(len(scores)):
            draw, rng = rng.randbelow(1000)
            scores[i] += draw * NOISE / 1000
    best = max(range(len(legal)), key=lambda i: scores[i])
    return legal[best]


def _within(lay: Layout, sq: int, radius: int) -> dict[int, int]:
    """Active squares within ``radius`` steps of ``sq`` (walking the board), with distance."""
    dist = {sq: 0}
    frontier = [sq]
    for d in range(1, radius + 1):
        nxt = []
        for a in frontier:
            for n in lay.neighbours[a]:
                if n not in dist:
                    dist[n] = d
                    nxt.append(n)
        frontier = nxt
    return dist


# --------------------------------------------------------------------------- riders


def _leader_scores(s: DesertState, seat: Seat, legal: list[Move]) -> list[float]:
    lay = layout(s.players)
    rivals = {  # per colour: squares near another player's leader of that colour (R10)
        c: {
            n
            for p in range(s.players)
            if p != seat and s.leaders[caravan_id(p, c)] != EMPTY
            for n in _within(lay, s.leaders[caravan_id(p, c)], 3)
        }
        for c in range(NCOLOURS)
    }
    square_value: dict[int, float] = {}
    out = []
    for move in legal:
        assert isinstance(move, PlaceLeader)
        sq = index(move.at)
        if sq not in square_value:
            value = 0.0
            for n, d in _within(lay, sq, 3).items():
                if n in s.oases:
                    value += OASIS * REACH_DECAY ** (d - 1)
                elif s.water[n]:
                    value += s.water[n] * REACH_DECAY ** (d - 1)
                elif d == 1 and s.cells[n] == EMPTY:
                    value += 0.3  # room to grow
            square_value[sq] = value
        penalty = 4.0 if sq in rivals[COLOURS.index(move.colour)] else 0.0
        out.append(square_value[sq] - penalty)
    return out


# --------------------------------------------------------------------------- camels


def _camel_scores(s: DesertState, seat: Seat, legal: list[Move]) -> list[float]:
    lay = layout(s.players)
    cells = list(s.cells)
    # Per caravan: how close it already is to each oasis it has not scored.
    reach: dict[int, dict[int, int]] = {}
    race: dict[int, float] = {}
    for c in rules.camel_colours(s, seat):
        cid = caravan_id(seat, c)
        squares = rules.caravan_squares(s, cid)
        reach[c] = {
            o: min(hex_distance(sq, o) for sq in squares)
            for o in s.oases
            if (cid, o) not in s.scored
        }
        mine = len(squares)
        best_rival = max(
            (scoring.caravan_length(s, p, c) for p in range(s.players) if p != seat), default=0
        )
        # SC4: pay for moves that win or tie the colour, less for hopeless races.
        if mine + 1 > best_rival >= mine:
            race[c] = 3.0
        elif mine + 1 == best_rival:
            race[c] = 2.0
        elif best_rival - mine > 4:
            race[c] = -0.5
        else:
            race[c] = 0.8
    out = []
    for move in legal:
        assert isinstance(move, PlaceCamel)
        c, sq = COLOURS.index(move.colour), index(move.at)
        cid = caravan_id(seat, c)
        value = float(s.water[sq]) + race[c]
        if s.areas[sq] == seat:
            value -= 1.0  # a camel in its own area costs the SC5 point
        for o, now in reach[c].items():
            d = hex_distance(sq, o)
            if d == 1:
                value += OASIS
            elif d < now:
                value += OASIS * REACH_DECAY ** (d - 1) - OASIS * REACH_DECAY ** (now - 1)
        for n in lay.neighbours[sq]:
            if cells[n] == EMPTY and n not in s.oases:
                value += 0.4 * s.water[n] + 0.25  # next turn's water, room to grow
        cells[sq] = cid
        for group in scoring.new_areas(cells, s.areas, lay, cid, sq):
            for g in group:
                value += s.water[g] + 1.0  # taken now, plus the space at the end
                if g in s.oases and (cid, g) not in s.scored:
                    value += OASIS - 1.0
        cells[sq] = EMPTY
        out.append(value)
    return out
