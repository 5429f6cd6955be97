-- 010_web_pages: the server's web pages (web/, issue 24).
--   guild_settings.web   1: the bot's web pages show this server's standings
--                        and games (when the bot serves them, WEB_PORT);
--                        0: /game settings web:off, they answer 404.
ALTER TABLE guild_settings ADD COLUMN web INTEGER NOT NULL DEFAULT 1 CHECK (web IN (0, 1));
