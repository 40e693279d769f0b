"""A document's title chunk ranks after the document's own next chunk.

A paper's first chunk is often its title and byline (the authors, their institutes), a
SciFact abstract's its title line. Such a chunk matches a question's topic words, and
under the vectors it is the document's summary, so it ranks first while it never holds
the answer. ``title_only`` recognises it (the document's first chunk: the title, then no
sentence and no purpose line); ``titles_last`` lowers its score just below its
document's next-best chunk, so the answer-bearing chunk of the same document moves up and
other documents keep their places.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Sequence
from dataclasses import replace

from askalong.types import Chunk, Hit

# How many of each route's best hits are looked at (a title chunk further down does no harm).
TITLE_WINDOW = 10
# A sentence's end: a word of two or more lower-case letters before . ! ? and a space (not
# an initial "S.", not an address "allenai.org"), or a CJK sentence mark.
_SENTENCE_END = re.compile(r"[^\W\d_A-Z]{2}[.!?](?:\s|$)|[。！？!?]")
_SPACE = re.compile(r"\s+")
# The title followed by a dash or colon is a reference page's purpose line, which answers
# "what does X do", not a byline.
_PURPOSE_MARKS = ("—", "–", "-", ":", "：")


def title_only(chunk: Chunk, title: str) -> bool:
    """Whether ``chunk`` is its document's first and holds the ``title`` and no sentence."""
    if chunk.order != 0 or not title.strip():
        return False
    text, head = _SPACE.sub(" ", chunk.text).strip(), _SPACE.sub(" ", title).strip()
    if not text.startswith(head):
        return False
    rest = text[len(head) :].lstrip()
    rest = rest[len(head) :].lstrip() if rest.startswith(head) else rest  # a name line above
    if rest.startswith(_PURPOSE_MARKS):  # "COPY — copy data between a file and a table"
        return False
    return _SENTENCE_END.search(rest) is None


def titles_last(hits: Sequence[Hit], titles: Collection[str]) -> list[Hit]:
    """``hits`` re-ranked with each chunk in ``titles`` scored just below the best other
    chunk of its document ranked after it (unchanged when there is none)."""
    if not titles:
        return list(hits)
    out = list(hits)
    for position, hit in enumerate(hits):
        if hit.chunk_id not in titles:
            continue
        below = [
            other.score
            for other in hits[position + 1 :]
            if other.document_id == hit.document_id and other.chunk_id not in titles
        ]
        if below:
            out[position] = replace(hit, score=math.nextafter(max(below), -math.inf))
    return sorted(out, key=lambda hit: -hit.score)
