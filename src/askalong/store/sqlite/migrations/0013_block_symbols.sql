-- The code symbol index (``store/sql/symbols.py``): a code block's definition name is the
-- last part of its section path; indexed as that expression (the same spelling as
-- ``Dialect.block_symbol``), so a question naming an identifier finds its definitions in
-- one index search instead of reading every code document's blocks.
CREATE INDEX blocks_by_symbol ON blocks (json_extract(section_path, '$[#-1]'));
