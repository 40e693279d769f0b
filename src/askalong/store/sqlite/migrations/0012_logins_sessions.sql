-- Sign-in throttling, sessions that end, and user ids that ignore case (issue 25).
--
-- login_failures: one row per key ('user:<id, lower case>' or 'addr:<client address>'),
-- its failed password tries and when the last was (seconds since the epoch); the back-off
-- (askalong/backoff.py) is computed from the two.
CREATE TABLE login_failures (
    key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    last_failure REAL NOT NULL
) STRICT;

CREATE INDEX login_failures_by_time ON login_failures (last_failure);

-- sessions: every live browser session, by the SHA-256 of its cookie's nonce (the cookie
-- is still signed; a row is what makes a signed cookie count). Signing out deletes the
-- row, disabling a user deletes all theirs, a password change all but the changer's.
-- Cookies issued before this migration have no row: everyone signs in once more.
CREATE TABLE sessions (
    nonce_sha256 TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    issued INTEGER NOT NULL
) STRICT;

CREATE INDEX sessions_by_user ON sessions (user_id);

-- User ids are kept as given but compared without case. Not a UNIQUE index: an install
-- may already hold 'ROOT' and 'root'; both keep working (each signs in by its exact id),
-- and no new case-variant can be made (SQLiteUsers.add_user checks in its transaction).
CREATE INDEX users_by_folded_id ON users (id COLLATE NOCASE);
