-- The PostgreSQL vector route (index/pg_vector.py), one table per vector space
-- (embedder); {table}, {documents}, {hnsw} and {dimension} are filled in by the route.
-- With pgvector: a vector column and an HNSW index (cosine). Idempotent.
CREATE TABLE IF NOT EXISTS {table} (
    chunk_id text NOT NULL,
    document_id text NOT NULL,
    embedding vector({dimension}) NOT NULL,
    PRIMARY KEY (document_id, chunk_id)
);
-- Vectors per document: what a filtered search may score, counted without a scan.
CREATE TABLE IF NOT EXISTS {documents} (
    document_id text PRIMARY KEY,
    vectors integer NOT NULL
);
CREATE INDEX IF NOT EXISTS {hnsw} ON {table} USING hnsw (embedding vector_cosine_ops);
