"""Oasis (Moon & Weissblum, 2004): the rules engine and its declaration."""

from games.contract import GameSpec
from games.levels import search_bots
from games.oasis.ai import choose_move, evaluate
from games.oasis.engine import GAME, OasisGame
from games.oasis.model import (
    Bonus,
    Camel,
    CamelMove,
    Move,
    OasisView,
    Reveal,
    Stop,
    Take,
    Tile,
)
from games.oasis.state import OasisState

SPEC = GameSpec(
    engine=GAME,
    bot=choose_move,
    # Short turns: a rollout plays a whole round before it evaluates.
    bots=search_bots(choose_move, evaluate, rollout_turns=None),
    package=__name__,
    picture="games.oasis.picture:OasisPicture",
    commands="games.oasis.commands",
    # One per seat, the colour of its pieces on the board (picture.seat_colour).
    marks=("🔴", "🔵", "🟢", "🟡", "⚫"),
)

__all__ = [
    "GAME",
    "SPEC",
    "Bonus",
    "Camel",
    "CamelMove",
    "Move",
    "OasisGame",
    "OasisState",
    "OasisView",
    "Reveal",
    "Stop",
    "Take",
    "Tile",
]
