"""Query vectors remembered per embedder: a question's searches and its extractive answer
embed the same query text once (``Embedder.embed_query``), through the answerer's sentence
cache too (``CachedEmbedder``); passages are never remembered there."""

from __future__ import annotations

import numpy as np
import pytest
from hash_embedder import HashEmbedder

from askalong.answer.extractive.sentence_cache import CachedEmbedder
from askalong.providers.base import REMEMBERED_QUERIES

QUERY = "what does shared_buffers default to?"


def test_the_same_query_is_embedded_once_and_its_vector_is_read_only() -> None:
    embedder = HashEmbedder()
    first = embedder.embed_query(QUERY)
    again = embedder.embed_query(QUERY)
    assert embedder.embedded == 1
    assert again is first and np.allclose(first, embedder.vector(QUERY))
    with pytest.raises(ValueError):
        first[0] = 0.0
    embedder.embed_passages([QUERY, QUERY])
    assert embedder.embedded == 3  # passages are another form: embedded each time


def test_the_answerers_cache_asks_the_searchers_embedder_for_a_query() -> None:
    inner = HashEmbedder()
    inner.embed_query("what is a savepoint?")  # the search embedded it
    cached = CachedEmbedder(inner)
    assert np.allclose(
        cached.embed_query("what is a savepoint?"), inner.vector("what is a savepoint?")
    )
    assert inner.embedded == 1


def test_the_least_recent_query_is_forgotten_first() -> None:
    embedder = HashEmbedder()
    for k in range(REMEMBERED_QUERIES + 1):
        embedder.embed_query(f"query {k}")
    embedder.embed_query(f"query {REMEMBERED_QUERIES}")
    assert embedder.embedded == REMEMBERED_QUERIES + 1
    embedder.embed_query("query 0")
    assert embedder.embedded == REMEMBERED_QUERIES + 2
