-- 007_leases (PostgreSQL): a job that is no single guild's runs in the one
-- process holding its lease. See migrations/007_leases.sql.
CREATE TABLE leases (
    name       TEXT PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at TEXT COLLATE "C" NOT NULL
);
