-- 006_move_by_ai: which rows the AI decided (a bot seat, or a human's seat it
-- plays: resigned, away, removed), so the history can say so.
ALTER TABLE moves ADD COLUMN by_ai INTEGER NOT NULL DEFAULT 0 CHECK (by_ai IN (0, 1));
