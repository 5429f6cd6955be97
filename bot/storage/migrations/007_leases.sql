-- 007_leases: a job that is no single guild's (syncing the slash commands,
-- resuming AI turns after a restart) runs in one process of several: the one
-- holding its lease. A holder keeps it by taking it again before expires_at
-- (ISO-8601 UTC text, as every timestamp here); once that has passed, any
-- process may take it over.
CREATE TABLE leases (
    name       TEXT PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at TEXT NOT NULL
) WITHOUT ROWID;
