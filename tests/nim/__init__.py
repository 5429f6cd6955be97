"""Oasis Nim, the test-only game: registered with EXTRA_GAMES=tests.nim.

Its three parts mirror a real game's: this package is ``games/<g>/``
(engine, bot, locales), ``render.py`` is ``render/<g>.py`` and ``cog.py``
is ``cogs/<g>.py``.
"""

from games.contract import GameSpec
from tests.nim.ai import choose_move
from tests.nim.engine import GAME

SPEC = GameSpec(engine=GAME, bot=choose_move, package=__name__, discord="tests.nim.cog")
