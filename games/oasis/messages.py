"""How the Oasis engine words players and refusals (catalogue ``oasis.*``)."""

from __future__ import annotations

from games import catalogue
from games.contract import IllegalMove, InvalidMove, Seat
from games.oasis.model import COLOURS
from games.text import Param, Player, Term

catalogue.add_source("games.oasis")


def colour(seat: Seat) -> Term:
    return Term(f"oasis.colour.{COLOURS[seat]}")


def player(seat: Seat) -> Player:
    """A seat named in a message: the platform names the person; without the
    table's names, its colour and seat number."""
    return Player(seat, Term("oasis.player", {"colour": colour(seat), "seat": seat + 1}))


def illegal(key: str, **params: Param) -> IllegalMove:
    return IllegalMove(catalogue.text("en", key, params), key=key, **params)


def invalid(key: str, **params: Param) -> InvalidMove:
    return InvalidMove(catalogue.text("en", key, params), key=key, **params)
