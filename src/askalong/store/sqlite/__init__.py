"""The embedded store: one SQLite file, WAL, numbered migrations."""
