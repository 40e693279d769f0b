-- Collections: named sets of documents (a folder or a manual added together), private to
-- their owner. A document may belong to several; deleting either side drops the membership.

CREATE TABLE collections (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    name TEXT NOT NULL,
    created TEXT NOT NULL,
    UNIQUE (owner, name)
) STRICT;

CREATE TABLE collection_documents (
    collection_id TEXT NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    added TEXT NOT NULL,
    PRIMARY KEY (collection_id, document_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX collection_documents_by_document ON collection_documents (document_id);
