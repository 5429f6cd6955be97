"""Nomadi (Wittig, 1995): the engine object. Spec: the rules R1-R13, EV1-EV4, EG1-EG2.

Seats are 0-based (seat 0 is the spec's seat 1). Movement rules live in
``rules.py``, the notation in ``notation.py``, what a seat sees in ``views.py``.

Setup (§4) departs from the printed order by default: each seat places its
share of the extra cards and all its pawns in one turn, seat by seat, so
the game posts once per player before the first roll (option ``setup``,
the rulebook's "One turn each"); ``setup: alternate`` keeps the printed
one-placement-a-turn order, and so do the games stored before the option.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
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
from games.nomadi import notation, rules
from games.nomadi.messages import colour, illegal, player, signed
from games.nomadi.model import (
    ARRIVAL_PAY,
    BOARD,
    CARD_VALUES,
    DICE,
    PAWNS_EACH,
    ROUND_CAP,
    SQUARES,
    START_MONEY,
    Accept,
    Bribe,
    Buy,
    DieMove,
    Move,
    NoBribe,
    NomadiView,
    Offer,
    Pay,
    PlaceCard,
    PlacePawn,
    Refuse,
    Reroll,
    TurnRecord,
    king_distance,
    name,
)
from games.nomadi.state import (
    SETUP_PHASES,
    Deal,
    NomadiState,
    Pawn,
    arrivals,
    card_share,
    cards_owed,
    crossed,
    dump_state,
    goal,
    load_state,
    pawns_owed,
    placer,
)
from games.nomadi.views import build_view, hand_lines
from games.rng import Rng
from games.text import Term

OPTIONS = (
    OptionSpec("course", ("full", "short"), "full"),
    OptionSpec("bribes", ("off", "on"), "off"),
    # grouped: each player's whole setup in one turn (one post each, §4);
    # alternate: one card or pawn per turn, round and round, as printed.
    OptionSpec("setup", ("grouped", "alternate"), "grouped"),
)
# The options every game was stored with before the setup option existed (the
# platform stores them resolved): such a game keeps the alternate setup it was
# played with, so its move log still replays from the seed.
_BEFORE_SETUP_OPTION = frozenset({"course", "bribes"})


@lru_cache(maxsize=512)
def _die_moves(s: NomadiState) -> tuple[DieMove, ...]:
    return tuple(rules.die_moves(s))


def card_squares_forbidden(course: str) -> frozenset[int]:
    """R1 (and §10.19): no extra card in the start area or the goal area in play."""
    return BOARD.start | BOARD.goal_of(course)


def roll_choice(s: NomadiState) -> bool:
    """§5 step 2: no die of the first roll is usable, so the player picks reroll or pay."""
    return (
        s.phase == "turn"
        and s.deal is None
        and not any(s.used)
        and not s.rerolled
        and not _die_moves(s)
    )


def _set(values: tuple[int, ...], seat: Seat, value: int) -> tuple[int, ...]:
    return values[:seat] + (value,) + values[seat + 1 :]


def _add(values: tuple[int, ...], seat: Seat, amount: int) -> tuple[int, ...]:
    return _set(values, seat, values[seat] + amount)


def _with(
    groups: tuple[tuple[int, ...], ...], seat: Seat, card: int, sort: bool
) -> tuple[tuple[int, ...], ...]:
    group = (*groups[seat], card)
    return groups[:seat] + (tuple(sorted(set(group))) if sort else group,) + groups[seat + 1 :]


class NomadiGame(Game[NomadiState, Move]):
    kind = "nomadi"
    min_players = 2
    max_players = 5
    options = OPTIONS

    # ------------------------------------------------------------------ setup

    def new(self, players: int, seed: int, options: Mapping[str, str] | None = None) -> NomadiState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Nomadi is for 2-5 players, not {players}")
        chosen = resolve_options(self.options, options)
        if options is not None and set(options) == _BEFORE_SETUP_OPTION:
            chosen["setup"] = "alternate"
        rng = Rng.from_seed(seed)
        values, rng = rng.shuffled(CARD_VALUES)
        water = len(BOARD.water)
        total = PAWNS_EACH[players] * players
        return NomadiState(
            players=players,
            course=chosen["course"],
            bribes=chosen["bribes"],
            phase="setup" if chosen["setup"] == "grouped" else "cards",
            rng=rng,
            values=values,
            board_cards=tuple((sq, card) for card, sq in enumerate(BOARD.water)),
            pile=tuple(range(water, len(CARD_VALUES))),
            held=((),) * players,
            known=((),) * players,
            coins=(START_MONEY,) * players,
            pawns=tuple(Pawn(k % players, -1) for k in range(total)),
        )

    # ------------------------------------------------------------------ who acts

    def decisions(self, state: NomadiState) -> tuple[Decision, ...]:
        s = state
        if s.phase == "over":
            return ()
        if s.phase == "setup":
            seat = placer(s)
            cards, pawns = cards_owed(s, seat), pawns_owed(s, seat)
            if not cards:
                return (Decision(seat, "nomadi.decision.pawn", {"count": pawns}),)
            if not pawns:
                return (Decision(seat, "nomadi.decision.card", {"count": cards}),)
            counts = {
                "cards": Term("nomadi.count.cards", {"count": cards}),
                "pawns": Term("nomadi.count.pawns", {"count": pawns}),
            }
            return (Decision(seat, "nomadi.decision.setup", counts),)
        if s.phase == "cards":
            return (Decision(placer(s), "nomadi.decision.card", {"count": len(s.pile)}),)
        if s.phase == "caravan":
            left = sum(1 for p in s.pawns if p.square < 0)
            return (Decision(placer(s), "nomadi.decision.pawn", {"count": left}),)
        if s.deal is not None:
            d = s.deal
            if d.price < 0:
                return (Decision(d.mover, "nomadi.decision.offer", {"owner": player(d.owner)}),)
            return (
                Decision(
                    d.owner, "nomadi.decision.buy", {"price": d.price, "mover": player(d.mover)}
                ),
            )
        out: list[Decision] = []
        if roll_choice(s):
            out.append(Decision(s.active, "nomadi.decision.reroll"))
        else:
            dice = tuple(d for d, u in zip(s.dice, s.used, strict=True) if not u)
            out.append(
                Decision(
                    s.active,
                    "nomadi.decision.dice",
                    {"count": len(dice), "dice": " ".join(map(str, dice))},
                )
            )
        out.extend(
            Decision(seat, "nomadi.decision.bribe", {"active": player(s.active)}, optional=True)
            for seat in self._bribers(s)
        )
        return tuple(out)

    def _bribers(self, s: NomadiState) -> list[Seat]:
        if s.bribes != "on" or s.phase != "turn" or s.deal is not None:
            return []
        return [
            seat
            for seat in range(s.players)
            if seat != s.active and seat not in s.spoken and s.coins[seat] >= 1
        ]

    def legal_moves(self, state: NomadiState, seat: Seat) -> list[Move]:
        s = state
        if s.phase in SETUP_PHASES:
            if seat != placer(s):
                return []
            moves: list[Move] = []
            if cards_owed(s, seat):  # R1
                taken = {sq for sq, _ in s.board_cards} | card_squares_forbidden(s.course)
                moves.extend(PlaceCard(sq) for sq in range(SQUARES) if sq not in taken)
            if pawns_owed(s, seat) and s.phase != "cards":  # R2
                occ = rules.occupancy(s)
                moves.extend(PlacePawn(sq) for sq in sorted(BOARD.start) if sq not in occ)
            return moves
        if s.phase != "turn":
            return []
        if s.deal is not None:
            d = s.deal
            if d.price < 0:
                if seat != d.mover:
                    return []
                return [Offer(p) for p in range(max(s.coins[d.owner], 0) + 2)]
            if seat != d.owner:
                return []
            can_buy = d.price == 0 or s.coins[d.owner] >= d.price
            return [Buy(), Refuse()] if can_buy else [Refuse()]
        if seat == s.active:
            moves = [Reroll(), Pay()] if roll_choice(s) else list(_die_moves(s))
            moves.extend(Accept(o) for o, amount, _ in s.offers if s.coins[o] >= amount)
            return moves
        if seat in self._bribers(s):
            return [*(Bribe(a) for a in range(1, s.coins[seat] + 1)), NoBribe()]
        return []

    # ------------------------------------------------------------------ playing

    def play(self, state: NomadiState, seat: Seat, move: Move) -> Step[NomadiState]:
        if not self._allowed(state, seat, move):
            raise self.why(state, seat, move)
        events: list[Event] = []
        s = self._apply(state, seat, move, events)
        ends = (
            seat not in self.to_act(s)
            or s.phase != state.phase
            or s.turns != state.turns
            or state.phase in ("cards", "caravan")
        )
        # Dice rolled, a card's value learnt, or every value shown at the end.
        reveals = s.rng != state.rng or s.known != state.known or s.phase == "over"
        return Step(s, tuple(events), ends, reveals)

    def _allowed(self, s: NomadiState, seat: Seat, move: Move) -> bool:
        if isinstance(move, Bribe):  # any message goes with a legal amount
            return Bribe(move.amount) in self.legal_moves(s, seat) and len(move.message) <= 200
        return move in self.legal_moves(s, seat)

    def why(self, s: NomadiState, seat: Seat, move: Move) -> MoveError:
        """The refusal of a move that is not legal now, as precise as we can."""
        if s.phase == "over":
            return illegal("nomadi.err.over")
        if seat not in self.to_act(s):
            return illegal("nomadi.err.not_your_turn")
        if isinstance(move, PlaceCard) and s.phase in SETUP_PHASES and cards_owed(s, seat):
            if move.square in card_squares_forbidden(s.course):
                return illegal("nomadi.err.card_area", square=name(move.square))
            return illegal("nomadi.err.card_taken", square=name(move.square))
        if isinstance(move, PlacePawn) and s.phase in ("setup", "caravan") and pawns_owed(s, seat):
            if move.square not in BOARD.start:
                return illegal("nomadi.err.pawn_area", square=name(move.square))
            return illegal("nomadi.err.occupied", square=name(move.square))
        if isinstance(move, PlaceCard) and s.phase == "setup":
            return illegal("nomadi.err.cards_placed", count=card_share(s.players, seat))
        if isinstance(move, PlacePawn) and s.phase == "setup":
            return illegal("nomadi.err.pawns_placed", count=PAWNS_EACH[s.players])
        if isinstance(move, DieMove) and s.phase == "turn" and s.deal is None and seat == s.active:
            if roll_choice(s):
                return illegal("nomadi.err.no_usable")
            found = rules.reason(s, move, goal(s))
            if found is not None:
                key, params = found
                return illegal(key, **params)
        if (
            isinstance(move, Offer)
            and s.deal is not None
            and s.deal.price < 0
            and seat == s.deal.mover
        ):
            return illegal("nomadi.err.price", top=max(s.coins[s.deal.owner], 0) + 1)
        if isinstance(move, Buy) and s.deal is not None and seat == s.deal.owner:
            return illegal("nomadi.err.cannot_pay", price=s.deal.price)
        if isinstance(move, Bribe) and seat in self._bribers(s):
            return illegal("nomadi.err.bribe", top=s.coins[seat])
        if isinstance(move, Accept) and seat == s.active:
            return illegal("nomadi.err.no_offer", player=player(move.seat))
        return illegal("nomadi.err.not_now")

    def _apply(self, s: NomadiState, seat: Seat, move: Move, events: list[Event]) -> NomadiState:
        if isinstance(move, PlaceCard):
            card, pile = s.pile[0], s.pile[1:]
            cards = tuple(sorted((*s.board_cards, (move.square, card))))
            events.append(Event("nomadi.log.card_placed", {"square": name(move.square)}, seat))
            s = replace(s, board_cards=cards, pile=pile, path=(move.square,))
            if not pile and s.phase == "cards":
                s = replace(s, phase="caravan")
            return self._after_placement(s, events)
        if isinstance(move, PlacePawn):
            index = next(i for i, p in enumerate(s.pawns) if p.square < 0 and p.owner == seat)
            pawns = list(s.pawns)
            pawns[index] = replace(pawns[index], square=move.square)
            events.append(
                Event(
                    "nomadi.log.pawn_placed",
                    {"colour": colour(seat), "square": name(move.square)},
                    seat,
                )
            )
            s = replace(s, pawns=tuple(pawns), path=(move.square,))
            return self._after_placement(s, events)
        if isinstance(move, DieMove):
            return self._die(s, move, events)
        if isinstance(move, Reroll):
            events.append(Event("nomadi.log.reroll", {}, seat))
            s = self._roll(replace(s, rerolled=True), events)
            if not _die_moves(s):
                events.append(Event("nomadi.log.no_dice", {}, seat))
                return self._end_turn(s, events)
            return s
        if isinstance(move, Pay):
            events.append(Event("nomadi.log.pay", {}, seat))
            return self._end_turn(s, events)
        if isinstance(move, Offer):
            assert s.deal is not None
            d = replace(s.deal, price=move.price)
            events.append(
                Event("nomadi.log.offer", {"price": move.price, "owner": player(d.owner)}, seat)
            )
            return replace(s, deal=d)
        if isinstance(move, Buy | Refuse):
            return self._settle(s, isinstance(move, Buy), events)
        if isinstance(move, Bribe):
            params: dict[str, Any] = {"amount": move.amount, "active": player(s.active)}
            key = "nomadi.log.bribe"
            if move.message:
                params["message"] = move.message
                key = "nomadi.log.bribe_message"
            events.append(Event(key, params, seat))
            return replace(
                s,
                offers=(*s.offers, (seat, move.amount, move.message)),
                spoken=(*s.spoken, seat),
            )
        if isinstance(move, NoBribe):
            events.append(Event("nomadi.log.no_bribe", {}, seat))
            return replace(s, spoken=(*s.spoken, seat))
        if isinstance(move, Accept):
            offer = next(o for o in s.offers if o[0] == move.seat)
            amount = offer[1]
            events.append(
                Event("nomadi.log.accept", {"amount": amount, "from": player(move.seat)}, seat)
            )
            coins = _add(_add(s.coins, move.seat, -amount), seat, amount)
            return replace(s, coins=coins, offers=tuple(o for o in s.offers if o[0] != move.seat))
        raise illegal("nomadi.err.not_now")

    # ------------------------------------------------------------------ turns

    def _after_placement(self, s: NomadiState, events: list[Event]) -> NomadiState:
        """Every card and pawn placed: seat 1 takes the first turn (§4.6). The
        grouped setup lets a seat place its pawns before its cards."""
        if s.pile or any(p.square < 0 for p in s.pawns):
            return s
        return self._begin_turn(replace(s, phase="turn"), 0, events)

    def _roll(self, s: NomadiState, events: list[Event]) -> NomadiState:
        rng = s.rng
        dice = []
        for _ in range(DICE):
            value, rng = rng.roll()
            dice.append(value)
        events.append(Event("nomadi.log.roll", {"dice": " ".join(map(str, dice))}, s.active))
        return replace(s, rng=rng, dice=tuple(dice), used=(False,) * DICE)

    def _begin_turn(self, s: NomadiState, seat: Seat, events: list[Event]) -> NomadiState:
        s = replace(s, active=seat, rerolled=False, history=(), offers=(), spoken=())
        return self._roll(s, events)

    def _end_turn(self, s: NomadiState, events: list[Event]) -> NomadiState:
        """R12 penalty, then EG2, then the next seat's roll."""
        unused = sum(1 for u in s.used if not u)
        if unused:
            events.append(Event("nomadi.log.penalty", {"count": unused}, s.active))
            s = replace(s, coins=_add(s.coins, s.active, -unused))
        moves = tuple((die, frm, to) for die, _, frm, to in s.history)
        s = replace(s, previous=TurnRecord(s.active, s.dice, s.used, moves, unused))
        idle = 0 if any(s.used) else s.idle + 1
        s = replace(s, turns=s.turns + 1, idle=idle, offers=(), spoken=(), history=())
        if idle >= s.players:
            return self._finish(s, "idle", events)
        if s.turns >= ROUND_CAP * s.players:
            return self._finish(s, "rounds", events)
        return self._begin_turn(s, (s.active + 1) % s.players, events)

    def _finish(self, s: NomadiState, why: str, events: list[Event]) -> NomadiState:
        s = replace(s, phase="over", end=why, deal=None, offers=(), spoken=())
        events.append(Event(f"nomadi.log.end_{why}"))
        for seat in range(s.players):
            values = [s.values[c] for c in s.held[seat]]
            cards = sum(values)
            # Every card revealed, in full: the board's panel has room for the total only.
            shown = " ".join(signed(v) for v in values) or "–"
            events.append(Event("nomadi.log.revealed", {"values": shown}, seat))
            score = s.coins[seat] + cards
            params = {"coins": s.coins[seat], "cards": cards, "score": score}
            events.append(Event("nomadi.log.final", params, seat))
        return s

    def _after_move(self, s: NomadiState, events: list[Event]) -> NomadiState:
        if s.phase == "over" or s.deal is not None:
            return s
        if all(s.used) or not _die_moves(s):
            return self._end_turn(s, events)
        return s

    # ------------------------------------------------------------------ a die

    def _die(self, s: NomadiState, move: DieMove, events: list[Event]) -> NomadiState:
        mover = s.active
        occ = rules.occupancy(s)
        index = occ[move.frm]
        pawn = s.pawns[index]
        die_index = next(
            i
            for i, (d, u) in enumerate(zip(s.dice, s.used, strict=True))
            if d == move.die and not u
        )
        used = s.used[:die_index] + (True,) + s.used[die_index + 1 :]
        moved = replace(pawn, square=move.to)
        pawns = s.pawns[:index] + (moved,) + s.pawns[index + 1 :]
        events.append(
            Event(
                "nomadi.log.move",
                {
                    "die": move.die,
                    "from": name(move.frm),
                    "to": name(move.to),
                    "colour": colour(pawn.owner),
                },
                mover,
            )
        )
        s = replace(
            s,
            pawns=pawns,
            used=used,
            history=(*s.history, (move.die, index, move.frm, move.to)),
            path=rules.path_to(move.frm, move.die, move.to, occ),
        )
        card = dict(s.board_cards).get(move.to)
        if card is not None:  # EV1
            s = replace(
                s,
                board_cards=tuple(c for c in s.board_cards if c[0] != move.to),
                coins=_add(s.coins, mover, 1),
            )
            if pawn.owner == mover:
                events.append(Event("nomadi.log.card_own", {"square": name(move.to)}, mover))
                events.append(
                    Event(
                        "nomadi.log.card_value", {"value": f"{s.values[card]:+d}"}, mover, to=mover
                    )
                )
                s = replace(
                    s,
                    held=_with(s.held, mover, card, False),
                    known=_with(s.known, mover, card, True),
                )
            else:
                events.append(
                    Event(
                        "nomadi.log.card_found",
                        {"square": name(move.to), "owner": player(pawn.owner)},
                        mover,
                    )
                )
                events.append(
                    Event("nomadi.log.peek", {"value": f"{s.values[card]:+d}"}, mover, to=mover)
                )
                deal = Deal(card, mover, pawn.owner, index, move.frm)
                return replace(s, known=_with(s.known, mover, card, True), deal=deal)
        s = self._ev2_to_ev4(s, index, move.frm, events)
        return self._after_move(s, events)

    def _settle(self, s: NomadiState, buy: bool, events: list[Event]) -> NomadiState:
        d = s.deal
        assert d is not None
        if buy:
            coins = _add(_add(s.coins, d.owner, -d.price), d.mover, d.price)
            events.append(
                Event("nomadi.log.buy", {"price": d.price, "mover": player(d.mover)}, d.owner)
            )
            events.append(
                Event(
                    "nomadi.log.card_value",
                    {"value": f"{s.values[d.card]:+d}"},
                    d.owner,
                    to=d.owner,
                )
            )
            s = replace(
                s,
                coins=coins,
                held=_with(s.held, d.owner, d.card, False),
                known=_with(s.known, d.owner, d.card, True),
            )
        else:
            events.append(Event("nomadi.log.refuse", {"mover": player(d.mover)}, d.owner))
            s = replace(s, held=_with(s.held, d.mover, d.card, False))
        s = replace(s, deal=None)
        s = self._ev2_to_ev4(s, d.pawn, d.frm, events)
        return self._after_move(s, events)

    def _ev2_to_ev4(self, s: NomadiState, index: int, frm: int, events: list[Event]) -> NomadiState:
        mover = s.active
        pawn = s.pawns[index]
        owner, to = pawn.owner, pawn.square
        # EV2: the last pawn out of the start area (once: none can go back in, R8).
        if (
            frm in BOARD.start
            and to not in BOARD.start
            and not any(p.square in BOARD.start for p in s.pawns)
        ):
            events.append(Event("nomadi.log.last_out", {"player": player(owner)}))
            s = replace(s, coins=_add(s.coins, owner, 5))
        # EV3: crossing the valley; the first pawn across is alone on the goal side.
        if not BOARD.goal_side(frm) and BOARD.goal_side(to):
            if sum(1 for p in s.pawns if BOARD.goal_side(p.square)) == 1:
                events.append(Event("nomadi.log.first_cross", {"player": player(mover)}))
                s = replace(s, coins=_add(s.coins, mover, 5))
            if all(BOARD.goal_side(p.square) for p in s.pawns):
                events.append(Event("nomadi.log.last_cross", {"player": player(owner)}))
                s = replace(s, coins=_add(s.coins, owner, -5))
        # EV4: the goal.
        if to in goal(s):
            k = arrivals(s)
            pay = ARRIVAL_PAY[k - 1]
            if owner == mover:
                coins = _add(s.coins, mover, pay)
                events.append(
                    Event(
                        "nomadi.log.arrival", {"count": k, "amount": pay, "player": player(mover)}
                    )
                )
            else:
                coins = _add(_add(s.coins, mover, pay // 2), owner, pay // 2)
                events.append(
                    Event(
                        "nomadi.log.arrival_shared",
                        {
                            "count": k,
                            "amount": pay // 2,
                            "mover": player(mover),
                            "owner": player(owner),
                        },
                    )
                )
            s = replace(s, coins=coins)
            if k == len(ARRIVAL_PAY):
                return self._finish(s, "third", events)
        return s

    # ------------------------------------------------------------------ results and views

    def outcome(self, state: NomadiState) -> Outcome | None:
        if state.phase != "over":
            return None
        cards = [sum(state.values[c] for c in held) for held in state.held]
        scores = [c + v for c, v in zip(state.coins, cards, strict=True)]
        breakdown = [(("coins", c), ("cards", v)) for c, v in zip(state.coins, cards, strict=True)]
        return Outcome.from_scores(scores, breakdown)

    def progress(self, state: NomadiState) -> float:
        """How near the third pawn is to the oasis (EG1): the mean share of the
        way covered by the three most advanced pawns (king steps, the start
        area's farthest square from the goal being the whole way)."""
        if state.phase == "over":
            return 1.0
        if state.phase != "turn":
            return 0.0
        goal = BOARD.goal_of(state.course)
        whole = max(king_distance(sq, goal) for sq in BOARD.start)
        covered = sorted(
            (1 - king_distance(p.square, goal) / whole for p in state.pawns if p.square >= 0),
            reverse=True,
        )[: len(ARRIVAL_PAY)]
        by_distance = sum(covered) / len(ARRIVAL_PAY)  # the third arrival ends it
        by_cap = state.turns / (ROUND_CAP * state.players)  # EG2's safety cap
        return min(max(by_distance, by_cap), 0.99)

    def scores(self, state: NomadiState) -> tuple[int, ...]:
        """Coins plus the true values of the cards held, as they stand now."""
        return tuple(
            coins + sum(state.values[c] for c in held)
            for coins, held in zip(state.coins, state.held, strict=True)
        )

    def view(self, state: NomadiState, seat: Seat | None) -> NomadiView:
        awaiting = tuple(dict.fromkeys(d.seat for d in self.decisions(state) if not d.optional))
        return build_view(state, seat, awaiting, roll_choice(state))

    def hand(self, state: NomadiState, seat: Seat) -> tuple[Event, ...]:
        return hand_lines(self.view(state, seat))

    def summary(self, state: NomadiState) -> tuple[Term, ...]:
        return tuple(
            Term("nomadi.summary", {"coins": state.coins[seat], "count": len(state.held[seat])})
            for seat in range(state.players)
        )

    def move_hint(self, state: NomadiState, seat: Seat, move: Move) -> Term | None:
        if not isinstance(move, DieMove):
            return None
        if move.to in goal(state):
            return Term("nomadi.hint.goal", {"amount": ARRIVAL_PAY[min(arrivals(state), 2)]})
        if move.to in dict(state.board_cards):
            return Term("nomadi.hint.card")
        if not crossed(state) and not BOARD.goal_side(move.frm) and BOARD.goal_side(move.to):
            return Term("nomadi.hint.cross")
        return None

    def resample(self, state: NomadiState, seat: Seat | None, seed: int) -> NomadiState:
        """Redraw every card value ``seat`` does not know, and the PRNG (§9)."""
        rng = Rng.from_seed(seed)
        if state.phase == "over":
            return replace(state, rng=rng)
        known = set(state.known[seat]) if seat is not None else set()
        unknown = [c for c in range(len(state.values)) if c not in known]
        # Drawn from the values in a set order, so that two states the seat cannot
        # tell apart give the same world for the same seed (games/search.py).
        drawn, rng = rng.shuffled(sorted(state.values[c] for c in unknown))
        values = list(state.values)
        for card, value in zip(unknown, drawn, strict=True):
            values[card] = value
        rng = Rng.from_seed(rng.next_u64()[0])
        return replace(state, rng=rng, values=tuple(values))

    def dump(self, state: NomadiState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> NomadiState:
        return load_state(data)

    def format_move(self, move: Move) -> str:
        return notation.format_move(move)

    def format_command(self, moves: Sequence[Move]) -> str:
        """A whole setup names ``card`` and ``place`` once each (``card F9 G10
        place M16 N16 …``): a player's setup fits Discord's 100 characters."""
        return notation.format_moves(moves)

    def move_words(self, move: Move) -> Term | None:
        """``carte F9``, ``prix 2``, ``acheter``…: the parser reads them too (a die
        move, ``3 J12-G12``, reads the same in every language)."""
        if isinstance(move, PlaceCard | PlacePawn):
            kind = "card" if isinstance(move, PlaceCard) else "place"
            return Term(f"nomadi.move.{kind}", {"square": name(move.square)})
        if isinstance(move, Offer):
            return Term("nomadi.move.offer", {"price": move.price})
        if isinstance(move, Accept):
            return Term("nomadi.move.accept", {"seat": move.seat + 1, "player": player(move.seat)})
        if isinstance(move, Bribe):
            words = Term("nomadi.move.bribe", {"amount": move.amount})
            if not move.message:
                return words
            return Term("nomadi.move.bribe_message", {"bribe": words, "message": move.message})
        if isinstance(move, DieMove):
            return None
        return Term(f"nomadi.move.{notation.format_move(move)}")

    def parse(self, state: NomadiState, seat: Seat, text: str) -> tuple[Move, ...]:
        """All or nothing, checked move by move; a move that opens a card deal
        ends the command, since the deal is settled before anything else (§11)."""
        moves = notation.parse_text(text)
        s = state
        for done, move in enumerate(moves, 1):
            s = self.play(s, seat, move).state
            if s.deal is not None and isinstance(move, DieMove) and done < len(moves):
                raise illegal("nomadi.err.deal_last", square=name(move.to))
        return moves


GAME = NomadiGame()
