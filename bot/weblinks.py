"""The addresses of the web pages (web/), for links posted in Discord.

Every page of a server lives under ``/s/<server id>``; a game's page under
``/s/<server id>/g/<game number>`` (the number players see, "#12"). ``base``
is the configured public address (Config.web_base_url), without a trailing slash.
"""

from __future__ import annotations


def server_url(base: str, guild_id: int) -> str:
    """A server's standings and games."""
    return f"{base}/s/{guild_id}"


def game_url(base: str, guild_id: int, game_id: int) -> str:
    """A game's page: players, board, history, replay."""
    return f"{server_url(base, guild_id)}/g/{game_id}"


def board_url(base: str, guild_id: int, game_id: int, position: int | None = None) -> str:
    """A game's public board now (``position`` None), or after its ``position``-th
    counted move (0: the start), as PNG."""
    page = game_url(base, guild_id, game_id)
    return f"{page}/board.png" if position is None else f"{page}/board/{position}.png"
