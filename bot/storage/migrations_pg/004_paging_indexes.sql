-- 004_paging_indexes (PostgreSQL): background jobs page through every
-- guild's games of a status by id (and find idle lobbies among the few
-- lobbies), and each player's open games are found from their seats.
CREATE INDEX games_by_status ON games (status, id);
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;
