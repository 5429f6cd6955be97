"""What a page shows, read from storage into plain frozen values.

Public information only: the records' public fields, the move log's
notation, ratings, results, the engine's public summary and outcome. Never
a seat's view, a hand, the seed or the state itself. The pages (``*_page.py``)
turn these values into HTML; nothing here draws or replays.

A server is shown unless it opted out (``GuildSettings.web``) or has no
games; a game only under its own server's address. Whatever is not shown
reads as "not found" to the caller (``None``), the same in every case.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.charts import has_chart
from bot.ratings import Rating
from bot.service import GameService
from bot.session import Session
from bot.storage import (
    STATUSES,
    GameRecord,
    GameStatus,
    LeaderRow,
    MoveRecord,
    SeatRecord,
    Storage,
)
from bot.undo_requests import taken_back
from games.text import Term
from web.positions import counting, tags_of

GAMES_PER_PAGE = 20


@dataclass(frozen=True)
class Leader:
    """One player of a server's standings in one game, as /leaderboard shows it."""

    rank: int
    name: str
    rating: int | None  # Rating.shown; None: never rated
    games: int
    wins: int
    placement: float  # average place


@dataclass(frozen=True)
class Standings:
    kind: str
    leaders: tuple[Leader, ...]


@dataclass(frozen=True)
class GameLine:
    """A game in a server's list."""

    id: int
    kind: str
    status: GameStatus
    players: tuple[str, ...]
    created_at: str
    finished_at: str | None


@dataclass(frozen=True)
class Position:
    """A game's position: its number (0: the start) and tag (``positions.py``)."""

    game_id: int
    number: int
    tag: int


@dataclass(frozen=True)
class ServerView:
    guild_id: int
    standings: tuple[Standings, ...]  # games with at least one ranked player
    games: tuple[GameLine, ...]  # this page's, newest first
    page: int
    pages: int
    latest: Position | None  # the newest started game's current position (link previews)


@dataclass(frozen=True)
class SeatLine:
    seat: int
    name: str
    colour: str | None  # "#rrggbb", the seat's colour on the board
    rating: int | None  # the player's rating in this game on this server
    bot: bool
    tag: str | None  # "resigned", "away" or "removed": the AI plays the seat
    acting: bool  # the game waits for this seat now
    summary: Term | None  # the engine's public score summary (running games)


@dataclass(frozen=True)
class MoveLine:
    """One row of the move log, as /game history lists it."""

    ply: int
    seat: int
    name: str
    notation: str
    created_at: str
    by_ai: bool
    undone: bool  # taken back by a later undo
    takes_back: tuple[int, ...]  # an undo row: the plies it took back (else empty)
    position: int | None  # a row that counts: the position after it


@dataclass(frozen=True)
class FinalLine:
    seat: int
    name: str
    rank: int
    score: int
    won: bool
    tag: str | None
    breakdown: tuple[tuple[str, int], ...]  # (category, points), the engine's


@dataclass(frozen=True)
class GameView:
    guild_id: int
    id: int
    kind: str
    status: GameStatus
    lang: str  # the game's language (its boards and chart)
    created_at: str
    finished_at: str | None
    seats: tuple[SeatLine, ...]
    people: tuple[str, ...]  # seats as texts name them (marks and names, plain)
    moves: tuple[MoveLine, ...]
    tags: tuple[int, ...]  # one per position; empty before the start
    final: tuple[FinalLine, ...]  # finished games, best first
    scored: bool  # the final lines carry the engine's scores (not ended by resignations)
    chart: bool  # a score chart exists (bot.charts.has_chart)
    broken: bool  # the state cannot be loaded: no board, no replay

    @property
    def started(self) -> bool:
        return bool(self.tags)

    @property
    def current(self) -> Position | None:
        """The position the game stands at, once started."""
        if not self.tags:
            return None
        return Position(self.id, len(self.tags) - 1, self.tags[-1])

    @property
    def acting(self) -> tuple[SeatLine, ...]:
        return tuple(seat for seat in self.seats if seat.acting)

    @property
    def winners(self) -> tuple[FinalLine, ...]:
        return tuple(line for line in self.final if line.won)


# --------------------------------------------------------------------------- who is shown


async def find_game(service: GameService, guild_id: int, game_id: int) -> Session | None:
    """Game ``game_id`` when it belongs to ``guild_id`` and that server is shown."""
    record = await service.storage.get_game(game_id)
    if record is None or record.guild_id != guild_id:
        return None
    if not (await service.storage.guild_settings(guild_id)).web:
        return None
    return service.session_of(record)


# --------------------------------------------------------------------------- a server


def leader(rank: int, row: LeaderRow) -> Leader:
    rating = None if row.mu is None or row.sigma is None else Rating(row.mu, row.sigma).shown
    return Leader(rank, row.name, rating, row.games, row.wins, row.placement)


def shown_rating(ratings: Mapping[int, tuple[float, float]], user_id: int | None) -> int | None:
    if user_id is None or user_id not in ratings:
        return None
    mu, sigma = ratings[user_id]
    return Rating(mu, sigma).shown


async def load_server(
    service: GameService, guild_id: int, page: int, leaders: int
) -> ServerView | None:
    """A server's standings per game and one page of its games (``page`` is
    brought within 1 and the last page)."""
    storage = service.storage
    if not (await storage.guild_settings(guild_id)).web:
        return None
    total = await storage.count_games(guild_id, STATUSES)
    if total == 0:
        return None
    pages = max(1, -(-total // GAMES_PER_PAGE))
    page = min(max(1, page), pages)
    standings = []
    for kind in service.games:
        rows = await storage.leaderboard(guild_id, kind, leaders)
        if rows:
            ranked = tuple(leader(rank, row) for rank, row in enumerate(rows, start=1))
            standings.append(Standings(kind, ranked))
    records = await storage.server_games(
        guild_id, STATUSES, GAMES_PER_PAGE, (page - 1) * GAMES_PER_PAGE
    )
    return ServerView(
        guild_id,
        tuple(standings),
        tuple(_game_line(record) for record in records),
        page,
        pages,
        await _latest_position(storage, records),
    )


def _game_line(record: GameRecord) -> GameLine:
    return GameLine(
        record.id,
        record.kind,
        record.status,
        tuple(seat.name for seat in record.seats),
        record.created_at,
        record.finished_at,
    )


async def _latest_position(storage: Storage, records: Sequence[GameRecord]) -> Position | None:
    """The newest started game of the list, at its current position."""
    for record in records:
        if record.state is not None:
            tags = tags_of(counting(await storage.moves(record.id)))
            return Position(record.id, len(tags) - 1, tags[-1])
    return None


# --------------------------------------------------------------------------- a game


def move_lines(seats: Sequence[SeatRecord], moves: Sequence[MoveRecord]) -> tuple[MoveLine, ...]:
    undos = taken_back(moves)
    lines = []
    position = 0
    for row in moves:
        if row.counts:
            position += 1
        name = seats[row.seat].name if 0 <= row.seat < len(seats) else f"#{row.seat + 1}"
        lines.append(
            MoveLine(
                ply=row.ply,
                seat=row.seat,
                name=name,
                notation=row.notation,
                created_at=row.created_at,
                by_ai=row.by_ai,
                undone=row.undone,
                # An undo that found nothing left to take back still names where it began.
                takes_back=tuple(undos.get(row.ply) or ([row.undoes] if row.undoes else [])),
                position=position if row.counts else None,
            )
        )
    return tuple(lines)


def seat_tag(seat: SeatRecord) -> str | None:
    if seat.resigned:
        return "resigned"
    return seat.replaced


def seat_colours(session: Session) -> list[str | None]:
    """Each seat's colour on the game's board, from its picture."""
    spec = session.hosted_spec
    if spec is None:
        return [None] * len(session.record.seats)
    picture = spec.load_picture()
    return [
        "#{:02x}{:02x}{:02x}".format(*picture.seat_colour(s.seat)) for s in session.record.seats
    ]


def final_lines(session: Session) -> tuple[FinalLine, ...]:
    """A finished game's ranking, as its final post gives it."""
    if session.record.status != "finished":
        return ()
    outcome = session.outcome
    seats = session.record.seats
    lines = []
    for standing in sorted(session.standings(), key=lambda s: (s.rank, s.seat)):
        breakdown: tuple[tuple[str, int], ...] = ()
        if outcome is not None and standing.seat < len(outcome.breakdown):
            breakdown = outcome.breakdown[standing.seat]
        record = seats[standing.seat]
        lines.append(
            FinalLine(
                standing.seat,
                record.name,
                standing.rank,
                standing.score,
                standing.won,
                seat_tag(record),
                breakdown,
            )
        )
    return tuple(lines)


async def load_game(service: GameService, session: Session) -> GameView:
    """Everything a game's page shows, from its session, move log and ratings."""
    storage = service.storage
    record = session.record
    moves = await storage.moves(record.id)
    ratings = await storage.ratings(record.guild_id, record.kind)
    broken = bool(session.broken)
    awaited = set(session.awaited)
    summaries: tuple[Term, ...] = ()
    if not broken and session.state is not None and record.status == "active":
        summaries = tuple(session.engine.summary(session.state))
    colours = seat_colours(session)
    seats = tuple(
        SeatLine(
            seat=s.seat,
            name=s.name,
            colour=colours[s.seat],
            rating=None if s.is_bot else shown_rating(ratings, s.user_id),
            bot=s.is_bot,
            tag=seat_tag(s),
            acting=s.seat in awaited,
            summary=summaries[s.seat] if s.seat < len(summaries) else None,
        )
        for s in record.seats
    )
    return GameView(
        guild_id=record.guild_id,
        id=record.id,
        kind=record.kind,
        status=record.status,
        lang=record.lang,
        created_at=record.created_at,
        finished_at=record.finished_at,
        seats=seats,
        people=tuple(session.people(plain=True)),
        moves=move_lines(record.seats, moves),
        tags=() if record.state is None else tags_of(counting(moves)),
        final=() if broken else final_lines(session),
        scored=not broken and session.outcome is not None,
        chart=has_chart(session),
        broken=broken,
    )
