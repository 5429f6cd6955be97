"""Who may take back what (bot/undo.py), on real positions of every game.

Each game is played by its bots the way the service runs AI seats; seat 0
plays the human who asks to undo. A *case* is one of seat 0's commands and
the AI rows played after it, up to seat 0's next command: what an undo at
that moment would take back. Each test looks for the first case of some
kind, described by the game's own rules (a water hole taken, a card peeked
at, a blue token spied on), and checks the verdict ``judge`` gives it from
the engine alone. A small hand-written game with deliberate private draws,
public reveals and gifts checks the logic case by case.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from bot import registry
from bot.replay import ReplayError, Row
from bot.undo_rules import Judgement, judge, twin_seed
from games.contract import (
    Decision,
    Event,
    Game,
    IllegalMove,
    InvalidMove,
    Outcome,
    Seat,
    Step,
    apply_all,
)
from games.desert.board import index as desert_square
from games.desert.model import PlaceCamel, PlaceLeader
from games.nomadi.model import DieMove
from games.oasis.model import MULTIPLIERS, Take
from games.oasis.model import card as oasis_card
from games.rng import Rng
from tests.contract import LoggedPly, service_playout, walk

SPECS = registry.specs()
UNDOER = 0

FREE = Judgement("free", "undo.free")
TURN_PASSED = Judgement("ask", "undo.turn_passed")
RANDOM_DRAWN = Judgement("ask", "undo.random_drawn")
HIDDEN_REVEALED = Judgement("ask", "undo.hidden_revealed")
PRIVATE = Judgement("refuse", "undo.private_reveal")
OTHERS_MOVED = Judgement("refuse", "undo.others_moved")
NOTHING = Judgement("refuse", "undo.nothing")


# --------------------------------------------------------------------------- real games


@dataclass(frozen=True)
class Case:
    """Seat 0's command and the AI rows after it."""

    key: str
    players: int
    seed: int
    number: int  # the command's index in the game's move log
    plies: tuple[LoggedPly, ...]

    @property
    def first(self) -> LoggedPly:
        return self.plies[0]

    @property
    def ai_plies(self) -> tuple[LoggedPly, ...]:
        return self.plies[1:]

    @property
    def before(self) -> Any:
        return self.first.before

    @property
    def after(self) -> Any:
        return self.plies[-1].step.state

    @property
    def rows(self) -> list[Row]:
        return [p.row for p in self.plies]

    @property
    def ends(self) -> list[bool]:
        return [p.ends for p in self.plies]

    def events(self) -> Iterator[Event]:
        for ply in self.plies:
            yield from walk(ply.step.events)

    def public(self, key: str) -> list[Event]:
        """The public events of that key in the whole case."""
        return [e for e in self.events() if e.key == key and e.to is None]

    def __str__(self) -> str:
        return f"{self.key} {self.players}p seed {self.seed} row {self.number}: {self.rows}"


@cache
def bot_game(key: str, players: int, seed: int) -> tuple[LoggedPly, ...]:
    return tuple(service_playout(SPECS[key], players, seed, game_id=seed))


def cases(key: str, players: int, seed: int) -> Iterator[Case]:
    plies = bot_game(key, players, seed)
    for number, ply in enumerate(plies):
        if ply.row.seat != UNDOER:
            continue
        end = number + 1
        while end < len(plies) and plies[end].row.seat != UNDOER:
            end += 1
        yield Case(key, players, seed, number, plies[number:end])


def find(key: str, players: int, kind: Callable[[Case], bool], seeds: int = 6) -> Case:
    """The first case of that kind, over a few seeded games."""
    for seed in range(1, seeds + 1):
        for case in cases(key, players, seed):
            if kind(case):
                return case
    raise AssertionError(f"{key}: no such case in {seeds} games")


def verdict(case: Case, humans: Sequence[Seat] = (UNDOER,)) -> Judgement:
    ai = [s for s in range(case.players) if s not in humans]
    engine = SPECS[case.key].engine
    return judge(
        engine,
        case.before,
        case.rows,
        UNDOER,
        ai_seats=ai,
        ends_turn=case.ends,
        players=case.players,
    )


def check(case: Case, expected: Judgement) -> None:
    assert verdict(case) == expected, str(case)


def over(case: Case) -> bool:
    return SPECS[case.key].engine.outcome(case.after) is not None


# --------------------------------------------------------------------------- Through the Desert
# Hidden: only the values of the water holes a player took (face down in front
# of him, §9); they were face up on the board before, so other seats learn
# nothing new. No randomness after setup. So there is no "hidden_revealed"
# case at all, and "random_drawn" only when the game ends (every total shown).


def desert_water(case: Case, ply: LoggedPly | None = None) -> bool:
    """The ply (by default the undoer's) puts a camel on a water hole."""
    ply = ply or case.first
    move = ply.move
    return isinstance(move, PlaceCamel) and ply.before.water[desert_square(move.at)] > 0


def desert_quiet(case: Case) -> bool:
    """The undoer's camel takes no water hole and encloses no area."""
    keys = {e.key for e in walk(case.first.step.events)}
    return (
        isinstance(case.first.move, PlaceCamel)
        and not desert_water(case)
        and "desert.log.area" not in keys
    )


def test_desert_a_camel_on_a_water_hole_is_refused() -> None:
    """Its value goes face down, shown to the mover alone: undoing would let him
    replay knowing it (even though it lay face up on the board before)."""
    check(find("desert", 3, lambda c: desert_water(c) and not c.first.ends), PRIVATE)
    # Even when it ended the turn: a refusal outranks asking the others.
    check(find("desert", 3, lambda c: desert_water(c) and c.first.ends), PRIVATE)


def test_desert_the_first_camel_of_a_turn_revealing_nothing_is_free() -> None:
    case = find("desert", 3, lambda c: desert_quiet(c) and not c.first.ends)
    assert len(case.plies) == 1
    check(case, FREE)


def test_desert_a_whole_turn_that_ended_asks_the_others() -> None:
    case = find("desert", 3, lambda c: desert_quiet(c) and c.first.ends and not over(c))
    check(case, TURN_PASSED)
    # The AI seats' water holes after it change nothing: their values were on the board.
    case = find(
        "desert",
        3,
        lambda c: (
            desert_quiet(c)
            and c.first.ends
            and not over(c)
            and any(desert_water(c, p) for p in c.ai_plies)
        ),
    )
    assert any(e.to not in (None, UNDOER) for e in case.events())
    check(case, TURN_PASSED)


def test_desert_placing_a_leader_ends_the_turn() -> None:
    check(find("desert", 3, lambda c: isinstance(c.first.move, PlaceLeader)), TURN_PASSED)


def test_desert_the_last_move_shows_every_total() -> None:
    """The end reveals everyone's water: the only public reveal of the game."""
    case = find("desert", 2, lambda c: over(c) and not desert_water(c), seeds=12)
    check(case, RANDOM_DRAWN)


# --------------------------------------------------------------------------- Nomadi
# Random: the dice (public, rolled when a turn starts, and on a reroll).
# Hidden: desert card values, seen by whoever takes a card, peeks at it in a
# deal, or buys it (§9). Setup cards are placed unseen: nobody learns them.


def nomadi_card_at(case: Case, own: bool) -> bool:
    """The undoer's die move lands on a card, with its own pawn or another's."""
    move, state = case.first.move, case.before
    if not isinstance(move, DieMove) or move.to not in dict(state.board_cards):
        return False
    owner: Seat = next(p.owner for p in state.pawns if p.square == move.frm)
    return (owner == UNDOER) == own


def nomadi_plain_die(case: Case) -> bool:
    move, state = case.first.move, case.before
    return isinstance(move, DieMove) and move.to not in dict(state.board_cards)


def test_nomadi_taking_or_peeking_at_a_card_is_refused() -> None:
    check(find("nomadi", 3, lambda c: nomadi_card_at(c, own=True)), PRIVATE)
    check(find("nomadi", 3, lambda c: nomadi_card_at(c, own=False)), PRIVATE)


def test_nomadi_buying_a_card_is_refused() -> None:
    """The buyer sees the card's value."""
    check(find("nomadi", 3, lambda c: c.first.row.notation == "buy"), PRIVATE)


def test_nomadi_a_die_inside_the_turn_is_free() -> None:
    case = find("nomadi", 3, lambda c: nomadi_plain_die(c) and not c.first.ends)
    check(case, FREE)


def test_nomadi_the_last_die_lets_the_next_player_roll() -> None:
    """Ending the turn rolls the next seat's dice, in public."""
    case = find("nomadi", 3, lambda c: nomadi_plain_die(c) and c.first.ends)
    assert c_rolls(case)
    check(case, RANDOM_DRAWN)


def c_rolls(case: Case) -> bool:
    return bool(case.public("nomadi.log.roll"))


def test_nomadi_a_setup_placement_inside_ones_setup_turn_is_taken_back_freely() -> None:
    """A whole setup is one turn (the option's default): a placement before its
    last one passes the turn to nobody and shows nothing."""
    case = find("nomadi", 3, lambda c: c.before.phase == "setup" and not c.first.ends)
    assert not c_rolls(case)
    check(case, FREE)


def test_nomadi_the_setup_complete_brings_the_first_roll() -> None:
    """The undoer's last placement, then the AI seats' whole setups and the first roll."""

    def completes(c: Case) -> bool:
        return bool(c.before.phase == "setup" and c.after.phase == "turn")

    check(find("nomadi", 3, completes), RANDOM_DRAWN)


def test_nomadi_a_card_bought_by_an_ai_seat_may_be_forgotten() -> None:
    """The undoer named a price (he had peeked already) and the AI owner bought:
    only the buyer, an AI seat, learnt something; it may forget it, so the
    undo is asked only because the turn passed."""
    case = find(
        "nomadi",
        3,
        lambda c: (
            c.first.row.notation.startswith("offer")
            and c.plies[1].row.notation == "buy"
            and not c_rolls(c)  # no public roll after it either
        ),
    )
    check(case, TURN_PASSED)
    refused = find(
        "nomadi",
        3,
        lambda c: (
            c.first.row.notation.startswith("offer")
            and c.plies[1].row.notation == "refuse"
            and not c_rolls(c)
        ),
    )
    check(refused, TURN_PASSED)


# --------------------------------------------------------------------------- Oasis
# Hidden from everyone, the owner included: every stack and the draw pile.
# Turning a card up for an offer is a public draw. Multiplier tiles go face
# down, shown to their owner only (their kinds come from public cards). No
# seat ever learns something others do not: no "hidden_revealed" case.


def oasis_takes(case: Case, multipliers: bool) -> bool:
    move = case.first.move
    if not isinstance(move, Take):
        return False
    offer = case.before.offers[move.seat]
    return any(oasis_card(code).effect in MULTIPLIERS for code in offer) == multipliers


def test_oasis_turning_a_card_up_is_a_public_draw() -> None:
    case = find("oasis", 3, lambda c: c.first.row.notation == "reveal" and not c.first.ends)
    check(case, RANDOM_DRAWN)


def test_oasis_taking_multiplier_tiles_is_refused() -> None:
    """Face down: the taker sees which tiles he holds, the others only how many."""
    check(find("oasis", 3, lambda c: oasis_takes(c, multipliers=True)), PRIVATE)


def test_oasis_an_offer_taken_by_force_for_the_undoer_is_refused_too() -> None:
    """The last chooser's take is forced, played inside the AI's row."""

    def forced(c: Case) -> bool:
        return c.first.row.notation == "stop" and c.after.mults[UNDOER] != c.before.mults[UNDOER]

    check(find("oasis", 3, forced), PRIVATE)


def test_oasis_an_offer_without_multipliers_and_tiles_inside_the_turn_are_free() -> None:
    check(find("oasis", 3, lambda c: oasis_takes(c, multipliers=False) and not c.first.ends), FREE)
    case = find(
        "oasis", 3, lambda c: c.first.row.notation[:2] in ("o ", "s ", "d ") and not c.first.ends
    )
    assert not case.first.ends
    check(case, FREE)


def test_oasis_ending_a_turn() -> None:
    """Asked either way: because the turn passed, or because a card was turned up."""
    quiet = find(
        "oasis",
        3,
        lambda c: c.first.ends and not c.public("oasis.log.reveal") and not over(c),
    )
    check(quiet, TURN_PASSED)
    drawn = find(
        "oasis", 3, lambda c: c.first.row.notation == "stop" and bool(c.public("oasis.log.reveal"))
    )
    check(drawn, RANDOM_DRAWN)


# --------------------------------------------------------------------------- Sahwari
# Hidden: blue convoy faces (seen by their taker and by a spy, public once
# used) and the deck order (cards drawn into the recruitment row in public).


def sahwari_blue(notation: str) -> bool:
    """A step naming a blue token (handles V1, V2, …; yellow ones are Y…)."""
    return any(word.startswith("V") and word[1:].isdigit() for word in notation.split())


def sahwari_no_draw(case: Case) -> bool:
    """No card left the deck and no face was made public in the whole case."""
    table_before, table_after = case.before.table, case.after.table
    used = case.public("sahwari.log.convoy_used")
    return (
        (table_before.deck, table_before.discard) == (table_after.deck, table_after.discard)
        and not any(sahwari_blue(str(e.params["handle"])) for e in used)
        and not over(case)
    )


def test_sahwari_spying_is_refused() -> None:
    check(find("sahwari", 2, lambda c: c.first.row.notation.startswith("spy ")), PRIVATE)


def test_sahwari_taking_a_blue_token_is_refused() -> None:
    check(find("sahwari", 2, lambda c: c.first.row.notation.startswith("take convoy V")), PRIVATE)
    case = find(
        "sahwari",
        2,
        lambda c: (
            c.first.row.notation.startswith(("bowl V", "bird"))
            and sahwari_blue(c.first.row.notation)
        ),
    )
    check(case, PRIVATE)


def test_sahwari_a_yellow_token_is_public() -> None:
    case = find(
        "sahwari",
        2,
        lambda c: c.first.row.notation.startswith(("take convoy Y", "bowl Y")) and not c.first.ends,
    )
    check(case, FREE)


def test_sahwari_moving_inside_the_turn_is_free() -> None:
    check(find("sahwari", 2, lambda c: c.first.row.notation.startswith("move ")), FREE)


def test_sahwari_using_a_blue_token_shows_its_face_to_all() -> None:
    def blue_used(c: Case) -> bool:
        used = [e for e in walk(c.first.step.events) if e.key == "sahwari.log.convoy_used"]
        return any(sahwari_blue(str(e.params["handle"])) for e in used)

    check(find("sahwari", 2, blue_used), RANDOM_DRAWN)


def test_sahwari_renewing_the_row_draws_cards() -> None:
    check(find("sahwari", 2, lambda c: c.first.row.notation == "refresh"), RANDOM_DRAWN)


def test_sahwari_ending_the_turn() -> None:
    # A card taken from the row: phase 4 draws its replacement in public.
    drawn = find(
        "sahwari",
        2,
        lambda c: c.first.row.notation == "end" and not all(c.before.table.row),
    )
    check(drawn, RANDOM_DRAWN)
    # Nothing drawn, nothing seen: the turn passed.
    quiet = find(
        "sahwari",
        2,
        lambda c: (
            c.first.row.notation == "end"
            and sahwari_no_draw(c)
            and not c.public("sahwari.log.spy")
            and not any(e.key == "sahwari.log.face" for e in c.events())
        ),
    )
    check(quiet, TURN_PASSED)
    check(find("sahwari", 2, lambda c: c.first.row.notation.startswith("leader ")), TURN_PASSED)


def test_sahwari_an_ai_seeing_a_blue_face_after_the_turn() -> None:
    """Only the AI seat learnt something: it may forget it; the turn passed, so
    the others are asked."""
    case = find(
        "sahwari",
        2,
        lambda c: (
            c.first.row.notation == "end"
            and sahwari_no_draw(c)
            and any(e.key == "sahwari.log.face" and e.to != UNDOER for e in c.events())
        ),
    )
    check(case, TURN_PASSED)


# --------------------------------------------------------------------------- every game


KEYS = sorted(SPECS)
PLAYERS = {"desert": 3, "nomadi": 3, "oasis": 3, "sahwari": 2}


def handover(key: str) -> Case:
    """Seat 0's turn-ending command followed by seat 1's rows."""
    return find(key, PLAYERS[key], lambda c: len(c.plies) > 1 and c.plies[1].row.seat == 1)


@pytest.mark.parametrize("key", KEYS)
def test_another_human_moved_since(key: str) -> None:
    case = handover(key)
    assert verdict(case, humans=(0, 1)) == OTHERS_MOVED
    assert verdict(case) != OTHERS_MOVED  # AI rows after the undoer's are fine


@pytest.mark.parametrize("key", KEYS)
def test_nothing_to_take_back(key: str) -> None:
    case = handover(key)
    engine = SPECS[key].engine
    assert judge(engine, case.before, [], UNDOER, ai_seats=(1,), ends_turn=[]) == NOTHING
    # Seat 1's row first: not the undoer's command.
    after = case.plies[1]
    assert judge(engine, after.before, [after.row], UNDOER, ai_seats=(1,), ends_turn=[True]) == (
        NOTHING
    )


@pytest.mark.parametrize("key", KEYS)
def test_same_inputs_same_verdict(key: str) -> None:
    case = handover(key)
    first = verdict(case)
    assert all(verdict(case) == first for _ in range(2))


def test_rows_that_do_not_replay_on_the_state_are_an_error() -> None:
    case = handover("desert")
    engine = SPECS["desert"].engine
    rows = [Row(UNDOER, "not a move")]
    with pytest.raises(ReplayError):
        judge(engine, case.before, rows, UNDOER, ai_seats=(1, 2), ends_turn=[True])
    with pytest.raises(ValueError):
        judge(engine, case.before, case.rows, UNDOER, ai_seats=(1, 2), ends_turn=[])


# --------------------------------------------------------------------------- a tiny game
# Seats take turns; the current seat may, any number of times, ``draw`` the
# top card of a face-down deck into its hand (silently: only its view shows
# it), ``look`` at the top card (a private event), ``flip`` it face up on the
# table, ``give K`` it to seat K's hand unseen, ``wait``; ``end`` passes the
# turn. Hands are seen by their owner only.


@dataclass(frozen=True)
class PeekState:
    players: int
    deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    table: tuple[int, ...] = ()
    turn: Seat = 0


@dataclass(frozen=True)
class PeekView:
    turn: Seat
    deck: int
    table: tuple[int, ...]
    hands: tuple[int, ...]
    mine: tuple[int, ...] | None


CARDS = tuple(range(5)) * 4  # few distinct values: two worlds often agree on one card


class Peek(Game[PeekState, str]):
    kind = "peek"
    min_players = 2
    max_players = 4

    def join_moves(self, parts: Sequence[str]) -> str:
        return "; ".join(parts)

    def new(self, players: int, seed: int, options: Mapping[str, str] | None = None) -> PeekState:
        deck, _ = Rng.from_seed(seed).shuffled(CARDS)
        return PeekState(players, deck, ((),) * players)

    def decisions(self, state: PeekState) -> tuple[Decision, ...]:
        return (Decision(state.turn, "peek.move"),)

    def legal_moves(self, state: PeekState, seat: Seat) -> list[str]:
        if seat != state.turn:
            return []
        draws = ["draw", "look", "flip", *(f"give {k}" for k in range(state.players))]
        return [*(draws if state.deck else []), "wait", "end"]

    def play(self, state: PeekState, seat: Seat, move: str) -> Step[PeekState]:
        if move not in self.legal_moves(state, seat):
            raise IllegalMove(f"not now: {move}")
        if move == "wait":
            return Step(state, (), False)
        if move == "end":
            turn = (state.turn + 1) % state.players
            return Step(PeekState(state.players, state.deck, state.hands, state.table, turn))
        top, deck = state.deck[0], state.deck[1:]
        if move == "look":
            return Step(state, (Event("peek.look", {"card": top}, seat, to=seat),), False)
        if move == "flip":
            flipped = PeekState(state.players, deck, state.hands, (*state.table, top), seat)
            return Step(flipped, (Event("peek.flip", {"card": top}, seat),), False)
        to = seat if move == "draw" else int(move.split()[1])
        hands = tuple((*h, top) if i == to else h for i, h in enumerate(state.hands))
        return Step(PeekState(state.players, deck, hands, state.table, seat), (), False)

    def parse(self, state: PeekState, seat: Seat, text: str) -> tuple[str, ...]:
        moves = tuple(part.strip() for part in text.split(";"))
        scratch = state
        for move in moves:
            if move.split(" ")[0] not in ("draw", "look", "flip", "give", "wait", "end"):
                raise InvalidMove(f"not a move: {move}")
            scratch = self.apply(scratch, seat, move)
        return moves

    def format_move(self, move: str) -> str:
        return move

    def outcome(self, state: PeekState) -> Outcome | None:
        return None

    def progress(self, state: PeekState) -> float:
        return 1 - len(state.deck) / len(CARDS)

    def view(self, state: PeekState, seat: Seat | None) -> PeekView:
        mine = state.hands[seat] if seat is not None else None
        sizes = tuple(len(h) for h in state.hands)
        return PeekView(state.turn, len(state.deck), state.table, sizes, mine)

    def hand(self, state: PeekState, seat: Seat) -> tuple[Event, ...]:
        return tuple(Event("peek.card", {"card": c}, to=seat) for c in state.hands[seat])

    def resample(self, state: PeekState, seat: Seat | None, seed: int) -> PeekState:
        unseen = [c for i, h in enumerate(state.hands) if i != seat for c in h]
        pool, _ = Rng.from_seed(seed).shuffled([*state.deck, *unseen])
        hands = []
        for i, h in enumerate(state.hands):
            if i == seat:
                hands.append(h)
            else:
                hands.append(pool[: len(h)])
                pool = pool[len(h) :]
        return PeekState(state.players, pool, tuple(hands), state.table, state.turn)

    def dump(self, state: PeekState) -> dict[str, Any]:
        return {
            "players": state.players,
            "deck": list(state.deck),
            "hands": [list(h) for h in state.hands],
            "table": list(state.table),
            "turn": state.turn,
        }

    def load(self, data: Mapping[str, Any]) -> PeekState:
        return PeekState(
            data["players"],
            tuple(data["deck"]),
            tuple(tuple(h) for h in data["hands"]),
            tuple(data["table"]),
            data["turn"],
        )


PEEK = Peek()


def dealt(players: int) -> PeekState:
    """A fresh deal after one round: seat 0 drew two cards, seat 1 one; seat 0 to play."""
    state = PEEK.new(players, 77)
    setup = [(0, "draw; draw; end"), (1, "draw; end"), *((s, "end") for s in range(2, players))]
    for seat, text in setup:
        state = apply_all(PEEK, state, seat, PEEK.parse(state, seat, text))
    assert state.turn == 0
    return state


def peek(
    *commands: tuple[Seat, str],
    players: int = 3,
    ai: Sequence[Seat] = (1, 2),
    twins: int = 8,
    seed: int = 0,
    tell: bool = True,
) -> Judgement:
    """The verdict on seat 0 taking back ``commands`` (seat 0's first)."""
    rows = [Row(seat, text) for seat, text in commands]
    ends = [text.endswith("end") for _, text in commands]
    return judge(
        PEEK,
        dealt(players),
        rows,
        0,
        ai_seats=ai,
        ends_turn=ends,
        twins=twins,
        seed=seed,
        players=players if tell else None,
    )


def test_a_silent_private_draw_is_found_by_the_undoers_twins() -> None:
    """No event says it; only the undoer's view shows the card drawn."""
    assert peek((0, "draw")) == PRIVATE
    assert peek((0, "draw"), twins=0) == FREE  # without twins nothing can tell


def test_a_private_event_is_refused_without_any_twin() -> None:
    assert peek((0, "look"), twins=0) == PRIVATE
    assert peek((0, "wait; look; wait")) == PRIVATE


def test_a_public_draw_asks() -> None:
    assert peek((0, "flip")) == RANDOM_DRAWN
    assert peek((0, "end"), (1, "flip"), (1, "end")) == RANDOM_DRAWN


def test_a_private_draw_hidden_behind_a_public_one_is_still_refused() -> None:
    """Flip then draw: every twin shows spectators another card, but two twins
    flipping the same card and drawing different ones give the draw away."""
    assert peek((0, "flip; draw")) == PRIVATE
    assert peek((0, "draw; flip")) == PRIVATE
    # The real top card is the only 9: no twin flips it, so no twin looks
    # like the real game to spectators; but twins flipping the same card
    # among themselves and drawing different ones still give the draw away.
    state = PeekState(3, (9,) + (0, 1) * 15, ((), (), ()))
    flipped = {PEEK.resample(state, 0, twin_seed(2, 0, k)).deck[0] for k in range(8)}
    assert 9 not in flipped
    rows = [Row(0, "flip; draw")]
    assert judge(PEEK, state, rows, 0, ai_seats=(1, 2), ends_turn=[False], seed=2) == PRIVATE


def test_each_seats_twins_are_checked() -> None:
    """A card given unseen is seen by its receiver alone: only that seat's
    twins can tell, whichever seat it is."""
    for players in (2, 3, 4):
        for to in range(1, players):
            given = peek((0, f"give {to}"), players=players, ai=())
            assert given == HIDDEN_REVEALED, (players, to)
            # What an AI seat alone learnt it may forget.
            assert peek((0, f"give {to}"), players=players, ai=(to,)) == FREE, (players, to)
    assert peek((0, "give 0")) == PRIVATE  # a gift to oneself is a draw


def test_what_ai_seats_learn_after_the_undoers_turn() -> None:
    """Only AI seats learnt something: nobody is asked for that (the turn passed)."""
    assert peek((0, "end"), (1, "draw"), (1, "end")) == TURN_PASSED
    assert peek((0, "end"), (1, "look"), (1, "end")) == TURN_PASSED
    assert peek((0, "end"), (1, "give 2"), (1, "end")) == TURN_PASSED
    assert peek((0, "end"), (1, "give 0"), (1, "end")) == PRIVATE


def test_a_human_seat_is_checked_only_when_the_seats_are_counted() -> None:
    """Seat 2 is human and moved nothing; a gift to it shows only if ``players`` is given."""
    assert peek((0, "end"), (1, "give 2"), ai=(1,)) == HIDDEN_REVEALED
    assert peek((0, "end"), (1, "give 2"), ai=(1,), tell=False) == TURN_PASSED


def test_nothing_revealed() -> None:
    assert peek((0, "wait")) == FREE
    assert peek((0, "wait; wait")) == FREE
    assert peek((0, "end")) == TURN_PASSED
    assert peek((0, "wait; end"), (1, "wait"), (1, "end"), (2, "end")) == TURN_PASSED


def test_other_humans_and_empty_undos() -> None:
    assert peek((0, "end"), (1, "wait"), ai=(2,)) == OTHERS_MOVED
    assert peek((0, "end"), (1, "draw"), ai=(2,)) == OTHERS_MOVED
    assert peek((1, "wait")) == NOTHING
    assert peek() == NOTHING


def test_the_verdicts_do_not_depend_on_the_seed() -> None:
    commands: list[tuple[tuple[Seat, str], ...]] = [
        ((0, "draw"),),
        ((0, "flip"),),
        ((0, "give 2"),),
        ((0, "flip; draw"),),
        ((0, "wait"),),
        ((0, "end"), (1, "draw"), (1, "end")),
    ]
    for rows in commands:
        verdicts = {peek(*rows, seed=seed) for seed in range(6)}
        assert len(verdicts) == 1, (rows, verdicts)
        assert peek(*rows, seed=3) == peek(*rows, seed=3)
