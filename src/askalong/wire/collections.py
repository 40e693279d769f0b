"""The JSON form of a collection: a named set of documents, counted as the caller sees it."""

from __future__ import annotations

from typing import cast

from typing_extensions import TypedDict

from askalong.values.collections import Collection
from askalong.wire.derived import value_json


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
    return cast(CollectionJSON, value_json(collection))
