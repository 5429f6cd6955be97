"""How the desert engine words its refusals.

The texts live in the catalogue (``games/desert/locales/*.json``, keys
``desert.*``); the exception's own message is the English text, for logs
and tests. A ``colour`` param given as an English colour name becomes the
translatable word ``desert.colour.<name>``.
"""

from __future__ import annotations

from games import catalogue
from games.contract import IllegalMove, InvalidMove
from games.text import Param, Term

catalogue.add_source("games.desert")


def colour_term(colour: str) -> Term:
    return Term(f"desert.colour.{colour}")


def _params(params: dict[str, Param]) -> dict[str, Param]:
    colour = params.get("colour")
    if isinstance(colour, str):
        params["colour"] = colour_term(colour)
    return params


def illegal(key: str, **params: Param) -> IllegalMove:
    values = _params(params)
    return IllegalMove(catalogue.text("en", key, values), key=key, **values)


def invalid(key: str, **params: Param) -> InvalidMove:
    values = _params(params)
    return InvalidMove(catalogue.text("en", key, values), key=key, **values)
