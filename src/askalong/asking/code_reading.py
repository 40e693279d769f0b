"""The repository a source file is read in: the code documents of the collections that
hold it (a repository added as a folder or an archive is one), read from the store.

Only the blocks are read (no chunks, no originals); a file alone in no collection is its
own repository.
"""

from __future__ import annotations

from collections.abc import Sequence

from askalong.context.code_graph import Place, Repository, SourceFile
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


def repository_asked(store: Store, documents: Sequence[Document], access: Access) -> Repository:
    """The repository a question without an anchor is asked of: the code documents named
    (with their collections' code), else every code document ``access`` may read."""
    named = [d for d in documents if d.format == "code"]
    if not named and not documents:
        named = [d for d in store.list_documents(access) if d.format == "code"]
    files: dict[str, SourceFile] = {}
    for document in named:
        if document.id in files:
            continue
        found = repository_of(store, document, store.blocks(document.id), access)
        files.update((f.document_id, f) for f in found.files)
    return Repository(list(files.values()))


def only_code(store: Store, documents: Sequence[Document], access: Access) -> bool:
    """Whether a question is asked of code alone: the documents named, or else every
    document ``access`` may read, are all source files."""
    scope = documents or store.list_documents(access)
    return bool(scope) and all(d.format == "code" for d in scope)
