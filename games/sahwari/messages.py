"""How the Sahwari engine words its refusals (catalogue ``sahwari.*``)."""

from __future__ import annotations

from games import catalogue
from games.contract import IllegalMove, InvalidMove
from games.text import Param

catalogue.add_source("games.sahwari")


def illegal(key: str, **params: Param) -> IllegalMove:
    return IllegalMove(catalogue.text("en", key, params), key=key, **params)


def invalid(key: str, **params: Param) -> InvalidMove:
    return InvalidMove(catalogue.text("en", key, params), key=key, **params)
