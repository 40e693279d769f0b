"""How big a question may be: the edges (the HTTP schema, the CLI) refuse anything larger
before any work starts. One 20 MB question once held the shared embedder for minutes and
timed out every other search and answer; nobody types or selects that much to ask about it.

Counted in characters (Unicode code points, as every offset in AskAlong).
"""

from __future__ import annotations

from askalong.errors import TooLarge
from askalong.types import Anchor

MAX_QUESTION_CHARS = 2_000
MAX_SELECTION_CHARS = 20_000  # a few pages of selected text
MAX_ID_CHARS = 200  # a document id (or id prefix), block id or thread id
MAX_ASKED_DOCUMENTS = 500  # documents named in one question (the library's "ask several")


def check_sizes(question: str, anchor: Anchor | None = None) -> None:
    """Raise ``TooLarge`` naming the first part of the question over its limit."""
    parts = (
        ("question", question, MAX_QUESTION_CHARS),
        ("selected text", anchor.selected_text if anchor else None, MAX_SELECTION_CHARS),
        ("block id", anchor.block_id if anchor else None, MAX_ID_CHARS),
    )
    for name, text, limit in parts:
        if text is not None and len(text) > limit:
            message = f"the {name} is {len(text):,} characters; at most {limit:,} are accepted"
            raise TooLarge(message, source=name)
