"""The two search routes: BM25 over our tokens (tantivy, ``keyword.py``) and exact cosine
over vectors (``vectors.py``). Nothing is re-exported here, so importing a light module of
the package (the protocols, the schema) loads neither tantivy nor numpy."""
