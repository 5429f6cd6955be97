"""A turn post's lines: the turn's public events in the order they happened.

Nomadi showed an arrival caused by a move after the next player's roll, and
arrivals after the final scores, because each seat's events were gathered
under its name first and the game's events came last.
"""

from __future__ import annotations

from bot.session import Turn
from cogs.replies import turn_lines
from games.contract import Event
from games.nomadi import SPEC  # noqa: F401  (its catalogue)


class Names:
    names = ["Zoë", "李雷"]

    def shown(self, seat: int) -> str:
        return self.names[seat]

    def people(self, *, plain: bool = False) -> list[str]:
        return self.names


def lines_of(*events: Event) -> list[str]:
    turn = Turn(0, ("3 J12-G12",), False, events)
    return turn_lines(Names(), [turn], "en", plain=True)  # type: ignore[arg-type]


def test_a_payment_the_move_caused_comes_before_the_next_roll() -> None:
    lines = lines_of(
        Event("nomadi.log.pay", {}, 0),
        Event("nomadi.log.end_third"),
        Event("nomadi.log.roll", {"dice": "1 2 3 4 5 6"}, 1),
    )
    assert [line.split(":")[0] for line in lines] == ["Zoë", lines[1].split(":")[0], "李雷"]
    assert not lines[1].startswith(("Zoë", "李雷"))


def test_a_seats_run_of_events_shares_one_line() -> None:
    lines = lines_of(
        Event("nomadi.log.pay", {}, 0),
        Event("nomadi.log.reroll", {}, 0),
        Event("nomadi.log.end_idle"),
        Event("nomadi.log.revealed", {"values": "+2 −1"}, 0),
        Event("nomadi.log.revealed", {"values": "–"}, 1),
    )
    assert len(lines) == 4
    assert lines[0].startswith("Zoë: ") and " · " in lines[0]
    assert lines[2] == "Zoë: cards revealed: +2 −1"
    assert lines[3].startswith("李雷: ")


def test_the_final_post_states_each_score_once() -> None:
    """The engines' per-seat score lines stay out of the turn's lines: the final
    post's ranking gives each score with its breakdown (``final_summary``)."""
    lines = lines_of(
        Event("nomadi.log.end_third"),
        Event("nomadi.log.revealed", {"values": "+2 −1"}, 0),
        Event("nomadi.log.final", {"coins": 3, "cards": "+2 −1", "score": 4}, 0),
        Event("nomadi.log.final", {"coins": 1, "cards": "–", "score": 1}, 1),
    )
    assert lines == [lines[0], "Zoë: cards revealed: +2 −1"]
    assert not any("coins" in line for line in lines)


def test_a_player_an_event_mentions_is_named_with_the_tables_words() -> None:
    from games.nomadi.messages import player

    lines = lines_of(Event("nomadi.log.refuse", {"mover": player(1)}, 0))
    assert lines == ["Zoë: refuses: 李雷 keeps the card"]
