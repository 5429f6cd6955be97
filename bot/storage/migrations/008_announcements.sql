-- 008_announcements: a committed move is always announced (issue 20).
--
-- A move is saved before the interaction is answered, so a process that stops
-- in between (a crash, SIGKILL) would leave it unannounced. Each game keeps:
--   posted_version   the game version the latest public board post showed;
--   announce_version the version a turn post must show: that of the latest
--                    move that ended a turn (or of the start);
--   announce_due     when another process may post it itself if the handler
--                    that saved it has not (died, or its post failed); NULL:
--                    nothing owed. Written by the same UPDATE as the move; a
--                    late post is claimed by a compare-and-set on it;
--   announce_hook    "/webhooks/{application id}/{token}" of the interaction
--                    whose public "thinking…" placeholder awaits that post
--                    (the token lives 15 minutes), so a late post can replace
--                    it; the form the log scrubber hides. Cleared once posted.
ALTER TABLE games ADD COLUMN posted_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN announce_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN announce_due TEXT;
ALTER TABLE games ADD COLUMN announce_hook TEXT;
-- Games already under way were announced by the code before this migration.
UPDATE games SET posted_version = version WHERE status <> 'lobby';
CREATE INDEX games_announce_due ON games (announce_due) WHERE announce_due IS NOT NULL;
