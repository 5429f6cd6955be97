"""Oasis Nim: a tiny game that exists only to prove the platform's seam.

2-4 players share a pile of stones. Each holds a secret card (1-5) drawn
from a shuffled deck. First, everyone at once decides to keep the card or
swap it for the top of the deck (several seats act simultaneously): the new
card is told privately to the swapper, and the discarded one, face down, is
shown privately to the next seat. Then, in turn, a player takes 1 to 3
stones. Taking the last stone ends the game. Score: stones taken + card
value; ties go to whoever took the last stone, then are shared.

It has what the real games need from the platform: options, hidden
information, private events, random draws during play, simultaneous
decisions and a tie-break.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from games import catalogue
from games.contract import (
    Decision,
    Event,
    Game,
    IllegalMove,
    InvalidMove,
    OptionSpec,
    Outcome,
    Seat,
    Step,
    resolve_options,
)
from games.rng import Rng
from games.text import Param

catalogue.add_source("tests.nim")

PILES = {"short": 10, "long": 15}
DECK = tuple(v for v in range(1, 6) for _ in range(3))  # 1-5, three of each
MAX_TAKE = 3
UNDECIDED = -1
Phase = Literal["swap", "take", "over"]


@dataclass(frozen=True)
class Keep:
    pass


@dataclass(frozen=True)
class Swap:
    pass


@dataclass(frozen=True)
class Take:
    count: int


Move = Keep | Swap | Take


@dataclass(frozen=True)
class NimState:
    players: int
    phase: Phase
    rng: Rng
    pile: int
    current: Seat
    cards: tuple[int, ...]  # per seat (secret until the end)
    deck: tuple[int, ...]  # face down, top first
    discards: tuple[tuple[int, Seat], ...]  # face down: (card, the seat shown it)
    swapped: tuple[int, ...]  # per seat: UNDECIDED, 0 kept, 1 swapped
    taken: tuple[int, ...]  # stones per seat
    last: Seat | None  # who took the last stone
    last_take: tuple[Seat, int] | None  # for the board's highlight


@dataclass(frozen=True)
class NimView:
    viewer: Seat | None
    players: int
    phase: Phase
    pile: int
    cards: tuple[int | None, ...]  # only the viewer's own, all once over
    deck_size: int
    discards: tuple[int | None, ...]  # the ones shown to the viewer, all once over
    decided: tuple[bool, ...]
    taken: tuple[int, ...]
    to_act: tuple[Seat, ...]
    last_take: tuple[Seat, int] | None
    outcome: Outcome | None


def _error(kind: type[IllegalMove] | type[InvalidMove], key: str, **params: Param) -> Any:
    return kind(catalogue.text("en", key, params), key=key, **params)


class NimGame(Game[NimState, Move]):
    kind = "nim"
    min_players = 2
    max_players = 4
    options = (OptionSpec("pile", ("short", "long"), "short"),)

    def new(self, players: int, seed: int, options: Mapping[str, str] | None = None) -> NimState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Oasis Nim needs 2 to 4 players, not {players}")
        chosen = resolve_options(self.options, options)
        deck, rng = Rng.from_seed(seed).shuffled(DECK)
        return NimState(
            players=players,
            phase="swap",
            rng=rng,
            pile=PILES[chosen["pile"]],
            current=0,
            cards=deck[:players],
            deck=deck[players:],
            discards=(),
            swapped=(UNDECIDED,) * players,
            taken=(0,) * players,
            last=None,
            last_take=None,
        )

    def decisions(self, state: NimState) -> tuple[Decision, ...]:
        if state.phase == "swap":
            return tuple(
                Decision(seat, "nim.decision.swap")
                for seat in range(state.players)
                if state.swapped[seat] == UNDECIDED
            )
        if state.phase == "take":
            most = min(MAX_TAKE, state.pile)
            return (Decision(state.current, "nim.decision.take", {"count": most}),)
        return ()

    def legal_moves(self, state: NimState, seat: Seat) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        if state.phase == "swap":
            return [Keep(), Swap()]
        return [Take(n) for n in range(1, min(MAX_TAKE, state.pile) + 1)]

    def play(self, state: NimState, seat: Seat, move: Move) -> Step[NimState]:
        if state.phase == "over":
            raise _error(IllegalMove, "nim.over")
        if seat not in self.to_act(state):
            raise _error(IllegalMove, "nim.not_your_turn")
        if state.phase == "swap":
            if not isinstance(move, Keep | Swap):
                raise _error(IllegalMove, "nim.expect_swap")
            return self._decide(state, seat, isinstance(move, Swap))
        if not isinstance(move, Take):
            raise _error(IllegalMove, "nim.expect_take")
        if not 1 <= move.count <= min(MAX_TAKE, state.pile):
            raise _error(IllegalMove, "nim.take_range", most=min(MAX_TAKE, state.pile))
        return self._take(state, seat, move.count)

    def _decide(self, s: NimState, seat: Seat, swap: bool) -> Step[NimState]:
        cards, deck, discards = list(s.cards), s.deck, s.discards
        events: list[Event] = []
        if swap:
            told = (seat + 1) % s.players
            discards = (*discards, (cards[seat], told))
            events.append(Event("nim.log.swap", seat=seat))
            events.append(
                Event("nim.log.told", {"player": seat + 1, "card": cards[seat]}, seat, to=told)
            )
            cards[seat], deck = deck[0], deck[1:]
            events.append(Event("nim.log.drew", {"card": cards[seat]}, seat, to=seat))
        else:
            events.append(Event("nim.log.keep", seat=seat))
        swapped = s.swapped[:seat] + (int(swap),) + s.swapped[seat + 1 :]
        after = replace(s, cards=tuple(cards), deck=deck, discards=discards, swapped=swapped)
        if UNDECIDED not in swapped:
            after = replace(after, phase="take", current=0)
        return Step(after, tuple(events), reveals=swap)  # a card drawn from the deck

    def _take(self, s: NimState, seat: Seat, count: int) -> Step[NimState]:
        pile = s.pile - count
        taken = s.taken[:seat] + (s.taken[seat] + count,) + s.taken[seat + 1 :]
        events = [Event("nim.log.take", {"count": count, "left": pile}, seat)]
        after = replace(s, pile=pile, taken=taken, last_take=(seat, count))
        if pile == 0:
            events.append(Event("nim.log.last", {"player": seat + 1}))
            over = replace(after, phase="over", last=seat)
            return Step(over, tuple(events), reveals=True)  # every card is shown
        return Step(replace(after, current=(seat + 1) % s.players), tuple(events))

    # ------------------------------------------------------------------ notation

    def parse(self, state: NimState, seat: Seat, text: str) -> tuple[Move, ...]:
        words = text.lower().split()
        move: Move
        if words in (["keep"], ["garder"]):
            move = Keep()
        elif words in (["swap"], ["échanger"], ["echanger"]):
            move = Swap()
        elif len(words) == 2 and words[0] in ("take", "prendre") and words[1].isdigit():
            move = Take(int(words[1]))
        else:
            raise _error(InvalidMove, "nim.syntax", text=text[:40])
        self.play(state, seat, move)  # refuses illegal moves with the reason
        return (move,)

    def format_move(self, move: Move) -> str:
        if isinstance(move, Take):
            return f"take {move.count}"
        return "swap" if isinstance(move, Swap) else "keep"

    # ------------------------------------------------------------------ views

    def progress(self, state: NimState) -> float:
        """The share of the stones taken."""
        if state.phase == "over":
            return 1.0
        taken = sum(state.taken)
        return min(taken / (taken + state.pile), 0.99)

    def outcome(self, state: NimState) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = [state.taken[s] + state.cards[s] for s in range(state.players)]
        breakdown = [
            (("stones", state.taken[s]), ("card", state.cards[s])) for s in range(state.players)
        ]
        tiebreak = [[1 if s == state.last else 0] for s in range(state.players)]
        return Outcome.from_scores(scores, breakdown, tiebreak)

    def view(self, state: NimState, seat: Seat | None) -> NimView:
        over = state.phase == "over"
        return NimView(
            viewer=seat,
            players=state.players,
            phase=state.phase,
            pile=state.pile,
            cards=tuple(c if over or s == seat else None for s, c in enumerate(state.cards)),
            deck_size=len(state.deck),
            discards=tuple(c if over or told == seat else None for c, told in state.discards),
            decided=tuple(v != UNDECIDED for v in state.swapped),
            taken=state.taken,
            to_act=self.to_act(state),
            last_take=state.last_take,
            outcome=self.outcome(state),
        )

    def hand(self, state: NimState, seat: Seat) -> tuple[Event, ...]:
        return (Event("nim.hand.card", {"card": state.cards[seat]}),)

    def resample(self, state: NimState, seat: Seat | None, seed: int) -> NimState:
        rng = Rng.from_seed(seed)
        if state.phase == "over":
            return replace(state, rng=rng)
        # Hidden from ``seat``: the deck, the others' cards, discards not shown to it.
        hidden = [
            *state.deck,
            *(c for s, c in enumerate(state.cards) if s != seat),
            *(c for c, told in state.discards if told != seat),
        ]
        drawn, rng = rng.shuffled(hidden)
        cards = list(state.cards)
        for s in range(state.players):
            if s != seat:
                cards[s], drawn = drawn[0], drawn[1:]
        discards = []
        for card, told in state.discards:
            if told != seat:
                card, drawn = drawn[0], drawn[1:]
            discards.append((card, told))
        return replace(state, rng=rng, cards=tuple(cards), deck=drawn, discards=tuple(discards))

    # ------------------------------------------------------------------ storage

    def dump(self, state: NimState) -> dict[str, Any]:
        return {
            "players": state.players,
            "phase": state.phase,
            "rng": state.rng.state,
            "pile": state.pile,
            "current": state.current,
            "cards": list(state.cards),
            "deck": list(state.deck),
            "discards": [list(d) for d in state.discards],
            "swapped": list(state.swapped),
            "taken": list(state.taken),
            "last": state.last,
            "last_take": None if state.last_take is None else list(state.last_take),
        }

    def load(self, data: Mapping[str, Any]) -> NimState:
        last_take = data["last_take"]
        return NimState(
            players=int(data["players"]),
            phase=data["phase"],
            rng=Rng(int(data["rng"])),
            pile=int(data["pile"]),
            current=int(data["current"]),
            cards=tuple(data["cards"]),
            deck=tuple(data["deck"]),
            discards=tuple((int(c), int(t)) for c, t in data["discards"]),
            swapped=tuple(data["swapped"]),
            taken=tuple(data["taken"]),
            last=data["last"],
            last_take=None if last_take is None else (int(last_take[0]), int(last_take[1])),
        )


GAME = NimGame()
