"""Sahwari (BGA help page, seed 004): the rules engine and its declaration."""

from games.contract import GameSpec
from games.levels import search_bots
from games.sahwari.ai import choose_move, evaluate
from games.sahwari.engine import GAME, SahwariGame
from games.sahwari.moves import Move
from games.sahwari.state import SahwariState
from games.sahwari.views import SahwariView

SPEC = GameSpec(
    engine=GAME,
    bot=choose_move,
    bots=search_bots(choose_move, evaluate),
    package=__name__,
    picture="games.sahwari.picture:SahwariPicture",
    commands="games.sahwari.commands",
    # One per seat, the colour of its pieces on the board (picture.seat_colour).
    marks=("🔵", "🟠", "🟢", "🟣"),
)

__all__ = ["GAME", "SPEC", "Move", "SahwariGame", "SahwariState", "SahwariView"]
