"""AskAlong (随问): grounded answers about what you are reading, from what you are reading."""

from askalong.config import Settings, load_settings
from askalong.errors import AskAlongError
from askalong.types import Access, Block, BlockSpan, Chunk, Document, LineBox, ParsedDocument

__all__ = [
    "Access",
    "AskAlongError",
    "Block",
    "BlockSpan",
    "Chunk",
    "Document",
    "LineBox",
    "ParsedDocument",
    "Settings",
    "load_settings",
]

__version__ = "0.1.0"
