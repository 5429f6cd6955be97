"""Oasis's hidden information (§9), over whole bot games.

Stacks and the draw pile are secret from everyone, their owner included:
views carry their sizes only, and nothing public changes when they are
redealt. Multiplier tiles are concealed: a seat's view (and ``/game hand``)
gives its own by type, every other view only the count, until the end; the
type and totals of a take are told privately to the taker alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest

from games.contract import Event, bot_move
from games.oasis import GAME, SPEC, OasisState
from games.oasis.model import MULTIPLIERS
from games.text import Term


@cache
def game(
    players: int, seed: int
) -> tuple[tuple[tuple[OasisState, int, tuple[Event, ...]], ...], OasisState]:
    """(state before, seat, events) for every move of a bot game, and its end."""
    state = GAME.new(players, seed)
    out = []
    while seats := GAME.to_act(state):
        seat = seats[0]
        step = GAME.play(state, seat, bot_move(GAME, SPEC.bot, state, seat, len(out)))
        out.append((state, seat, step.events))
        state = step.state
    return tuple(out), state


def plies(players: int, seed: int) -> tuple[tuple[OasisState, int, tuple[Event, ...]], ...]:
    return game(players, seed)[0]


def terms(value: object) -> Iterator[str]:
    """Every catalogue key inside an event's params, however deep."""
    if isinstance(value, Term):
        yield value.key
        for inner in value.params.values():
            yield from terms(inner)
    elif isinstance(value, tuple):
        for inner in value:
            yield from terms(inner)


def keys_of(event: Event) -> set[str]:
    found = {event.key}
    for value in event.params.values():
        found |= set(terms(value))
    return found


@pytest.mark.parametrize("players", [3, 4, 5])
def test_multiplier_types_are_told_to_the_taker_only(players: int) -> None:
    private_takes = 0
    for _state, seat, events in plies(players, 8):
        for event in events:
            kinds = {k for k in keys_of(event) if k.startswith("oasis.multiplier.")}
            if event.to is None:
                assert not kinds, event  # public: how many tiles, never which
            else:
                # The taker: the mover, or the last chooser whose one offer
                # was taken for him when the mover's choice ended.
                assert event.to == event.seat
                assert event.to == seat or event.key == "oasis.log.multiplier"
                private_takes += bool(kinds)
    assert private_takes


@pytest.mark.parametrize("players", [3, 5])
def test_views_show_multipliers_by_type_to_their_owner_only(players: int) -> None:
    for state, _, _ in plies(players, 9)[::7]:
        public = GAME.view(state, None)
        assert public.multipliers == (None,) * players
        assert public.multiplier_counts == tuple(sum(m) for m in state.mults)
        for seat in range(players):
            mine = GAME.view(state, seat).multipliers
            assert mine[seat] == dict(zip(MULTIPLIERS, state.mults[seat], strict=True))
            assert all(m is None for other, m in enumerate(mine) if other != seat)
            hand = " ".join(str(e.params) for e in GAME.hand(state, seat))
            assert all(str(n) in hand for n in state.mults[seat])


def test_everything_is_shown_at_the_end() -> None:
    final = game(4, 3)[1]
    view = GAME.view(final, None)
    assert view.phase == "over" and view.scores is not None
    assert view.multipliers == tuple(
        dict(zip(MULTIPLIERS, held, strict=True)) for held in final.mults
    )


@pytest.mark.parametrize("players", [3, 4, 5])
def test_stacks_and_draw_pile_are_secret_even_from_their_owner(players: int) -> None:
    """Redealing every stack and the draw pile changes no view: not the public
    one, not any seat's own (nobody may look at their stack)."""
    for index, (state, _, _) in enumerate(plies(players, 10)[::5]):
        twin = GAME.resample(state, 0, index)
        assert twin.stacks != state.stacks or twin.draw != state.draw or not twin.draw
        for viewer in (None, *range(players)):
            assert GAME.view(twin, viewer) == GAME.view(state, viewer)
        public = GAME.view(state, None)
        assert public.stacks == tuple(len(s) for s in state.stacks)
        assert public.draw == len(state.draw)
