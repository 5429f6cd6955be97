"""What a CPU worker runs for a board: the picture, with what the turn post
needs beside it. Apart from bot/boards.py (which sends it to the pool) so the
workers' warm-up (bot/warm_worker.py) runs it too without importing the pool."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.contract import Game, Picture, Seat
from games.text import Term


def draw_board(
    picture: Picture,
    engine: Game[Any, Any],
    state: Any,
    viewer: Seat | None,
    names: Sequence[str],
    lang: str,
    tags: Sequence[str | None],
) -> tuple[bytes, tuple[Term, ...]]:
    """In a worker: the board ``viewer`` sees, as PNG, and the engine's summary of
    the state. Both are pure functions of the state that cost the event loop a
    millisecond or so; here they cost it nothing but the state's pickling."""
    png = picture.board(engine.view(state, viewer), names, lang, list(tags))
    return png, tuple(engine.summary(state))
