"""Sahwari's greedy bot (games/sahwari/ai.py): it finishes games, plays far better
than chance, and decides from its seat's view alone."""

from __future__ import annotations

import pytest

from games.core import Rng, bot_move
from games.sahwari import GAME, SPEC
from games.sahwari.state import SahwariState


def play(players: int, seed: int, bots: set[int]) -> tuple[SahwariState, list[SahwariState]]:
    """A whole game: ``bots`` seats played by the bot, the others by random legal steps."""
    state = GAME.new(players, seed, {"leaders": "random"})
    rng = Rng.from_seed(seed)
    seen = []
    for ply in range(3000):
        acting = GAME.to_act(state)
        if not acting:
            return state, seen
        seat = acting[0]
        if seat in bots:
            move = bot_move(GAME, SPEC.bot, state, seat, seed + ply)
        else:
            legal = GAME.legal_moves(state, seat)
            index, rng = rng.randbelow(len(legal))
            move = legal[index]
        seen.append(state)
        state = GAME.play(state, seat, move).state
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_finish_games_in_the_spec_s_number_of_rounds(players: int) -> None:
    """Appendix B: greedy games last about 10-18 rounds; E3's cap (30) is never needed."""
    for seed in (1, 2):
        final, _ = play(players, seed, set(range(players)))
        outcome = GAME.outcome(final)
        assert outcome is not None and final.over
        assert 8 <= final.round < 30
        assert max(outcome.scores) > 15


def test_the_bot_beats_random_play_clearly() -> None:
    """Over eight two-player games, the bot against random legal steps, seats alternating."""
    wins = margin = 0
    for seed in range(8):
        bot = seed % 2
        final, _ = play(2, seed, {bot})
        outcome = GAME.outcome(final)
        assert outcome is not None
        wins += outcome.scores[bot] > outcome.scores[1 - bot]
        margin += outcome.scores[bot] - outcome.scores[1 - bot]
    assert wins >= 7 and margin / 8 > 25


def test_the_bot_decides_from_its_view_only() -> None:
    """Twins resampled for the bot's seat (other blue faces, deck order, PRNG) get
    the same decision at every step of a game."""
    _, states = play(3, 5, {0, 1, 2})
    for number, state in enumerate(states[::7]):
        for seat in GAME.to_act(state):
            twin = GAME.resample(state, seat, seed=number + 1)
            assert bot_move(GAME, SPEC.bot, twin, seat, number) == bot_move(
                GAME, SPEC.bot, state, seat, number
            )
