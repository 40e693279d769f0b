-- The server store's schema: the SQLite store's (store/sqlite/migrations 0001-0012) as it
-- stands after its last migration, in PostgreSQL's types. The aggregates' SQL is shared
-- (store/sql), so the tables, their columns and their order match SQLite's, with three
-- differences that SQL relies on:
--   * every text column sorts and compares by code point (COLLATE "C"), as SQLite's do:
--     id prefixes are found as ranges, ISO times compare as text, names list in one order;
--   * tables whose rows the SQL orders by insertion (documents, threads, jobs, feedback)
--     have a ``rowid`` column, as every SQLite table has one;
--   * flags stay INTEGER 0/1 and JSON stays text, so both backends read the same values.

CREATE TABLE documents (
    rowid BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id TEXT COLLATE "C" PRIMARY KEY,
    content_hash TEXT COLLATE "C" NOT NULL,
    title TEXT COLLATE "C" NOT NULL,
    source TEXT COLLATE "C" NOT NULL,
    format TEXT COLLATE "C" NOT NULL,
    language TEXT COLLATE "C" NOT NULL,
    page_count INTEGER NOT NULL,
    size_bytes BIGINT NOT NULL,
    created TEXT COLLATE "C" NOT NULL,
    owner TEXT COLLATE "C" NOT NULL,
    visibility TEXT COLLATE "C" NOT NULL CHECK (visibility IN ('private', 'org', 'public')),
    page_sizes TEXT NOT NULL,
    ocr_pages TEXT NOT NULL,
    notices TEXT NOT NULL,
    unread_pages TEXT NOT NULL DEFAULT '[]'
);

CREATE INDEX documents_by_created ON documents (created DESC, id);
CREATE INDEX documents_by_owner ON documents (owner);
CREATE INDEX documents_by_hash ON documents (content_hash);

CREATE TABLE document_org_tags (
    document_id TEXT COLLATE "C" NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    tag TEXT COLLATE "C" NOT NULL,
    ord INTEGER NOT NULL,
    PRIMARY KEY (document_id, tag)
);

CREATE INDEX document_org_tags_by_tag ON document_org_tags (tag, document_id);

-- Each document's access tokens (types.document_tokens): u:<owner>, public, o:<org>. The
-- permission filter is one EXISTS over (token, document_id).
CREATE TABLE document_access (
    document_id TEXT COLLATE "C" NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    token TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (document_id, token)
);

CREATE INDEX document_access_by_token ON document_access (token, document_id);

CREATE TABLE blocks (
    document_id TEXT COLLATE "C" NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    id TEXT COLLATE "C" NOT NULL,
    ord INTEGER NOT NULL,
    kind TEXT COLLATE "C" NOT NULL,
    text TEXT NOT NULL,
    page INTEGER,
    section_path TEXT NOT NULL,
    heading_level INTEGER NOT NULL,
    boxes TEXT NOT NULL,  -- [[x0, top, x1, bottom, start, end], ...]
    line_start INTEGER,
    line_end INTEGER,
    PRIMARY KEY (document_id, id)
);

CREATE INDEX blocks_by_order ON blocks (document_id, ord);
CREATE INDEX blocks_by_page ON blocks (document_id, page, ord);

CREATE TABLE chunks (
    id TEXT COLLATE "C" PRIMARY KEY,
    document_id TEXT COLLATE "C" NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    ord INTEGER NOT NULL,
    text TEXT NOT NULL,
    spans TEXT NOT NULL,  -- [[block_id, start, end], ...]
    section_path TEXT NOT NULL,
    page_start INTEGER,
    page_end INTEGER,
    description TEXT NOT NULL DEFAULT ''
);

CREATE INDEX chunks_by_document ON chunks (document_id, ord);

CREATE TABLE threads (
    rowid BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id TEXT COLLATE "C" PRIMARY KEY,
    owner TEXT COLLATE "C" NOT NULL,
    title TEXT COLLATE "C" NOT NULL,
    document_id TEXT COLLATE "C",
    created TEXT COLLATE "C" NOT NULL,
    updated TEXT COLLATE "C" NOT NULL
);

CREATE INDEX threads_by_owner ON threads (owner, updated DESC);
CREATE INDEX threads_by_document ON threads (document_id, updated DESC);

CREATE TABLE turns (
    id TEXT COLLATE "C" PRIMARY KEY,
    thread_id TEXT COLLATE "C" NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    ord INTEGER NOT NULL,
    question TEXT NOT NULL,
    intent TEXT COLLATE "C" NOT NULL,
    anchor TEXT,  -- JSON, or NULL
    answer TEXT NOT NULL,  -- JSON
    created TEXT COLLATE "C" NOT NULL,
    UNIQUE (thread_id, ord)
);

CREATE TABLE collections (
    id TEXT COLLATE "C" PRIMARY KEY,
    owner TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    created TEXT COLLATE "C" NOT NULL,
    UNIQUE (owner, name)
);

CREATE TABLE collection_documents (
    collection_id TEXT COLLATE "C" NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    document_id TEXT COLLATE "C" NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    added TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (collection_id, document_id)
);

CREATE INDEX collection_documents_by_document ON collection_documents (document_id);

CREATE TABLE uploads (
    id TEXT COLLATE "C" PRIMARY KEY,
    owner TEXT COLLATE "C" NOT NULL,
    length BIGINT NOT NULL CHECK (length >= 0),
    received BIGINT NOT NULL DEFAULT 0 CHECK (received >= 0 AND received <= length),
    name TEXT NOT NULL,
    metadata TEXT NOT NULL,
    sha256 TEXT COLLATE "C" NOT NULL DEFAULT '',
    state TEXT COLLATE "C" NOT NULL DEFAULT 'receiving'
        CHECK (state IN ('receiving', 'complete', 'added', 'failed')),
    document_id TEXT COLLATE "C",
    error TEXT NOT NULL DEFAULT '',
    created TEXT COLLATE "C" NOT NULL,
    expires TEXT COLLATE "C" NOT NULL
);

CREATE INDEX uploads_by_owner ON uploads (owner, state);
CREATE INDEX uploads_by_expiry ON uploads (expires);

-- User ids are kept as given, compared without case (store/sql/users.py): the index is on
-- the folded id, and not unique, as SQLite's (an id's case-variant is refused in the add).
CREATE TABLE users (
    id TEXT COLLATE "C" PRIMARY KEY,
    password_hash TEXT NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
    created TEXT COLLATE "C" NOT NULL,
    admin INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1))
);

CREATE INDEX users_by_folded_id ON users (lower(id));

CREATE TABLE api_tokens (
    id TEXT COLLATE "C" PRIMARY KEY,
    user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    digest TEXT COLLATE "C" NOT NULL UNIQUE,
    label TEXT NOT NULL,
    created TEXT COLLATE "C" NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1))
);

CREATE INDEX api_tokens_by_user ON api_tokens (user_id);

CREATE TABLE orgs (
    id TEXT COLLATE "C" PRIMARY KEY,
    parent TEXT COLLATE "C" REFERENCES orgs (id),
    created TEXT COLLATE "C" NOT NULL
);

CREATE TABLE memberships (
    org_id TEXT COLLATE "C" NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role TEXT COLLATE "C" NOT NULL CHECK (role IN ('member', 'admin')),
    PRIMARY KEY (org_id, user_id)
);

CREATE INDEX memberships_by_user ON memberships (user_id, org_id);

-- Ingestion jobs; ``heartbeat`` and ``lease_expires`` are Unix seconds (see SQLite's 0007).
CREATE TABLE jobs (
    rowid BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id TEXT COLLATE "C" PRIMARY KEY,
    document_id TEXT COLLATE "C" NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    kind TEXT COLLATE "C" NOT NULL DEFAULT 'ingest',
    state TEXT COLLATE "C" NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'parsing', 'ocr', 'embedding', 'ready', 'failed')),
    done INTEGER NOT NULL DEFAULT 0,
    total INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT COLLATE "C",
    lease_expires DOUBLE PRECISION,
    heartbeat DOUBLE PRECISION,
    attempts INTEGER NOT NULL DEFAULT 0,
    idempotency_key TEXT COLLATE "C" NOT NULL UNIQUE,
    error TEXT NOT NULL DEFAULT '',
    created TEXT COLLATE "C" NOT NULL,
    updated TEXT COLLATE "C" NOT NULL
);

CREATE INDEX jobs_by_state ON jobs (state, created);
CREATE INDEX jobs_by_document ON jobs (document_id);

CREATE TABLE request_windows (
    user_id TEXT COLLATE "C" PRIMARY KEY,
    window_start BIGINT NOT NULL,
    requests INTEGER NOT NULL
);

CREATE TABLE feedback (
    rowid BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id TEXT COLLATE "C" PRIMARY KEY,
    owner TEXT COLLATE "C" NOT NULL,
    conversation_id TEXT COLLATE "C" NOT NULL,
    turn_id TEXT COLLATE "C" NOT NULL,
    rating TEXT COLLATE "C" NOT NULL CHECK (rating IN ('up', 'down')),
    reason TEXT NOT NULL,
    judged TEXT NOT NULL,  -- JSON
    source TEXT COLLATE "C" NOT NULL,
    triage_label TEXT COLLATE "C"
        CHECK (triage_label IN ('retrieval_miss', 'retrieval_fault', 'generation_fault')),
    triage TEXT,  -- JSON
    created TEXT COLLATE "C" NOT NULL,
    UNIQUE (owner, turn_id)
);

CREATE INDEX feedback_by_owner ON feedback (owner, created DESC);
CREATE INDEX feedback_by_label ON feedback (triage_label, created DESC);

CREATE TABLE conflicts (
    first_chunk TEXT COLLATE "C" NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
    second_chunk TEXT COLLATE "C" NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
    first_document TEXT COLLATE "C" NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    second_document TEXT COLLATE "C" NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    kind TEXT COLLATE "C" NOT NULL,
    first_side TEXT NOT NULL,
    second_side TEXT NOT NULL,
    cosine DOUBLE PRECISION NOT NULL,
    dice DOUBLE PRECISION NOT NULL,
    found_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (first_chunk, second_chunk),
    CHECK (first_chunk < second_chunk)
);

CREATE INDEX conflicts_by_second_chunk ON conflicts (second_chunk);
CREATE INDEX conflicts_by_first_document ON conflicts (first_document);
CREATE INDEX conflicts_by_second_document ON conflicts (second_document);

CREATE TABLE conflict_scans (
    document_id TEXT COLLATE "C" PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
    chunks INTEGER NOT NULL,
    skipped INTEGER NOT NULL,
    scanned_at TEXT COLLATE "C" NOT NULL
);

-- Any change to a document's chunks makes its scan record go (SQLite's two triggers).
CREATE FUNCTION conflict_scans_stale() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM conflict_scans WHERE document_id = OLD.document_id;
    ELSE
        DELETE FROM conflict_scans WHERE document_id = NEW.document_id;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER conflict_scans_stale_on_change AFTER INSERT OR DELETE ON chunks
    FOR EACH ROW EXECUTE FUNCTION conflict_scans_stale();

CREATE TABLE login_failures (
    key TEXT COLLATE "C" PRIMARY KEY,
    failures INTEGER NOT NULL,
    last_failure DOUBLE PRECISION NOT NULL
);

CREATE INDEX login_failures_by_time ON login_failures (last_failure);

CREATE TABLE sessions (
    nonce_sha256 TEXT COLLATE "C" PRIMARY KEY,
    user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    issued BIGINT NOT NULL
);

CREATE INDEX sessions_by_user ON sessions (user_id);
