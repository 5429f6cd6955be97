-- 010_web_pages (PostgreSQL): the server's web pages (issue 24). See
-- migrations/010_web_pages.sql for what the column means.
ALTER TABLE guild_settings ADD COLUMN web BOOLEAN NOT NULL DEFAULT TRUE;
