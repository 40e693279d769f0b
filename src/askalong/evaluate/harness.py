"""Load a test collection into a library of its own and score the engine's rankings.

Each collection gets its own ``ASKALONG_HOME`` under ``<home>/eval/<name>``, built once:
its documents (title heading + one paragraph block per judged paragraph) go through the
real chunker, store, keyword index and embedder, so the evaluation measures the product,
and the vectors are kept between runs. A chunk covers the paragraphs whose blocks it
spans: block ``b{i + 1}`` is paragraph ``i``.

Two chunkings are offered. ``default`` is the product's (target 512 size units), which
packs short paragraphs together, so a chunk may hold two or three paragraphs and finding
"the chunk holding the paragraph" is easier than finding the paragraph. ``paragraph``
makes each paragraph its own chunk (the title heading joins the first one), which is
the setting published paragraph-retrieval baselines use; its library lives apart.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal, get_args

from askalong.chunk.prose import chunk_blocks
from askalong.config import Settings
from askalong.errors import ConfigError, InputError
from askalong.evaluate.datasets import CorpusDocument, RetrievalCorpus, Unit
from askalong.evaluate.retrieval import RetrievalReport, evaluate_retrieval
from askalong.library import Library
from askalong.retrieve.search import Searcher
from askalong.text.scripts import detect_language
from askalong.types import Access, Block, Chunk, Document, StoredDocument

MODES = ("keyword", "vector", "hybrid")
Chunking = Literal["default", "paragraph"]
CHUNKINGS: tuple[str, ...] = get_args(Chunking)
# Paragraph chunking: any target below one paragraph closes a chunk after each block,
# and a maximum far above any paragraph never cuts one into sentences.
_PARAGRAPH_TARGET = 2
_PARAGRAPH_MAX = 1_000_000
Progress = Callable[[str, int, int], None]  # (stage, done, total)


@dataclass(frozen=True)
class Evaluation:
    reports: tuple[RetrievalReport, ...]
    notes: tuple[str, ...]
    chunking: str = "default"
    chunks: int = 0
    paragraphs_per_chunk: float = 0.0  # mean judged paragraphs a chunk covers


def corpus_settings(
    settings: Settings, corpus: RetrievalCorpus, chunking: Chunking = "default"
) -> Settings:
    """The settings of the corpus's own library (one per chunking)."""
    if chunking not in CHUNKINGS:
        raise ConfigError(f"chunking {chunking!r}; valid choices: {', '.join(CHUNKINGS)}")
    home = settings.home / "eval" / _slug(corpus.name)
    if chunking == "default":
        return dataclasses.replace(settings, home=home)
    return dataclasses.replace(
        settings,
        home=home.with_name(f"{home.name}@paragraph"),
        chunk_target=_PARAGRAPH_TARGET,
        chunk_max=_PARAGRAPH_MAX,
    )


def evaluate_corpus(
    settings: Settings,
    corpus: RetrievalCorpus,
    *,
    modes: Sequence[str] = MODES,
    limit: int | None = None,
    progress: Progress | None = None,
    chunking: Chunking = "default",
    embed: bool = True,
) -> Evaluation:
    """Index ``corpus`` (if not yet done) and score each mode on its queries.

    With ``embed`` False, missing vectors are not computed: the vector modes are then
    left out (with a note) unless every chunk already has its vector."""
    with Library(corpus_settings(settings, corpus, chunking)) as library:
        load_corpus(library, corpus, progress)
        notes: tuple[str, ...] = ()
        if set(modes) & {"vector", "hybrid"}:
            notes = _embed(library, progress) if embed else _unembedded(library)
            if notes and not embed:
                modes = [mode for mode in modes if mode == "keyword"]
        queries = corpus.queries[:limit] if limit else corpus.queries
        subset = dataclasses.replace(corpus, queries=queries)
        units = chunk_units(library)
        searcher = library.searcher
        reports = tuple(evaluate_mode(searcher, subset, mode, units, progress) for mode in modes)
    return Evaluation(reports, notes, chunking, len(units), paragraphs_per_chunk(units))


def paragraphs_per_chunk(units: dict[str, frozenset[Unit]]) -> float:
    """The mean number of judged paragraphs a chunk covers (the title-only chunk, if any,
    covers none)."""
    return sum(len(covered) for covered in units.values()) / len(units) if units else 0.0


def load_corpus(library: Library, corpus: RetrievalCorpus, progress: Progress | None) -> None:
    """Add the corpus documents the library does not have yet (ids are content hashes)."""
    have = {d.id for d in library.store.list_documents(Access.local())}
    todo = [d for d in corpus.documents if _document_id(d) not in have]
    batch: list[tuple[Document, Sequence[Chunk]]] = []
    for done, item in enumerate(todo, 1):
        stored = _stored(item, library.settings)
        library.store.add_document(stored, _content(item))
        batch.append((stored.document, stored.chunks))
        if len(batch) >= 500 or done == len(todo):
            library.indexes.keyword.add_many(batch)
            batch = []
        if progress:
            progress("indexing", done, len(todo))


def _embed(library: Library, progress: Progress | None) -> tuple[str, ...]:
    pending = library.indexes.pending_vectors()
    total = sum(len(library.store.chunks(d.id)) for d in pending)
    callback = (lambda n: progress("embedding", n, total)) if progress else None
    report = library.indexes.embed(pending, callback)
    if report.error:
        return (f"vectors incomplete: {report.error}",)
    return ()


def _unembedded(library: Library) -> tuple[str, ...]:
    pending = library.indexes.pending_vectors()
    if library.indexes.vectors is None:
        return ("vector modes left out: embeddings are off",)
    if pending:
        return (f"vector modes left out: {len(pending)} document(s) have no vectors yet",)
    return ()


def evaluate_mode(
    searcher: Searcher,
    corpus: RetrievalCorpus,
    mode: str,
    units: dict[str, frozenset[Unit]],
    progress: Progress | None,
) -> RetrievalReport:
    """Score one search mode of ``searcher`` on the corpus (``units``: ``chunk_units``)."""

    def search(query: str) -> list[str]:
        try:
            hits = searcher.ranking(
                query,
                Access.local(),
                use_keyword=mode != "vector",
                use_vectors=mode != "keyword",
            )
        except InputError:  # an empty question (CMRC trial has one): found nothing
            return []
        return [hit.chunk_id for hit in hits[:100]]

    total = len(corpus.queries)
    callback = (lambda n: progress(f"searching ({mode})", n, total)) if progress else None
    return evaluate_retrieval(
        corpus, search, unit_of=lambda chunk_id: units[chunk_id], mode=mode, progress=callback
    )


def chunk_units(library: Library) -> dict[str, frozenset[Unit]]:
    """Each chunk id -> the (document key, paragraph index) units it covers."""
    units: dict[str, frozenset[Unit]] = {}
    for document in library.store.list_documents(Access.local()):
        key = document.source
        for chunk in library.store.chunks(document.id):
            paragraphs = {int(s.block_id[1:]) - 1 for s in chunk.spans}
            units[chunk.id] = frozenset(Unit(key, p) for p in paragraphs if p >= 0)
    return units


def _stored(item: CorpusDocument, settings: Settings) -> StoredDocument:
    blocks = _blocks(item)
    content = _content(item)
    content_hash = hashlib.sha256(content).hexdigest()
    document = Document(
        id=content_hash[:16],
        content_hash=content_hash,
        title=item.title or item.key,
        source=item.key,
        format="text",
        language=detect_language(" ".join(item.paragraphs)[:2000]),
        page_count=1,
        size_bytes=len(content),
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        owner="eval",
        visibility="public",
    )
    chunks = chunk_blocks(
        document.id, blocks, target=settings.chunk_target, maximum=settings.chunk_max
    )
    return StoredDocument(document, blocks, chunks)


def _blocks(item: CorpusDocument) -> tuple[Block, ...]:
    title = item.title or item.key
    section = (title,)
    heading = Block(
        id="b0", kind="heading", text=title, order=0, section_path=section, heading_level=1
    )
    paragraphs = (
        Block(id=f"b{i + 1}", kind="paragraph", text=text, order=i + 1, section_path=section)
        for i, text in enumerate(item.paragraphs)
    )
    return (heading, *paragraphs)


def _content(item: CorpusDocument) -> bytes:
    return "\n\n".join((item.key, item.title, *item.paragraphs)).encode("utf-8")


def _document_id(item: CorpusDocument) -> str:
    return hashlib.sha256(_content(item)).hexdigest()[:16]


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in name)
