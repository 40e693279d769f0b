-- The vector route where the pgvector extension is absent: normalised float32 vectors as
-- bytes, scored exactly (index/pg_vector.py). {table} and {documents} are filled
-- in by the route. Idempotent.
CREATE TABLE IF NOT EXISTS {table} (
    chunk_id text NOT NULL,
    document_id text NOT NULL,
    embedding bytea NOT NULL,
    PRIMARY KEY (document_id, chunk_id)
);
-- Vectors per document: what a filtered search may score, counted without a scan.
CREATE TABLE IF NOT EXISTS {documents} (
    document_id text PRIMARY KEY,
    vectors integer NOT NULL
);
