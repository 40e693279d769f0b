"""Search gives the same results after the issue 28 speed-ups of its routes (hits named
from fast fields, one section read per section, hits kept as columns, section scores once
a section, one store query for the title check, the index-page query skipped where there
are none) as before them.

A fixture library of real XQuAD paragraphs (English and Chinese) in titled sections, one
document's back-of-book index and a glossary pointing at those sections, and a library
without them; each question's keyword ranking, keyword-only search and hybrid search (a
deterministic hash embedder) is compared, chunk, document, rank and score, with what the
code before the speed-ups gave (``data/search_same_results.json``, written by running
this file with ``--write`` on that code).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from hash_embedder import HashEmbedder

from askalong.chunk.prose import chunk_blocks
from askalong.config import Settings
from askalong.evaluate.datasets import load_dataset
from askalong.index.sync import SearchIndexes
from askalong.retrieve.search import Searcher
from askalong.store.backends import open_store
from askalong.types import Access, Block, Document, StoredDocument

GOLDEN = Path(__file__).parents[1] / "data" / "search_same_results.json"
LOCAL = Access.local()
KEYWORD_KEPT = 30  # of each keyword ranking, compared (the file stays small)
SECTIONS = ("1. Overview", "2. History", "3. Details", "4. Reception")
POINTERS = (  # index entries: "term, Target Title, ..." (``index/sections.py``)
    "history, History of Article 1, History of Article 2",
    "reception, Reception of Article 2",
    "overview, Overview of Article 1",
)


Stored = tuple[StoredDocument, bytes]  # a document and its original bytes


def stored(number: int, title: str, sections: list[tuple[str, str]]) -> Stored:
    """A document of ``(section title, paragraph)`` blocks, one chunk about each."""
    text = "\n\n".join(paragraph for _, paragraph in sections)
    original = f"{number}\n{text}".encode()
    digest = hashlib.sha256(original).hexdigest()
    document = Document(
        id=digest[:16],
        content_hash=digest,
        title=title,
        source=f"doc{number}.txt",
        format="text",
        language="und",
        page_count=1,
        size_bytes=len(text),
        created="2026-12-01T00:00:00+00:00",
    )
    blocks = tuple(
        Block(f"b{i}", "paragraph", paragraph, i, section_path=(section,))
        for i, (section, paragraph) in enumerate(sections)
    )
    return StoredDocument(document, blocks, chunk_blocks(document.id, blocks, target=80)), original


def library(evaldata: Path, with_index_pages: bool) -> tuple[list[Stored], list[str]]:
    """The fixture documents and questions (the first paragraphs and questions of XQuAD
    en and zh, four paragraphs a document, each in a titled section)."""
    documents: list[Stored] = []
    questions: list[str] = []
    for name in ("xquad.en.json", "xquad.zh.json"):
        data = load_dataset(evaldata / "qa" / "xquad" / name)
        paragraphs = [p for d in data.documents for p in d.paragraphs if p.strip()][:32]
        for start in range(0, len(paragraphs), 4):
            part = paragraphs[start : start + 4]
            title = f"Article {len(documents)}"
            sections = [(f"{SECTIONS[i]} of {title}", p) for i, p in enumerate(part)]
            documents.append(stored(len(documents), title, sections))
        questions += [q.text for q in data.queries[:40]]
    if with_index_pages:
        entries = list(POINTERS)
        glossary = "Reception\nHow the work was received by critics.\nsee Section 4"
        documents.append(stored(len(documents), "Index", [("Index", "\n".join(entries))]))
        documents.append(stored(len(documents), "Glossary", [("Glossary", glossary)]))
    questions += ["history", "reception overview", "Article 2 History", "details of article 5"]
    return documents, questions


def results(home: Path, evaldata: Path, with_index_pages: bool) -> dict[str, object]:
    """Each question's keyword ranking and hybrid hits, as plain lists."""
    settings = Settings(home=home)
    documents, questions = library(evaldata, with_index_pages)
    embedder = HashEmbedder()
    out: dict[str, object] = {}
    with open_store(settings) as store, SearchIndexes(settings, store, lambda: embedder) as indexes:
        for document, original in documents:
            store.add_document(document, original)
        # One commit in this order: chunks tied on score keep the same order every run.
        indexes.keyword.add_many([(d.document, d.chunks) for d, _ in documents])
        assert indexes.embed(indexes.pending_vectors()).error is None
        searcher = Searcher(store, indexes)
        for question in questions:
            keyword = indexes.keyword.search(question, LOCAL, limit=150)
            hybrid = searcher.search(question, LOCAL).hits
            alone = searcher.search(question, LOCAL, use_vectors=False).hits
            out[question] = {
                "keyword": [[h.chunk_id, h.document_id, h.keyword_rank, round(h.score, 6)]
                            for h in keyword[:KEYWORD_KEPT]],
                "hybrid": [[h.chunk_id, h.keyword_rank, h.vector_rank, round(h.score, 6)]
                           for h in hybrid],
                "keyword search": [[h.chunk_id, h.keyword_rank, round(h.score, 6)]
                                   for h in alone],
            }  # fmt: skip
    return out


def test_search_gives_what_it_gave_before_the_speed_ups(tmp_path: Path, evaldata: Path) -> None:
    expected: dict[str, dict[str, object]] = {}
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():  # {library: {question: …}}
        ((key, by),) = json.loads(line).items()
        expected.setdefault(key, {}).update(by)
    for pages in (True, False):
        key = "with index pages" if pages else "without index pages"
        found = results(tmp_path / key, evaldata, pages)
        assert _rounded(found) == _rounded(expected[key])
        assert any(answer["keyword"] for answer in found.values())  # type: ignore[index]


def _rounded(found: dict[str, object]) -> object:
    """``found`` with every score to five places: the same hits in the same order, each
    score as before; the sixth place moves with the numeric libraries a fresh install
    brings (the hash embedder's cosines: 1.068028 against 1.068029)."""
    return json.loads(json.dumps(found), parse_float=lambda text: round(float(text), 5))


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    import tempfile

    from conftest import EVALDATA

    with tempfile.TemporaryDirectory() as folder:
        golden = {
            ("with index pages" if pages else "without index pages"): results(
                Path(folder) / str(pages), EVALDATA, pages
            )
            for pages in (True, False)
        }
    lines = [json.dumps({k: {q: v}}, ensure_ascii=False) for k, by in golden.items()
             for q, v in by.items()]  # fmt: skip
    GOLDEN.write_text("\n".join(lines) + "\n", encoding="utf-8")
