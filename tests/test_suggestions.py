"""Suggestions never tell a player what he cannot see yet (issue 20, rule H2),
and the bot never refuses the ★ turn it recommended.

The contract suite compares suggestions on resampled twins at sampled states
of every game; these tests replay the cases that were reproduced by hand: a
Sahwari blue convoy taken then used (its hidden face decides what follows),
Sahwari's refresh (the deck's order), Nomadi's reroll (the dice to come).

First, what ``complete`` offers on a Through the Desert position: the moves
that start with what was typed, a second camel after a whole first one,
nothing to a seat that must not act.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from bot.service import GameService
from cogs.suggest import INDEX_MOST, VALUE_LIMIT, move_choices, move_index
from games.contract import GameSpec, bot_move
from games.desert import GAME as DESERT
from games.desert.ai import choose_move
from games.nomadi import GAME as NOMADI
from games.nomadi import SPEC as NOMADI_SPEC
from games.nomadi.model import Pay, Reroll
from games.sahwari import SPEC as SAHWARI_SPEC
from games.suggestions import Suggestion, complete, turn_suggestion
from tests.contract import playout
from tests.nomadi.test_rules import mk
from tests.service_games import ALICE, BOB, CAROL, CHANNEL, lobby, user_of

TWINS = 6


# --------------------------------------------------------------------------- completion


def camel_phase_state() -> tuple[object, int]:
    state = DESERT.new(2, 5, {})
    while DESERT.view(state, None).phase != "camels" or DESERT.view(state, None).allowance_left < 2:
        seat = DESERT.to_act(state)[0]
        state = DESERT.apply(state, seat, bot_move(DESERT, choose_move, state, seat, 5))
    return state, DESERT.to_act(state)[0]


def test_complete_filters_by_what_was_typed() -> None:
    state, seat = camel_phase_state()
    suggestions = complete(DESERT, state, seat, "ora")
    assert suggestions and len(suggestions) <= 25
    assert all(s.command.startswith("orange ") for s in suggestions)


def test_complete_offers_the_second_camel_after_a_whole_first_one() -> None:
    state, seat = camel_phase_state()
    first = DESERT.format_move(DESERT.legal_moves(state, seat)[0])
    suggestions = complete(DESERT, state, seat, first + " ")
    assert suggestions
    for suggestion in suggestions:
        assert suggestion.command.startswith(first + " ")
        # Each suggestion is a whole legal command.
        assert len(DESERT.parse(state, seat, suggestion.command)) == 2


def test_complete_is_empty_for_a_seat_that_must_not_act() -> None:
    state, seat = camel_phase_state()
    assert complete(DESERT, state, 1 - seat, "") == []


# --------------------------------------------------------------------------- hidden information


def twins_of(spec: GameSpec, state: Any, seat: int) -> Iterator[Any]:
    for k in range(TWINS):
        yield spec.engine.resample(state, seat, seed=1000 + k)


def states_where(spec: GameSpec, wanted: Any, count: int) -> list[tuple[Any, int, Any]]:
    """(state, seat, move) from seeded bot games where ``wanted(move)`` is legal."""
    engine = spec.engine
    found = []
    for seed in range(40):
        for ply in playout(spec, spec.engine.min_players + seed % 2, seed):
            for seat in engine.to_act(ply.before):
                for move in engine.legal_moves(ply.before, seat):
                    if wanted(engine.format_move(move)):
                        found.append((ply.before, seat, move))
                        break
            if len(found) >= count:
                return found
    raise AssertionError(f"no state where such a move is legal: {spec.kind}")


def only_the_step(spec: GameSpec, state: Any, seat: int, move: Any) -> list[Suggestion]:
    text = spec.engine.format_move(move)
    return [Suggestion(text, text, spec.engine.move_hint(state, seat, move))]


@pytest.mark.parametrize("typed_after", ["", "keep; ", "use now; ", "use now; b"])
def test_typing_past_a_blue_convoy_shows_nothing_of_its_hidden_face(typed_after: str) -> None:
    """H2: ``take convoy V2; use now; `` used to list the steps that only the
    token's face allows (``bird …`` for a Bird face). Now the suggestions stop
    at the step that turns an unseen face up: the same whatever face it hides."""
    engine = SAHWARI_SPEC.engine
    for state, seat, take in states_where(SAHWARI_SPEC, lambda t: t.startswith("take convoy V"), 4):
        typed = f"{engine.format_move(take)}; {typed_after}"
        shown = complete(engine, state, seat, typed)
        assert shown, typed
        for twin in twins_of(SAHWARI_SPEC, state, seat):
            assert complete(engine, twin, seat, typed) == shown


def test_typing_past_a_refresh_shows_nothing_of_the_deck() -> None:
    """Continuations after ``refresh; `` depended on the hidden deck order."""
    engine = SAHWARI_SPEC.engine
    for state, seat, refresh in states_where(SAHWARI_SPEC, lambda t: t == "refresh", 3):
        shown = complete(engine, state, seat, "refresh; ")
        assert shown == only_the_step(SAHWARI_SPEC, state, seat, refresh)
        for twin in twins_of(SAHWARI_SPEC, state, seat):
            assert complete(engine, twin, seat, "refresh; ") == shown


def unusable_dice() -> Any:
    """A Nomadi turn whose first roll moves nothing: reroll or pay (R13)."""
    state = mk([("K12", 0), ("J12", 1)], (6, 6, 6, 6, 6, 6))
    assert NOMADI.legal_moves(state, 0) == [Reroll(), Pay()]
    return state


def test_typing_reroll_lists_no_move_of_the_dice_to_come() -> None:
    state = unusable_dice()
    shown = complete(NOMADI, state, 0, "reroll ")
    assert [s.command for s in shown] == ["reroll"]
    for twin in twins_of(NOMADI_SPEC, state, 0):
        assert complete(NOMADI, twin, 0, "reroll ") == shown


def test_the_whole_turn_star_stops_before_the_dice_are_rolled_again() -> None:
    """The ★ used to show the dice ``reroll`` would give, and their moves."""
    state = unusable_dice()
    for number in range(20):
        moves = turn_suggestion(NOMADI, NOMADI_SPEC.bot, state, 0, lambda n, k=number: k + n)
        assert moves == ()  # reroll (or pay) alone: among the plain suggestions


async def test_every_star_turn_fits_discord_and_the_bot_takes_it(service: GameService) -> None:
    """Sahwari's ★ used to be cut at 100 characters mid-step after it was
    checked, and the bot refused what it recommended. Three players follow
    every ★ (else the first suggestion) for 120 commands: each is taken."""
    await lobby(service, 0, BOB, CAROL, game="sahwari")
    session = (await service.start(CHANNEL, ALICE)).after
    stars = 0
    for _ in range(120):
        if session.record.status != "active":
            break
        seat = session.awaited[0]
        choices = move_choices(session, seat, "", "en")
        assert choices and all(len(value) <= VALUE_LIMIT for _, value in choices)
        star = [value for label, value in choices if label.startswith("★")]
        stars += bool(star)
        value = star[0] if star else choices[0][1]
        report = await service.play(CHANNEL, user_of(session, seat), value)
        session = report.after
    assert stars >= 10


TABLES = {"desert": (BOB,), "nomadi": (BOB,), "oasis": (BOB, CAROL), "sahwari": (BOB, CAROL)}


@pytest.mark.parametrize("game", sorted(TABLES))
async def test_later_keystrokes_are_answered_from_the_index_as_a_worker_would(
    service: GameService, game: str
) -> None:
    """Autocomplete lists a version's suggestions once (cogs.suggest.move_index)
    and answers the next keystrokes from that on the event loop: each answer is
    the one move_choices gives, in both languages, along random games; only a
    text that starts with a whole move is left to move_choices."""
    await lobby(service, 0, *TABLES[game], game=game)
    session = (await service.start(CHANNEL, ALICE)).after
    rng = random.Random(game)
    answered = deferred = 0
    for _ in range(40):
        if session.state is None or not session.to_act:
            break
        seat = session.to_act[0]
        for lang in ("en", "fr"):
            index = move_index(session, seat, lang)
            first = move_choices(session, seat, "", lang)
            if not index.listed:  # too many moves to list: every query asks a worker
                assert len(session.engine.legal_moves(session.state, seat)) > INDEX_MOST
                assert index.choices("") is None and index.choices(first[-1][1][:1]) is None
                continue
            assert index.choices("") == first
            typed = ["", "  ", "z", "É"]
            for label, value in first[:4]:
                typed += [value[:n] for n in (1, 2, 4)] + [label[:3], label[:3].upper()]
                typed += [value + " ", value + ", " + value[:2], " " + value[:5]]
            for text in typed:
                listed = index.choices(text)
                if listed is None:
                    deferred += 1
                else:
                    answered += 1
                    assert listed == move_choices(session, seat, text, lang), (lang, text)
        legal = session.engine.legal_moves(session.state, seat)
        state = session.engine.apply(session.state, seat, rng.choice(legal))
        session = replace(session, state=state)
    assert answered > 100 and deferred > 0
