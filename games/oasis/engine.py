"""Oasis (Moon & Weissblum, 2004): the engine object. Spec: R1-R26, SC1-SC4, EG1.

Seats are 0-based. A round runs offers (phase 1), choices (phases 2 … n+1)
and the new Noble's bonus (phase 7). Steps with no choice in them are played
by the engine at once: the first card of an offer (R1), the end of an offer
that may not grow (R2), the last chooser's only offer (R7), placements that
cannot be made (R10, R11), a bonus with nothing to place. Board rules live in
``rules.py``, the notation in ``notation.py``, what a seat sees in ``views.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.contract import Decision, Event, Game, MoveError, Outcome, Seat, Step, resolve_options
from games.oasis import notation, rules
from games.oasis.messages import illegal, player
from games.oasis.model import (
    AUTO,
    BOARD,
    CONTENT,
    LANDS,
    MULTIPLIERS,
    NOCLAIM,
    RANK_NAMES,
    Bonus,
    Camel,
    CamelMove,
    Move,
    OasisView,
    Reveal,
    Stop,
    Take,
    Tile,
    card,
    name,
)
from games.oasis.rules import Placement, land_word
from games.oasis.state import (
    EMPTY,
    OasisState,
    camels_left,
    can_reveal,
    current,
    dump_state,
    empty_track,
    load_state,
    noble,
    open_offers,
    order,
    pawns_left,
)
from games.oasis.views import build_view, hand_lines
from games.rng import Rng
from games.text import Param, Term

CAMELS = len(LANDS)  # index of the camels in ``pending``
STACK = 5  # cards dealt to each stack (setup step 3)


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return values[:index] + (value,) + values[index + 1 :]


def _put(board: str, sq: int, letter: str) -> str:
    return board[:sq] + letter + board[sq + 1 :]


def card_term(code: str) -> Term:
    return Term(f"oasis.card.{code}")


def rank_term(rank: int) -> Term:
    return Term(f"oasis.rank.{RANK_NAMES[rank - 1]}", {"rank": rank})


class OasisGame(Game[OasisState, Move]):
    kind = "oasis"
    min_players = 3
    max_players = 5

    # ------------------------------------------------------------------ setup

    def new(self, players: int, seed: int, options: Mapping[str, str] | None = None) -> OasisState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Oasis is for 3-5 players, not {players}")
        resolve_options(self.options, options)
        rng = Rng.from_seed(seed)
        deck, rng = rng.shuffled(CONTENT.deck)
        ranks, rng = rng.shuffled(range(1, players + 1))
        s = OasisState(
            players=players,
            rng=rng,
            phase="offer",
            round=1,
            ranks=ranks,
            received=(0,) * players,
            cursor=0,
            out=(),
            stacks=tuple(deck[STACK * i : STACK * (i + 1)] for i in range(players)),
            draw=deck[STACK * players :],
            discard=(),
            offers=((),) * players,
            taken=(-1,) * players,
            lands=tuple(CONTENT.tiles[land] for land in LANDS),
            piles=tuple(CONTENT.multipliers[kind] for kind in MULTIPLIERS),
            mults=((0,) * len(MULTIPLIERS),) * players,
            ground=EMPTY * len(BOARD.cells),
            herd=EMPTY * len(BOARD.cells),
            pawns=(),
            pending=(0,) * (len(LANDS) + 1),
        )
        return self._next_offer(s, [])

    # ------------------------------------------------------------------ who acts

    def decisions(self, state: OasisState) -> tuple[Decision, ...]:
        s = state
        seat = current(s)
        if seat is None:
            return ()
        if s.phase == "offer":
            cards = tuple(card_term(c) for c in s.offers[seat])
            return (Decision(seat, "oasis.decision.offer", {"count": len(cards), "cards": cards}),)
        if s.phase == "bonus":
            return (Decision(seat, "oasis.decision.bonus"),)
        if any(s.pending):
            return (Decision(seat, "oasis.decision.place", {"owed": owed_terms(s.pending)}),)
        return (Decision(seat, "oasis.decision.take", {"count": len(open_offers(s))}),)

    def legal_moves(self, state: OasisState, seat: Seat) -> list[Move]:
        s = state
        if seat != current(s):
            return []
        if s.phase == "offer":
            return [Reveal(), Stop()] if can_reveal(s, seat) else [Stop()]
        if s.phase == "bonus":
            return [Bonus(None), *(Bonus(m) for m in self._placements(s, seat, None))]
        if any(s.pending):
            return list(self._placements(s, seat, s.pending))
        offers = open_offers(s)
        return [Take(o) for o in offers if o != seat or len(offers) == 1]

    def _placements(
        self, s: OasisState, seat: Seat, pending: tuple[int, ...] | None
    ) -> list[Tile | Camel | CamelMove]:
        """Tiles and camels ``seat`` may place: what it owes, or anything (bonus)."""
        out: list[Tile | Camel | CamelMove] = []
        for i, land in enumerate(LANDS):
            if s.lands[i] == 0 or (pending is not None and pending[i] == 0):
                continue
            for sq, placement in rules.legal_squares(s, seat, land):
                out.extend(Tile(land, sq, p) for p in rules.pawn_choices(s, seat, placement))
        if pending is None or pending[CAMELS]:
            empty = empty_track(s)
            if camels_left(s, seat):
                out.extend(Camel(sq) for sq in empty)
            else:
                moved = s.moved if pending is not None else ()
                mine = [sq for sq in BOARD.track if s.herd[sq] == str(seat) and sq not in moved]
                out.extend(CamelMove(a, b) for a in mine for b in empty)
        return out

    # ------------------------------------------------------------------ playing

    def play(self, state: OasisState, seat: Seat, move: Move) -> Step[OasisState]:
        error = self.why_not(state, seat, move)
        if error is not None:
            raise error
        events: list[Event] = []
        s = self._apply(state, seat, move, events)
        ends = seat not in self.to_act(s) or s.phase != state.phase or s.round != state.round
        # A card turned up from a stack, stacks dealt from the draw pile, the PRNG.
        reveals = (s.stacks, s.draw, s.rng) != (state.stacks, state.draw, state.rng)
        return Step(s, tuple(events), ends, reveals)

    def why_not(self, s: OasisState, seat: Seat, move: Move) -> MoveError | None:
        """Why ``move`` is not legal now (the rule broken), or None if it is."""
        if s.phase == "over":
            return illegal("oasis.err.over")
        if seat != current(s):
            return illegal("oasis.err.not_your_turn")
        if s.phase == "offer":
            if isinstance(move, Reveal) and not can_reveal(s, seat):
                return illegal("oasis.err.r2", count=len(s.offers[seat]))
            return None if isinstance(move, Reveal | Stop) else illegal("oasis.err.offer_now")
        if s.phase == "bonus":
            if not isinstance(move, Bonus):
                return illegal("oasis.err.bonus_now")
            return None if move.action is None else self._placement_error(s, seat, move.action)
        if not any(s.pending):
            if not isinstance(move, Take):
                return illegal("oasis.err.take_now")
            offers = open_offers(s)
            if move.seat not in offers:
                return illegal("oasis.err.no_offer", player=player(move.seat))
            if move.seat == seat and len(offers) > 1:
                return illegal("oasis.err.r7")
            return None
        if not isinstance(move, Tile | Camel | CamelMove):
            return illegal("oasis.err.place_now", owed=owed_terms(s.pending))
        return self._placement_error(s, seat, move)

    def _placement_error(
        self, s: OasisState, seat: Seat, move: Tile | Camel | CamelMove
    ) -> MoveError | None:
        bonus = s.phase == "bonus"
        if isinstance(move, Tile):
            index = LANDS.index(move.land)
            if not bonus and s.pending[index] == 0:
                return illegal("oasis.err.not_owed", land=land_word(move.land))
            if s.lands[index] == 0:
                return illegal("oasis.err.pile_empty", land=land_word(move.land))
            found = rules.place(s, seat, move.land, move.square)
            if not isinstance(found, Placement):
                key, params = found
                return illegal(key, **params)
            if move.pawn not in rules.pawn_choices(s, seat, found):
                return self._pawn_error(s, seat, move, found)
            return None
        if not bonus and s.pending[CAMELS] == 0:
            return illegal("oasis.err.no_camels_owed")
        to = move.square if isinstance(move, Camel) else move.to
        supply = camels_left(s, seat)
        if isinstance(move, Camel) and not supply:
            return illegal("oasis.err.r11_move")
        if isinstance(move, CamelMove):
            if supply:
                return illegal("oasis.err.r11_supply", count=supply)
            if s.herd[move.frm] != str(seat):
                return illegal("oasis.err.not_your_camel", square=name(move.frm))
            if not bonus and move.frm in s.moved:
                return illegal("oasis.err.moved_twice", square=name(move.frm))
        if BOARD.cells[to] != "=":
            return illegal("oasis.err.r24_track", square=name(to))
        if s.herd[to] != EMPTY:
            return illegal("oasis.err.r24_taken", square=name(to))
        return None

    def _pawn_error(self, s: OasisState, seat: Seat, move: Tile, found: Placement) -> MoveError:
        if move.pawn == NOCLAIM:
            return illegal("oasis.err.r22_must", square=name(move.square))
        if found.kind == "own":
            return illegal("oasis.err.r22_own", square=name(move.square))
        if move.pawn >= 0 and (move.pawn, seat) not in s.pawns:
            return illegal("oasis.err.r22_no_pawn", square=name(move.pawn))
        if move.pawn >= 0:
            return illegal("oasis.err.r22_supply", square=name(move.square))
        return illegal("oasis.err.r22_no_supply")

    def _apply(self, s: OasisState, seat: Seat, move: Move, events: list[Event]) -> OasisState:
        if isinstance(move, Reveal):
            return self._reveal(s, seat, events)
        if isinstance(move, Stop):
            return self._stop(s, seat, events)
        if isinstance(move, Take):
            return self._take(s, seat, move.seat, events)
        if isinstance(move, Bonus):
            if move.action is None:
                events.append(Event("oasis.log.bonus_pass", {}, seat))
            else:
                events.append(Event("oasis.log.bonus", {}, seat))
                s = replace(s, last=(), last_seat=seat)
                s = self._place(s, seat, move.action, events)
            return self._after_bonus(s, events)
        s = self._place(s, seat, move, events)
        index = CAMELS if isinstance(move, Camel | CamelMove) else LANDS.index(move.land)
        s = replace(s, pending=_set(s.pending, index, s.pending[index] - 1))
        return self._settle(s, events)

    # ------------------------------------------------------------------ cards

    def _draw_under(self, s: OasisState, seat: Seat, count: int, events: list[Event]) -> OasisState:
        """R3, R4: ``count`` cards from the draw pile under ``seat``'s stack, unseen;
        an empty draw pile is made again from the shuffled discards."""
        draw, discard, rng = s.draw, s.discard, s.rng
        drawn: list[str] = []
        while len(drawn) < count:
            if not draw:
                if not discard:
                    break
                draw, rng = rng.shuffled(discard)
                events.append(Event("oasis.log.reshuffle", {"count": len(discard)}))
                discard = ()
            drawn.append(draw[0])
            draw = draw[1:]
        stacks = s.stacks[:seat] + ((*s.stacks[seat], *drawn),) + s.stacks[seat + 1 :]
        return replace(s, draw=draw, discard=discard, rng=rng, stacks=stacks)

    def _reveal(self, s: OasisState, seat: Seat, events: list[Event]) -> OasisState:
        """R1: the top card of the stack onto the offer, face up."""
        top, rest = s.stacks[seat][0], s.stacks[seat][1:]
        offer = (*s.offers[seat], top)
        events.append(Event("oasis.log.reveal", {"card": card_term(top)}, seat))
        s = replace(
            s,
            stacks=s.stacks[:seat] + (rest,) + s.stacks[seat + 1 :],
            offers=s.offers[:seat] + (offer,) + s.offers[seat + 1 :],
        )
        if not can_reveal(s, seat):  # R2: the offer cannot grow, so it is made
            return self._stop(s, seat, events)
        return s

    def _stop(self, s: OasisState, seat: Seat, events: list[Event]) -> OasisState:
        k = len(s.offers[seat])
        events.append(Event("oasis.log.stop", {"count": k, "drawn": 3 - k}, seat))
        s = self._draw_under(s, seat, 3 - k, events)
        return self._next_offer(replace(s, cursor=s.cursor + 1), events)

    def _next_offer(self, s: OasisState, events: list[Event]) -> OasisState:
        """Phase 1, in rank order; then the choices."""
        while s.cursor < s.players:
            seat = order(s)[s.cursor]
            if not s.stacks[seat]:  # R5: draw one first
                s = self._draw_under(s, seat, 1, events)
            if s.stacks[seat]:
                return self._reveal(s, seat, events)
            events.append(Event("oasis.log.no_offer", {}, seat))
            s = replace(s, out=(*s.out, seat), cursor=s.cursor + 1)
        return self._next_chooser(replace(s, phase="choose", cursor=0), events)

    # ------------------------------------------------------------------ choices

    def _next_chooser(self, s: OasisState, events: list[Event]) -> OasisState:
        """Phases 2 … n+1, in rank order; the last chooser's one offer is taken at once."""
        while s.cursor < s.players:
            seat = order(s)[s.cursor]
            if seat in s.out:  # R6: no offer, no choice
                s = replace(s, cursor=s.cursor + 1)
                continue
            offers = open_offers(s)
            if len(offers) == 1:
                return self._take(s, seat, offers[0], events)
            return s
        return self._end_round(s, events)

    def _take(self, s: OasisState, seat: Seat, offerer: Seat, events: list[Event]) -> OasisState:
        """R8, R9, and at once R12 and R13 (§10.17); placements are owed."""
        rank = s.ranks[seat]
        cards = s.offers[offerer]
        terms = tuple(card_term(c) for c in cards)
        if offerer == seat:
            params: dict[str, Param] = {"cards": terms, "rank": rank_term(rank)}
            events.append(Event("oasis.log.take_own", params, seat))
        else:
            events.append(
                Event(
                    "oasis.log.take",
                    {"offerer": player(offerer), "cards": terms, "rank": rank_term(rank)},
                    seat,
                )
            )
            s = replace(s, received=_set(s.received, offerer, rank))
        s = replace(s, taken=_set(s.taken, offerer, seat), last=(), last_seat=seat, moved=())
        pending = list(s.pending)
        for code in cards:
            kind = card(code)
            if kind.effect in LANDS:
                pending[LANDS.index(kind.effect)] += kind.amount
            elif kind.effect == "camels":
                pending[CAMELS] += kind.amount
            elif kind.effect == "cards":
                events.append(Event("oasis.log.cards", {"count": kind.amount}, seat))
                s = self._draw_under(s, seat, kind.amount, events)
            else:
                s = self._multipliers(s, seat, kind.effect, kind.amount, events)
        s = replace(s, pending=tuple(pending), discard=(*s.discard, *cards))
        return self._settle(s, events)

    def _multipliers(
        self, s: OasisState, seat: Seat, kind: str, amount: int, events: list[Event]
    ) -> OasisState:
        """R12: face-down tiles, as many as the pile still holds."""
        index = MULTIPLIERS.index(kind)
        got = min(amount, s.piles[index])
        if got < amount:
            events.append(Event("oasis.log.pile_short", {"count": amount - got}, seat))
        if not got:
            return s
        held = _set(s.mults[seat], index, s.mults[seat][index] + got)
        s = replace(
            s,
            piles=_set(s.piles, index, s.piles[index] - got),
            mults=s.mults[:seat] + (held,) + s.mults[seat + 1 :],
        )
        events.append(Event("oasis.log.face_down", {"count": got}, seat))
        events.append(
            Event(
                "oasis.log.multiplier",
                {"count": got, "kind": Term(f"oasis.multiplier.{kind}"), "total": held[index]},
                seat,
                to=seat,
            )
        )
        return s

    def _settle(self, s: OasisState, events: list[Event]) -> OasisState:
        """Drop the placements that cannot be made (R10, R11); when nothing is
        owed any more, the next chooser's turn."""
        seat = current(s)
        assert seat is not None
        pending = list(s.pending)
        for i, land in enumerate(LANDS):
            if pending[i] and (s.lands[i] == 0 or not rules.any_legal_square(s, seat, land)):
                lost: dict[str, Param] = {"count": pending[i], "land": land_word(land)}
                events.append(Event("oasis.log.lost", lost, seat))
                pending[i] = 0
        if pending[CAMELS]:
            movable = camels_left(s, seat) or any(
                s.herd[sq] == str(seat) and sq not in s.moved for sq in BOARD.track
            )
            if not empty_track(s) or not movable:
                events.append(Event("oasis.log.lost_camels", {"count": pending[CAMELS]}, seat))
                pending[CAMELS] = 0
        s = replace(s, pending=tuple(pending))
        if any(pending):
            return s
        return self._next_chooser(replace(s, cursor=s.cursor + 1, moved=()), events)

    # ------------------------------------------------------------------ placing

    def _place(
        self, s: OasisState, seat: Seat, move: Tile | Camel | CamelMove, events: list[Event]
    ) -> OasisState:
        if isinstance(move, Camel):
            events.append(Event("oasis.log.camel", {"square": name(move.square)}, seat))
            herd = _put(s.herd, move.square, str(seat))
            return replace(s, herd=herd, last=(*s.last, move.square))
        if isinstance(move, CamelMove):
            events.append(
                Event("oasis.log.camel_move", {"from": name(move.frm), "to": name(move.to)}, seat)
            )
            herd = _put(_put(s.herd, move.frm, EMPTY), move.to, str(seat))
            return replace(
                s, herd=herd, moved=(*s.moved, move.to), last=(*s.last, move.frm, move.to)
            )
        found = rules.place(s, seat, move.land, move.square)
        assert isinstance(found, Placement)
        index = LANDS.index(move.land)
        params: dict[str, Param] = {"land": land_word(move.land), "square": name(move.square)}
        pawns = s.pawns
        if move.pawn >= 0:
            key = "oasis.log.tile_moved_pawn"
            params["from"] = name(move.pawn)
            pawns = tuple(p for p in pawns if p[0] != move.pawn)
        elif move.pawn == AUTO and found.kind != "own" and pawns_left(s, seat):
            key = "oasis.log.tile_found" if found.kind == "found" else "oasis.log.tile_claim"
        else:
            key = {
                "own": "oasis.log.tile_join",
                "found": "oasis.log.tile_found_free",
                "unowned": "oasis.log.tile_join_free",
            }[found.kind]
        if key in ("oasis.log.tile_moved_pawn", "oasis.log.tile_found", "oasis.log.tile_claim"):
            pawns = tuple(sorted((*pawns, (move.square, seat))))
        events.append(Event(key, params, seat))
        return replace(
            s,
            ground=_put(s.ground, move.square, move.land),
            lands=_set(s.lands, index, s.lands[index] - 1),
            pawns=pawns,
            last=(*s.last, move.square),
        )

    # ------------------------------------------------------------------ end of a round

    def _end_round(self, s: OasisState, events: list[Event]) -> OasisState:
        """Phase 7: the rank tiles received take effect; the new Noble's bonus."""
        ranks = tuple(s.received[seat] or s.ranks[seat] for seat in range(s.players))
        s = replace(s, ranks=ranks, received=(0,) * s.players, phase="bonus", cursor=0)
        events.append(Event("oasis.log.ranks", {"order": tuple(player(p) for p in order(s))}))
        if not self._can_place(s, noble(s)):  # nothing to place: no decision
            events.append(Event("oasis.log.bonus_none", {}, noble(s)))
            return self._after_bonus(s, events)
        return s

    def _can_place(self, s: OasisState, seat: Seat) -> bool:
        """Whether the Noble has any bonus placement (R26) to choose from."""
        if empty_track(s) and (camels_left(s, seat) or str(seat) in s.herd):
            return True
        return any(
            s.lands[i] and rules.any_legal_square(s, seat, land) for i, land in enumerate(LANDS)
        )

    def _after_bonus(self, s: OasisState, events: list[Event]) -> OasisState:
        """EG1 at the end of the round, else the next round's offers."""
        end = ""
        if not empty_track(s):
            end = "track"
        else:
            end = next((land for i, land in enumerate(LANDS) if s.lands[i] == 0), "")
        if end:
            return self._finish(replace(s, end=end), events)
        s = replace(
            s,
            phase="offer",
            round=s.round + 1,
            cursor=0,
            out=(),
            offers=((),) * s.players,
            taken=(-1,) * s.players,
        )
        return self._next_offer(s, events)

    def _finish(self, s: OasisState, events: list[Event]) -> OasisState:
        s = replace(s, phase="over", pending=(0,) * len(s.pending))
        if s.end == "track":
            events.append(Event("oasis.log.end_track"))
        else:
            events.append(Event("oasis.log.end_pile", {"land": land_word(s.end)}))
        for seat in range(s.players):
            lines = dict(rules.score_lines(s, seat))
            events.append(Event("oasis.log.final", {**lines, "score": sum(lines.values())}, seat))
        return s

    # ------------------------------------------------------------------ results and views

    def outcome(self, state: OasisState) -> Outcome | None:
        if state.phase != "over":
            return None
        lines = [rules.score_lines(state, seat) for seat in range(state.players)]
        scores = [sum(points for _, points in b) for b in lines]
        # Tie-break: the lowest rank tile after the last phase 7 wins (§8).
        tiebreak = [[-state.ranks[seat]] for seat in range(state.players)]
        return Outcome.from_scores(scores, lines, tiebreak)

    def scores(self, state: OasisState) -> tuple[int, ...]:
        """SC1-SC4 on the board and multipliers as they stand now."""
        return tuple(
            sum(points for _, points in rules.score_lines(state, seat))
            for seat in range(state.players)
        )

    def view(self, state: OasisState, seat: Seat | None) -> OasisView:
        awaiting = tuple(dict.fromkeys(d.seat for d in self.decisions(state)))
        outcome = self.outcome(state)
        return build_view(state, seat, awaiting, () if outcome is None else outcome.winners)

    def hand(self, state: OasisState, seat: Seat) -> tuple[Event, ...]:
        return hand_lines(self.view(state, seat))

    def summary(self, state: OasisState) -> tuple[Term, ...]:
        return tuple(
            Term(
                "oasis.summary",
                {
                    "rank": rank_term(state.ranks[seat]),
                    "count": sum(state.mults[seat]),
                    "herd": rules.largest_herd(state, seat),
                },
            )
            for seat in range(state.players)
        )

    def move_hint(self, state: OasisState, seat: Seat, move: Move) -> Term | None:
        if isinstance(move, Take):
            cards = tuple(card_term(c) for c in state.offers[move.seat])
            return Term("oasis.hint.take", {"cards": cards})
        if isinstance(move, Bonus):
            move = move.action  # type: ignore[assignment]
        if isinstance(move, Tile):
            found = rules.place(state, seat, move.land, move.square)
            if not isinstance(found, Placement):
                return None
            if found.kind == "own":
                size = len(rules.domains(state.ground).squares[found.domain])
                return Term("oasis.hint.grow", {"size": size + 1})
            return Term(f"oasis.hint.{found.kind}")
        if isinstance(move, Camel | CamelMove):
            to = move.square if isinstance(move, Camel) else move.to
            herd = _put(state.herd, to, str(seat))
            if isinstance(move, CamelMove):
                herd = _put(herd, move.frm, EMPTY)
            size = rules.largest_herd(replace(state, herd=herd), seat)
            return Term("oasis.hint.herd", {"size": size})
        return None

    def resample(self, state: OasisState, seat: Seat | None, seed: int) -> OasisState:
        """Redeal every stack and the draw pile from their cards (nobody, the
        owner included, knows them, §9), and redraw the PRNG."""
        rng = Rng.from_seed(seed)
        # Sorted first, so that two states the seat cannot tell apart give the
        # same world for the same seed (games/search.py).
        pool = sorted([c for stack in state.stacks for c in stack] + list(state.draw))
        shuffled, rng = rng.shuffled(pool)
        stacks = []
        at = 0
        for stack in state.stacks:
            stacks.append(shuffled[at : at + len(stack)])
            at += len(stack)
        rng = Rng.from_seed(rng.next_u64()[0])
        return replace(state, rng=rng, stacks=tuple(stacks), draw=shuffled[at:])

    def progress(self, state: OasisState) -> float:
        """The nearer of the two ends (EG1): the track's share of squares holding
        a camel, or the share of the emptiest landscape pile placed."""
        if state.phase == "over":
            return 1.0
        track = 1 - len(empty_track(state)) / len(BOARD.track)
        piles = (
            1 - left / CONTENT.tiles[land] for land, left in zip(LANDS, state.lands, strict=True)
        )
        return min(max(track, *piles), 0.99)

    def dump(self, state: OasisState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> OasisState:
        return load_state(data)

    def format_move(self, move: Move) -> str:
        return notation.format_move(move)

    def move_words(self, move: Move) -> Term | None:
        """``révéler``, ``prendre 3``, ``chameau K9``, ``o C4 sans pion``…: the parser
        reads them too."""
        if isinstance(move, Reveal | Stop):
            return Term(f"oasis.move.{notation.format_move(move)}")
        if isinstance(move, Take):
            return Term("oasis.move.take", {"seat": move.seat + 1, "player": player(move.seat)})
        if isinstance(move, Tile):
            where = f"{move.land} {name(move.square)}"
            if move.pawn == NOCLAIM:
                return Term("oasis.move.noclaim", {"tile": where})
            if move.pawn >= 0:
                return Term("oasis.move.claim_from", {"tile": where, "from": name(move.pawn)})
            return None
        if isinstance(move, Camel):
            return Term("oasis.move.camel", {"square": name(move.square)})
        if isinstance(move, CamelMove):
            return Term("oasis.move.camel", {"square": f"{name(move.frm)}>{name(move.to)}"})
        if isinstance(move, Bonus):
            if move.action is None:
                return Term("oasis.move.bonus_pass")
            inner = self.move_words(move.action) or notation.format_move(move.action)
            return Term("oasis.move.bonus", {"action": inner})
        return None

    def parse(self, state: OasisState, seat: Seat, text: str) -> tuple[Move, ...]:
        """All or nothing, checked move by move on the state the earlier ones leave."""
        s = state
        out: list[Move] = []
        for move in notation.parse_text(text):
            move = self._normalise(s, seat, move)
            s = self.play(s, seat, move).state
            out.append(move)
        return tuple(out)

    def _normalise(self, s: OasisState, seat: Seat, move: Move) -> Move:
        """Resolve what the notation leaves to the position: a bare placement in
        the bonus phase is the bonus; ``claim``, ``noclaim`` and ``claim from``
        any square of a domain name the pawn they mean (R22)."""
        if s.phase == "bonus" and isinstance(move, Tile | Camel | CamelMove):
            move = Bonus(move)
        if isinstance(move, Bonus) and isinstance(move.action, Tile):
            return Bonus(self._claim(s, seat, move.action))
        if isinstance(move, Tile):
            return self._claim(s, seat, move)
        return move

    def _claim(self, s: OasisState, seat: Seat, tile: Tile) -> Tile:
        found = rules.place(s, seat, tile.land, tile.square)
        if not isinstance(found, Placement):
            return tile
        choices = rules.pawn_choices(s, seat, found)
        if tile.pawn == notation.CLAIM:
            if found.kind == "own":
                raise illegal("oasis.err.r22_own", square=name(tile.square))
            if not pawns_left(s, seat):
                raise illegal("oasis.err.r22_no_supply")
            return replace(tile, pawn=AUTO)
        # Declining a claim that could not be made anyway is the default.
        if (
            tile.pawn == NOCLAIM
            and NOCLAIM not in choices
            and (found.kind == "own" or not pawns_left(s, seat))
        ):
            return replace(tile, pawn=AUTO)
        if tile.pawn >= 0:
            of = rules.domains(s.ground).of
            for sq, owner in s.pawns:
                if owner == seat and (sq == tile.pawn or (of[sq] >= 0 and of[sq] == of[tile.pawn])):
                    return replace(tile, pawn=sq)
        return tile


def owed_terms(pending: tuple[int, ...]) -> tuple[Term, ...]:
    """The placements a chooser still owes, in words (``2 oasis tiles``)."""
    out = [
        Term("oasis.owed.tiles", {"count": count, "land": land_word(land)})
        for land, count in zip(LANDS, pending, strict=False)
        if count
    ]
    if pending[CAMELS]:
        out.append(Term("oasis.owed.camels", {"count": pending[CAMELS]}))
    return tuple(out)


GAME = OasisGame()
