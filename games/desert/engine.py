"""Through the Desert: the engine object (setup, turn flow, scoring events).

Seats are 0-based (seat 0 is the spec's seat 1). Where pieces may go lives in
``rules.py``, points in ``scoring.py``, notation in ``notation.py`` and what a
seat may see in ``views.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.contract import (
    Decision,
    Event,
    Game,
    MoveError,
    OptionSpec,
    Outcome,
    Seat,
    Step,
    resolve_options,
)
from games.desert import notation, rules, scoring
from games.desert.board import COORDS, NAMES, SIZE, index, layout
from games.desert.messages import colour_term, illegal, invalid
from games.desert.model import (
    COLOURS,
    COLUMNS,
    ROWS,
    AreaGain,
    Coord,
    DesertView,
    Discard,
    Move,
    Pass,
    PlaceCamel,
    PlaceLeader,
    Placement,
)
from games.desert.state import (
    EMPTY,
    NCOLOURS,
    DesertState,
    caravan_id,
    dump_state,
    load_state,
)
from games.desert.views import build_view, hand_lines, points
from games.rng import Rng
from games.text import Param, Player, Term

# Supply per colour when camel turns begin (spec §2, §10.2).
SUPPLY = {2: 22, 3: 26, 4: 30, 5: 29}
OASES = 5  # palm trees put on palm sites (§10.4)
WATER_HOLES = (1,) * 15 + (2,) * 15 + (3,) * 15  # §2
CAMELS_PER_TURN = 2  # R12


def start_allowance(players: int, turn: int) -> int:
    """R12: seats 1 and 2 (seat 1 alone with 2 players) place one camel in round 1."""
    reduced = 1 if players == 2 else 2
    return 1 if turn < reduced else CAMELS_PER_TURN


def _colour(name: str) -> int:
    if name not in COLOURS:
        raise invalid("desert.unknown_colour", word=str(name))
    return COLOURS.index(name)


def _square(at: Coord) -> int:
    col, row = at
    if not (isinstance(col, int) and isinstance(row, int)):
        raise invalid("desert.bad_space", word=str(at))
    if not (1 <= col <= len(COLUMNS) and 1 <= row <= ROWS):
        raise invalid("desert.bad_space", word=str(at))
    return index(at)


class DesertGame(Game[DesertState, Move]):
    kind = "desert"
    min_players = 2
    max_players = 5
    options: tuple[OptionSpec, ...] = ()

    # ----------------------------------------------------------------------- setup

    def new(self, players: int, seed: int, options: Mapping[str, str] | None = None) -> DesertState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Through the Desert needs 2 to 5 players, not {players}")
        resolve_options(self.options, options)
        lay = layout(players)
        rng = Rng.from_seed(seed)
        # §10.4: 5 of the active palm sites get a palm tree.
        oases, rng = rng.sample(lay.palm_sites, OASES)
        # §10.5: shuffled water holes dealt in reading order; leftovers go unseen.
        holes, rng = rng.shuffled(WATER_HOLES)
        spots = sorted((*lay.water_circles, *(p for p in lay.palm_sites if p not in oases)))
        water = [0] * SIZE
        for sq, value in zip(spots, holes, strict=False):
            water[sq] = value
        five = players == 5
        return DesertState(
            players=players,
            phase="discard" if five else "riders",
            rng=rng,
            current=0,
            rider_round=0 if five else 1,
            turn=0,
            allowance=0,
            passes=0,
            discarded=(EMPTY,) * players,
            round1=(),
            oases=frozenset(oases),
            water=tuple(water),
            cells=(EMPTY,) * SIZE,
            leaders=(EMPTY,) * (players * NCOLOURS),
            areas=(EMPTY,) * SIZE,
            scored=frozenset(),
            water_taken=((),) * players,
            supply=(SUPPLY[players],) * NCOLOURS,
            last_turn=(),
        )

    # ----------------------------------------------------------------------- queries

    def decisions(self, state: DesertState) -> tuple[Decision, ...]:
        seat = state.current
        if state.phase == "discard":
            return (Decision(seat, "desert.decision.discard"),)
        if state.phase == "riders":
            rounds = 4 if state.players == 5 else 5
            return (
                Decision(
                    seat, "desert.decision.rider", {"round": state.rider_round, "rounds": rounds}
                ),
            )
        if state.phase == "camels":
            if not rules.has_placement(state, seat):
                return (Decision(seat, "desert.decision.pass"),)
            return (Decision(seat, "desert.decision.camels", {"count": state.allowance}),)
        return ()

    def to_act(self, state: DesertState) -> tuple[Seat, ...]:
        return () if state.phase == "over" else (state.current,)

    def legal_moves(self, state: DesertState, seat: Seat) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        if state.phase == "discard":
            return [Discard(COLOURS[c]) for c in range(NCOLOURS) if c not in state.discarded]
        if state.phase == "riders":
            spaces = rules.leader_spaces(state)
            return [
                PlaceLeader(COLOURS[c], COORDS[sq])
                for c in rules.leader_colours(state, seat)
                for sq in spaces
            ]
        camels: list[Move] = [
            PlaceCamel(COLOURS[c], COORDS[sq]) for c, sq in rules.placements(state, seat)
        ]
        return camels or [Pass()]  # R13: pass only when nothing can be placed

    def outcome(self, state: DesertState) -> Outcome | None:
        if state.phase != "over":
            return None
        parts = scoring.breakdown(state)
        return Outcome.from_scores([sum(p for _, p in b) for b in parts], parts)

    def progress(self, state: DesertState) -> float:
        """The largest share of any colour's camels placed: the game ends when
        one colour runs out (EG1). The rider rounds count as the start."""
        if state.phase == "over":
            return 1.0
        full = SUPPLY[state.players]
        return min(max(full - left for left in state.supply) / full, 0.99)

    def scores(self, state: DesertState) -> tuple[int, ...]:
        """SC1-SC5 as they stand: every category is counted on the board as it
        is, water values included (hidden from the others until the end)."""
        return tuple(sum(p for _, p in b) for b in scoring.breakdown(state))

    def view(self, state: DesertState, seat: Seat | None) -> DesertView:
        return build_view(state, seat, self.outcome(state))

    def hand(self, state: DesertState, seat: Seat) -> tuple[Event, ...]:
        return hand_lines(self.view(state, seat))

    def resample(self, state: DesertState, seat: Seat | None, seed: int) -> DesertState:
        """Redraw what ``seat`` cannot see: the others' taken water values (§9).

        Until the end, a seat knows the values on the board and its own; the
        others' are any values left from the 45 holes, in the same numbers.
        """
        rng = Rng.from_seed(seed)
        if state.phase == "over":
            return replace(state, rng=rng)
        pool = list(WATER_HOLES)
        for value in (
            *(v for v in state.water if v),
            *(state.water_taken[seat] if seat is not None else ()),
        ):
            pool.remove(value)
        drawn, rng = rng.shuffled(pool)
        taken = list(state.water_taken)
        for other in range(state.players):
            if other != seat:
                count = len(taken[other])
                taken[other], drawn = drawn[:count], drawn[count:]
        # last_turn keeps the true values: views hide them from the other seats.
        return replace(state, rng=rng, water_taken=tuple(taken))

    def dump(self, state: DesertState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> DesertState:
        return load_state(data)

    def format_move(self, move: Move) -> str:
        return notation.format_move(move)

    def summary(self, state: DesertState) -> tuple[Term, ...]:
        """Public scores per seat (§9: water values stay hidden, their count is public)."""
        view = self.view(state, None)
        return tuple(
            Term(
                "desert.summary",
                {
                    "oases": points(info.oasis_points),
                    "areas": points(info.area_points),
                    "count": len(state.water_taken[info.seat]),  # water holes taken
                },
            )
            for info in view.info
        )

    def move_words(self, move: Move) -> Term | None:
        """``blanc F7``, ``défausse rose``, ``passe``: the parser reads them too."""
        if isinstance(move, Discard):
            return Term("desert.move.discard", {"colour": colour_term(move.colour)})
        if isinstance(move, PlaceCamel | PlaceLeader):
            return Term(
                "desert.move.place", {"colour": colour_term(move.colour), "space": _space(move.at)}
            )
        return Term("desert.move.pass")

    def move_hint(self, state: DesertState, seat: Seat, move: Move) -> Term | None:
        """What a camel scores at once: its water hole (SC1), oases (SC2), an area (SC3)."""
        if not isinstance(move, PlaceCamel) or state.phase != "camels":
            return None
        sq, colour = index(move.at), COLOURS.index(move.colour)
        cid = caravan_id(seat, colour)
        lay = layout(state.players)
        parts: list[Term] = []
        if state.water[sq]:
            parts.append(Term("desert.hint.water", {"count": state.water[sq]}))
        oases = [n for n in lay.neighbours[sq] if n in state.oases and (cid, n) not in state.scored]
        if oases:
            parts.append(Term("desert.hint.oasis", {"count": len(oases)}))
        cells = list(state.cells)
        cells[sq] = cid
        enclosed = sum(len(g) for g in scoring.new_areas(cells, state.areas, lay, cid, sq))
        if enclosed:
            parts.append(Term("desert.hint.area", {"count": enclosed}))
        return Term("desert.hint", {"parts": tuple(parts)}) if parts else None

    # ----------------------------------------------------------------------- moves

    def _check_turn(self, state: DesertState, seat: Seat) -> None:
        if state.phase == "over":
            raise illegal("desert.game_over")
        if not 0 <= seat < state.players:
            raise illegal("desert.no_such_seat", player=seat + 1)
        if seat != state.current:
            raise illegal("desert.not_your_turn", other=Player(state.current))

    def play(self, state: DesertState, seat: Seat, move: Move) -> Step[DesertState]:
        after = self._apply(state, seat, move)
        # Every move records itself as the last placement of the turn.
        events = placement_events(after.last_turn[-1])
        if after.phase == "over":
            events += (end_event(after),)
        # R12: the turn goes on while the same seat still has a camel to place.
        goes_on = (
            isinstance(move, PlaceCamel)
            and after.phase == "camels"
            and after.current == seat
            and after.allowance > 0
        )
        # Nothing is drawn in this game; only the end shows everyone's water.
        return Step(after, events, ends_turn=not goes_on, reveals=after.phase == "over")

    def _apply(self, state: DesertState, seat: Seat, move: Move) -> DesertState:
        self._check_turn(state, seat)
        if state.phase == "discard":
            if not isinstance(move, Discard):
                raise illegal("desert.expect_discard")
            return self._discard(state, seat, _colour(move.colour))
        if state.phase == "riders":
            if not isinstance(move, PlaceLeader):
                raise illegal("desert.expect_leader")
            return self._leader(state, seat, _colour(move.colour), _square(move.at))
        if isinstance(move, PlaceCamel):
            return self._camel(state, seat, _colour(move.colour), _square(move.at))
        if isinstance(move, Pass):
            return self._pass(state, seat)
        raise illegal("desert.expect_camel")

    def _discard(self, s: DesertState, seat: Seat, colour: int) -> DesertState:
        if colour in s.discarded:  # §10.3: each colour is put back once
            other = s.discarded.index(colour)
            raise illegal("desert.discard_taken", other=Player(other), colour=COLOURS[colour])
        discarded = s.discarded[:seat] + (colour,) + s.discarded[seat + 1 :]
        done = seat == s.players - 1
        return replace(
            s,
            phase="riders" if done else "discard",
            current=0 if done else seat + 1,
            rider_round=1 if done else 0,
            discarded=discarded,
            last_turn=(Placement(seat, "discard", COLOURS[colour], None),),
        )

    def _leader(self, s: DesertState, seat: Seat, colour: int, sq: int) -> DesertState:
        rules.check_leader(s, seat, colour, sq)
        cid = caravan_id(seat, colour)
        cells = list(s.cells)
        cells[sq] = cid
        leaders = list(s.leaders)
        leaders[cid] = sq
        moved = replace(
            s,
            cells=tuple(cells),
            leaders=tuple(leaders),
            round1=s.round1 + (colour,) if s.rider_round == 1 else s.round1,
            last_turn=(Placement(seat, "leader", COLOURS[colour], COORDS[sq]),),
        )
        if EMPTY not in (
            leaders[caravan_id(p, c)] for p in range(s.players) for c in rules.owned_colours(s, p)
        ):
            # Phase A is over; seat 1 also starts the camel turns (§10.8).
            allowance = start_allowance(s.players, 0)
            return replace(moved, phase="camels", current=0, rider_round=0, allowance=allowance)
        last = seat == s.players - 1
        return replace(
            moved,
            current=0 if last else seat + 1,
            rider_round=s.rider_round + 1 if last else s.rider_round,
        )

    def _camel(self, s: DesertState, seat: Seat, colour: int, sq: int) -> DesertState:
        rules.check_camel(s, seat, colour, sq)
        lay = layout(s.players)
        cid = caravan_id(seat, colour)
        cells = list(s.cells)
        cells[sq] = cid
        water = list(s.water)
        taken = list(s.water_taken[seat])
        scored = set(s.scored)
        # SC1: the water hole under the camel.
        value = water[sq]
        water[sq] = 0
        if value:
            taken.append(value)
        # SC2: oases next to the camel, once per caravan.
        oases = sorted(n for n in lay.neighbours[sq] if n in s.oases and (cid, n) not in scored)
        scored.update((cid, o) for o in oases)
        # SC3: areas this camel closes; their water holes and oases are taken now.
        areas = list(s.areas)
        gains = []
        for group in scoring.new_areas(cells, s.areas, lay, cid, sq):
            holes = [g for g in group if water[g]]
            points = sum(water[g] for g in holes)
            taken.extend(water[g] for g in holes)
            inside = [g for g in group if g in s.oases and (cid, g) not in scored]
            scored.update((cid, o) for o in inside)
            for g in group:
                areas[g] = seat
                water[g] = 0
            gains.append(
                AreaGain(
                    spaces=tuple(COORDS[g] for g in group),
                    water_spaces=tuple(COORDS[g] for g in holes),
                    water_points=points,
                    oases=tuple(COORDS[o] for o in inside),
                )
            )
        event = Placement(
            seat,
            "camel",
            COLOURS[colour],
            COORDS[sq],
            water_space=COORDS[sq] if value else None,
            water_points=value if value else None,
            oases=tuple(COORDS[o] for o in oases),
            areas=tuple(gains),
        )
        supply = list(s.supply)
        supply[colour] -= 1
        first = s.allowance == start_allowance(s.players, s.turn)
        moved = replace(
            s,
            cells=tuple(cells),
            water=tuple(water),
            areas=tuple(areas),
            scored=frozenset(scored),
            water_taken=s.water_taken[:seat] + (tuple(taken),) + s.water_taken[seat + 1 :],
            supply=tuple(supply),
            allowance=s.allowance - 1,
            last_turn=(event,) if first else s.last_turn + (event,),
        )
        # R13: the turn also ends when no further camel can be placed.
        if moved.allowance and rules.has_placement(moved, seat):
            return moved
        return self._end_turn(moved, placed=True)

    def _pass(self, s: DesertState, seat: Seat) -> DesertState:
        options = rules.placements(s, seat)
        if options:
            c, sq = options[0]
            example = notation.format_move(PlaceCamel(COLOURS[c], COORDS[sq]))
            raise illegal("desert.r13_pass", example=example)
        return self._end_turn(replace(s, last_turn=(Placement(seat, "pass", None, None),)), False)

    def _end_turn(self, s: DesertState, placed: bool) -> DesertState:
        passes = 0 if placed else s.passes + 1
        # EG1: a colour ran out; EG2: a full cycle of passes.
        if 0 in s.supply or passes >= s.players:
            return replace(s, phase="over", allowance=0, passes=passes, turn=s.turn + 1)
        turn = s.turn + 1
        return replace(
            s,
            current=(s.current + 1) % s.players,
            turn=turn,
            allowance=start_allowance(s.players, turn),
            passes=passes,
        )

    # ----------------------------------------------------------------------- notation

    def parse(self, state: DesertState, seat: Seat, text: str) -> tuple[Move, ...]:
        command = notation.read(text)
        self._check_turn(state, seat)
        expect = {
            "discard": "desert.expect_discard",
            "riders": "desert.expect_leader",
            "camels": "desert.expect_camel",
        }[state.phase]
        moves: tuple[Move, ...]
        if command.kind == "discard":
            if state.phase != "discard":
                raise illegal(expect)
            moves = (Discard(command.colour),)
        elif command.kind == "pass":
            if state.phase != "camels":
                raise illegal(expect)
            moves = (Pass(),)
        elif state.phase == "riders":
            if len(command.places) > 1:
                raise illegal("desert.one_leader")
            moves = tuple(PlaceLeader(c, at) for c, at in command.places)
        elif state.phase == "camels":
            moves = tuple(PlaceCamel(c, at) for c, at in command.places)
        else:
            raise illegal(expect)
        if len(moves) == 1:
            self._apply(state, seat, moves[0])
            return moves
        scratch = state
        for number, move in enumerate(moves, start=1):
            try:
                if seat not in self.to_act(scratch):
                    # The first camel ended the turn (R12 allowance, or R13).
                    if state.allowance == 1:
                        raise illegal("desert.r12")
                    raise illegal("desert.r13_end", first=self.format_move(moves[0]))
                scratch = self._apply(scratch, seat, move)
            except MoveError as error:
                raise illegal(
                    "desert.part_failed",
                    index=number,
                    part=self.format_move(move),
                    reason=Term(error.key, error.params),
                ) from error
        return moves


def _space(at: Coord) -> str:
    return NAMES[index(at)]


def placement_events(p: Placement) -> tuple[Event, ...]:
    """The log of one placement: public text, and its hidden values for the mover."""
    colour: Term | None = colour_term(p.colour) if p.colour else None
    if p.kind == "discard":
        assert colour is not None
        return (Event("desert.log.discard", {"colour": colour}, p.seat),)
    if p.kind == "pass":
        return (Event("desert.log.pass", seat=p.seat),)
    assert colour is not None and p.at is not None
    where: dict[str, Param] = {"colour": colour, "space": _space(p.at)}
    if p.kind == "leader":
        return (Event("desert.log.leader", where, p.seat),)
    details: list[Event] = []
    private: list[Event] = []
    if p.water_space is not None:
        details.append(Event("desert.log.water"))
        private.append(
            Event(
                "desert.log.water_points",
                {"space": _space(p.water_space), "points": points(p.water_points)},
                p.seat,
                to=p.seat,
            )
        )
    details.extend(Event("desert.log.oasis", {"space": _space(o)}) for o in p.oases)
    for area in p.areas:
        inside = [Event("desert.log.oasis", {"space": _space(o)}) for o in area.oases]
        if area.water_spaces:
            count = len(area.water_spaces)
            inside.insert(0, Event("desert.log.area_water", {"count": count}))
            private.append(
                Event(
                    "desert.log.area_water_points",
                    {"count": count, "points": points(area.water_points)},
                    p.seat,
                    to=p.seat,
                )
            )
        details.append(Event("desert.log.area", {"count": len(area.spaces)}, details=tuple(inside)))
    return (Event("desert.log.camel", where, p.seat, details=tuple(details)), *private)


def end_event(s: DesertState) -> Event:
    """Why the game ended: a colour ran out (EG1) or a whole round passed (EG2)."""
    if 0 in s.supply:
        return Event("desert.log.end_supply", {"colour": colour_term(COLOURS[s.supply.index(0)])})
    return Event("desert.log.end_passes")


GAME = DesertGame()
