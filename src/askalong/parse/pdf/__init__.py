"""PDF parsing: characters, layout, reading order, block kinds, tables, formulas; page rendering."""
