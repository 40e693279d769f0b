"""Retrieval: pure ranking math (``policy``, ``fusion``, ``cutoff``, ``followup``; one
import for them all in ``ranking``) and the one searcher over the search routes
(``search.py``)."""
