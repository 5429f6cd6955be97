"""The engine contract, checked the same way for every registered game.

Parametrized over the registry (plus the test-only games), so a new game is
covered by adding its registry line: whole seeded games for every player
count with a dump/load round trip at every step, determinism, notation
round trips, legal moves agreeing with play, decisions, events and their
catalogue entries, hidden information (views and events against resampled
twins), bots deciding from their seat's view, autocomplete, and rendering.
"""

from __future__ import annotations

import functools
import io
import json
from typing import Any

import pytest
from PIL import Image

from games import catalogue
from games.contract import Event, GameSpec, InvalidOption, MoveError, OptionSpec, bot_move, play_all
from games.suggestions import complete, turn_suggestion
from tests.contract import Ply, all_specs, options_for, playout, walk

SPECS = all_specs()
COUNTS = [
    (key, players)
    for key, spec in SPECS.items()
    for players in range(spec.engine.min_players, spec.engine.max_players + 1)
]
SEEDS = (11, 2026)


@functools.cache
def game(key: str, players: int, seed: int) -> tuple[Ply, ...]:
    """A seeded whole game, played once for the whole suite (plies are immutable)."""
    spec = SPECS[key]
    return tuple(playout(spec, players, seed, options_for(spec, seed)))


def test_the_test_game_is_registered_like_the_real_ones() -> None:
    assert "desert" in SPECS and "nim" in SPECS
    for spec in SPECS.values():
        assert catalogue.has(f"{spec.kind}.title", "en") and catalogue.has(
            f"{spec.kind}.title", "fr"
        )


@pytest.mark.parametrize(("key", "players"), COUNTS)
@pytest.mark.parametrize("seed", SEEDS)
def test_whole_games_round_trip_and_replay(key: str, players: int, seed: int) -> None:
    """Every state dumps to JSON and loads back equal; the seed and moves replay it."""
    engine = SPECS[key].engine
    plies = game(key, players, seed)
    final = plies[-1].step.state
    assert engine.to_act(final) == () and engine.decisions(final) == ()
    assert engine.outcome(final) is not None
    replay = engine.new(players, seed, options_for(SPECS[key], seed))
    for ply in plies:
        data = engine.dump(ply.before)
        assert engine.load(json.loads(json.dumps(data))) == ply.before
        assert engine.dump(replay) == data
        replay = engine.apply(replay, ply.seat, ply.move)
    assert engine.load(json.loads(json.dumps(engine.dump(final)))) == final
    assert engine.dump(replay) == engine.dump(final)


@pytest.mark.parametrize(("key", "players"), COUNTS)
def test_legal_moves_notation_and_decisions_agree(key: str, players: int) -> None:
    engine = SPECS[key].engine
    others: list[Any] = []  # moves legal somewhere else, to try where they may not be
    for ply in game(key, players, SEEDS[0]):
        state = ply.before
        acting = engine.to_act(state)
        assert acting == tuple(dict.fromkeys(d.seat for d in engine.decisions(state)))
        for seat in range(players):
            legal = engine.legal_moves(state, seat)
            assert bool(legal) == (seat in acting), (seat, acting)
            for move in legal:
                assert engine.parse(state, seat, engine.format_move(move)) == (move,)
                engine.play(state, seat, move)  # legal moves apply
            for move in others[-12:]:
                if move not in legal:
                    with pytest.raises(MoveError):
                        engine.play(state, seat, move)
        others.extend(engine.legal_moves(state, ply.seat))
        if ply.seat not in engine.to_act(ply.step.state):
            assert ply.step.ends_turn, "a seat that no longer acts has ended its turn"


def test_options_are_declared_and_checked() -> None:
    for spec in SPECS.values():
        engine = spec.engine
        for option in engine.options:
            assert isinstance(option, OptionSpec) and option.default in option.choices
            assert catalogue.has(f"{spec.kind}.option.{option.name}", "fr")
            for choice in option.choices:
                assert catalogue.has(f"{spec.kind}.option.{option.name}.{choice}", "fr")
                engine.new(engine.min_players, 1, {option.name: choice})
        with pytest.raises(InvalidOption):
            engine.new(engine.min_players, 1, {"no-such-option": "x"})


def keys_of(events: tuple[Event, ...]) -> set[str]:
    keys = set()
    for event in walk(events):
        keys.add(event.key)
        keys.update(_term_keys(event.params))
    return keys


def _term_keys(params: Any) -> set[str]:
    found = set()
    for value in params.values():
        values = value if isinstance(value, tuple) else (value,)
        for v in values:
            if hasattr(v, "key") and hasattr(v, "params"):
                found.add(v.key)
                found |= _term_keys(v.params)
    return found


@pytest.mark.parametrize(("key", "players"), COUNTS)
def test_every_text_a_game_emits_is_in_both_catalogues(key: str, players: int) -> None:
    """Events, decisions, /game hand lines and refusals all have en and fr texts."""
    engine = SPECS[key].engine
    used: set[str] = set()
    for ply in game(key, players, SEEDS[1]):
        used |= keys_of(ply.step.events)
        for decision in engine.decisions(ply.before):
            used.add(decision.key)
            used |= _term_keys(decision.params)
        for seat in range(players):
            used |= keys_of(engine.hand(ply.before, seat))
            try:
                engine.parse(ply.before, seat, "certainly not a move")
            except MoveError as error:
                used.add(error.key)
                used |= _term_keys(error.params)
        for event in walk(ply.step.events):
            if event.to is not None:
                assert 0 <= event.to < players
            for detail in walk(event.details):
                assert detail.to is None, "a detail shares its event's audience"
    for lang in catalogue.LANGUAGES:
        missing = sorted(k for k in used if not catalogue.has(k, lang))
        assert not missing, (lang, missing)


@pytest.mark.parametrize(("key", "players"), COUNTS)
def test_views_and_events_show_nothing_hidden(key: str, players: int) -> None:
    """A state resampled for a viewer looks the same to him, and so do the moves' events.

    The twin differs in what the viewer cannot see (others' secrets, the
    draw order, the PRNG). If a view or an event showed any of it, the two
    would differ. A move may reveal something (a card turned face up): then
    the views after the move differ and the events may too.
    """
    engine = SPECS[key].engine
    differed = 0
    for number, ply in enumerate(game(key, players, SEEDS[0])):
        state = ply.before
        for viewer in (None, *range(players)):
            twin = engine.resample(state, viewer, seed=number * 7 + (viewer or 0) + 1)
            differed += engine.dump(twin) != engine.dump(state)
            assert engine.view(twin, viewer) == engine.view(state, viewer), viewer
            if viewer is not None:
                assert engine.legal_moves(twin, viewer) == engine.legal_moves(state, viewer)
                assert engine.hand(twin, viewer) == engine.hand(state, viewer)
            if ply.move not in engine.legal_moves(twin, ply.seat):
                continue
            mine, theirs = ply.step, engine.play(twin, ply.seat, ply.move)
            if engine.view(mine.state, viewer) != engine.view(theirs.state, viewer):
                continue  # the move revealed what told the twins apart
            if viewer is None:
                assert public(mine.events) == public(theirs.events)
            else:
                assert seen_by(mine.events, viewer) == seen_by(theirs.events, viewer)
    assert differed, "resample never changed anything: the test could not fail"


def public(events: tuple[Event, ...]) -> tuple[Event, ...]:
    return tuple(e for e in events if e.to is None)


def seen_by(events: tuple[Event, ...], seat: int) -> tuple[Event, ...]:
    return tuple(e for e in events if e.to in (None, seat))


TWINS = 2  # worlds the mover cannot tell apart, for each step


def outcome_for(engine: Any, step: Any, seat: int) -> tuple[Any, ...]:
    """What the mover perceives after a step: his view, the events shown to
    him, whether his turn ended and who acts now."""
    events = tuple(e.to_json() for e in seen_by(step.events, seat))
    return engine.view(step.state, seat), events, step.ends_turn, engine.to_act(step.state)


@pytest.mark.parametrize(("key", "players"), COUNTS)
def test_a_step_that_shows_the_mover_something_new_says_it_reveals(key: str, players: int) -> None:
    """``Step.reveals`` is set wherever the mover could not foresee the outcome:
    played on worlds resampled for the mover (same view before, everything
    hidden drawn anew), a step that does not say it reveals ends the same for
    him in every one of them. Suggestions rely on it to stop before a leak."""
    engine = SPECS[key].engine
    revealing = 0
    for seed in SEEDS:
        for number, ply in enumerate(game(key, players, seed)):
            if ply.step.reveals:
                revealing += 1
                continue
            mine = outcome_for(engine, ply.step, ply.seat)
            for k in range(TWINS):
                twin = engine.resample(ply.before, ply.seat, seed=number * TWINS + k + 1)
                theirs = engine.play(twin, ply.seat, ply.move)
                assert not theirs.reveals, (ply.move, "reveals in a twin only")
                assert outcome_for(engine, theirs, ply.seat) == mine, (number, ply.move)
    assert revealing or key == "desert", "no step ever revealed: the test could not fail"


@pytest.mark.parametrize(("key", "players"), COUNTS)
def test_bots_decide_from_their_seats_view_only(key: str, players: int) -> None:
    """Two states with the same view for a seat give the bot's same decision."""
    spec = SPECS[key]
    engine = spec.engine
    for number, ply in enumerate(game(key, players, SEEDS[1])):
        if number % 3:
            continue
        for seat in engine.to_act(ply.before):
            twin = engine.resample(ply.before, seat, seed=number + 99)
            assert bot_move(engine, spec.bot, twin, seat, number) == bot_move(
                engine, spec.bot, ply.before, seat, number
            )


@pytest.mark.parametrize(("key", "players"), COUNTS)
def test_autocomplete_never_offers_an_illegal_command(key: str, players: int) -> None:
    engine = SPECS[key].engine
    for number, ply in enumerate(game(key, players, SEEDS[0])):
        if number % 2:
            continue
        state = ply.before
        for seat in range(players):
            first = engine.legal_moves(state, seat)[:1]
            typed = ["", "x"]
            if first:
                text = engine.format_move(first[0])
                typed += [text[:1], text[:3], text + " "]
            for prefix in typed:
                suggestions = complete(engine, state, seat, prefix)
                assert len(suggestions) <= 25
                if seat not in engine.to_act(state):
                    assert suggestions == []
                for suggestion in suggestions:
                    assert len(suggestion.command) <= 100
                    moves = engine.parse(state, seat, suggestion.command)
                    play_all(engine, state, seat, moves)


@pytest.mark.parametrize(("key", "players"), COUNTS)
def test_progress_runs_from_the_start_to_the_end_and_is_public(key: str, players: int) -> None:
    """``progress`` is a public share of the game played: below half at the
    start, past half well before the end, 1.0 exactly when the game is over,
    and the same for every seat's resampled twin."""
    engine = SPECS[key].engine
    plies = game(key, players, SEEDS[1])
    shares = [engine.progress(ply.before) for ply in plies]
    assert shares[0] < 0.5
    assert all(0.0 <= share < 1.0 for share in shares)
    assert engine.progress(plies[-1].step.state) == 1.0
    assert any(share >= 0.5 for share in shares[: len(shares) * 9 // 10]), shares[-10:]
    for number, ply in enumerate(plies[::7]):
        for viewer in (None, *range(players)):
            twin = engine.resample(ply.before, viewer, seed=number + 5)
            assert engine.progress(twin) == engine.progress(ply.before)


SUGGESTED_STATES = 7  # states of a game where suggestions are compared
FIRST_MOVES, SECOND_MOVES = 5, 3  # typed prefixes tried per state


def typed_prefixes(engine: Any, state: Any, seat: int) -> list[str]:
    """What a player may type: nothing, a move's first letters, and every
    command of one or two whole moves (a sample of them) with the separator
    after it, asking for what may follow. The second moves are those legal
    on the real state: exactly what a leak would show."""
    typed = [""]
    for first in spread(engine.legal_moves(state, seat), FIRST_MOVES):
        text = engine.format_move(first)
        typed += [text[:2], engine.join_moves([text, ""])]
        try:
            after = engine.play(state, seat, first).state
        except MoveError:
            continue
        for second in spread(engine.legal_moves(after, seat), SECOND_MOVES):
            typed.append(engine.join_moves([text, engine.format_move(second), ""]))
    return typed


def spread(items: list[Any], count: int) -> list[Any]:
    """``count`` items taken evenly through the list (the kinds of move vary)."""
    step = max(1, len(items) // count)
    return items[::step][:count]


def suggestions_for(spec: GameSpec, state: Any, seat: int, typed: list[str], seed: int) -> Any:
    """Everything suggested to a seat: autocomplete for each text, and the ★."""
    engine = spec.engine
    listed = [complete(engine, state, seat, text) for text in typed]
    star = turn_suggestion(engine, spec.bot, state, seat, lambda n: seed + n)
    return listed, star


@pytest.mark.parametrize(("key", "players"), COUNTS)
def test_suggestions_never_depend_on_what_the_seat_cannot_see(key: str, players: int) -> None:
    """Autocomplete (empty, a few letters, one or two whole moves typed) and
    the ★ whole turn are the same on the real state and on states resampled
    for the asking seat: they never show a hidden face, a die to come or a
    card to be drawn. They stop at any step that draws, rolls or reveals."""
    spec = SPECS[key]
    engine = spec.engine
    plies = game(key, players, SEEDS[0])
    for number, ply in enumerate(plies):
        if number % max(1, len(plies) // SUGGESTED_STATES):
            continue
        for seat in engine.to_act(ply.before):
            typed = typed_prefixes(engine, ply.before, seat)
            expected = suggestions_for(spec, ply.before, seat, typed, number)
            # One twin is enough: a leak shows on almost any other world.
            twin = engine.resample(ply.before, seat, seed=number + 1)
            assert suggestions_for(spec, twin, seat, typed, number) == expected, number


@pytest.mark.parametrize("key", sorted(SPECS))
def test_every_view_renders_at_every_step(key: str) -> None:
    """At every step from setup to the end, one board: the spectator's or a
    seat's (with its private image), the viewers taking turns and the
    languages too. So every step, every seat and both languages are drawn
    without rendering each step once per viewer (a long game would take a
    minute)."""
    spec = SPECS[key]
    engine = spec.engine
    renderer = spec.load_picture()
    players = engine.min_players
    plies = game(key, players, SEEDS[0])
    states = [p.before for p in plies] + [plies[-1].step.state]
    names = ["Zoë", "Émile 🐪", "Дмитрий", "李"][:players]
    for number, state in enumerate(states):
        viewers = players + 1  # the spectator, then each seat
        lang = ("en", "fr")[(number // viewers) % 2]  # each viewer in both languages
        viewer = None if number % viewers == players else number % viewers
        png = renderer.board(engine.view(state, viewer), names, lang)
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG" and 900 <= image.width <= 1400
        if viewer is not None:
            renderer.hand(engine.view(state, viewer), names, lang)
