"""The game kinds the bot knows, and which of them can be played yet."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.core import Game, Seat


@dataclass(frozen=True)
class GameKind:
    key: str
    title: str
    min_players: int
    max_players: int
    # None until the engine exists: such games are listed but refused politely.
    engine: Game[Any, Any] | None = None
    choose_move: Callable[[Any, Seat], Any] | None = None

    @property
    def playable(self) -> bool:
        return self.engine is not None and self.choose_move is not None


def _desert() -> GameKind:
    from games.desert import GAME
    from games.desert.ai import choose_move

    return GameKind("desert", "Through the Desert", 2, 5, GAME, choose_move)


KINDS: dict[str, GameKind] = {
    kind.key: kind
    for kind in (
        _desert(),
        GameKind("nomadi", "Nomadi", 2, 5),
        GameKind("oasis", "Oasis", 3, 5),
        GameKind("sahwari", "Sahwari", 2, 4),
    )
}
