"""The values of the store's aggregates, one module per aggregate: ``accounts``, ``uploads``
(resumable uploads in progress), ``jobs``, ``feedback``, ``conflicts`` (the contradiction
scan's pairs), ``findings`` (what ``doctor`` finds), ``threads``, ``collections`` and
``chat_answers`` (the agent's answer, stored with its turn).

They sit beside ``askalong.types`` (the pipeline's values) on the ground floor, below the
store that keeps them and the packages that make them, so the store depends on nothing
above it. Frozen dataclasses and their names, importing only ``types`` and one another.
"""
