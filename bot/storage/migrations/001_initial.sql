-- 001_initial: games, their seats, the append-only move log, results, meta.
-- Timestamps are ISO-8601 UTC text written by the application, so every
-- backend stores exactly the same strings.

CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'lobby'
                CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    creator_id  INTEGER NOT NULL,
    options     TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    seed        INTEGER NOT NULL,
    state       TEXT    CHECK (state IS NULL OR json_valid(state)),
    version     INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    -- When the game left play (finished or cancelled), and only then.
    finished_at TEXT,
    CHECK ((finished_at IS NOT NULL) = (status IN ('finished', 'cancelled')))
);

-- A channel (or thread) holds at most one open game.
CREATE UNIQUE INDEX games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_guild ON games (guild_id, updated_at);
-- The leaderboard only reads finished games.
CREATE INDEX games_finished_by_guild ON games (guild_id, kind) WHERE status = 'finished';

-- Seats are renumbered freely in the lobby and frozen once the game starts,
-- so moves and results can reference them.
CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    user_id      INTEGER,
    display_name TEXT    NOT NULL,
    is_bot       INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
    resigned     INTEGER NOT NULL DEFAULT 0 CHECK (resigned IN (0, 1)),
    PRIMARY KEY (game_id, seat),
    CHECK (is_bot = 1 OR user_id IS NOT NULL)
) WITHOUT ROWID;

CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;

CREATE TABLE moves (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL,
    ply        INTEGER NOT NULL CHECK (ply >= 1),
    seat       INTEGER NOT NULL,
    notation   TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    UNIQUE (game_id, ply),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat)
);

-- The log is the replay record (seed + moves reproduce the game): never rewrite it.
CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves are append-only');
END;

CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves are append-only');
END;

-- One row per seat of a finished game; who sat there comes from seats.
CREATE TABLE results (
    game_id INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    score   INTEGER NOT NULL,
    rank    INTEGER NOT NULL CHECK (rank >= 1),
    won     INTEGER NOT NULL CHECK (won IN (0, 1)),
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat)
) WITHOUT ROWID;

-- Small bot-wide facts, e.g. the hash of the last synced command tree.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
