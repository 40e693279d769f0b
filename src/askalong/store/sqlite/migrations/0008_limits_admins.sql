-- Per-user limits and site administrators.
--
-- request_windows: one row per caller (an account's id, or 'local' for the install's
-- owner, who has no users row: hence no foreign key), counting the requests of the current
-- fixed one-minute window. One upsert both starts a new window and counts in the current
-- one, so several server processes over one file count together.
CREATE TABLE request_windows (
    user_id TEXT PRIMARY KEY,
    window_start INTEGER NOT NULL,
    requests INTEGER NOT NULL
) STRICT;

-- A site administrator manages accounts and orgs from the /admin page. The first account
-- made becomes one (it is the one that turned the server multi-user); existing installs
-- make their oldest account one, for the same reason.
ALTER TABLE users ADD COLUMN admin INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1));

UPDATE users SET admin = 1
    WHERE id = (SELECT id FROM users ORDER BY created, id LIMIT 1);
