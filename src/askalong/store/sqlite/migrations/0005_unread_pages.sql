-- The scanned pages OCR did not read while the document was added (its time budget ran
-- out): the reader says so on each and offers to read it now. Older rows read none.

ALTER TABLE documents ADD COLUMN unread_pages TEXT NOT NULL DEFAULT '[]';
