-- 008_announcements (PostgreSQL): a committed move is always announced
-- (issue 20). See migrations/008_announcements.sql for what each column means.
ALTER TABLE games ADD COLUMN posted_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN announce_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN announce_due TEXT COLLATE "C";
ALTER TABLE games ADD COLUMN announce_hook TEXT;
UPDATE games SET posted_version = version WHERE status <> 'lobby';
CREATE INDEX games_announce_due ON games (announce_due) WHERE announce_due IS NOT NULL;
