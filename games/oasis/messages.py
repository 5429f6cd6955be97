"""How the Oasis engine words players and refusals (catalogue ``oasis.*``)."""

from __future__ import annotations

from games import catalogue
from games.core import IllegalMove, InvalidMove, Param, Seat, Term
from games.oasis.model import COLOURS

catalogue.add_source("games.oasis")


def colour(seat: Seat) -> Term:
    return Term(f"oasis.colour.{COLOURS[seat]}")


def player(seat: Seat) -> Term:
    """Another seat named in a message: its colour and seat number."""
    return Term("oasis.player", {"colour": colour(seat), "seat": seat + 1})


def illegal(key: str, **params: Param) -> IllegalMove:
    return IllegalMove(catalogue.text("en", key, params), key=key, **params)


def invalid(key: str, **params: Param) -> InvalidMove:
    return InvalidMove(catalogue.text("en", key, params), key=key, **params)
