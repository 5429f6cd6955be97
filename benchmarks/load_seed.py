"""Databases for the load benchmark: many idle active games, and the games to play.

Thousands of games cannot be played into a database through Discord in a
benchmark's time, and need not be: a few real games are made through
:class:`GameService` (created, joined, started and played some turns, so they
are at different stages), then their rows (games, seats, moves) are copied
with plain SQL under fresh ids, channels, servers and players. Every copy is
a real game the bot can load and play on; only the seed and the position are
shared with its template.

The games the benchmark plays are made afterwards, per run, through
:class:`GameService` too, in the loopback Discord's channels and with its
users (whose ids are only known once that world exists).
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import asyncpg

from bot.service import GameService, Limits
from bot.storage import database_kind, open_storage, sqlite_path
from games.desert import GAME

KIND = "desert"
TEMPLATES = 8  # distinct positions: 0, 4, 8 … 28 whole turns played
TEMPLATE_GUILD = 1
TEMPLATE_USERS = (1, 2)
# Copies live on servers, channels and users no loopback Discord knows (its ids
# are snowflakes, far larger): ten games a server, two players a game.
IDLE_GUILD = 1_000_000
IDLE_CHANNEL = 2_000_000
IDLE_USER = 3_000_000
GAMES_PER_GUILD = 10
UNBOUNDED = Limits(lobbies=1_000_000, games=1_000_000)


@dataclass
class Played:
    """A game the benchmark plays: where it is, who sits where, its state."""

    game_id: int
    channel_id: int
    users: tuple[int, ...]  # user id by seat
    state: Any


def whole_turn(state: Any, seat: int, rng: random.Random) -> tuple[str, Any]:
    """A random legal whole turn (a rider, or two camels) as one command, and the state after."""
    moves = []
    while True:
        move = rng.choice(GAME.legal_moves(state, seat))
        step = GAME.play(state, seat, move)
        moves.append(move)
        state = step.state
        if step.ends_turn or seat not in GAME.to_act(state):
            break
    return GAME.format_command(moves), state


async def start_game(
    service: GameService,
    guild_id: int,
    channel_id: int,
    users: tuple[int, int],
    names: tuple[str, str],
) -> Played:
    """/game new, /game join, /game start, as the commands do them."""
    await service.create(
        kind=KIND, guild_id=guild_id, channel_id=channel_id, user_id=users[0], name=names[0]
    )
    await service.join(channel_id, users[1], names[1])
    session = (await service.start(channel_id, users[0])).after
    seats = tuple(int(s.user_id or 0) for s in sorted(session.record.seats, key=lambda s: s.seat))
    return Played(session.id, channel_id, seats, session.state)


async def make_templates(url: str) -> list[int]:
    """A few games through the service, each played some whole turns further."""
    storage = await open_storage(url)
    try:
        service = GameService(storage, limits=UNBOUNDED)
        ids = []
        for index in range(TEMPLATES):
            channel = index + 1
            game = await start_game(service, TEMPLATE_GUILD, channel, TEMPLATE_USERS, ("A", "B"))
            rng, state = random.Random(index), game.state
            for _ in range(4 * index):
                seat = GAME.to_act(state)[0]
                text, state = whole_turn(state, seat, rng)
                await service.play(channel, game.users[seat], text)
            ids.append(game.game_id)
        return ids
    finally:
        await storage.close()


def copies(
    templates: list[int], count: int, first_id: int
) -> Iterator[tuple[int, int, dict[str, int]]]:
    """(new game id, template id, column values to change) for ``count`` copies."""
    for index in range(count):
        game_id = first_id + index
        users = (IDLE_USER + 2 * index, IDLE_USER + 2 * index + 1)
        yield (
            game_id,
            templates[index % len(templates)],
            {
                "guild_id": IDLE_GUILD + index // GAMES_PER_GUILD,
                "channel_id": IDLE_CHANNEL + index,
                "creator_id": users[0],
                "user0": users[0],
                "user1": users[1],
            },
        )


def copied_rows(
    rows: dict[str, dict[int, list[dict[str, Any]]]],
    templates: list[int],
    count: int,
    first_id: int,
) -> dict[str, list[dict[str, Any]]]:
    """The template rows of each table, rewritten for every copy."""
    out: dict[str, list[dict[str, Any]]] = {"games": [], "seats": [], "moves": []}
    for game_id, template, new in copies(templates, count, first_id):
        (game,) = rows["games"][template]
        out["games"].append(
            {
                **game,
                "id": game_id,
                "guild_id": new["guild_id"],
                "channel_id": new["channel_id"],
                "creator_id": new["creator_id"],
                "board_message_id": None,
            }
        )
        for seat in rows["seats"].get(template, []):
            user = new["user0"] if seat["user_id"] == TEMPLATE_USERS[0] else new["user1"]
            out["seats"].append({**seat, "game_id": game_id, "user_id": user})
        for move in rows["moves"].get(template, []):
            out["moves"].append({**move, "game_id": game_id})
    return out


def _by_game(records: list[dict[str, Any]], key: str) -> dict[int, list[dict[str, Any]]]:
    grouped: dict[int, list[dict[str, Any]]] = {}
    for record in records:
        grouped.setdefault(int(record[key]), []).append(record)
    return grouped


# ---------------------------------------------------------------------- SQLite


def copy_sqlite(path: str, templates: list[int], count: int) -> None:
    """``count`` copies of the templates, in one transaction."""
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    marks = ",".join("?" * len(templates))

    def fetch(table: str, key: str, drop: str | None = None) -> dict[int, list[dict[str, Any]]]:
        query = f"SELECT * FROM {table} WHERE {key} IN ({marks})"
        found = [dict(r) for r in db.execute(query, templates)]
        return _by_game([{k: v for k, v in r.items() if k != drop} for r in found], key)

    try:
        # Moves get new row ids (drop="id"); games get theirs from MAX(id) up.
        rows = {"games": fetch("games", "id"), "seats": fetch("seats", "game_id")}
        rows["moves"] = fetch("moves", "game_id", drop="id")
        first = int(db.execute("SELECT MAX(id) FROM games").fetchone()[0]) + 1
        with db:
            for table, records in copied_rows(rows, templates, count, first).items():
                if records:
                    columns = list(records[0])
                    db.executemany(
                        f"INSERT INTO {table} ({', '.join(columns)})"
                        f" VALUES ({', '.join('?' * len(columns))})",
                        [tuple(r[c] for c in columns) for r in records],
                    )
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # one self-contained file to copy
    finally:
        db.close()


# ------------------------------------------------------------------ PostgreSQL


async def copy_postgres(url: str, templates: list[int], count: int) -> None:
    """``count`` copies of the templates (COPY), then the id sequence moved past them."""
    conn = await asyncpg.connect(url)

    async def fetch(
        table: str, key: str, drop: str | None = None
    ) -> dict[int, list[dict[str, Any]]]:
        query = f"SELECT * FROM {table} WHERE {key} = ANY($1)"
        found = [dict(r) for r in await conn.fetch(query, templates)]
        return _by_game([{k: v for k, v in r.items() if k != drop} for r in found], key)

    try:
        rows = {"games": await fetch("games", "id"), "seats": await fetch("seats", "game_id")}
        rows["moves"] = await fetch("moves", "game_id", drop="id")
        first = int(await conn.fetchval("SELECT MAX(id) FROM games")) + 1
        async with conn.transaction():
            for table, records in copied_rows(rows, templates, count, first).items():
                if records:
                    columns = list(records[0])
                    values = [tuple(r[c] for c in columns) for r in records]
                    await conn.copy_records_to_table(table, records=values, columns=columns)
            await conn.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT MAX(id) FROM games))"
            )
        await conn.execute("ANALYZE")  # as autovacuum would soon after such a load
    finally:
        await conn.close()


async def seed(url: str, active: int) -> None:
    """A database (SQLite file or PostgreSQL) holding ``active`` idle active games."""
    templates = await make_templates(url)
    extra = active - len(templates)
    if database_kind(url) == "sqlite":
        copy_sqlite(sqlite_path(url), templates, extra)
    else:
        await copy_postgres(url, templates, extra)


async def make_played(
    url: str, where: list[tuple[int, int, tuple[int, int], tuple[str, str]]]
) -> list[Played]:
    """The games to play: (guild, channel, users, names) each, started through the service;
    their states as loaded from the database (the driver's local copies start there)."""
    storage = await open_storage(url)
    try:
        service = GameService(storage, limits=UNBOUNDED)
        return [await start_game(service, *place) for place in where]
    finally:
        await storage.close()
