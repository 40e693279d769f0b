-- Conversations: a thread of turns, each with its question, anchor and the checked answer
-- (stored in its stable JSON form, askalong.wire). A thread may outlive its document.

CREATE TABLE threads (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    title TEXT NOT NULL,
    document_id TEXT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
) STRICT;

CREATE INDEX threads_by_owner ON threads (owner, updated DESC);
CREATE INDEX threads_by_document ON threads (document_id, updated DESC);

CREATE TABLE turns (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    ord INTEGER NOT NULL,
    question TEXT NOT NULL,
    intent TEXT NOT NULL,
    anchor TEXT,  -- JSON, or NULL
    answer TEXT NOT NULL,  -- JSON
    created TEXT NOT NULL,
    UNIQUE (thread_id, ord)
) STRICT;
