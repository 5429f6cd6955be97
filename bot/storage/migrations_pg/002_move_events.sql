-- 002_move_events (PostgreSQL): each move row records the game version it
-- produced and its events (JSON list, public and private), so a late mover
-- can tell who moved since the board it saw, and a turn can be told from its events.
ALTER TABLE moves ADD COLUMN version INTEGER;
ALTER TABLE moves ADD COLUMN events TEXT NOT NULL DEFAULT '[]' CHECK (events::json IS NOT NULL);
CREATE INDEX moves_by_version ON moves (game_id, version);
