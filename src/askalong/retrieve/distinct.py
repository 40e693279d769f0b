"""Near-duplicate passages collapsed in a ranking: a chunk whose text a better-ranked
chunk already holds says nothing new and only pushes a different passage out of the
first places (pure).

Web pages repeat themselves (a DuReader page's first paragraph under its title, then
again alone), overlapping manual pages copy a sentence, and the chunker's overlap
repeats a chunk's last sentence at the next one's head. A chunk is a near duplicate
when at least ``CONTAINED`` of its character ``SHINGLE``-grams (folded, spaces removed:
works the same for Chinese and English) occur in one chunk ranked above it:

    containment(b, a) = |grams(b) ∩ grams(a)| / |grams(b)|

Only the first ``WINDOW`` chunks of the ranking are compared (what a search lists and
the answerer reads come from there); the ranking's order is otherwise kept.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from askalong.text.fold import fold
from askalong.types import Hit

SHINGLE = 5
CONTAINED = 0.8
WINDOW = 20


def near_duplicates(
    ranked: Sequence[Hit], texts: Mapping[str, str], *, contained: float = CONTAINED
) -> frozenset[str]:
    """Ids of the chunks in ``ranked`` (best first) whose text is ``contained`` in a
    better-ranked chunk's; ``texts`` maps chunk id to text (a missing id is kept)."""
    kept: list[frozenset[str]] = []
    dropped: set[str] = set()
    for hit in ranked:
        grams = shingles(texts.get(hit.chunk_id, ""))
        if not grams:
            continue
        if any(len(grams & other) >= contained * len(grams) for other in kept):
            dropped.add(hit.chunk_id)
        else:
            kept.append(grams)
    return frozenset(dropped)


def shingles(text: str) -> frozenset[str]:
    """The folded text's character ``SHINGLE``-grams, whitespace removed."""
    flat = "".join(fold(text).split())
    return frozenset(flat[i : i + SHINGLE] for i in range(max(len(flat) - SHINGLE + 1, 0)))


def without(hits: Sequence[Hit], dropped: Collection[str]) -> list[Hit]:
    return [hit for hit in hits if hit.chunk_id not in dropped]
