"""The longer SQL statements of :mod:`.sql`, written once for both databases.

``?`` placeholders, bound in order. Only SQL both SQLite (3.24 and later) and
PostgreSQL read the same way: booleans tested bare (``NOT s.is_bot``: SQLite
stores 0/1), counted once cast to integers, averages and rates computed in
double precision (SQLite's REAL), so both give the same floats; no RETURNING
or NULLS LAST, which older SQLite lacks.
"""

from __future__ import annotations

# Every column of a move row, and whether a later undo took it back.
MOVE_COLUMNS = (
    "ply, seat, notation, created_at, version, events, ends_turn, undoes, by_ai,"
    " EXISTS (SELECT 1 FROM undone u WHERE u.game_id = m.game_id AND u.ply = m.ply) AS undone"
)

# Rows that count only: an undo and what it took back are not the turn.
_COUNTING = (
    "game_id = ? AND undoes IS NULL AND ply NOT IN"
    " (SELECT ply FROM undone WHERE undone.game_id = moves.game_id)"
)

# The latest turn: the rows after the last counting row that ended a turn before
# the newest counting row (game id bound three times).
TURN_MOVES_SQL = (
    f"SELECT {MOVE_COLUMNS} FROM moves m WHERE m.game_id = ? AND m.ply > COALESCE("
    f" (SELECT MAX(ply) FROM moves WHERE {_COUNTING} AND ends_turn"
    f"  AND ply < (SELECT MAX(ply) FROM moves WHERE {_COUNTING})), 0)"
    " AND m.undoes IS NULL"
    " AND m.ply NOT IN (SELECT ply FROM undone WHERE undone.game_id = m.game_id)"
    " ORDER BY m.ply"
)

# Per seat of a game: its turns (the rows that end one, neither undone nor
# undos) and how many of them the player ended himself (not by_ai). A human
# who played under a quarter of them is not rated (bot.ratings.rated_placings).
_TURNS_SELECT = """
SELECT m.game_id, m.seat, COUNT(*) AS turns,
       SUM(CASE WHEN m.by_ai THEN 0 ELSE 1 END) AS own_turns
FROM moves m
WHERE {where} AND m.ends_turn AND m.undoes IS NULL
  AND NOT EXISTS (SELECT 1 FROM undone u WHERE u.game_id = m.game_id AND u.ply = m.ply)
GROUP BY m.game_id, m.seat
"""

# The turns of each seat of one game (its id bound).
SEAT_TURNS_SQL = _TURNS_SELECT.format(where="m.game_id = ?")

# Every finished game's human placings and turns, oldest game first: what
# ratings fold over.
RATED_RESULTS_SQL = (
    "WITH turns AS ("
    + _TURNS_SELECT.format(where="m.game_id IN (SELECT id FROM games WHERE status = 'finished')")
    + """)
SELECT g.id AS game_id, g.guild_id, g.kind, s.user_id, r.rank,
       COALESCE(t.own_turns, 0) AS own_turns, COALESCE(t.turns, 0) AS turns
FROM games g
JOIN results r ON r.game_id = g.id
JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat
LEFT JOIN turns t ON t.game_id = r.game_id AND t.seat = r.seat
WHERE g.status = 'finished' AND NOT s.is_bot AND s.user_id IS NOT NULL
ORDER BY g.finished_at, g.id, r.seat
"""
)

# Humans only; the name shown is the one from the player's latest finished
# game, since display names change. The server is bound first, then whatever
# ``where`` binds.
_PLAYED_CTE = """
WITH played AS (
    SELECT s.user_id, s.display_name, CAST(r.won AS INTEGER) AS won, r.score, r.rank,
           g.finished_at, g.id AS game_id, g.kind
    FROM games g
    JOIN results r ON r.game_id = g.id
    JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat
    WHERE g.guild_id = ? AND g.status = 'finished' AND {where}
      AND NOT s.is_bot AND s.user_id IS NOT NULL
),
latest AS (
    SELECT user_id, display_name,
           ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY finished_at DESC, game_id DESC) AS n
    FROM played
)
"""

# With a game kind, players are ranked by their rating's ordinal (mu - 3 sigma,
# the openskill ordinal), those never rated (only bot opponents) after: the
# first key puts every NULL rating last, so the second never meets one.
# Binds: server, kind, kind, server, kind, limit.
LEADERBOARD_SQL = (
    _PLAYED_CTE.format(where="(CAST(? AS TEXT) IS NULL OR g.kind = ?)")
    + """,
totals AS (
    SELECT user_id, COUNT(*) AS games, SUM(won) AS wins, SUM(score) AS points,
           CAST(SUM(won) AS DOUBLE PRECISION) / COUNT(*) AS win_rate,
           AVG(CAST(rank AS DOUBLE PRECISION)) AS placement
    FROM played GROUP BY user_id
)
SELECT t.user_id, l.display_name AS name, t.games, t.wins, t.win_rate, t.points, t.placement,
       rt.mu, rt.sigma
FROM totals t JOIN latest l ON l.user_id = t.user_id AND l.n = 1
LEFT JOIN ratings rt ON rt.guild_id = ? AND rt.kind = ? AND rt.user_id = t.user_id
ORDER BY (rt.mu IS NULL), rt.mu - 3 * rt.sigma DESC,
         t.wins DESC, t.win_rate DESC, t.games DESC, t.points DESC, t.user_id
LIMIT ?
"""
)

# One player's totals per game kind. The player is fixed, so grouping by
# (kind, user) is grouping by kind, and MIN() picks the one name and rating
# each group has (PostgreSQL wants every column grouped or aggregated).
# Binds: server, user, server.
PLAYER_RECORDS_SQL = (
    _PLAYED_CTE.format(where="s.user_id = ?")
    + """
SELECT p.kind, p.user_id, MIN(l.display_name) AS name, COUNT(*) AS games, SUM(p.won) AS wins,
       CAST(SUM(p.won) AS DOUBLE PRECISION) / COUNT(*) AS win_rate, SUM(p.score) AS points,
       AVG(CAST(p.rank AS DOUBLE PRECISION)) AS placement, MIN(rt.mu) AS mu,
       MIN(rt.sigma) AS sigma
FROM played p JOIN latest l ON l.user_id = p.user_id AND l.n = 1
LEFT JOIN ratings rt ON rt.guild_id = ? AND rt.kind = p.kind AND rt.user_id = p.user_id
GROUP BY p.kind, p.user_id
ORDER BY games DESC, p.kind
"""
)


def announced_sql(larger: str) -> str:
    """The SET clause of a public post of the game at a version (bound three
    times): the post owed up to it is no longer owed. SET expressions read the
    row as it was. ``larger``: the dialect's larger-of-two function."""
    covered = f"{larger}(posted_version, ?) >= announce_version"
    return (
        f"posted_version = {larger}(posted_version, ?),"
        f" announce_due = CASE WHEN {covered} THEN NULL ELSE announce_due END,"
        f" announce_hook = CASE WHEN {covered} THEN NULL ELSE announce_hook END"
    )
