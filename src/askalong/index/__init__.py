"""The two search routes: BM25 over our tokens (tantivy) and exact cosine over vectors."""

from askalong.index.keyword import KeywordIndex
from askalong.index.vectors import VectorIndex

__all__ = ["KeywordIndex", "VectorIndex"]
