"""Server mode's store: PostgreSQL through a psycopg 3 pool, numbered migrations."""
