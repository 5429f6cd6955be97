-- 003_turns_and_language (PostgreSQL): a game's language (public posts and
-- boards stay in it, whoever moves), and which move rows end their seat's
-- turn, so one public post can tell a whole turn made of several commands.
ALTER TABLE games ADD COLUMN lang TEXT NOT NULL DEFAULT 'en';
ALTER TABLE moves ADD COLUMN ends_turn BOOLEAN NOT NULL DEFAULT TRUE;
