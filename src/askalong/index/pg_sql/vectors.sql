-- The PostgreSQL vector route (index/pg_vector.py), one table per vector space
-- (embedder); {table}, {documents}, {keys}, {hnsw} and {dimension} are filled in by the
-- route. With pgvector: a vector column and an HNSW index (cosine). Idempotent.
CREATE TABLE IF NOT EXISTS {table} (
    chunk_id text NOT NULL,
    document_id text NOT NULL,
    embedding vector({dimension}) NOT NULL,
    content_key text NOT NULL DEFAULT '',  -- vector_rows.content_key of the text embedded
    PRIMARY KEY (document_id, chunk_id)
);
ALTER TABLE {table} ADD COLUMN IF NOT EXISTS content_key text NOT NULL DEFAULT '';
-- An identical text embedded again takes its stored vector.
CREATE INDEX IF NOT EXISTS {keys} ON {table} (content_key);
-- The documents whose vectors are searchable, and how many each has: what a filtered
-- search may score, counted without a scan. A document's rows without a row here were
-- set aside (it was written afresh): never searched, still reused by content key.
CREATE TABLE IF NOT EXISTS {documents} (
    document_id text PRIMARY KEY,
    vectors integer NOT NULL
);
CREATE INDEX IF NOT EXISTS {hnsw} ON {table} USING hnsw (embedding vector_cosine_ops);
