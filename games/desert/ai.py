"""A greedy baseline player: scores every legal atomic move, plays the best.

It decides from its seat's :class:`DesertView` and legal moves only (the
:data:`games.contract.Bot` contract), so it cannot use what its seat may not see:
the values of water holes other players took. Everything it weighs is public:
the water holes still face up on the board, oases, pieces, areas and caravan
lengths.

It values what a move scores now (water, oases, enclosed areas) and what it
prepares (water and oases within reach, leading a colour's caravan race,
room to grow). Deterministic given (view, legal, rng): ``rng`` only draws a
tiny noise that breaks ties between equally good moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from games.contract import Seat
from games.desert import scoring
from games.desert.board import SIZE, Layout, hex_distance, index, layout
from games.desert.engine import GAME
from games.desert.model import COLOURS, DesertView, Discard, Move, PlaceCamel, PlaceLeader
from games.desert.state import EMPTY, NCOLOURS, DesertState, caravan_id
from games.rng import Rng
from games.search import win_shares

OASIS = float(scoring.OASIS_POINTS)
REACH_DECAY = 0.55  # how much a target one step further away is still worth
NOISE = 1e-3
RIVAL_RADIUS = 3  # riders avoid this neighbourhood of a rival leader of their colour (R10)


def choose_move(view: DesertView, legal: Sequence[Move], rng: Rng) -> Move:
    """The move the viewing seat makes now; raises ValueError if ``legal`` is empty."""
    if not legal:
        raise ValueError("no legal move to choose from")
    if len(legal) == 1:
        return legal[0]
    first = legal[0]
    if isinstance(first, Discard):
        scores = [0.0] * len(legal)  # nothing is known yet; any colour will do
    else:
        board = public_board(view)
        if isinstance(first, PlaceLeader):
            scores = _leader_scores(board, legal)
        else:
            scores = _camel_scores(board, legal)
    for i in range(len(scores)):
        draw, rng = rng.randbelow(1000)
        scores[i] += draw * NOISE / 1000
    best = max(range(len(legal)), key=lambda i: scores[i])
    return legal[best]


# --------------------------------------------------------------------------- the public board


@dataclass(frozen=True)
class PublicBoard:
    """Per-square arrays rebuilt from one seat's view (public facts only).

    Squares are board indices, pieces caravan ids ``seat * 5 + colour``, as
    in the engine's state, so :func:`scoring.new_areas` runs on them.
    """

    seat: Seat
    players: int
    lay: Layout
    cells: tuple[int, ...]  # caravan id per square, or EMPTY
    areas: tuple[int, ...]  # owning seat per square, or EMPTY
    water: tuple[int, ...]  # value of the face-up water hole per square, 0 if none
    oases: frozenset[int]
    leaders: dict[int, int]  # caravan id -> square of its leader
    scored: frozenset[tuple[int, int]]  # (caravan id, oasis square) already scored
    lengths: dict[int, int]  # caravan id -> pieces on the board


def public_board(view: DesertView) -> PublicBoard:
    """The board as the viewing seat sees it, in the engine's per-square form."""
    if view.viewer is None:
        raise ValueError("a bot plays for a seat, not as a spectator")
    cells = [EMPTY] * SIZE
    leaders: dict[int, int] = {}
    for at, piece in view.pieces.items():
        sq, cid = index(at), caravan_id(piece.seat, COLOURS.index(piece.colour))
        cells[sq] = cid
        if piece.leader:
            leaders[cid] = sq
    areas = [EMPTY] * SIZE
    for at, owner in view.areas.items():
        areas[index(at)] = owner
    water = [0] * SIZE
    for at, value in view.water.items():
        water[index(at)] = value
    scored: set[tuple[int, int]] = set()
    lengths: dict[int, int] = {}
    for info in view.info:
        for colour, length in info.caravan_lengths.items():
            lengths[caravan_id(info.seat, COLOURS.index(colour))] = length
        for colour, oases in info.scored_oases.items():
            cid = caravan_id(info.seat, COLOURS.index(colour))
            scored.update((cid, index(o)) for o in oases)
    return PublicBoard(
        seat=view.viewer,
        players=view.players,
        lay=layout(view.players),
        cells=tuple(cells),
        areas=tuple(areas),
        water=tuple(water),
        oases=frozenset(index(o) for o in view.oases),
        leaders=leaders,
        scored=frozenset(scored),
        lengths=lengths,
    )


@cache
def _within(whole_board: bool, sq: int, radius: int) -> dict[int, int]:
    """Active squares within ``radius`` steps of ``sq`` (walking the board), with distance."""
    lay = layout(5 if whole_board else 2)
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


def _leader_scores(b: PublicBoard, legal: Sequence[Move]) -> list[float]:
    whole = b.players >= 4
    rivals: dict[int, set[int]] = {c: set() for c in range(NCOLOURS)}
    for cid, at in b.leaders.items():  # per colour: squares near another player's leader
        if cid // NCOLOURS != b.seat:
            rivals[cid % NCOLOURS].update(_within(whole, at, RIVAL_RADIUS))
    square_value: dict[int, float] = {}
    out = []
    for move in legal:
        assert isinstance(move, PlaceLeader)
        sq = index(move.at)
        if sq not in square_value:
            value = 0.0
            for n, d in _within(whole, sq, 3).items():
                if n in b.oases:
                    value += OASIS * REACH_DECAY ** (d - 1)
                elif b.water[n]:
                    value += b.water[n] * REACH_DECAY ** (d - 1)
                elif d == 1 and b.cells[n] == EMPTY:
                    value += 0.3  # room to grow
            square_value[sq] = value
        penalty = 4.0 if sq in rivals[COLOURS.index(move.colour)] else 0.0
        out.append(square_value[sq] - penalty)
    return out


# --------------------------------------------------------------------------- camels


def _race(b: PublicBoard, colour: int) -> float:
    """SC4: pay for moves that win or tie the colour, less for hopeless races."""
    mine = b.lengths.get(caravan_id(b.seat, colour), 0)
    best_rival = max(
        (b.lengths.get(caravan_id(p, colour), 0) for p in range(b.players) if p != b.seat),
        default=0,
    )
    if mine + 1 > best_rival >= mine:
        return 3.0
    if mine + 1 == best_rival:
        return 2.0
    if best_rival - mine > 4:
        return -0.5
    return 0.8


def _camel_scores(b: PublicBoard, legal: Sequence[Move]) -> list[float]:
    lay = b.lay
    cells = list(b.cells)
    # Per caravan moved: how close it already is to each oasis it has not scored.
    reach: dict[int, dict[int, int]] = {}
    race: dict[int, float] = {}
    for move in legal:
        assert isinstance(move, PlaceCamel)
        c = COLOURS.index(move.colour)
        if c in reach:
            continue
        cid = caravan_id(b.seat, c)
        squares = [i for i, v in enumerate(cells) if v == cid]
        reach[c] = {
            o: min(hex_distance(sq, o) for sq in squares)
            for o in b.oases
            if (cid, o) not in b.scored
        }
        race[c] = _race(b, c)
    out = []
    for move in legal:
        assert isinstance(move, PlaceCamel)
        c, sq = COLOURS.index(move.colour), index(move.at)
        cid = caravan_id(b.seat, c)
        value = float(b.water[sq]) + race[c]
        if b.areas[sq] == b.seat:
            value -= 1.0  # a camel in its own area costs the SC5 point
        for o, now in reach[c].items():
            d = hex_distance(sq, o)
            if d == 1:
                value += OASIS
            elif d < now:
                value += OASIS * REACH_DECAY ** (d - 1) - OASIS * REACH_DECAY ** (now - 1)
        for n in lay.neighbours[sq]:
            if cells[n] == EMPTY and n not in b.oases:
                value += 0.4 * b.water[n] + 0.25  # next turn's water, room to grow
        cells[sq] = cid
        for group in scoring.new_areas(cells, b.areas, lay, cid, sq):
            for g in group:
                value += b.water[g] + 1.0  # taken now, plus the space at the end
                if g in b.oases and (cid, g) not in b.scored:
                    value += OASIS - 1.0
        cells[sq] = EMPTY
        out.append(value)
    return out


# --------------------------------------------------------------------------- for the search


POTENTIAL_DECAY = 0.5  # an oasis one step further from a caravan is worth this much less
REACH = 4  # oases further than this from a caravan count for nothing


def evaluate(state: DesertState) -> tuple[float, ...]:
    """Each seat's expected share of the result, for the search (games/search.py,
    on sampled worlds, whose water values it reads as they are there): the
    scores as they stand (SC1-SC5, as :func:`scoring.breakdown` counts them, in
    one pass), plus the oases each caravan may still reach (fading with the
    distance and the game left), softened by what is left to play."""
    values = [float(sum(taken)) for taken in state.water_taken]  # SC1
    for cid, _ in state.scored:  # SC2
        values[cid // NCOLOURS] += OASIS
    cells, oases = state.cells, state.oases
    for sq, owner in enumerate(state.areas):  # SC5
        if owner != EMPTY and cells[sq] == EMPTY and sq not in oases:
            values[owner] += 1
    squares: dict[int, list[int]] = {}
    for sq, cid in enumerate(cells):
        if cid != EMPTY:
            squares.setdefault(cid, []).append(sq)
    leaders = state.leaders
    for colour in range(NCOLOURS):  # SC4
        lengths = {
            seat: len(squares.get(cid, ()))
            for seat in range(state.players)
            if leaders[cid := caravan_id(seat, colour)] != EMPTY
        }
        if lengths:
            best = max(lengths.values())
            first = [seat for seat, n in lengths.items() if n == best]
            for seat in first:
                values[seat] += (
                    scoring.LONGEST_POINTS if len(first) == 1 else scoring.LONGEST_TIED_POINTS
                )
    left = 1.0 - GAME.progress(state)
    for cid, placed in squares.items():
        for oasis in oases:
            if (cid, oasis) not in state.scored:
                d = min(hex_distance(sq, oasis) for sq in placed)
                if d <= REACH:
                    values[cid // NCOLOURS] += OASIS * POTENTIAL_DECAY ** (d - 1) * left
    return win_shares(values, 4 + 6 * left)
