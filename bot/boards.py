"""Board images of one bot: each game's picture, drawn in the bot's CPU pool.

The bot owns one :class:`Boards` (``Caravanserai.boards``), built from the
games' specs: their pictures, its worker pool and its cache of recent boards,
so that two bots in one process share none of it. A picture goes to the
worker that draws pickled by its class; the worker imports the game's
picture module (and Pillow) on its first board.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass

from bot.cpu import INLINE, CpuPool
from bot.drawing import draw_board
from bot.session import Session
from games.contract import GameSpec, Picture, Seat
from games.text import Term

# Boards drawn lately, kept for a turn post and the /game board asked right after it.
CACHE_SIZE = 128


def seat_tags(session: Session) -> list[str | None]:
    """Per seat: "bot" for bot seats, "resigned" for players the AI replaced
    (resigned, away after their clock ran out, or removed)."""
    return ["bot" if s.is_bot else "resigned" if s.out else None for s in session.record.seats]


@dataclass(frozen=True)
class _Board:
    """What decides a board's picture: the game (its id and creation time), its
    version (every change bumps it), the viewer and the language."""

    game_id: int
    created_at: str
    version: int
    viewer: Seat | None
    lang: str


class Boards:
    """Draws boards and hands as PNG in ``pool``; a board asked again comes from
    the cache, and one asked twice at once (a turn post and /game board) is
    drawn once."""

    def __init__(self, pictures: Mapping[str, Picture], pool: CpuPool = INLINE) -> None:
        self.pictures = dict(pictures)
        self.pool = pool
        self._drawn: OrderedDict[_Board, bytes] = OrderedDict()  # newest last
        self._drawing: dict[_Board, asyncio.Task[bytes]] = {}
        # The engine's summary of each drawn version, worked out with its board.
        self._summaries: OrderedDict[tuple[int, int], tuple[Term, ...]] = OrderedDict()

    @classmethod
    def of_games(cls, specs: Mapping[str, GameSpec], pool: CpuPool = INLINE) -> Boards:
        """The pictures the specs name, loaded now (Pillow included)."""
        return cls({key: spec.load_picture() for key, spec in specs.items()}, pool)

    def picture(self, key: str) -> Picture:
        return self.pictures[key]

    async def board(self, session: Session, viewer: Seat | None, lang: str) -> bytes:
        """The board ``viewer`` sees (None: a spectator), drawn in a worker process
        (Pillow takes tens of milliseconds) or taken from the cache."""
        record = session.record
        board = _Board(session.id, record.created_at, record.version, viewer, lang)
        if (png := self._drawn.get(board)) is not None:
            self._drawn.move_to_end(board)
            return png
        task = self._drawing.get(board)
        if task is None:
            task = asyncio.ensure_future(self._draw(board, session))
            self._drawing[board] = task
            task.add_done_callback(lambda _: self._drawing.pop(board, None))
        # One caller giving up (its interaction cancelled) does not stop the others' board.
        return await asyncio.shield(task)

    async def _draw(self, board: _Board, session: Session) -> bytes:
        png, summary = await self.pool.run(
            draw_board,
            self.picture(session.kind),
            session.engine,
            session.state,
            board.viewer,
            list(session.names),
            board.lang,
            seat_tags(session),
        )
        self._drawn[board] = png
        self._summaries[board.game_id, board.version] = summary
        while len(self._drawn) > CACHE_SIZE:
            self._drawn.popitem(last=False)
        while len(self._summaries) > CACHE_SIZE:
            self._summaries.popitem(last=False)
        return png

    def summary(self, session: Session) -> tuple[Term, ...]:
        """The engine's per-seat summary of the session's state (the turn post's
        text beside the board): the one worked out with its board when drawn, else
        worked out here."""
        known = self._summaries.get((session.id, session.record.version))
        if known is not None:
            return known
        return tuple(session.engine.summary(session.state))

    async def hand(self, session: Session, seat: Seat, lang: str) -> bytes | None:
        """A seat's private image for /game hand, or None if the game has none."""
        drawing = self.picture(session.kind).hand
        return await self.pool.run(drawing, session.view(seat), list(session.names), lang)
