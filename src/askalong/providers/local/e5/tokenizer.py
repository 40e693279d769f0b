"""The package's SentencePiece-unigram tokenizer, step for step as ``tok_content`` in e5.c.

Normalise each code point through the model's map, collapse runs of spaces, prepend
one space unless the text starts with one, turn spaces into the metaspace ``▁``, then
Viterbi over the pieces. Scores add up in float32 and ties keep the earlier path, as
in C, so the ids are the same. Unlike SentencePiece proper, unknown characters stay
one ``<unk>`` each and piece strings such as ``<s>`` may match literally: the
package does this, so we do too.

The walk from a position stops at the first run of characters that no piece starts
with (``_edges`` holds every piece's proper prefixes too): the same edges are relaxed
as when every length up to the longest piece is looked up, in ~1/4 of the lookups
(4.7 -> 1.2 ms for a 220-character sentence, two sentences for each part's answer).
The edges live in the cache folder and are read a text's at a time until there is bulk
to tokenise (``e5/edge_table.py``).
"""

from __future__ import annotations

import re
from array import array
from pathlib import Path

import numpy as np

from askalong.providers.local.e5.edge_table import EdgeTable, Lookup
from askalong.providers.local.e5.file import Vocabulary

METASPACE = "\u2581"
_SPACE_RUNS = re.compile("  +")
_NEG = -1e30
_PREFIX_ONLY = -1  # in ``_edges``: a piece starts with this text, none is it


class Tokenizer:
    def __init__(self, vocabulary: Vocabulary, cache: Path | None = None) -> None:
        """``cache``: a folder keyed by the model file, where the edges are kept between runs
        (building them is ~1 s of CPU for 250k pieces)."""
        self.vocabulary = vocabulary
        self._edges = EdgeTable(cache, lambda: piece_edges(vocabulary))
        # float32 as stored, copied as bytes: ``tolist()`` made 250k float objects at every
        # start (~6 CPU ms); reading one back gives the same value.
        self._scores = array("f", np.ascontiguousarray(vocabulary.scores, np.float32).tobytes())
        self._longest = self._edges.longest  # a prefix is never longer than its piece
        unk = array("f", [float(vocabulary.scores.min()) - 10.0])
        self._unk_score = unk[0]
        self._normalise = str.maketrans(vocabulary.normalise)

    def content_ids(self, text: str) -> list[int]:
        """Token ids of ``text`` without ``<s>``/``</s>`` (the caller adds the prefix)."""
        return self._viterbi(self.normalised(text))

    def normalised(self, text: str) -> str:
        spaced = _SPACE_RUNS.sub(" ", text.translate(self._normalise))
        if not spaced.startswith(" "):
            spaced = " " + spaced
        return spaced.replace(" ", METASPACE)

    def _viterbi(self, chars: str) -> list[int]:
        n = len(chars)
        best = array("f", [_NEG]) * (n + 1)
        best[0] = 0.0
        piece = [0] * (n + 1)
        start = [0] * (n + 1)
        lookup = self._edges.lookup(chars)
        for i in range(n):
            self._extend(chars, i, best, piece, start, lookup)
        return _backtrack(piece, start, n)

    def _extend(
        self,
        chars: str,
        i: int,
        best: array[float],
        piece: list[int],
        start: list[int],
        lookup: Lookup,
    ) -> None:
        """Relax every edge leaving position ``i``; float32 sums via ``best`` itself."""
        here = best[i]
        if here <= -1e29:
            return
        scratch = array("f", [0.0])
        scores = self._scores
        for end in range(i + 1, min(len(chars), i + self._longest) + 1):
            idx = lookup(chars[i:end])
            if idx is None:
                break  # no piece starts so, so no longer run is a piece either
            if idx != _PREFIX_ONLY:
                scratch[0] = here + scores[idx]
                if scratch[0] > best[end]:
                    best[end], piece[end], start[end] = scratch[0], idx, i
        scratch[0] = here + self._unk_score
        if scratch[0] > best[i + 1]:
            best[i + 1], piece[i + 1], start[i + 1] = scratch[0], self.vocabulary.unk, i


def piece_edges(vocabulary: Vocabulary) -> dict[str, int]:
    """Every piece and every proper prefix of one (``_with_prefixes``)."""
    return _with_prefixes(_piece_index(vocabulary))


def _piece_index(vocabulary: Vocabulary) -> dict[str, int]:
    """Piece string -> first id with it; ``<unk>`` and empty pieces never match."""
    index: dict[str, int] = {}
    for idx, text in enumerate(vocabulary.pieces):
        if text:
            index.setdefault(text, idx)
    return {text: idx for text, idx in index.items() if idx != vocabulary.unk}


def _with_prefixes(ids: dict[str, int]) -> dict[str, int]:
    """``ids`` plus every proper prefix of a piece that is no piece, as ``_PREFIX_ONLY``."""
    prefixes = {text[:end] for text in ids for end in range(1, len(text))}
    return {**dict.fromkeys(prefixes - ids.keys(), _PREFIX_ONLY), **ids}


def _backtrack(piece: list[int], start: list[int], n: int) -> list[int]:
    ids: list[int] = []
    i = n
    while i > 0:
        ids.append(piece[i])
        i = start[i]
    ids.reverse()
    return ids
