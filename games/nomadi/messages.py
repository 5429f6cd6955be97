"""How the Nomadi engine words players, colours and refusals (catalogue ``nomadi.*``)."""

from __future__ import annotations

from games import catalogue
from games.contract import IllegalMove, InvalidMove, Seat
from games.nomadi.model import COLOURS
from games.text import Param, Player, Term

catalogue.add_source("games.nomadi")

MINUS = "\u2212"  # a real minus sign: "−3"


def signed(value: int) -> str:
    """A card value as printed: "+3", "−2" (with a real minus)."""
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


def colour(seat: Seat) -> Term:
    return Term(f"nomadi.colour.{COLOURS[seat]}")


def player(seat: Seat) -> Player:
    """A seat named in a message: the platform names the person; without the
    table's names, its colour and seat number."""
    return Player(seat, Term("nomadi.player", {"colour": colour(seat), "seat": seat + 1}))


def illegal(key: str, **params: Param) -> IllegalMove:
    return IllegalMove(catalogue.text("en", key, params), key=key, **params)


def invalid(key: str, **params: Param) -> InvalidMove:
    return InvalidMove(catalogue.text("en", key, params), key=key, **params)
