"""Retrieval: pure ranking math (``ranking.py``) and the one searcher over the search routes
(``search.py``)."""
