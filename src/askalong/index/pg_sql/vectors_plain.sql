-- The vector route where the pgvector extension is absent: normalised float32 vectors as
-- bytes, scored exactly (index/pg_vector.py). {table}, {documents} and {keys} are filled
-- in by the route. Idempotent.
CREATE TABLE IF NOT EXISTS {table} (
    chunk_id text NOT NULL,
    document_id text NOT NULL,
    embedding bytea NOT NULL,
    content_key text NOT NULL DEFAULT '',  -- vector_rows.content_key of the text embedded
    PRIMARY KEY (document_id, chunk_id)
);
ALTER TABLE {table} ADD COLUMN IF NOT EXISTS content_key text NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS {keys} ON {table} (content_key);
-- The documents whose vectors are searchable (see vectors.sql).
CREATE TABLE IF NOT EXISTS {documents} (
    document_id text PRIMARY KEY,
    vectors integer NOT NULL
);
