-- Resumable uploads (the tus protocol): one row per upload in progress. The bytes live in
-- the upload area under ``uploads/<id>``, named by the server's random id, never by a
-- client's name; ``received`` is the committed offset (the file may hold a few bytes more
-- after a crash, cut back to it on the next write). ``state``: receiving, then complete
-- (exactly one completer moves it there), then added (``document_id`` set) or failed.

CREATE TABLE uploads (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    length INTEGER NOT NULL CHECK (length >= 0),
    received INTEGER NOT NULL DEFAULT 0 CHECK (received >= 0 AND received <= length),
    name TEXT NOT NULL,
    metadata TEXT NOT NULL,  -- the Upload-Metadata header as sent, for HEAD
    sha256 TEXT NOT NULL DEFAULT '',  -- the whole file's digest, when the client gave one
    state TEXT NOT NULL DEFAULT 'receiving'
        CHECK (state IN ('receiving', 'complete', 'added', 'failed')),
    document_id TEXT,
    error TEXT NOT NULL DEFAULT '',
    created TEXT NOT NULL,
    expires TEXT NOT NULL
) STRICT;

CREATE INDEX uploads_by_owner ON uploads (owner, state);
CREATE INDEX uploads_by_expiry ON uploads (expires);
