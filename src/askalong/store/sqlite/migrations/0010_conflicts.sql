-- The contradiction scan's findings (``askalong conflicts``): chunk pairs across documents
-- that say nearly the same thing with a different number, date, version, setting or
-- negation. A pair goes with either of its chunks (cascade), so deleting a document or
-- storing it afresh (its chunks replaced) drops its pairs; the scan of the new chunks
-- finds them again. Each side's span, changed tokens and the chunk's block spans are
-- compact JSON (``maintain/conflicts``).
CREATE TABLE conflicts (
    first_chunk TEXT NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
    second_chunk TEXT NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
    first_document TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    second_document TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    first_side TEXT NOT NULL,
    second_side TEXT NOT NULL,
    cosine REAL NOT NULL,
    dice REAL NOT NULL,
    found_at TEXT NOT NULL,
    PRIMARY KEY (first_chunk, second_chunk),
    CHECK (first_chunk < second_chunk)
) STRICT;

CREATE INDEX conflicts_by_second_chunk ON conflicts (second_chunk);
CREATE INDEX conflicts_by_first_document ON conflicts (first_document);
CREATE INDEX conflicts_by_second_document ON conflicts (second_document);

-- Which documents' chunks were checked against the index, and how many had no vector
-- yet (skipped: checked again on the next scan). Any change to a document's chunks makes
-- its record go, so the next scan reads it again.
CREATE TABLE conflict_scans (
    document_id TEXT PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
    chunks INTEGER NOT NULL,
    skipped INTEGER NOT NULL,
    scanned_at TEXT NOT NULL
) STRICT;

CREATE TRIGGER conflict_scans_stale_on_delete AFTER DELETE ON chunks
BEGIN
    DELETE FROM conflict_scans WHERE document_id = OLD.document_id;
END;

CREATE TRIGGER conflict_scans_stale_on_insert AFTER INSERT ON chunks
BEGIN
    DELETE FROM conflict_scans WHERE document_id = NEW.document_id;
END;
