-- 009_bot_levels: how strongly the AI plays (issue 23). A level is one of
-- games/levels.py's LEVELS ('easy', 'normal', 'hard'), checked by the game
-- service, not here, so a later level needs no migration.
--   games.bot_level             the level of the game's bot seats, chosen at
--                               /game new. Games created before this migration
--                               keep the greedy bots they were started with.
--   guild_settings.takeover_level
--                               the level the AI plays a human's seat at (one
--                               who resigned, was voted away or removed); one
--                               row per server that changed a setting, none:
--                               the defaults.
ALTER TABLE games ADD COLUMN bot_level TEXT NOT NULL DEFAULT 'easy';
CREATE TABLE guild_settings (
    guild_id       INTEGER PRIMARY KEY,
    takeover_level TEXT    NOT NULL DEFAULT 'normal'
);
