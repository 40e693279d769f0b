"""Nobody waits for a document being embedded (issue 25, §1): while one embedder is in the
middle of a document's texts, another embeds other documents at once and skips that one
(it is the first's to add), instead of waiting on the vector index's shared claim, which
is held only to check and add, never across the embedding."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
from hash_embedder import HashEmbedder
from test_vector_keys import paragraphs_document

from askalong.config import Settings
from askalong.index.embedding import EmbedReport
from askalong.index.sync import SearchIndexes
from askalong.providers.base import EmbedKind
from askalong.store.backends import open_store
from askalong.types import Document

WAIT = 30.0  # seconds a thread may take before the test gives up on it: a hang, not a speed


class HeldEmbedder(HashEmbedder):
    """Holds every call until ``release`` is set, once ``held`` says it is inside one."""

    def __init__(self) -> None:
        super().__init__()
        self.hold = True
        self.held = threading.Event()
        self.release = threading.Event()

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        if self.hold:
            self.held.set()
            assert self.release.wait(2 * WAIT)
        return super()._embed(texts, kind)


def stored(settings: Settings, count: int) -> list[Document]:
    documents = [paragraphs_document(n) for n in range(count)]
    with open_store(settings) as store:
        for doc, original in documents:
            store.add_document(doc, original)
    return [doc.document for doc, _ in documents]


def test_a_document_being_embedded_holds_up_no_other_embedder(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "home")
    slow, other = stored(settings, 2)
    held, free = HeldEmbedder(), HashEmbedder()
    with (
        open_store(settings) as store,
        SearchIndexes(settings, store, lambda: held) as first,
        SearchIndexes(settings, store, lambda: free) as second,
    ):
        reports: list[EmbedReport] = []
        embedding = threading.Thread(target=lambda: reports.append(first.embed([slow])))
        embedding.start()
        assert held.held.wait(WAIT)  # the first embedder is inside the slow document
        elsewhere: list[EmbedReport] = []
        meanwhile = threading.Thread(target=lambda: elsewhere.append(second.embed([other, slow])))
        meanwhile.start()
        meanwhile.join(WAIT)
        waited = meanwhile.is_alive()  # before the fix: on the shared claim, until released
        held.release.set()
        embedding.join(WAIT)
        meanwhile.join(WAIT)
        assert not waited, "the second embedder waited for the first"
        assert elsewhere == [EmbedReport(1, len(store.chunks(other.id)))]  # the slow one skipped
        assert reports == [EmbedReport(1, len(store.chunks(slow.id)))]
        vectors = second.vectors
        assert vectors is not None
        assert vectors.document_ids() == {slow.id, other.id}
