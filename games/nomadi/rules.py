"""Where a pawn may go with a die (R3-R10), and why not."""

from __future__ import annotations

from games.nomadi.model import (
    BOARD,
    HEIGHT,
    WIDTH,
    DieMove,
    at,
    col_row,
    connected,
    groups,
    name,
    orthogonal,
    surrounding,
)
from games.nomadi.state import NomadiState
from games.text import Param

DIRECTIONS = ((0, -1), (1, 0), (0, 1), (-1, 0))


def occupancy(s: NomadiState) -> dict[int, int]:
    """Square -> pawn index, for pawns on the board."""
    return {p.square: i for i, p in enumerate(s.pawns) if p.square >= 0}


def landings(frm: int, die: int, occupied: set[int] | dict[int, int]) -> set[int]:
    """R5/R6: squares the die's step or jump can reach, ignoring R7-R10.

    The landings of :func:`jump_paths` without listing the paths (move
    generation asks for them thousands of times a turn): along each direction,
    while the squares passed are occupied, land straight on or turn once."""
    if die == 1:
        return {n for n in surrounding(frm) if n not in occupied}
    out = set()
    for d in range(len(DIRECTIONS)):
        ray = _RAYS[frm][d]
        for step, sq in enumerate(ray[:die], start=1):
            if step == die:
                if sq not in occupied:
                    out.add(sq)
                break
            if sq not in occupied:
                break
            need = die - step  # steps still to go after a turn here
            for turn in _TURNS[d]:
                side = _RAYS[sq][turn]
                if (
                    len(side) >= need
                    and side[need - 1] not in occupied
                    and all(x in occupied for x in side[: need - 1])
                ):
                    out.add(side[need - 1])
    return out


def _ray(sq: int, dx: int, dy: int) -> tuple[int, ...]:
    """The squares from ``sq`` (excluded) in one direction, to the board's edge."""
    col, row = col_row(sq)
    out = []
    while (nxt := at(col + dx, row + dy)) is not None:
        out.append(nxt)
        col, row = col + dx, row + dy
    return tuple(out)


_RAYS = tuple(tuple(_ray(sq, dx, dy) for dx, dy in DIRECTIONS) for sq in range(WIDTH * HEIGHT))
# The two directions at 90° to each direction, as jump_paths turns.
_TURNS = tuple(tuple(DIRECTIONS.index(t) for t in ((dy, dx), (-dy, -dx))) for dx, dy in DIRECTIONS)


def path_to(frm: int, die: int, to: int, occupied: set[int] | dict[int, int]) -> tuple[int, ...]:
    """One path the die's move can take from ``frm`` to ``to`` (the board draws it);
    several may exist, and only the landing matters (§11)."""
    if die == 1:
        return (frm, to)
    return next((p for p in jump_paths(frm, die, occupied) if p[-1] == to), (frm, to))


def jump_paths(frm: int, die: int, occupied: set[int] | dict[int, int]) -> list[tuple[int, ...]]:
    """R6: every path of ``die`` orthogonal steps over pawns then onto an empty
    square, turning by 90° at most once; each path starts at ``frm``."""
    out: list[tuple[int, ...]] = []
    col, row = col_row(frm)
    for dx, dy in DIRECTIONS:
        for turn_after in range(1, die + 1):  # steps before the (optional) turn
            turns = ((dx, dy),) if turn_after == die else ((dy, dx), (-dy, -dx))
            for tx, ty in turns:
                c, r = col, row
                ok = True
                path = [frm]
                for step in range(1, die + 1):
                    if step <= turn_after:
                        c, r = c + dx, r + dy
                    else:
                        c, r = c + tx, r + ty
                    sq = at(c, r)
                    if sq is None or (step < die) != (sq in occupied):
                        ok = False
                        break
                    path.append(sq)
                if ok:
                    out.append(tuple(path))
    return out


def reason(
    s: NomadiState, move: DieMove, goal: frozenset[int]
) -> tuple[str, dict[str, Param]] | None:
    """Why this die move breaks a rule (a catalogue key and params), or None if legal."""
    unused = {d for d, u in zip(s.dice, s.used, strict=True) if not u}
    if move.die not in unused:
        return "nomadi.err.no_die", {"die": move.die}
    occ = occupancy(s)
    pawn = occ.get(move.frm)
    if pawn is None:
        return "nomadi.err.no_pawn", {"square": name(move.frm)}
    if move.frm in goal:
        return "nomadi.err.arrived", {"square": name(move.frm)}
    if all(n in occ for n in orthogonal(move.frm)):
        return "nomadi.err.free_side", {"square": name(move.frm)}
    if move.to not in landings(move.frm, move.die, occ):
        key = "nomadi.err.step" if move.die == 1 else "nomadi.err.jump"
        return key, {"square": name(move.to), "count": move.die - 1}
    after = set(occ) - {move.frm} | {move.to}
    if not connected(after):
        return "nomadi.err.contact", {}
    if move.frm not in BOARD.start and move.to in BOARD.start:
        return "nomadi.err.start", {}
    if BOARD.goal_side(move.frm) and not BOARD.goal_side(move.to):
        return "nomadi.err.valley", {}
    for die, p, a, b in s.history:
        if p == pawn and die == move.die and a == move.to and b == move.frm:
            return "nomadi.err.undo", {"die": die}
    return None


def die_moves(s: NomadiState) -> list[DieMove]:
    """Every legal die move now, sorted by die, then from, then to."""
    occ = occupancy(s)
    unused = sorted({d for d, u in zip(s.dice, s.used, strict=True) if not u})
    out: list[DieMove] = []
    squares = set(occ)
    goal = BOARD.goal_of(s.course)
    for pawn_index in sorted(occ.values(), key=lambda i: s.pawns[i].square):
        pawn = s.pawns[pawn_index]
        frm = pawn.square
        if frm in goal or all(n in occ for n in orthogonal(frm)):
            continue
        # R7 once per pawn: the others' groups without it, which its landing
        # square must all touch for the caravan to stay one group.
        apart = groups(squares - {frm})
        for die in unused:
            for to in sorted(landings(frm, die, occ)):
                if frm not in BOARD.start and to in BOARD.start:
                    continue
                if BOARD.goal_side(frm) and not BOARD.goal_side(to):
                    continue
                if any(
                    p == pawn_index and d == die and a == to and b == frm
                    for d, p, a, b in s.history
                ):
                    continue
                near = orthogonal(to)
                if not all(any(n in group for n in near) for group in apart):
                    continue
                out.append(DieMove(die, frm, to))
    out.sort(key=lambda m: (m.die, m.frm, m.to))
    return out


__all__ = [
    "WIDTH", "connected", "die_moves", "jump_paths", "landings", "occupancy", "path_to", "reason"
]  # fmt: skip
