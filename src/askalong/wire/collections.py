"""The JSON form of a collection: a named set of documents, counted as the caller sees it."""

from __future__ import annotations

from typing_extensions import TypedDict

from askalong.values.collections import Collection


class CollectionJSON(TypedDict):
    """A named set of documents; ``documents`` and ``chunks`` count the members the
    caller may see."""

    id: str
    name: str
    owner: str
    created: str
    documents: int
    chunks: int


def collection_json(collection: Collection) -> CollectionJSON:
    return {
        "id": collection.id,
        "name": collection.name,
        "owner": collection.owner,
        "created": collection.created,
        "documents": collection.documents,
        "chunks": collection.chunks,
    }
