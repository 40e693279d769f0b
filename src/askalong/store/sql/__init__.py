"""The SQL both stores share: one class per aggregate over ``SqlDatabase`` (SQLite, PostgreSQL)."""
