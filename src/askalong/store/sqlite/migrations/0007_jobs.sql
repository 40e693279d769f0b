-- Ingestion jobs: the source of truth for a document that is still being read. A document
-- queued (a finished tus upload, ``add --queue``) gets its row here in the same transaction
-- as its document row (an outbox). ``state`` moves pending -> parsing -> ocr -> embedding ->
-- ready, or to failed with ``error``; ``done``/``total`` is the step's progress. A worker owns
-- a job while ``lease_owner`` is set; ``heartbeat`` and ``lease_expires`` are Unix seconds
-- (a pending job's ``lease_expires`` is the earliest time it may be claimed again).
-- ``idempotency_key`` is unique: the same document is never queued twice.

CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    kind TEXT NOT NULL DEFAULT 'ingest',
    state TEXT NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'parsing', 'ocr', 'embedding', 'ready', 'failed')),
    done INTEGER NOT NULL DEFAULT 0,
    total INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_expires REAL,
    heartbeat REAL,
    attempts INTEGER NOT NULL DEFAULT 0,
    idempotency_key TEXT NOT NULL UNIQUE,
    error TEXT NOT NULL DEFAULT '',
    created TEXT NOT NULL,
    updated TEXT NOT NULL
) STRICT;

CREATE INDEX jobs_by_state ON jobs (state, created);
CREATE INDEX jobs_by_document ON jobs (document_id);
