"""Oasis's tie-break (§8: the lowest rank tile wins among equal scores) reaches
the stored results and the leaderboard unchanged, through the real service
and a real SQLite database."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

from bot.service import GameService
from bot.storage import Storage
from games.oasis import GAME
from games.oasis.model import BOARD, MULTIPLIERS, parse_square
from games.oasis.state import EMPTY, OasisState
from tests.service_games import ALICE, BOB, CAROL, CHANNEL, GUILD, lobby


def herd_of(state: OasisState, squares: dict[str, int]) -> str:
    herd = list(EMPTY * len(BOARD.cells))
    for word, seat in squares.items():
        sq = parse_square(word)
        assert sq is not None and BOARD.cells[sq] == "="
        herd[sq] = str(seat)
    return "".join(herd)


def goods(count: int) -> tuple[int, ...]:
    return tuple(count if kind == "goods" else 0 for kind in MULTIPLIERS)


def last_bonus(state: OasisState) -> OasisState:
    """The Noble's bonus of the last round (the stony pile is empty): seats 1
    and 2 both score 3 camels x 2 goods = 6; seat 2 holds rank 1, seat 1 rank 2."""
    return replace(
        state,
        phase="bonus",
        ranks=(2, 1, 3),
        received=(0, 0, 0),
        offers=((), (), ()),
        taken=(-1, -1, -1),
        lands=(34, 34, 0),
        mults=(goods(2), goods(2), goods(0)),
        herd=herd_of(state, {"M1": 0, "M2": 0, "L2": 0, "A12": 1, "B12": 1, "B11": 1}),
        pending=(0, 0, 0, 0),
    )


async def test_the_rank_tile_tie_break_reaches_the_leaderboard(
    service: GameService, storage: Storage, tmp_path: Path
) -> None:
    await lobby(service, 0, BOB, CAROL, game="oasis")
    session = (await service.start(CHANNEL, ALICE)).after
    ending = last_bonus(session.state)
    with sqlite3.connect(tmp_path / "games.db") as db:
        db.execute(
            "UPDATE games SET state = ? WHERE id = ?",
            (json.dumps(GAME.dump(ending)), session.id),
        )
    service.forget_cached_states()  # the state was written behind the service's back
    noble = session.seat(1).user_id
    assert noble is not None
    report = await service.play(CHANNEL, noble, "bonus pass")
    final = (await service.advance(report.after)).after
    assert final.record.status == "finished"
    outcome = final.outcome
    assert outcome is not None and outcome.scores == (6, 6, 0)
    assert outcome.ranks == (2, 1, 3) and outcome.winners == (1,)
    by_seat = {row.seat: row for row in await storage.results(final.id)}
    ranked = [(by_seat[s].rank, by_seat[s].won) for s in range(3)]
    assert ranked == [(2, False), (1, True), (3, False)]
    board = {row.user_id: row for row in await storage.leaderboard(GUILD)}
    winner = final.seat(1).user_id
    assert winner is not None and board[winner].wins == 1
    assert sum(row.wins for row in board.values()) == 1
