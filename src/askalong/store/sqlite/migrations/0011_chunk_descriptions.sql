-- A chunk's background description (``ASKALONG_CONTEXT_DESCRIPTIONS``, ``chunk/descriptions``):
-- what document, section and subject it belongs to, at most 200 characters, written by a
-- chat model or (offline) the document title and section path. It is indexed with the
-- chunk's text (keyword and vector) and never quoted. Empty when the setting is off, as for
-- every chunk stored before this column.
ALTER TABLE chunks ADD COLUMN description TEXT NOT NULL DEFAULT '';
