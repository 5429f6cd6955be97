-- 009_bot_levels (PostgreSQL): how strongly the AI plays (issue 23). See
-- migrations/009_bot_levels.sql for what each column means.
ALTER TABLE games ADD COLUMN bot_level TEXT NOT NULL DEFAULT 'easy';
CREATE TABLE guild_settings (
    guild_id       BIGINT PRIMARY KEY,
    takeover_level TEXT   NOT NULL DEFAULT 'normal'
);
