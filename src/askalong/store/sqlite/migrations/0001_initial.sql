-- Documents, their blocks and chunks, and the org tags the permission filter joins on.
-- Tuples are stored as compact JSON text; a document's rows go away with it (cascade).

CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    content_hash TEXT NOT NULL,
    title TEXT NOT NULL,
    source TEXT NOT NULL,
    format TEXT NOT NULL,
    language TEXT NOT NULL,
    page_count INTEGER NOT NULL,
    size_bytes INTEGER NOT NULL,
    created TEXT NOT NULL,
    owner TEXT NOT NULL,
    visibility TEXT NOT NULL CHECK (visibility IN ('private', 'org', 'public')),
    page_sizes TEXT NOT NULL,
    ocr_pages TEXT NOT NULL,
    notices TEXT NOT NULL
) STRICT;

CREATE INDEX documents_by_created ON documents (created DESC, id);
CREATE INDEX documents_by_owner ON documents (owner);
CREATE INDEX documents_by_hash ON documents (content_hash);

-- One row per tag, so the permission filter is an EXISTS over an index, never string matching.
CREATE TABLE document_org_tags (
    document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    ord INTEGER NOT NULL,
    PRIMARY KEY (document_id, tag)
) STRICT, WITHOUT ROWID;

CREATE INDEX document_org_tags_by_tag ON document_org_tags (tag, document_id);

CREATE TABLE blocks (
    document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    ord INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    page INTEGER,
    section_path TEXT NOT NULL,
    heading_level INTEGER NOT NULL,
    boxes TEXT NOT NULL,  -- [[x0, top, x1, bottom, start, end], ...]
    line_start INTEGER,
    line_end INTEGER,
    PRIMARY KEY (document_id, id)
) STRICT;

CREATE INDEX blocks_by_order ON blocks (document_id, ord);
CREATE INDEX blocks_by_page ON blocks (document_id, page, ord);

-- Chunk ids are global: a citation or a search hit names a chunk without its document.
CREATE TABLE chunks (
    id TEXT PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    ord INTEGER NOT NULL,
    text TEXT NOT NULL,
    spans TEXT NOT NULL,  -- [[block_id, start, end], ...]
    section_path TEXT NOT NULL,
    page_start INTEGER,
    page_end INTEGER
) STRICT;

CREATE INDEX chunks_by_document ON chunks (document_id, ord);
