-- The PostgreSQL keyword route (index/pg_keyword.py): an inverted index of our own tokens
-- as rows, so BM25 is scored in SQL with tantivy's formula and statistics. Idempotent.
CREATE TABLE IF NOT EXISTS keyword_documents (
    document_id text PRIMARY KEY,
    access text[] NOT NULL  -- types.document_tokens: what the permission filter meets
);
CREATE INDEX IF NOT EXISTS keyword_documents_access ON keyword_documents USING gin (access);

CREATE TABLE IF NOT EXISTS keyword_chunks (
    row bigserial PRIMARY KEY,
    chunk_id text NOT NULL,
    document_id text NOT NULL,
    role text,                 -- 'index' or 'glossary': a document's own index pages
    section_key text NOT NULL,
    headings text NOT NULL,    -- each title's tokens, a line each
    titles text[] NOT NULL,    -- exact title keys that index pages point at
    pointed text               -- an index page's text, read for its entries
);
CREATE INDEX IF NOT EXISTS keyword_chunks_document ON keyword_chunks (document_id);
CREATE INDEX IF NOT EXISTS keyword_chunks_titles ON keyword_chunks USING gin (titles);
-- The few chunks of index and glossary pages: a search looks them up only where they exist.
CREATE INDEX IF NOT EXISTS keyword_chunks_roles ON keyword_chunks (row) WHERE role IS NOT NULL;

-- One row per (field, term, chunk): the term's frequency and the chunk's length in the
-- field (1 text, 2 grams, 3 context, 4 section), what BM25 needs besides the totals.
CREATE TABLE IF NOT EXISTS keyword_postings (
    field smallint NOT NULL,
    term text NOT NULL,
    row bigint NOT NULL,
    tf integer NOT NULL,
    length integer NOT NULL,
    PRIMARY KEY (field, term, row) INCLUDE (tf, length)  -- scored from the index alone
);
CREATE INDEX IF NOT EXISTS keyword_postings_row ON keyword_postings (row);

-- How many chunks hold each term in each field (BM25's df), kept with the postings.
CREATE TABLE IF NOT EXISTS keyword_terms (
    field smallint NOT NULL,
    term text NOT NULL,
    df integer NOT NULL,
    PRIMARY KEY (field, term)
);

-- Field 0: the number of chunks; fields 1-4: the tokens they hold (avgdl = tokens / chunks).
CREATE TABLE IF NOT EXISTS keyword_totals (
    field smallint PRIMARY KEY,
    tokens bigint NOT NULL
);
INSERT INTO keyword_totals (field, tokens)
    SELECT f, 0 FROM generate_series(0, 4) AS f
    ON CONFLICT (field) DO NOTHING;

-- The keyword_schema.SCHEMA_VERSION the rows were written with (what a text is tokenised
-- as): a route of another version empties the tables when it opens, and sync refills
-- them from the store (pg_keyword.py, renew_tokens).
CREATE TABLE IF NOT EXISTS keyword_version (
    only_row boolean PRIMARY KEY DEFAULT TRUE CHECK (only_row),
    version integer NOT NULL
);
