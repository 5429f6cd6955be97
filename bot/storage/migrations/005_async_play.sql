-- 005_async_play: turn clocks, absent players, undo, votes, player settings,
-- vacations and ratings (issue 10).

-- The turn clock. clock_hours = 0: no clock. turn_since: when the current
-- wait began (a move, the start, a vote to wait). clock_stage: 0 nothing
-- sent, 1 the half-time reminder sent, 2 time ran out (the takeover vote is
-- open). clock_due: the next instant the clock must be looked at (NULL:
-- nothing scheduled); a process claims it with a compare-and-set on
-- (version, clock_stage), so a reminder never fires twice.
ALTER TABLE games ADD COLUMN clock_hours REAL NOT NULL DEFAULT 0 CHECK (clock_hours >= 0);
ALTER TABLE games ADD COLUMN turn_since TEXT;
ALTER TABLE games ADD COLUMN clock_stage INTEGER NOT NULL DEFAULT 0
    CHECK (clock_stage IN (0, 1, 2));
ALTER TABLE games ADD COLUMN clock_due TEXT;
-- The latest public board post, which reminders link to.
ALTER TABLE games ADD COLUMN board_message_id INTEGER;
CREATE INDEX games_clock_due ON games (clock_due) WHERE status = 'active' AND clock_due IS NOT NULL;

-- A seat the AI plays for a human who is not there: 'away' (the others
-- voted it after the clock ran out; the player takes it back by acting) or
-- 'removed' (by a moderator; for good).
ALTER TABLE seats ADD COLUMN replaced TEXT CHECK (replaced IS NULL OR replaced IN ('away', 'removed'));

-- An undo is a row of the log too: undoes = the ply of the first row it took
-- back. The rows taken back are listed in undone (the log itself is never
-- rewritten); a replay plays the rows that are neither undone nor undos.
ALTER TABLE moves ADD COLUMN undoes INTEGER;
CREATE TABLE undone (
    game_id INTEGER NOT NULL,
    ply     INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

-- Votes of a game's players (takeover of an absent seat, undo by consent):
-- one row per voter and question; the question names its board/round.
CREATE TABLE votes (
    game_id    INTEGER NOT NULL,
    question   TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    choice     TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, question, user_id)
) WITHOUT ROWID;

-- A player's own settings, everywhere the bot is.
CREATE TABLE user_settings (
    user_id      INTEGER PRIMARY KEY,
    lang         TEXT,
    dm_turn      INTEGER NOT NULL DEFAULT 0 CHECK (dm_turn IN (0, 1)),
    dm_reminders INTEGER NOT NULL DEFAULT 0 CHECK (dm_reminders IN (0, 1))
);

-- Vacation: a player's clocks in a server pause from starts_at to ends_at.
CREATE TABLE vacations (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    starts_at TEXT    NOT NULL,
    ends_at   TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id, starts_at)
) WITHOUT ROWID;

-- Ratings per server and game (openskill); rebuilt from results on demand.
CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    kind     TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    PRIMARY KEY (guild_id, kind, user_id)
) WITHOUT ROWID;
