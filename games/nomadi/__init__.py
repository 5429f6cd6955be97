"""Nomadi (Wittig, 1995): the rules engine and its declaration."""

from games.contract import GameSpec
from games.levels import search_bots
from games.nomadi.ai import choose_move, evaluate
from games.nomadi.engine import GAME, NomadiGame
from games.nomadi.model import (
    Accept,
    Bribe,
    Buy,
    DieMove,
    Move,
    NoBribe,
    NomadiView,
    Offer,
    Pay,
    PlaceCard,
    PlacePawn,
    Refuse,
    Reroll,
)
from games.nomadi.state import NomadiState

SPEC = GameSpec(
    engine=GAME,
    bot=choose_move,
    bots=search_bots(choose_move, evaluate),
    package=__name__,
    picture="games.nomadi.picture:NomadiPicture",
    commands="games.nomadi.commands",
    # One per seat, the colour of its pieces on the board (picture.seat_colour).
    marks=("🔵", "🟡", "🔴", "🟢", "⚫"),
)

__all__ = [
    "GAME",
    "SPEC",
    "Accept",
    "Bribe",
    "Buy",
    "DieMove",
    "Move",
    "NoBribe",
    "NomadiGame",
    "NomadiState",
    "NomadiView",
    "Offer",
    "Pay",
    "PlaceCard",
    "PlacePawn",
    "Refuse",
    "Reroll",
]
