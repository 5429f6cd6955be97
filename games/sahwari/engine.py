"""Sahwari: the engine object (spec §4-§13, notation §17). Seats are 0-based.

The turn, its prompts and their automatic answers live in ``flow.py``; the
procedures and effects in ``effects.py``; the steps each prompt accepts in
``legal.py``. This module is the contract of ``games/contract.py``: it checks a
step against the legal ones, reads commands (all or nothing, with D46), and
gives views, results and secrets-safe twins (``resample``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
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
from games.rng import Rng
from games.sahwari import board, flow, notation
from games.sahwari import clan as clans
from games.sahwari.content import TOKEN_IDS
from games.sahwari.context import Ctx, camel_of, kind_term
from games.sahwari.effects import face_term
from games.sahwari.highlight import last_move
from games.sahwari.legal import default_stop, window_uses
from games.sahwari.messages import illegal
from games.sahwari.moves import (
    End,
    GuildMove,
    Move,
    MoveCamel,
    Next,
    Recruit,
    Skip,
    UseAttack,
    UseStorage,
    UseTrack,
)
from games.sahwari.state import (
    EFFECTS,
    GUILD_MOVE,
    MOVE,
    SECOND_MOVE,
    WINDOW,
    SahwariState,
    dump_state,
    load_state,
    new_state,
)
from games.sahwari.table import END_THRESHOLD
from games.sahwari.views import SahwariView, build_view, faces_seen
from games.text import Param, Term

USUAL_ROUNDS = 16  # bot games end after 12 to 20 rounds, at any table size

OPTIONS = (
    OptionSpec("layout", ("standard", "random"), "standard"),  # §3.2 random layout
    OptionSpec("leaders", ("choose", "random"), "choose"),  # §4 step 8
)


class SahwariGame(Game[SahwariState, Move]):
    kind = "sahwari"
    min_players = 2
    max_players = 4
    options = OPTIONS

    # ------------------------------------------------------------------ setup

    def new(
        self, players: int, seed: int, options: Mapping[str, str] | None = None
    ) -> SahwariState:
        chosen = resolve_options(self.options, options)
        state = new_state(
            players,
            seed,
            random_layout=chosen["layout"] == "random",
            random_leaders=chosen["leaders"] == "random",
        )
        ctx = Ctx(state)
        if not state.stack:  # leaders dealt: the first turn starts at once
            flow.start_turn(ctx, 0)
            flow.settle(ctx)
        return ctx.s

    # ------------------------------------------------------------------ who acts

    def decisions(self, state: SahwariState) -> tuple[Decision, ...]:
        top = state.top
        if state.over or top is None:
            return ()
        params: dict[str, Param] = {}
        if top.prompt == WINDOW:
            params = {
                "window": Term(f"sahwari.window.{top.args[0]}"),
                "examples": window_examples(state, top.seat),
            }
        elif top.prompt == EFFECTS:
            params = {"kinds": tuple(kind_term(k) for k in top.args)}
        elif top.prompt == GUILD_MOVE:
            params = {"number": int(top.args[0])}
        elif top.args:
            params = {"detail": top.args[0]}
        return (Decision(top.seat, f"sahwari.decision.{top.prompt}", params),)

    def legal_moves(self, state: SahwariState, seat: Seat) -> list[Move]:
        return flow.moves_now(Ctx(state), seat)

    # ------------------------------------------------------------------ playing

    def play(self, state: SahwariState, seat: Seat, move: Move) -> Step[SahwariState]:
        step = self.simulate(state, seat, move)
        return replace(step, state=_with_last_turn(state, step.state))

    def simulate(self, state: SahwariState, seat: Seat, move: Move) -> Step[SahwariState]:
        """The step without the board's last-move record (two public views and a
        diff per step, a sixth of a search's time): a search never draws."""
        ctx = self._played(state, seat, move)
        s = ctx.s
        ends = (
            s.over
            or (s.round, s.active) != (state.round, state.active)
            or seat not in self.to_act(s)
            or not state.clans  # a leader is chosen in a post of its own
        )
        # A blue face seen, a card drawn, the PRNG, or every face shown at the end.
        reveals = s.over or (s.known, s.table.deck, s.rng) != (
            state.known,
            state.table.deck,
            state.rng,
        )
        return Step(s, tuple(ctx.events), ends, reveals)

    def _played(
        self, state: SahwariState, seat: Seat, move: Move, legal: list[Move] | None = None
    ) -> Ctx:
        """The step played, once checked against the legal ones (``legal`` when the
        caller already listed them)."""
        if move not in (self.legal_moves(state, seat) if legal is None else legal):
            raise self._refusal(state, seat, move)
        ctx = Ctx(state)
        flow.apply(ctx, seat, move)
        flow.settle(ctx)
        steps = tuple((who, notation.format_move(m)) for who, m in ctx.autos)
        ctx.s = replace(ctx.s, autos=steps)
        return ctx

    def _refusal(self, s: SahwariState, seat: Seat, move: Move) -> MoveError:
        """Why a step is not legal now, in the rule's words where one applies."""
        top = s.top
        if s.over or top is None:
            return illegal("sahwari.err.over")
        if top.seat != seat:
            return illegal("sahwari.err.not_your_turn")
        ctx = Ctx(s)
        if top.prompt == WINDOW and not isinstance(move, Next | End) and not _is_use(move):
            flow.through_windows(ctx, move)  # a phase step: judged where it would apply
            later = ctx.top
            if later is not None and later.seat == seat and later.prompt != WINDOW:
                return self._refusal(ctx.s, seat, move)
            ctx = Ctx(s)
        c = s.clans[seat] if s.clans else None
        if c is not None and top.prompt == WINDOW:
            if isinstance(move, UseTrack):
                if move.ability in s.track_used:
                    return illegal("sahwari.err.s6_once", kind=kind_term(move.ability))
                return illegal("sahwari.err.s6_cost", kind=kind_term(move.ability), count=c.track)
            if isinstance(move, UseStorage):
                return illegal("sahwari.err.s3", space=move.space)
            if isinstance(move, UseAttack) and not c.attack_tokens:
                return illegal("sahwari.err.a1_token")
        if isinstance(move, MoveCamel) and top.prompt in (MOVE, SECOND_MOVE):
            return illegal("sahwari.err.r2", direction=move.direction)
        if isinstance(move, Recruit) and c is not None and top.prompt != WINDOW:
            card = s.table.row[move.position - 1]
            if card and move.side not in clans.placement_sides(c.row, card):
                return illegal("sahwari.err.k6", card=card)
        examples = tuple(self.move_words(m) for m in flow.moves_now(ctx, seat)[:4])
        return illegal(
            "sahwari.err.now",
            step=self.move_words(move),
            prompt=Term(f"sahwari.render.prompt.{top.prompt}"),
            examples=examples or "-",
        )

    # ------------------------------------------------------------------ commands

    def parse(self, state: SahwariState, seat: Seat, text: str) -> tuple[Move, ...]:
        """All or nothing, each step checked on the state the earlier ones leave.
        A step repeating a decision the engine took on its own since the step
        before is accepted and does nothing (D46)."""
        s = state
        out: list[Move] = []
        autos = _own(state.autos, seat)  # decided when the last command ended
        for typed in notation.parse_text(text):
            move = self._canonical(s, seat, typed)
            legal = self.legal_moves(s, seat)
            if move not in legal:
                if any(_repeats(typed, done) for done in autos):
                    continue
                closing = self._closing(s, seat, typed)
                if closing is None:
                    raise self._refusal(s, seat, move)
                nexts, s, autos = closing
                out.extend(nexts)
                continue
            s = self._played(s, seat, move, legal).s
            autos = _own(s.autos, seat)
            out.append(move)
        return tuple(out)

    def _closing(
        self, s: SahwariState, seat: Seat, typed: Move
    ) -> tuple[list[Move], SahwariState, list[Move]] | None:
        """D46 in a window: a typed step that closing the windows would answer on
        its own (``take artefact`` when the tile holds only cubes) closes them."""
        nexts: list[Move] = []
        autos: list[Move] = []
        turn = (s.round, s.active)
        while (top := s.top) is not None and top.prompt == WINDOW and top.seat == seat:
            if top.args == (flow.LAST_WINDOW,) or (s.round, s.active) != turn:
                return None
            s = self._played(s, seat, Next()).s
            nexts.append(Next())
            autos.extend(_own(s.autos, seat))
            if any(_repeats(typed, done) for done in autos):
                return nexts, s, autos
        return None

    def _canonical(self, s: SahwariState, seat: Seat, move: Move) -> Move:
        """The legal form of a step written another way: a stop named although it
        is the default, ``skip`` for the only pending effect, ``next`` in W3."""
        ctx = Ctx(s)
        top = ctx.top
        if top is None or top.seat != seat:
            return move
        if top.prompt == WINDOW and not isinstance(move, Next | End) and not _is_use(move):
            flow.through_windows(ctx, move)
            top = ctx.top
            if top is None or top.seat != seat:
                return move
        if top.prompt == WINDOW and top.args == (flow.LAST_WINDOW,) and isinstance(move, Next):
            return End()
        snapshot = ctx.s.table.snapshot()
        if isinstance(move, MoveCamel):
            stops = board.player_stops(snapshot, camel_of(seat), move.direction)
            return replace(move, stop=_written(snapshot, stops, move.stop))
        if isinstance(move, GuildMove):
            stops = board.guild_stops(snapshot, move.camel, move.direction)
            return replace(move, stop=_written(snapshot, stops, move.stop))
        if isinstance(move, Skip) and move.kind is None and top.prompt == EFFECTS:
            kinds = tuple(dict.fromkeys(top.args))
            if len(kinds) == 1:
                return Skip(kinds[0])
            raise illegal("sahwari.err.skip_which", kinds=tuple(kind_term(k) for k in kinds))
        return move

    # ------------------------------------------------------------------ words

    def format_move(self, move: Move) -> str:
        return notation.format_move(move)

    def join_moves(self, parts: Sequence[str]) -> str:
        """Steps take optional words (``skip [KIND]``), so ``;`` splits them."""
        return "; ".join(parts)

    def move_words(self, move: Move) -> Term:
        """The step in French words too (``aller N``, ``prendre recrue``): the
        catalogue's ``sahwari.words`` shows one of the two and formats the other
        to nothing (``{en}{fr:.0}``)."""
        return Term(
            "sahwari.words", {"en": notation.format_move(move), "fr": notation.french(move)}
        )

    def summary(self, state: SahwariState) -> tuple[Term, ...]:
        if not state.clans:
            return ()
        return tuple(
            Term(
                "sahwari.summary",
                {
                    "cards": len(c.row.cards),
                    "cubes": clans.counts(c).cubes,
                    "pawns": c.track,
                    "convoys": len(c.convoys),
                    "attacks": c.attack_tokens,
                },
            )
            for c in state.clans
        )

    # ------------------------------------------------------------------ results and views

    def outcome(self, state: SahwariState) -> Outcome | None:
        if not state.over:
            return None
        lines = [clans.score_lines(c) for c in state.clans]
        scores = [clans.score(c) for c in state.clans]
        tiebreak = [[clans.tiebreak(c)] for c in state.clans]
        outcome = Outcome.from_scores(scores, lines, tiebreak)
        if clans.winners(dict(enumerate(state.clans))):
            return outcome
        # D35: a tie the tie-break leaves is lost by all: nobody ranks first.
        first = outcome.winners
        ranks = tuple(len(first) if seat in first else r for seat, r in enumerate(outcome.ranks))
        return replace(outcome, ranks=ranks, winners=())

    def progress(self, state: SahwariState) -> float:
        """Tiles flipped towards the end's trigger (E1: face-up resource tiles
        down to the threshold), or the rounds played against a usual game's
        length, whichever is further: flips come late in the game."""
        if state.over:
            return 1.0
        threshold = END_THRESHOLD[state.players]
        start = len(board.RESOURCE_TILES)
        flipped = (start - state.table.face_up()) / (start - threshold)
        by_rounds = (state.round - 1) / USUAL_ROUNDS
        return min(max(flipped, by_rounds, 0.0), 0.99)

    def scores(self, state: SahwariState) -> tuple[int, ...]:
        """E4 on each clan as it stands, face-down tokens counted at their true
        influence; before the leaders are chosen there is no clan: 0 each."""
        if not state.clans:
            return (0,) * state.players
        return tuple(clans.score(c) for c in state.clans)

    def view(self, state: SahwariState, seat: Seat | None) -> SahwariView:
        return build_view(state, seat)

    def hand(self, state: SahwariState, seat: Seat) -> tuple[Event, ...]:
        """The faces ``seat`` knows that the table does not show (H3, H4)."""
        public = faces_seen(state, None)
        mine = faces_seen(state, seat)
        known = [(h, token) for h, token in mine.items() if h not in public]
        if not known:
            return (Event("sahwari.hand.none", {}, seat, to=seat),)
        owned = set(state.clans[seat].convoys) if state.clans else set()
        return tuple(
            Event(
                "sahwari.hand.own" if token in owned else "sahwari.hand.spied",
                {"handle": handle, "face": face_term(token)},
                seat,
                to=seat,
            )
            for handle, token in sorted(known, key=lambda k: int(k[0][1:]))
        )

    def resample(self, state: SahwariState, seat: Seat | None, seed: int) -> SahwariState:
        """Redraw every blue face ``seat`` has not seen, among the blue tokens it
        cannot tell apart (those out of play too), the deck's order and the PRNG."""
        rng = Rng.from_seed(seed)
        seen = set(faces_seen(state, seat).values())
        placed = state.table.handles
        unseen = [token for token in placed if token not in seen]
        pool = [t for t in TOKEN_IDS["blue"] if t not in seen]
        drawn, rng = rng.sample(pool, len(unseen))
        swap = dict(zip(unseen, drawn, strict=True))

        def moved(token: str) -> str:
            return swap.get(token, token)

        t = state.table
        # Sorted first, so that two states the seat cannot tell apart give the
        # same world for the same seed (games/search.py).
        deck, rng = rng.shuffled(sorted(t.deck))
        table = replace(
            t,
            items=tuple(tuple(moved(i) for i in items) for items in t.items),
            handles=tuple(moved(x) for x in t.handles),
            deck=deck,
        )
        clan_zones = tuple(
            replace(c, convoys=tuple(moved(x) for x in c.convoys), used=c.used) for c in state.clans
        )
        return replace(
            state,
            table=table,
            clans=clan_zones,
            known=tuple(sorted((moved(token), seats) for token, seats in state.known)),
            removed=tuple(moved(x) for x in state.removed),
            rng=Rng.from_seed(rng.next_u64()[0]),
        )

    def dump(self, state: SahwariState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> SahwariState:
        return load_state(data)


def _is_use(move: Move) -> bool:
    return isinstance(move, flow.WINDOW_USES)


def _written(snapshot: board.Snapshot, stops: tuple[int, ...], stop: int | None) -> int | None:
    """A stop as the legal move writes it: None for the direction's default."""
    default = default_stop(snapshot, stops)
    if stop is None:
        if default is None and len(stops) > 1:
            raise illegal("sahwari.err.stop_needed", stops=tuple(board.name(t) for t in stops))
        return None
    return None if stop == default else stop


def _repeats(typed: Move, done: Move) -> bool:
    """D46: whether a typed step names a decision the engine already took."""
    if isinstance(typed, MoveCamel | GuildMove) and type(typed) is type(done):
        return replace(typed, stop=None) == replace(done, stop=None) and typed.stop in (
            None,
            done.stop,
        )
    if isinstance(typed, Skip) and isinstance(done, Skip):
        return typed.kind in (None, done.kind)
    if isinstance(typed, Next):  # a window closed on its own, W3 included
        return isinstance(done, Next | End)
    return typed == done


def _own(autos: tuple[tuple[Seat, str], ...], seat: Seat) -> list[Move]:
    """The steps the engine took on its own for ``seat`` (D46)."""
    return [notation.parse_text(step)[0] for who, step in autos if who == seat]


GAME = SahwariGame()
NAMES_A_SEAT = re.compile(r"\bP[1-5]\b")  # a seat in notation: P1 … P5


def window_examples(state: SahwariState, seat: Seat, most: int = 2) -> tuple[Param, ...]:
    """Abilities the seat may use in this window, one per kind of use (a convoy,
    a track ability…), typed as the reader types them: a prompt's examples
    are the player's own, never a fixed list."""
    # A public prompt names people, never seats: an example aiming at a player's
    # camel (``… camel P1 …``) is shown only when there is nothing else to show,
    # of its kind (an attack on a convoy rather than on a camel) or of any kind.
    kinds: dict[type[Move], Move] = {}
    for use in window_uses(Ctx(state), seat):
        kept = kinds.get(type(use))
        if kept is None or (_names_a_seat(kept) and not _names_a_seat(use)):
            kinds[type(use)] = use
    shown = sorted(kinds.values(), key=_names_a_seat)
    return tuple(
        Term(
            "sahwari.words",
            {"en": f"`{notation.format_move(m)}`", "fr": f"`{notation.french(m)}`"},
        )
        for m in shown[:most]
        if m is shown[0] or not _names_a_seat(m)
    )


def _names_a_seat(move: Move) -> bool:
    return NAMES_A_SEAT.search(notation.format_move(move)) is not None


def _with_last_turn(before: SahwariState, after: SahwariState) -> SahwariState:
    """``after`` with what the board shows lit: this step, added to the earlier
    steps of the turn; a new turn starts afresh. From public views only, so it
    is the same for every viewer."""
    if not before.clans:  # setup: leaders being chosen, nothing on the board moved
        return replace(after, last=before.last)
    turn = before.active  # a step another seat owes mid-turn belongs to this turn
    was = _public(before)  # first: the one view kept is the previous step's result
    seen = _public(after)
    step = replace(last_move(was, seen), seat=turn)
    last = before.last.then(step) if before.last.seat == turn else step
    done = replace(after, last=last)
    _keep_public(done, replace(seen, last=last))  # the next step's "before"
    return done


# The last public view built, by state: a step's result is the next step's
# starting point, so each state's view is built once when steps follow.
_last_public: list[tuple[SahwariState, SahwariView]] = []


def _public(state: SahwariState) -> SahwariView:
    kept = _last_public[0] if _last_public else None  # one read: threads may share it
    if kept is not None and kept[0] is state:
        return kept[1]
    view = build_view(state, None)
    _keep_public(state, view)
    return view


def _keep_public(state: SahwariState, view: SahwariView) -> None:
    _last_public[:] = [(state, view)]
