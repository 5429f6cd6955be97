"""Oasis Nim, the test-only game: registered with EXTRA_GAMES=tests.nim.

It has a real game's shape, one package: engine, bot and locales, its
picture (``picture.py``) and its Discord commands (``commands.py``), named in
its spec so that loading the game loads neither Pillow nor discord.py.
"""

from games.contract import GameSpec
from tests.nim.ai import choose_move
from tests.nim.engine import GAME

SPEC = GameSpec(
    engine=GAME,
    bot=choose_move,
    package=__name__,
    picture="tests.nim.picture:NimPicture",
    commands="tests.nim.commands",
)
