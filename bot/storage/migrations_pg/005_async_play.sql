-- 005_async_play (PostgreSQL): turn clocks, absent players, undo, votes,
-- player settings, vacations and ratings (issue 10). See
-- migrations/005_async_play.sql for what each column means.

ALTER TABLE games ADD COLUMN clock_hours DOUBLE PRECISION NOT NULL DEFAULT 0
    CHECK (clock_hours >= 0);
ALTER TABLE games ADD COLUMN turn_since TEXT COLLATE "C";
ALTER TABLE games ADD COLUMN clock_stage INTEGER NOT NULL DEFAULT 0
    CHECK (clock_stage IN (0, 1, 2));
ALTER TABLE games ADD COLUMN clock_due TEXT COLLATE "C";
ALTER TABLE games ADD COLUMN board_message_id BIGINT;
CREATE INDEX games_clock_due ON games (clock_due) WHERE status = 'active' AND clock_due IS NOT NULL;

ALTER TABLE seats ADD COLUMN replaced TEXT
    CHECK (replaced IS NULL OR replaced IN ('away', 'removed'));

ALTER TABLE moves ADD COLUMN undoes INTEGER;
CREATE TABLE undone (
    game_id BIGINT  NOT NULL,
    ply     INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE votes (
    game_id    BIGINT NOT NULL,
    question   TEXT   NOT NULL,
    user_id    BIGINT NOT NULL,
    choice     TEXT   NOT NULL,
    created_at TEXT   COLLATE "C" NOT NULL,
    PRIMARY KEY (game_id, question, user_id)
);

CREATE TABLE user_settings (
    user_id      BIGINT  PRIMARY KEY,
    lang         TEXT,
    dm_turn      BOOLEAN NOT NULL DEFAULT FALSE,
    dm_reminders BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE TABLE vacations (
    guild_id  BIGINT NOT NULL,
    user_id   BIGINT NOT NULL,
    starts_at TEXT   COLLATE "C" NOT NULL,
    ends_at   TEXT   COLLATE "C" NOT NULL,
    PRIMARY KEY (guild_id, user_id, starts_at)
);

CREATE TABLE ratings (
    guild_id BIGINT           NOT NULL,
    kind     TEXT             COLLATE "C" NOT NULL,
    user_id  BIGINT           NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, kind, user_id)
);
