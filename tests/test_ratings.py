"""Ratings: bot.ratings against openskill's own Plackett-Luce, called directly."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from bot.ratings import DEFAULT, Rating, Seated, played_enough, rate_game, rated_placings, rebuild

TOLERANCE = 1e-9

Placings = list[tuple[int, int]]


def openskill_game(
    previous: Mapping[int, Rating], placings: Sequence[tuple[int, int]]
) -> dict[int, Rating]:
    """The same game rated by openskill directly: teams of one, in the order given,
    with the ranks exactly as given (no normalisation)."""
    model = PlackettLuce()
    teams = [
        [
            model.rating(mu=previous[p].mu, sigma=previous[p].sigma)
            if p in previous
            else model.rating()
        ]
        for p, _ in placings
    ]
    ranks = [float(rank) for _, rank in placings]
    rated = model.rate(teams, ranks=ranks)
    return {
        p: Rating(team[0].mu, team[0].sigma) for (p, _), team in zip(placings, rated, strict=True)
    }


def assert_close(got: Mapping[int, Rating], want: Mapping[int, Rating]) -> None:
    assert got.keys() == want.keys()
    for player, rating in want.items():
        assert got[player].mu == pytest.approx(rating.mu, abs=TOLERANCE), player
        assert got[player].sigma == pytest.approx(rating.sigma, abs=TOLERANCE), player


# Players already rated before the game, with different histories.
KNOWN = {
    1: Rating(31.2, 4.1),
    2: Rating(22.0, 6.5),
    3: Rating(25.0, 25 / 3),
    4: Rating(18.7, 3.3),
    5: Rating(27.5, 7.9),
}

GAMES: list[Placings] = [
    # two players
    [(1, 1), (2, 2)],
    [(1, 2), (2, 1)],
    [(4, 1), (5, 1)],
    # three players
    [(1, 1), (2, 2), (3, 3)],
    [(3, 1), (1, 3), (2, 3)],
    [(2, 2), (3, 4), (1, 2)],  # ranks among humans after bots were removed
    # four players
    [(1, 1), (2, 2), (3, 3), (4, 4)],
    [(4, 1), (3, 1), (2, 3), (1, 4)],
    [(1, 2), (2, 4), (3, 4), (4, 7)],
    # five players
    [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)],
    [(5, 1), (4, 2), (3, 2), (2, 2), (1, 5)],
    [(2, 3), (4, 3), (1, 6), (5, 1), (3, 6)],
]


@pytest.mark.parametrize("placings", GAMES, ids=lambda g: "-".join(f"{p}@{r}" for p, r in g))
@pytest.mark.parametrize("known", [True, False], ids=["rated", "new"])
def test_matches_openskill(placings: Placings, known: bool) -> None:
    previous = KNOWN if known else {}
    assert_close(rate_game(previous, placings), openskill_game(previous, placings))


def test_mixed_known_and_unknown_players_match_openskill() -> None:
    previous = {1: KNOWN[1], 4: KNOWN[4]}
    placings = [(1, 2), (7, 1), (4, 3), (9, 3)]
    assert_close(rate_game(previous, placings), openskill_game(previous, placings))


def test_gaps_in_ranks_do_not_matter() -> None:
    assert rate_game(KNOWN, [(1, 2), (2, 4), (3, 4)]) == rate_game(KNOWN, [(1, 1), (2, 2), (3, 2)])
    assert rate_game(KNOWN, [(1, 1), (2, 9)]) == rate_game(KNOWN, [(1, 1), (2, 2)])


def test_winner_rises_loser_falls() -> None:
    for placings in ([(1, 1), (2, 2)], [(1, 1), (2, 2), (3, 3), (4, 4)]):
        new = rate_game({}, placings)
        winner, loser = placings[0][0], placings[-1][0]
        assert new[winner].mu > DEFAULT.mu
        assert new[loser].mu < DEFAULT.mu
        assert new[winner].ordinal > new[loser].ordinal
    # An upset moves the favourite down and the underdog up.
    new = rate_game(KNOWN, [(4, 1), (1, 2)])
    assert new[4].mu > KNOWN[4].mu
    assert new[1].mu < KNOWN[1].mu


def test_tied_equal_players_stay_equal() -> None:
    new = rate_game({}, [(1, 1), (2, 2), (3, 2), (4, 3)])
    assert new[2].mu == pytest.approx(new[3].mu, abs=1e-12)
    assert new[2].sigma == pytest.approx(new[3].sigma, abs=1e-12)
    assert new[1].mu > new[2].mu > new[4].mu


def test_all_tied_is_a_draw() -> None:
    new = rate_game({}, [(1, 1), (2, 1)])
    assert new[1] == new[2]
    assert new[1].mu == pytest.approx(DEFAULT.mu, abs=1e-12)
    assert new[1].sigma < DEFAULT.sigma  # a draw is still information


def test_one_player_game_changes_nothing() -> None:
    assert rate_game(KNOWN, [(1, 1)]) == {}
    assert rate_game({}, [(8, 1)]) == {}
    assert rate_game(KNOWN, []) == {}
    games: list[Placings] = [[(1, 1), (2, 2)], [(1, 1)], [(2, 1), (3, 2)]]
    assert rebuild(games) == rebuild([games[0], games[2]])
    assert rebuild([[(5, 1)]]) == {}


def test_duplicate_ids_raise() -> None:
    with pytest.raises(ValueError):
        rate_game({}, [(1, 1), (1, 2)])
    with pytest.raises(ValueError):
        rate_game(KNOWN, [(1, 1), (2, 2), (3, 3), (2, 4)])
    with pytest.raises(ValueError):
        rebuild([[(1, 1), (2, 2)], [(3, 1), (3, 1)]])


def test_unknown_players_start_at_default() -> None:
    placings = [(1, 1), (2, 2), (3, 2)]
    defaults = {1: DEFAULT, 2: DEFAULT, 3: DEFAULT}
    assert rate_game({}, placings) == rate_game(defaults, placings)
    assert rate_game({}, placings) == rate_game({99: KNOWN[1]}, placings)


def test_default_is_the_model_start() -> None:
    model = PlackettLuce()
    assert Rating(model.mu, model.sigma) == DEFAULT
    assert DEFAULT.mu == pytest.approx(25.0)
    assert DEFAULT.sigma == pytest.approx(25 / 3)
    assert DEFAULT.ordinal == pytest.approx(0.0, abs=1e-12)


def test_ordinal_is_openskills() -> None:
    for rating in KNOWN.values():
        assert rating.ordinal == PlackettLuceRating(rating.mu, rating.sigma).ordinal()
        assert rating.ordinal == pytest.approx(rating.mu - 3 * rating.sigma)


def test_only_players_of_the_game_are_returned_and_input_is_untouched() -> None:
    previous = dict(KNOWN)
    new = rate_game(previous, [(2, 1), (4, 2)])
    assert new.keys() == {2, 4}
    assert previous == KNOWN


def random_games(seed: int, count: int = 20) -> list[Placings]:
    rng = random.Random(seed)
    games: list[Placings] = []
    for _ in range(count):
        players = rng.sample(range(1, 9), rng.randint(1, 5))
        games.append([(p, rng.randint(1, len(players))) for p in players])
    return games


def test_rebuild_equals_step_by_step_fold() -> None:
    games = random_games(seed=2024)
    # The fold with rate_game…
    stepwise: dict[int, Rating] = {}
    for placings in games:
        stepwise.update(rate_game(stepwise, placings))
    assert rebuild(games) == stepwise
    # …and the fold done by openskill itself, keeping its own rating objects.
    model = PlackettLuce()
    own: dict[int, PlackettLuceRating] = {}
    for placings in games:
        if len(placings) < 2:
            continue
        teams = [[own.get(p, model.rating())] for p, _ in placings]
        rated = model.rate(teams, ranks=[float(rank) for _, rank in placings])
        own.update({p: team[0] for (p, _), team in zip(placings, rated, strict=True)})
    assert_close(rebuild(games), {p: Rating(r.mu, r.sigma) for p, r in own.items()})


def test_rebuild_is_deterministic() -> None:
    games = random_games(seed=7)
    first = rebuild(games)
    assert rebuild(list(games)) == first
    assert rebuild(iter(games)) == first  # any iterable, consumed once
    assert rebuild(random_games(seed=7)) == first
    assert rebuild([]) == {}


def test_order_of_placings_does_not_matter() -> None:
    placings = [(1, 2), (2, 1), (3, 2), (4, 3)]
    expected = rate_game(KNOWN, placings)
    for permutation in itertools.permutations(placings):
        assert rate_game(KNOWN, permutation) == expected
    games = random_games(seed=11)
    shuffled = [random.Random(i).sample(g, len(g)) for i, g in enumerate(games)]
    assert rebuild(shuffled) == rebuild(games)


# --------------------------------------------------------------------------- who is rated


@pytest.mark.parametrize(
    ("own", "turns", "rated"),
    [
        (1, 4, True),  # exactly a quarter
        (2, 7, True),
        (1, 5, False),  # one move, then the AI played the rest
        (0, 1, False),
        (0, 0, True),  # no turn at all: nothing to hold against him
        (12, 12, True),
    ],
)
def test_a_human_is_rated_from_a_quarter_of_his_own_turns(
    own: int, turns: int, rated: bool
) -> None:
    assert played_enough(own, turns) is rated


def test_the_rating_skips_who_played_too_little_as_it_skips_bots() -> None:
    alice, bob, carol = Seated(1, 1, 10, 12), Seated(2, 2, 9, 12), Seated(3, 3, 1, 12)
    assert rated_placings([alice, bob, carol]) == [(1, 1), (2, 2)]
    # Fewer than two left: nobody's rating moves.
    assert rated_placings([alice, carol]) == []
    assert rated_placings([]) == []


def test_ratings_read_from_1000() -> None:
    """The ordinal starts at 0 and a first middling game showed "-1.8": players
    read it on a scale that starts at 1000, in the ordinal's order."""
    new = Rating(25.0, 25.0 / 3)
    assert abs(new.ordinal) < 1e-9 and new.shown == 1000
    better, worse = Rating(27.0, 7.0), Rating(24.0, 7.5)
    assert better.ordinal > worse.ordinal and better.shown > worse.shown
