"""What ``play`` tells (events), what a seat owes (``decisions``) and ``hand``.

Events are localisable messages: public ones for the channel, private ones
(``to == seat``) for the mover alone. The values of taken water holes are
hidden from the other seats until the end (§9), so only private events may
carry them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from games import catalogue
from games.contract import Decision, Event, bot_move, play_all
from games.desert import GAME, DesertState
from games.desert.ai import choose_move
from games.desert.board import NAMES, layout
from games.desert.scoring import water_points
from games.rng import Rng, derive_seed
from games.text import Term
from tests.desert.helpers import play, position, sq

# Events whose params hold the value of taken water holes.
WATER_VALUES = {"desert.log.water_points", "desert.log.area_water_points"}


def points(count: int) -> Term:
    return Term("common.points", {"count": count})


def colour(name: str) -> Term:
    return Term(f"desert.colour.{name}")


def steps(state: DesertState, seat: int, text: str) -> tuple[DesertState, tuple[Event, ...]]:
    """Parse a command and play its moves, collecting their events."""
    step = play_all(GAME, state, seat, GAME.parse(state, seat, text))
    return step.state, step.events


def walk(events: Iterable[Event]) -> Iterator[Event]:
    """Every event with its details, depth first."""
    for event in events:
        yield event
        yield from walk(event.details)


def english(event: Event) -> str:
    return catalogue.text("en", event.key, event.params)


def example_one() -> DesertState:
    """Worked example 1 of §7: orange leader on C5, B4 holds a 2."""
    return position(
        4,
        leaders={"C5": (0, "orange"), "E5": (0, "white"), "K10": (1, "orange")},
        water={"B4": 2},
    )


def example_two() -> DesertState:
    """Worked example 2 of §7: white leader on B10, A10 holds a 3."""
    return position(4, leaders={"B10": (0, "white"), "K10": (1, "white")}, water={"A10": 3})


# --------------------------------------------------------------------------- events


def test_sc1_water_hole_public_camel_and_private_value() -> None:
    """SC1: everybody reads 'orange B4 (water)'; only the mover reads the value."""
    _, events = steps(example_one(), 0, "orange B4")
    assert events == (
        Event(
            "desert.log.camel",
            {"colour": colour("orange"), "space": "B4"},
            seat=0,
            details=(Event("desert.log.water"),),
        ),
        Event("desert.log.water_points", {"space": "B4", "points": points(2)}, seat=0, to=0),
    )
    public, private = events
    assert not public.private and private.private and private.to == 0
    assert english(public) == "orange B4"
    assert english(private) == "your water hole at B4 is worth 2 points"
    assert catalogue.text("fr", private.key, private.params) == (
        "votre point d'eau en B4 vaut 2 points"
    )


def test_sc2_oasis_detail() -> None:
    """SC2: a camel next to an oasis its caravan has not scored: '+5 oasis D3'."""
    _, events = steps(example_one(), 0, "orange B4 orange C4")
    last = events[-1]
    assert last.key == "desert.log.camel" and last.params["space"] == "C4"
    assert last.details == (Event("desert.log.oasis", {"space": "D3"}),)
    assert english(last.details[0]) == "+5 oasis D3"


def test_sc3_area_detail_with_its_water_holes() -> None:
    """SC3 (§7 example 2): B11 encloses 3 spaces holding 1 water hole worth 3."""
    _, events = steps(example_two(), 0, "white B9 white B11")
    first, second, private = events
    assert first.details == ()
    area = Event(
        "desert.log.area", {"count": 3}, details=(Event("desert.log.area_water", {"count": 1}),)
    )
    assert second.details == (area,)
    assert english(area) == "encloses 3 spaces"
    assert english(area.details[0]) == "1 water hole"
    assert private == Event(
        "desert.log.area_water_points", {"count": 1, "points": points(3)}, seat=0, to=0
    )
    assert english(private) == "the water hole you enclosed is worth 3 points"


def test_sc3_one_space_area_uses_the_singular() -> None:
    """SC3 and §10.6: with 3 players O13 closes O14 alone against the unused section."""
    state = position(3, leaders={"N14": (0, "yellow"), "K10": (1, "white")}, water={"O14": 0})
    _, events = steps(state, 0, "yellow O13")
    (event,) = events
    (area,) = event.details
    assert area == Event("desert.log.area", {"count": 1})
    assert english(area) == "encloses 1 space"
    assert catalogue.text("fr", area.key, area.params) != catalogue.text(
        "fr", area.key, {"count": 3}
    )


def test_sc3_enclosed_oasis_detail_sits_inside_the_area() -> None:
    ring = ("E1", "E2", "F3", "E4", "E5", "D5", "C5", "B4")  # around D3 at distance 2
    state = position(
        4,
        leaders={"D1": (0, "pink"), "K10": (1, "white")},
        camels={s: (0, "pink") for s in ring},
        water={s: 0 for s in ring},
    )
    _, events = steps(state, 0, "pink B3")
    (area,) = events[0].details
    assert area.key == "desert.log.area" and area.params == {"count": 7}
    assert Event("desert.log.oasis", {"space": "D3"}) in area.details


def test_setup_rider_and_pass_events() -> None:
    """§4.2 discard, phase A riders and R13 passes each say what happened."""
    five = GAME.new(5, 1)
    _, events = steps(five, 0, "discard pink")
    assert events == (Event("desert.log.discard", {"colour": colour("pink")}, seat=0),)
    assert english(events[0]) == "puts back the pink leader"
    _, events = steps(GAME.new(3, 8), 0, "white O12")
    assert events == (
        Event("desert.log.leader", {"colour": colour("white"), "space": "O12"}, seat=0),
    )
    assert catalogue.text("fr", events[0].key, events[0].params) == "cavalier blanc O12"
    blocked = position(2, leaders={"A9": (0, "white"), "K10": (1, "white")}, oases=("A10", "B9"))
    _, events = steps(blocked, 0, "pass")
    assert events == (Event("desert.log.pass", seat=0),)


def test_eg1_last_move_adds_the_end_of_supply() -> None:
    """EG1: the turn that empties a colour's supply ends the game, and says why."""
    state = replace(example_one(), supply=(30, 30, 1, 30, 30))
    mid, events = steps(state, 0, "orange C4")
    assert all(not e.key.startswith("desert.log.end") for e in events)
    end, events = steps(mid, 0, "white E4")
    assert end.phase == "over"
    assert events[-1] == Event("desert.log.end_supply", {"colour": colour("orange")})
    assert english(events[-1]) == "No orange camel is left in the supply: the game ends."
    french = catalogue.text("fr", events[-1].key, {"colour": Term("desert.colour.white")})
    assert french == "Plus aucun chameau blanc dans la réserve : la partie s'arrête."


def test_eg2_last_pass_adds_the_end_of_passes() -> None:
    """EG2: a whole cycle of passes ends the game."""
    lay = layout(3)
    homes = {"A9": 0, "K10": 1, "N5": 2}
    walls = {NAMES[n] for h in homes for n in lay.neighbours[sq(h)]}
    state = position(
        3, leaders={h: (seat, "white") for h, seat in homes.items()}, oases=sorted(walls)
    )
    state = play(state, 0, "pass")
    state = play(state, 1, "pass")
    end, events = steps(state, 2, "pass")
    assert end.phase == "over"
    assert events == (Event("desert.log.pass", seat=2), Event("desert.log.end_passes"))


def test_public_events_never_carry_a_water_value() -> None:
    """§9 over whole games: values only in private events, to the mover; they add up."""
    for players, seed in ((2, 41), (4, 42), (5, 43)):
        state = GAME.new(players, seed)
        told = [0] * players
        ply = 0
        while GAME.to_act(state):
            seat = GAME.to_act(state)[0]
            move = bot_move(GAME, choose_move, state, seat, derive_seed(seed, ply))
            step = GAME.play(state, seat, move)
            assert step.state == GAME.apply(state, seat, move)
            for event in step.events:
                assert event.to in (None, seat)
                if event.to is None:
                    for part in walk((event,)):
                        assert part.key not in WATER_VALUES
                        assert "points" not in part.params
                        assert part.to is None
                else:
                    assert event.key in WATER_VALUES
                    value = event.params["points"]
                    assert isinstance(value, Term)
                    count = value.params["count"]
                    assert isinstance(count, int)
                    told[seat] += count
            state = step.state
            ply += 1
        assert state.phase == "over"
        assert told == [water_points(state, seat) for seat in range(players)]
        assert any(told)


def mid_game(players: int, seed: int, moves: int) -> DesertState:
    """A real position after ``moves`` bot moves (water holes taken by several seats)."""
    state = GAME.new(players, seed)
    for ply in range(moves):
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, bot_move(GAME, choose_move, state, seat, ply))
    return state


def test_events_do_not_depend_on_the_hidden_values_of_others() -> None:
    """§9: the mover's events are the same in a twin where the others' values differ."""
    state = mid_game(4, 44, 90)
    seat = GAME.to_act(state)[0]
    assert any(state.water_taken[p] for p in range(4) if p != seat)
    move = bot_move(GAME, choose_move, state, seat, 1)
    events = GAME.play(state, seat, move).events
    differs = 0
    for seed in range(5):
        twin = GAME.resample(state, seat, seed)
        differs += twin.water_taken != state.water_taken
        assert GAME.play(twin, seat, move).events == events
    assert differs


# --------------------------------------------------------------------------- decisions


def test_decision_discard_with_five_players() -> None:
    """§4.2: with 5 players each seat first puts a leader colour back."""
    state = GAME.new(5, 2)
    assert GAME.decisions(state) == (Decision(0, "desert.decision.discard"),)
    state = play(state, 0, "discard pink")
    assert GAME.decisions(state) == (Decision(1, "desert.decision.discard"),)


def test_decision_rider_with_round_and_rounds() -> None:
    """Phase A: 5 rider rounds (4 with 5 players, §2)."""
    state = GAME.new(3, 2)
    assert GAME.decisions(state) == (
        Decision(0, "desert.decision.rider", {"round": 1, "rounds": 5}),
    )
    for seat, text in enumerate(("white F10", "yellow C12", "orange J13")):
        state = play(state, seat, text)
    (decision,) = GAME.decisions(state)
    assert decision == Decision(0, "desert.decision.rider", {"round": 2, "rounds": 5})
    assert catalogue.text("en", decision.key, decision.params) == "place a rider (round 2/5)."
    five = GAME.new(5, 2)
    for seat, name in enumerate(("white", "yellow", "orange", "pink", "green")):
        five = play(five, seat, f"discard {name}")
    assert GAME.decisions(five) == (
        Decision(0, "desert.decision.rider", {"round": 1, "rounds": 4}),
    )


def test_decision_camels_counts_the_allowance() -> None:
    """R12: two camels a turn (one in some first turns), counting down within the turn."""
    state = example_one()
    (decision,) = GAME.decisions(state)
    assert decision == Decision(0, "desert.decision.camels", {"count": 2})
    assert decision.params["count"] == state.allowance
    assert catalogue.text("en", decision.key, decision.params) == "place 2 camels."
    state = play(state, 0, "orange C4")
    (decision,) = GAME.decisions(state)
    assert decision == Decision(0, "desert.decision.camels", {"count": 1})
    assert catalogue.text("en", decision.key, decision.params) == "place 1 camel."
    first = GAME.new(2, 3)
    while first.phase != "camels":
        seat = GAME.to_act(first)[0]
        first = GAME.apply(first, seat, bot_move(GAME, choose_move, first, seat, 3))
    assert GAME.decisions(first) == (Decision(0, "desert.decision.camels", {"count": 1}),)


def test_decision_pass_when_no_camel_fits() -> None:
    """R13: with nothing to place the seat owes a pass; after the game, nothing."""
    state = position(2, leaders={"A9": (0, "white"), "K10": (1, "white")}, oases=("A10", "B9"))
    assert GAME.decisions(state) == (Decision(0, "desert.decision.pass"),)
    assert GAME.to_act(state) == (0,)
    over = replace(state, phase="over")
    assert GAME.decisions(over) == () and GAME.to_act(over) == ()


def test_decisions_agree_with_to_act_over_a_game() -> None:
    state = GAME.new(4, 5)
    rng = Rng.from_seed(5)
    while GAME.to_act(state):
        decisions = GAME.decisions(state)
        assert len(decisions) == 1 and (decisions[0].seat,) == GAME.to_act(state)
        seat = decisions[0].seat
        legal = GAME.legal_moves(state, seat)
        pick, rng = rng.randbelow(len(legal))
        state = GAME.apply(state, seat, legal[pick])
    assert GAME.decisions(state) == ()


# --------------------------------------------------------------------------- hand


def test_hand_lines_of_a_seat() -> None:
    """A seat's hand: its hidden water total, oases, areas, running total."""
    state = replace(example_one(), water_taken=((3, 1), (2,), (), ()))
    state, _ = steps(state, 0, "orange B4 orange C4")  # +2 water, +5 oasis D3
    hand = GAME.hand(state, 0)
    assert hand[:4] == (
        Event("desert.hand.water", {"count": 3, "points": points(6)}),
        Event("desert.hand.oases", {"points": points(5)}),
        Event("desert.hand.areas", {"points": points(0)}),
        Event("desert.hand.total", {"points": points(11)}),
    )
    assert english(hand[0]) == "Water holes: 3 (6 points, hidden from the others)"
    assert all(not line.private for line in hand)
    # Another seat's hand shows its own values, never seat 1's.
    theirs = GAME.hand(state, 1)
    assert theirs[0] == Event("desert.hand.water", {"count": 1, "points": points(2)})


def test_hand_lists_riders_still_to_place() -> None:
    state = GAME.new(3, 1)
    state = play(state, 0, "white F10")
    line = GAME.hand(state, 0)[-1]
    assert line == Event(
        "desert.hand.leaders_left",
        {"colours": tuple(colour(c) for c in ("yellow", "orange", "pink", "green"))},
    )
    assert english(line) == "Riders still to place: yellow, orange, pink, green"


def test_hand_does_not_depend_on_hidden_values() -> None:
    state = mid_game(5, 45, 120)
    for seat in range(5):
        twin = GAME.resample(state, seat, 7)
        assert GAME.hand(twin, seat) == GAME.hand(state, seat)
