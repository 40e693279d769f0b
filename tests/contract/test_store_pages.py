"""``DocumentStore.add_page``: a page read after its document was added goes in reading
order among the document's blocks and chunks, once, and is no longer unread."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from askalong.errors import NotFound
from askalong.store.base import DocumentStore
from askalong.types import Access, Block, BlockSpan, Chunk, Document, StoredDocument

DATA = b"%PDF three pages, the middle one scanned"
DOC_ID = hashlib.sha256(DATA).hexdigest()[:16]


def _block(block_id: str, order: int, page: int) -> Block:
    return Block(block_id, "paragraph", f"text of {block_id}", order, ("1 Intro",), page=page)


def _chunk(chunk_id: str, order: int, block: Block) -> Chunk:
    span = BlockSpan(block.id, 0, len(block.text))
    return Chunk(
        chunk_id, DOC_ID, order, (span,), block.text, block.section_path, block.page, block.page
    )


def _stored() -> StoredDocument:
    content_hash = hashlib.sha256(DATA).hexdigest()
    document = Document(
        id=DOC_ID,
        content_hash=content_hash,
        title="three pages",
        source="three.pdf",
        format="pdf",
        language="en",
        page_count=3,
        size_bytes=len(DATA),
        created="2024-05-01T10:00:00Z",
        page_sizes=((612.0, 792.0),) * 3,
        ocr_pages=(2,),
        unread_pages=(2,),
    )
    blocks = (_block("b0", 0, 1), _block("b1", 1, 1), _block("b2", 2, 3))
    chunks = (_chunk(f"{DOC_ID}:c0", 0, blocks[0]), _chunk(f"{DOC_ID}:c1", 1, blocks[2]))
    return StoredDocument(document, blocks, chunks)


def test_a_read_page_goes_between_its_neighbours_once(store: DocumentStore) -> None:
    store.add_document(_stored(), DATA)
    page = (_block("p2b0", 0, 2), _block("p2b1", 1, 2))
    chunks = (_chunk(f"{DOC_ID}:p2c0", 0, page[0]),)
    assert store.add_page(DOC_ID, 2, page, chunks) is True

    blocks = store.blocks(DOC_ID)
    assert [b.id for b in blocks] == ["b0", "b1", "p2b0", "p2b1", "b2"]
    assert [b.order for b in blocks] == [0, 1, 2, 3, 4]
    assert [b.id for b in store.blocks(DOC_ID, page=2)] == ["p2b0", "p2b1"]
    stored_chunks = store.chunks(DOC_ID)
    assert [c.id for c in stored_chunks] == [f"{DOC_ID}:c0", f"{DOC_ID}:p2c0", f"{DOC_ID}:c1"]
    assert [c.order for c in stored_chunks] == [0, 1, 2]
    assert store.get_document(DOC_ID, Access.local()).unread_pages == ()

    again = (_block("p2b0", 0, 2), _block("p2b1", 1, 2), _block("p2b2", 2, 2))
    assert store.add_page(DOC_ID, 2, again, chunks) is False  # read already: nothing changes
    assert store.blocks(DOC_ID) == blocks and store.chunks(DOC_ID) == stored_chunks


def test_a_page_after_the_last_goes_at_the_end(store: DocumentStore) -> None:
    stored = _stored()
    document = stored.document
    late = StoredDocument(
        replace(document, page_count=4, unread_pages=(4,)),
        stored.blocks,
        stored.chunks,
    )
    store.add_document(late, DATA)
    assert store.add_page(DOC_ID, 4, (_block("p4b0", 0, 4),), ()) is True
    assert [b.id for b in store.blocks(DOC_ID)][-1] == "p4b0"
    assert store.blocks(DOC_ID)[-1].order == 3


def test_an_unknown_document_is_not_found(store: DocumentStore) -> None:
    with pytest.raises(NotFound):
        store.add_page("nope", 1, (), ())
