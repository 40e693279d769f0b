"""The Searcher on real text: both routes, permission and document filters, odd queries,
the keyword fallback when the vector route is pending or fails, and the tuned fusion
against keyword-only search on a real XQuAD zh sample.

The real local embedder is used throughout (a few dozen short paragraphs); a failing
embedder stands in only for the provider failure, which the real one cannot be made to do.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pytest
from model_caches import seeded

from askalong.chunk.prose import chunk_blocks
from askalong.config import Settings
from askalong.errors import InputError
from askalong.index.sync import SearchIndexes
from askalong.providers.base import Embedder, EmbedKind, ProviderError
from askalong.providers.local.embedder import default_embedder
from askalong.retrieve.search import MAX_QUERY_CHARS, Searcher
from askalong.store.backends import open_store
from askalong.store.base import Store
from askalong.types import Access, Block, Document, StoredDocument, Visibility

ALICE = Access(user="alice")
BOB = Access(user="bob")


@dataclass(frozen=True)
class Article:
    title: str
    paragraphs: tuple[str, ...]
    questions: tuple[tuple[str, int], ...]  # (question, paragraph index)


def xquad(evaldata: Path, language: str) -> list[Article]:
    data = json.loads((evaldata / "qa" / "xquad" / f"xquad.{language}.json").read_text("utf-8"))
    articles = []
    for article in data["data"]:
        paragraphs = tuple(p["context"] for p in article["paragraphs"])
        questions = tuple(
            (qa["question"], i) for i, p in enumerate(article["paragraphs"]) for qa in p["qas"]
        )
        articles.append(Article(article["title"], paragraphs, questions))
    return articles


def stored(article: Article, owner: str, visibility: Visibility) -> StoredDocument:
    """One paragraph per chunk (the title joins the first), as the eval harness's
    paragraph chunking does; block ``b{i + 1}`` is paragraph ``i``."""
    content = "\n\n".join((owner, article.title, *article.paragraphs)).encode()
    digest = hashlib.sha256(content).hexdigest()
    document = Document(
        id=digest[:16],
        content_hash=digest,
        title=article.title,
        source=article.title,
        format="text",
        language="und",
        page_count=1,
        size_bytes=len(content),
        created="2026-01-01T00:00:00+00:00",
        owner=owner,
        visibility=visibility,
    )
    section = (article.title,)
    blocks = (
        Block("b0", "heading", article.title, 0, section_path=section, heading_level=1),
        *(
            Block(f"b{i + 1}", "paragraph", text, i + 1, section_path=section)
            for i, text in enumerate(article.paragraphs)
        ),
    )
    chunks = chunk_blocks(document.id, blocks, target=2, maximum=100_000)
    return StoredDocument(document, blocks, chunks)


def original(doc: StoredDocument) -> bytes:
    text = (doc.document.owner, doc.document.title, *(b.text for b in doc.blocks[1:]))
    return "\n\n".join(text).encode()


class Engine:
    """A store, its indexes and a searcher in one folder."""

    def __init__(self, home: Path, embedder: Embedder) -> None:
        self.settings = Settings(home=home)
        self.store: Store = open_store(self.settings)
        self.indexes = SearchIndexes(self.settings, self.store, lambda: embedder)
        self.searcher = Searcher(self.store, self.indexes)

    def add(self, doc: StoredDocument, *, embed: bool = True) -> Document:
        self.store.add_document(doc, original(doc))
        self.indexes.add(doc.document, doc.chunks)
        if embed:
            assert self.indexes.embed([doc.document]).error is None
        return doc.document

    def paragraph(self, chunk_id: str) -> int:
        """The paragraph index a paragraph chunk holds."""
        return int(self.store.chunk(chunk_id).spans[-1].block_id[1:]) - 1

    def close(self) -> None:
        self.indexes.close()
        self.store.close()


class FailingEmbedder(Embedder):
    """Passages embed as the real model does; queries fail like a provider outage."""

    def __init__(self, real: Embedder) -> None:
        super().__init__(name=real.name, dimension=real.dimension)
        self.real = real

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        if kind == "query":
            raise ProviderError("connection refused", source="test")
        return self.real.embed_passages(texts)


@pytest.fixture(scope="module")
def embedder(tmp_path_factory: pytest.TempPathFactory, model_caches: Path) -> Embedder:
    return default_embedder(Settings(home=seeded(tmp_path_factory.mktemp("e5"), model_caches)))


@pytest.fixture(scope="module")
def english(evaldata: Path) -> list[Article]:
    return xquad(evaldata, "en")


@pytest.fixture(scope="module")
def shared(
    tmp_path_factory: pytest.TempPathFactory, embedder: Embedder, english: list[Article]
) -> Iterator[tuple[Engine, list[Document]]]:
    """Three XQuAD articles: alice's private one, bob's private one, a public one."""
    engine = Engine(tmp_path_factory.mktemp("shared"), embedder)
    owners: Sequence[tuple[str, Visibility]] = (
        ("alice", "private"),
        ("bob", "private"),
        ("carol", "public"),
    )
    docs = [engine.add(stored(a, o, v)) for a, (o, v) in zip(english[:3], owners, strict=True)]
    yield engine, docs
    engine.close()


# ----------------------------------------------------------------------------- filters


def test_both_routes_run_and_find_the_paragraph(
    shared: tuple[Engine, list[Document]], english: list[Article]
) -> None:
    engine, docs = shared
    question, paragraph = english[1].questions[0]
    result = engine.searcher.search(question, BOB)
    assert result.routes == ("keyword", "vector")
    assert result.hits and result.hits[0].document_id == docs[1].id
    assert engine.paragraph(result.hits[0].chunk_id) == paragraph
    assert result.hits[0].keyword_rank is not None and result.hits[0].vector_rank is not None


def test_permission_filter_holds_on_both_routes(
    shared: tuple[Engine, list[Document]], english: list[Article]
) -> None:
    engine, docs = shared
    question = english[1].questions[0][0]  # about bob's private article
    for keyword, vectors in ((True, True), (True, False), (False, True)):
        seen = {
            user.user: {
                hit.document_id
                for hit in engine.searcher.ranking(
                    question, user, use_keyword=keyword, use_vectors=vectors
                )
            }
            for user in (ALICE, BOB)
        }
        assert docs[1].id in seen["bob"], (keyword, vectors)
        assert seen["alice"] <= {docs[0].id, docs[2].id}, (keyword, vectors)


def test_document_filter(shared: tuple[Engine, list[Document]], english: list[Article]) -> None:
    engine, docs = shared
    question = english[1].questions[0][0]
    result = engine.searcher.search(question, BOB, documents=(docs[2].id,))
    assert result.routes == ("keyword", "vector")
    assert result.hits and {hit.document_id for hit in result.hits} == {docs[2].id}


# ----------------------------------------------------------------------------- odd queries


def test_stop_word_only_queries_find_nothing_and_say_why(
    shared: tuple[Engine, list[Document]],
) -> None:
    engine, _ = shared
    for query in ("the of and", "的 了 是", "?!"):
        result = engine.searcher.search(query, BOB)
        assert result.hits == () and result.routes == ()
        assert any("stop words" in note for note in result.notes)
    with pytest.raises(InputError):
        engine.searcher.search("   ", BOB)


def test_a_10000_character_query_is_cut_and_still_searched(
    shared: tuple[Engine, list[Document]], english: list[Article]
) -> None:
    engine, docs = shared
    text = " ".join(english[2].paragraphs)
    query = (text + " ") * (MAX_QUERY_CHARS // len(text) + 2)
    assert len(query) > MAX_QUERY_CHARS
    result = engine.searcher.search(query, BOB)
    assert len(result.query) == MAX_QUERY_CHARS
    assert result.routes == ("keyword", "vector")
    assert result.hits and result.hits[0].document_id == docs[2].id


# ----------------------------------------------------------------------------- fallbacks


def test_pending_vectors_are_searched_by_keyword_with_a_note(
    tmp_path: Path, embedder: Embedder, english: list[Article]
) -> None:
    engine = Engine(tmp_path, embedder)
    try:
        done = engine.add(stored(english[0], "bob", "private"))
        pending = engine.add(stored(english[3], "bob", "private"), embed=False)
        question, paragraph = english[3].questions[0]
        result = engine.searcher.search(question, BOB)
        assert any("1 document(s) have no vectors yet" in note for note in result.notes)
        assert result.hits[0].document_id == pending.id
        assert engine.paragraph(result.hits[0].chunk_id) == paragraph
        # The embedded document still takes part in the vector route.
        vector_only = engine.searcher.ranking(question, BOB, use_keyword=False)
        assert {hit.document_id for hit in vector_only} == {done.id}
    finally:
        engine.close()


def test_a_failing_vector_route_falls_back_to_keyword_with_a_note(
    tmp_path: Path, embedder: Embedder, english: list[Article]
) -> None:
    engine = Engine(tmp_path, FailingEmbedder(embedder))
    try:
        doc = engine.add(stored(english[4], "bob", "private"))
        question, paragraph = english[4].questions[0]
        result = engine.searcher.search(question, BOB)
        assert result.routes == ("keyword",)
        assert any("vector search failed" in note for note in result.notes)
        assert result.hits and {hit.mode for hit in result.hits} == {"keyword"}
        assert result.hits[0].document_id == doc.id
        assert engine.paragraph(result.hits[0].chunk_id) == paragraph
    finally:
        engine.close()


# ----------------------------------------------------------------------------- quality

# XQuAD zh articles 12-19 (40 paragraphs, 214 questions). Measured with the default
# policy: keyword R@1 0.944, hybrid 0.977 (+7 questions); the slack allows ~3 to move.
SAMPLE = slice(12, 20)
MEASURED_MARGIN = 0.033
SLACK = 0.015


def test_tuned_fusion_beats_keyword_only_on_xquad_zh(
    tmp_path: Path, embedder: Embedder, evaldata: Path
) -> None:
    engine = Engine(tmp_path, embedder)
    try:
        articles = xquad(evaldata, "zh")[SAMPLE]
        docs = [engine.add(stored(a, "bob", "private")) for a in articles]
        keyword = hybrid = 0
        asked = [(q, d.id, p) for a, d in zip(articles, docs, strict=True) for q, p in a.questions]
        for question, document_id, paragraph in asked:
            keyword += found_first(engine, question, document_id, paragraph, vectors=False)
            hybrid += found_first(engine, question, document_id, paragraph, vectors=True)
    finally:
        engine.close()
    margin = (hybrid - keyword) / len(asked)
    assert margin >= MEASURED_MARGIN - SLACK, (keyword, hybrid, len(asked))


def found_first(
    engine: Engine, question: str, document_id: str, paragraph: int, *, vectors: bool
) -> bool:
    ranking = engine.searcher.ranking(question, BOB, use_vectors=vectors)
    top = ranking[0]
    return top.document_id == document_id and engine.paragraph(top.chunk_id) == paragraph


# ----------------------------------------------------------------------------- title chunks


def test_a_papers_title_chunk_ranks_below_the_chunk_that_answers(
    tmp_path: Path, embedder: Embedder
) -> None:
    paper = Article(
        "Construction of the Literature Graph in Semantic Scholar",
        (
            "Waleed Ammar, Dirk Groeneveld, Chandra Bhagavatula, Iz Beltagy\n"
            "Allen Institute for Artificial Intelligence, Seattle WA 98103, USA",
            "The resulting literature graph consists of more than 280M nodes.",
            "We describe how papers, authors and entities are linked in the graph.",
        ),
        (),
    )
    engine = Engine(tmp_path, embedder)
    try:
        doc = engine.add(stored(paper, "alice", "private"))
        question = "How many nodes does the literature graph in Semantic Scholar have?"
        title_chunk = engine.store.chunks(doc.id)[0].id
        engine.searcher.policy = replace(engine.searcher.policy, title_chunks_last=False)
        before = engine.searcher.ranking(question, ALICE)
        assert before[0].chunk_id == title_chunk  # what the fusion alone ranks first
        engine.searcher.policy = replace(engine.searcher.policy, title_chunks_last=True)
        ranked = engine.searcher.ranking(question, ALICE)
        assert engine.paragraph(ranked[0].chunk_id) == 1 and ranked[1].chunk_id == title_chunk
        found = engine.searcher.search(question, ALICE).hits
        assert engine.paragraph(found[0].chunk_id) == 1
    finally:
        engine.close()
