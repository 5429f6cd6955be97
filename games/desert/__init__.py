"""Through the Desert (Durch die Wüste): the rules engine and its declaration."""

from games.contract import GameSpec
from games.desert.ai import choose_move, evaluate
from games.desert.engine import GAME, DesertGame
from games.desert.model import (
    COLOUR_CODES,
    COLOURS,
    AreaGain,
    Coord,
    DesertView,
    Discard,
    Move,
    Pass,
    Phase,
    Piece,
    PlaceCamel,
    PlaceLeader,
    Placement,
    PlayerInfo,
    Terrain,
    coord_name,
    parse_coord,
)
from games.desert.state import DesertState
from games.levels import search_bots

SPEC = GameSpec(
    engine=GAME,
    bot=choose_move,
    bots=search_bots(choose_move, evaluate),
    package=__name__,
    picture="games.desert.picture:DesertPicture",
    commands="games.desert.commands",
    # One per seat, the colour of its pieces on the board (picture.seat_colour).
    marks=("🔵", "🟠", "🟢", "🟣", "🩵"),
)

__all__ = [
    "COLOURS",
    "COLOUR_CODES",
    "GAME",
    "SPEC",
    "AreaGain",
    "Coord",
    "DesertGame",
    "DesertState",
    "DesertView",
    "Discard",
    "Move",
    "Pass",
    "Phase",
    "PlaceCamel",
    "PlaceLeader",
    "Piece",
    "Placement",
    "PlayerInfo",
    "Terrain",
    "coord_name",
    "parse_coord",
]
