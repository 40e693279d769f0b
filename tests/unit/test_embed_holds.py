"""The embedder budget's batches: every text in order, at most one hold's characters each
(a longer text alone), and an empty text never a crash (it came first in a real paper)."""

from __future__ import annotations

from askalong.providers.budget import CHARS_PER_HOLD, _holds


def test_an_empty_first_text_gets_a_batch() -> None:
    assert _holds(["", "a sentence"]) == [["", "a sentence"]]


def test_batches_keep_order_and_stay_within_a_hold() -> None:
    texts = ["x" * (CHARS_PER_HOLD // 3)] * 7 + ["y" * (CHARS_PER_HOLD * 2)] + ["z"]
    batches = _holds(texts)
    assert [t for batch in batches for t in batch] == texts
    for batch in batches:
        assert len(batch) == 1 or sum(map(len, batch)) <= CHARS_PER_HOLD
