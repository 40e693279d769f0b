"""The repository a source file is read in: the code documents of the collections that
hold it (a repository added as a folder or an archive is one), read from the store.

Only the blocks are read (no chunks, no originals); a file alone in no collection is its
own repository.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from askalong.context.code_graph import Repository
from askalong.context.code_places import Place, SourceFile
from askalong.store.base import Store
from askalong.types import Access, Block, Document


def repository_of(
    store: Store, document: Document, blocks: Sequence[Block], access: Access
) -> Repository:
    """``document`` (whose ``blocks`` the caller has read) and its repository's files."""
    files = {document.id: SourceFile(document.id, document.source, tuple(blocks))}
    for collection in store.document_collections(document.id, access):
        for member in store.collection_documents(collection.id, access):
            if member.format == "code" and member.id not in files:
                files[member.id] = SourceFile(member.id, member.source, store.blocks(member.id))
    return Repository(list(files.values()))


def anchor_place(repository: Repository, document: Document, block: Block) -> Place:
    file = repository.file(document.id)
    assert file is not None  # repository_of puts the document first
    return Place(file, block)


def repository_asked(
    store: Store, documents: Sequence[Document], access: Access, names: Collection[str]
) -> Repository:
    """The repository a question without an anchor is asked of: the code documents named
    (with their collections' code), else the repositories of the code ``access`` may read
    that defines one of ``names``, found by the store's symbol index in one query (never a
    read of every code document's blocks; a file alone in no collection is its own)."""
    named = [d for d in documents if d.format == "code"]
    if not documents:
        defining = dict.fromkeys(d.document_id for d in store.definitions(names, access))
        named = [store.get_document(doc_id, access) for doc_id in defining]
    files: dict[str, SourceFile] = {}
    for document in named:
        if document.id in files:
            continue
        found = repository_of(store, document, store.blocks(document.id), access)
        files.update((f.document_id, f) for f in found.files)
    return Repository(list(files.values()))


def only_code(store: Store, documents: Sequence[Document], access: Access) -> bool:
    """Whether a question is asked of code alone: the documents named, or else every
    document ``access`` may read (asked of the store in one query), are all source files."""
    if documents:
        return all(d.format == "code" for d in documents)
    return store.only_code(access)
