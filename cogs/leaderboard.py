"""/leaderboard [game] and /stats [user]: this server's rankings, one player's record.

Ratings are openskill's (``bot.ratings``), kept per server and per game by
the storage as games finish; what is shown is the rating's *ordinal*, the
conservative value (0 for a newcomer, growing as one plays and wins).

``/leaderboard`` is public and pings nobody, and links to the server's web
page when the bot serves one (:mod:`cogs.web_links`); ``/stats`` is private,
and its latest games leave out those in channels the caller cannot see (the
totals per game are the public leaderboard's). Every embed stays inside
Discord's limits (a field's 1024 characters, the whole embed's 6000): a list
cut short ends with "…and N more".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from bot import i18n, registry
from bot.names import clean_name, md
from bot.ratings import Rating
from bot.storage import LeaderRow, PlayedGame
from bot.translator import cmd
from cogs.choices import game_choices
from cogs.replies import EMBED_COLOUR
from cogs.visibility import Sight
from cogs.web_links import server_page_view
from games.text import Term

if TYPE_CHECKING:
    from bot.app import Caravanserai

TOP = 5  # players per game on the all-games leaderboard
RECENT = 10  # latest games on /stats
# The latest games looked through for RECENT the caller may see: a channel that is
# not in the cache (an archived thread) costs a request to Discord.
LOOKED_AT = 5 * RECENT
EVERYONE = 100_000  # "every ranked player": the embed cuts the list, not the query
DESCRIPTION_LIMIT = 4096
FIELD_LIMIT = 1024
FIELDS_LIMIT = 25
EMBED_LIMIT = 6000
MOST_LINES = DESCRIPTION_LIMIT // 20  # a ranking line is longer than 20 characters
UNRATED = "—"
CHANNEL_LINK = "https://discord.com/channels/{guild}/{channel}"


# --------------------------------------------------------------------------- numbers


def decimal(locale: object, value: float) -> str:
    """One decimal, with the language's separator (``12.3``, ``12,3``); never ``-0.0``."""
    text = f"{value:.1f}"
    if text == "-0.0":
        text = "0.0"
    return text.replace(".", ",") if i18n.language(locale) == "fr" else text


def rating_text(locale: object, row: LeaderRow) -> str:
    """The rating as shown (:attr:`bot.ratings.Rating.shown`); a dash for a player never rated."""
    if row.mu is None or row.sigma is None:
        return UNRATED
    return str(Rating(row.mu, row.sigma).shown)


def nth(locale: object, n: int) -> str:
    """``1st``, ``2nd``, ``11th``, ``21st``…; ``1er``, ``2e``… in French."""
    if n == 1:
        key = "stats.ordinal.first"
    elif n % 100 in (11, 12, 13):
        key = "stats.ordinal.other"
    else:
        key = {
            1: "stats.ordinal.ends_one",
            2: "stats.ordinal.ends_two",
            3: "stats.ordinal.ends_three",
        }.get(n % 10, "stats.ordinal.other")
    return i18n.t(locale, key, n=n)


def place(locale: object, rank: int, among: int) -> str:
    """``2nd of 4`` / ``2e sur 4``."""
    return i18n.t(locale, "stats.place", place=nth(locale, rank), players=among)


def rating_place(player: int, ratings: Mapping[int, tuple[float, float]]) -> tuple[int, int]:
    """The player's rank among the rated players of one game (ties share a rank),
    and how many they are."""
    ordinals = {user: Rating(mu, sigma).ordinal for user, (mu, sigma) in ratings.items()}
    mine = ordinals[player]
    return 1 + sum(1 for value in ordinals.values() if value > mine), len(ordinals)


def game_title(locale: object, kind: str) -> str:
    """The game's title; its key for a game no longer hosted."""
    return i18n.t(locale, f"{kind}.title", default=kind)


# --------------------------------------------------------------------------- lines


def board_row(locale: object, rank: int, row: LeaderRow) -> str:
    return i18n.t(
        locale,
        "stats.board_row",
        rank=rank,
        player=f"<@{row.user_id}>",
        rating=rating_text(locale, row),
        games=Term("leaderboard.games", {"count": row.games}),
        wins=Term("leaderboard.wins", {"count": row.wins}),
        placement=decimal(locale, row.placement),
    )


def board_rows(locale: object, rows: Sequence[LeaderRow]) -> list[str]:
    return [board_row(locale, rank, row) for rank, row in enumerate(rows, start=1)]


def more(locale: object, count: int) -> str:
    return i18n.t(locale, "stats.more", count=count)


def fit(lines: Sequence[str], limit: int, locale: object, hidden: int = 0) -> str:
    """As many whole ``lines`` as fit in ``limit`` characters (joined by line
    breaks), then "…and N more" for those left out (``hidden`` more were
    never offered). Empty when not even that fits."""
    total = len(lines) + hidden
    best = ""
    used = -1  # the length of the first k lines joined (k = 0: nothing, no separator)
    for k in range(len(lines) + 1):
        if k:
            used += 1 + len(lines[k - 1])
        if used > limit:
            break
        left = total - k
        tail = more(locale, left) if left else ""
        head = "\n".join(lines[:k])
        text = f"{head}\n{tail}" if head and tail else head or tail
        if len(text) <= limit:
            best = text
    return best


def when(moment: str) -> str:
    """Discord's relative time (``<t:…:R>``: "3 days ago", in the reader's language)."""
    return f"<t:{int(datetime.fromisoformat(moment).timestamp())}:R>"


def game_line(locale: object, guild_id: int, game: PlayedGame) -> str:
    return i18n.t(
        locale,
        "stats.game_line",
        mark="🏆" if game.won else "▫️",
        game=game_title(locale, game.kind),
        id=game.game_id,
        link=CHANNEL_LINK.format(guild=guild_id, channel=game.channel_id),
        place=place(locale, game.rank, game.players),
        score=Term("common.points", {"count": game.score}),
        when=when(game.finished_at),
    )


def record_lines(
    locale: object, user_id: int, row: LeaderRow, ratings: Mapping[int, tuple[float, float]]
) -> list[str]:
    """A player's record in one game: rating and rank, then games, wins, placement."""
    if user_id in ratings:
        rank, rated = rating_place(user_id, ratings)
        mu, sigma = ratings[user_id]
        rating = i18n.t(
            locale,
            "stats.rating",
            rating=str(Rating(mu, sigma).shown),
            place=place(locale, rank, rated),
        )
    else:
        rating = i18n.t(locale, "stats.unrated")
    record = i18n.t(
        locale,
        "stats.record",
        games=Term("leaderboard.games", {"count": row.games}),
        wins=Term("leaderboard.wins", {"count": row.wins}),
        rate=round(100 * row.win_rate),
        placement=decimal(locale, row.placement),
    )
    return [rating, record]


# --------------------------------------------------------------------------- embeds


def add_fields(
    embed: discord.Embed, locale: object, fields: Sequence[tuple[str, Sequence[str], int]]
) -> None:
    """(name, lines, hidden) fields, each cut to fit, while the embed has room
    for at least one line of the next."""
    for name, lines, hidden in fields[:FIELDS_LIMIT]:
        room = min(FIELD_LIMIT, EMBED_LIMIT - len(embed) - len(name))
        value = fit(lines, room, locale, hidden)
        if not value or (lines and not value.startswith(lines[0])):
            break
        embed.add_field(name=name, value=value, inline=False)


def game_board(locale: object, kind: str, rows: Sequence[LeaderRow]) -> discord.Embed:
    """Every ranked player of one game, as many as the embed holds."""
    title = game_title(locale, kind)
    embed = discord.Embed(
        title=i18n.t(locale, "leaderboard.title", scope=title), colour=EMBED_COLOUR
    )
    if not rows:
        embed.description = i18n.t(locale, "stats.board_empty_game", game=title)
        return embed
    embed.set_footer(text=i18n.t(locale, "stats.rating_help"))
    room = min(DESCRIPTION_LIMIT, EMBED_LIMIT - len(embed))
    shown = rows[:MOST_LINES]  # no more can fit: the rest are only counted
    embed.description = fit(board_rows(locale, shown), room, locale, len(rows) - len(shown))
    return embed


def all_boards(locale: object, boards: Sequence[tuple[str, Sequence[LeaderRow]]]) -> discord.Embed:
    """Each game's top players, one field per game, in the order given."""
    title = i18n.t(locale, "leaderboard.title", scope=i18n.t(locale, "leaderboard.all_games"))
    embed = discord.Embed(title=title, colour=EMBED_COLOUR)
    played = [(kind, rows) for kind, rows in boards if rows]
    if not played:
        embed.description = i18n.t(locale, "stats.board_empty")
        return embed
    embed.set_footer(text=i18n.t(locale, "stats.rating_help"))
    add_fields(
        embed,
        locale,
        [
            (game_title(locale, kind), board_rows(locale, rows[:TOP]), max(0, len(rows) - TOP))
            for kind, rows in played
        ],
    )
    return embed


def stats_embed(
    locale: object,
    guild_id: int,
    user_id: int,
    name: str,
    records: Sequence[tuple[str, LeaderRow, Mapping[int, tuple[float, float]]]],
    games: Sequence[PlayedGame],
) -> discord.Embed:
    """A player's record per game (fields) and latest games (description)."""
    embed = discord.Embed(
        title=i18n.t(locale, "stats.title", player=md(clean_name(name))), colour=EMBED_COLOUR
    )
    add_fields(
        embed,
        locale,
        [
            (game_title(locale, kind), record_lines(locale, user_id, row, ratings), 0)
            for kind, row, ratings in records
        ],
    )
    head = [f"<@{user_id}>", "", f"**{i18n.t(locale, 'stats.recent')}**"]
    lines = [game_line(locale, guild_id, game) for game in games]
    room = min(DESCRIPTION_LIMIT, EMBED_LIMIT - len(embed))
    body = fit(lines, room - len("\n".join(head)) - 1, locale)
    embed.description = "\n".join([*head, body]) if body else head[0]
    return embed


# --------------------------------------------------------------------------- the cog


class Leaderboard(commands.Cog):
    def __init__(self, bot: Caravanserai) -> None:
        self.bot = bot

    @app_commands.command(
        name=cmd("leaderboard", "cmd.leaderboard.name"),
        description=cmd("This server's ranking", "cmd.leaderboard.description"),
    )
    @app_commands.rename(game=cmd("game", "cmd.leaderboard.game.name"))
    @app_commands.describe(
        game=cmd("Only this game (default: all games)", "cmd.leaderboard.game.description")
    )
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        assert interaction.guild_id is not None
        guild, locale, storage = interaction.guild_id, interaction.locale, self.bot.storage
        if game is not None:
            rows = await storage.leaderboard(guild, game.value, EVERYONE)
            embed = game_board(locale, game.value, rows)
        else:
            boards = [
                (kind, await storage.leaderboard(guild, kind, EVERYONE))
                for kind in registry.specs()
            ]
            embed = all_boards(locale, boards)
        link = await server_page_view(self.bot, guild, locale)
        # Rankings name players without pinging them.
        await interaction.response.send_message(
            embed=embed,
            view=link or MISSING,  # no page to link: no components at all, as before
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name=cmd("stats", "cmd.stats.name"),
        description=cmd(
            "A player's record on this server (default: yours)", "cmd.stats.description"
        ),
    )
    @app_commands.rename(user=cmd("user", "cmd.stats.user.name"))
    @app_commands.describe(user=cmd("Whose record (default: yours)", "cmd.stats.user.description"))
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, user: discord.Member | discord.User | None = None
    ) -> None:
        assert interaction.guild_id is not None
        guild, locale, storage = interaction.guild_id, interaction.locale, self.bot.storage
        target = user or interaction.user
        records = await storage.player_records(guild, target.id)
        if not records:
            if target.id == interaction.user.id:
                text = i18n.t(locale, "stats.never_self")
            else:
                text = i18n.t(locale, "stats.never_other", player=target.mention)
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
            return
        # Looking up archived threads may take longer than Discord's 3 seconds.
        await interaction.response.defer(ephemeral=True, thinking=True)
        rated = [(kind, row, await storage.ratings(guild, kind)) for kind, row in records]
        games = await self.games_shown(interaction, target.id)
        embed = stats_embed(locale, guild, target.id, target.display_name, rated, games)
        await interaction.followup.send(
            embed=embed, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    async def games_shown(self, interaction: discord.Interaction, user_id: int) -> list[PlayedGame]:
        """The player's latest finished games (at most RECENT) in channels the caller
        may see: a game elsewhere would tell where it was played, when and by whom."""
        assert interaction.guild_id is not None
        sight = Sight(interaction)
        shown: list[PlayedGame] = []
        for game in await self.bot.storage.player_games(interaction.guild_id, user_id, LOOKED_AT):
            if await sight.sees(game.channel_id):
                shown.append(game)
                if len(shown) == RECENT:
                    break
        return shown


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(Leaderboard(bot))
