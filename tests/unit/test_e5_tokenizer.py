"""The e5 tokenizer's walk stops where no piece starts, and still finds every piece."""

from __future__ import annotations

import numpy as np

from askalong.providers.local.e5.file import Vocabulary
from askalong.providers.local.e5.tokenizer import Tokenizer

PIECES = ("<unk>", "<s>", "</s>", "<pad>", "▁", "a", "b", "c", "d", "▁ab", "▁abcd", "cd")


def _tokenizer(scores: dict[str, float]) -> Tokenizer:
    vocabulary = Vocabulary(
        pieces=PIECES,
        scores=np.array([scores.get(p, -5.0) for p in PIECES], dtype=np.float32),
        bos=1,
        eos=2,
        pad=3,
        unk=0,
        normalise={},
    )
    return Tokenizer(vocabulary)


def test_a_piece_reached_through_a_prefix_that_is_no_piece_is_found() -> None:
    # "▁abc" is no piece, only the way to "▁abcd": a walk that stopped at the first
    # missing lookup instead of the first run no piece starts with would miss it
    tokenizer = _tokenizer({"▁abcd": -1.0})
    assert tokenizer.content_ids("abcd") == [PIECES.index("▁abcd")]


def test_the_best_path_wins_over_the_longest_piece() -> None:
    tokenizer = _tokenizer({"▁abcd": -9.0, "▁ab": -1.0, "cd": -1.0})
    assert tokenizer.content_ids("abcd") == [PIECES.index("▁ab"), PIECES.index("cd")]


def test_characters_no_piece_holds_are_unknown_one_each() -> None:
    tokenizer = _tokenizer({})
    ids = tokenizer.content_ids("ab xz")
    assert ids[-2:] == [0, 0]  # "x" and "z"
    assert ids[: ids.index(PIECES.index("▁"))] == [PIECES.index("▁ab")]
