-- 006_move_by_ai (PostgreSQL): which rows the AI decided (a bot seat, or a
-- human's seat it plays: resigned, away, removed), so the history can say so.
ALTER TABLE moves ADD COLUMN by_ai BOOLEAN NOT NULL DEFAULT FALSE;
