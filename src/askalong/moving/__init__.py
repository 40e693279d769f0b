"""Moving an embedded home into server mode (``askalong migrate``): its rows, originals and
vectors copied into another store, resumable after a crash and checked by counting."""
