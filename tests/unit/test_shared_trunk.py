"""``SharedTrunk``: once a second head reads it, the states of the windows it ran are kept
(up to ``KEPT_TOKENS``), so the second head's pass over the same windows runs no trunk
row, and a batch mixing kept and new windows runs the new ones alone; and the embedder
wrappers hand the reader encoder on without holding a lock while it is built."""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np
import pytest

from askalong.answer.extractive.sentence_cache import CachedEmbedder
from askalong.providers.base import Embedder, EmbedKind
from askalong.providers.budget import BudgetedEmbedder
from askalong.providers.local.e5.trunk import KEPT_TOKENS, HeadedEncoder, SharedTrunk


class Stage:
    """A trunk whose states depend on each window alone (as attention over its own tokens
    does): token id, position and the window's id sum; records the rows it ran."""

    def __init__(self) -> None:
        self.rows: list[int] = []

    def __call__(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        self.rows.append(len(ids))
        mask = np.arange(ids.shape[1])[None, :] < lengths[:, None]
        totals = np.where(mask, ids, 0).sum(axis=1, keepdims=True)
        positions = np.broadcast_to(np.arange(ids.shape[1]), ids.shape)
        return np.stack([ids, positions, np.broadcast_to(totals, ids.shape)], -1).astype("f4")


def _batch(*windows: list[int]) -> tuple[np.ndarray, np.ndarray]:
    lengths = np.array([len(w) for w in windows])
    ids = np.full((len(windows), int(lengths.max())), 2)
    for row, window in enumerate(windows):
        ids[row, : len(window)] = window
    return ids, lengths


def _real(states: np.ndarray, lengths: np.ndarray) -> list[np.ndarray]:
    return [states[row, :n] for row, n in enumerate(lengths)]


def test_nothing_is_kept_while_one_head_reads_the_trunk() -> None:
    stage = Stage()
    trunk = SharedTrunk(stage, depth=10)
    ids, lengths = _batch([0, 5, 6, 2], [0, 7, 2])
    trunk.states(ids, lengths)
    trunk.states(ids, lengths)
    assert stage.rows == [2, 2]


def test_a_second_pass_over_the_same_windows_runs_no_trunk_row() -> None:
    stage = Stage()
    trunk = SharedTrunk(stage, depth=10)
    trunk.keeps = True
    ids, lengths = _batch([0, 5, 6, 2], [0, 7, 2])
    first = trunk.states(ids, lengths)
    again = trunk.states(ids, lengths)
    assert stage.rows == [2]
    for a, b in zip(_real(first, lengths), _real(again, lengths), strict=True):
        np.testing.assert_array_equal(a, b)


def test_a_batch_of_kept_and_new_windows_runs_the_new_ones_alone() -> None:
    stage = Stage()
    trunk = SharedTrunk(stage, depth=10)
    trunk.keeps = True
    trunk.states(*_batch([0, 5, 6, 2]))
    ids, lengths = _batch([0, 9, 9, 9, 9, 2], [0, 5, 6, 2], [0, 3, 2])
    mixed = trunk.states(ids, lengths)
    assert stage.rows == [1, 2]
    fresh = Stage()(ids, lengths)
    for a, b in zip(_real(mixed, lengths), _real(fresh, lengths), strict=True):
        np.testing.assert_array_equal(a, b)
    assert not mixed[2, 3:].any()  # past a kept row's tokens: zeros, which no head reads


def test_the_oldest_windows_go_past_the_kept_tokens() -> None:
    stage = Stage()
    trunk = SharedTrunk(stage, depth=10)
    trunk.keeps = True
    size = KEPT_TOKENS // 4
    windows = [[0, *([k + 5] * (size - 2)), 2] for k in range(5)]
    for window in windows:
        trunk.states(*_batch(window))
    trunk.states(*_batch(windows[-1]))
    trunk.states(*_batch(windows[0]))
    assert stage.rows == [1] * 6  # the last kept, the first pushed out


def test_a_headed_encoder_pools_the_heads_states_over_each_rows_tokens() -> None:
    trunk = SharedTrunk(Stage(), depth=10)
    encoder = HeadedEncoder(trunk, lambda states, lengths: states * 2)
    ids, lengths = _batch([0, 4, 2], [0, 2])
    pooled = encoder.mean_pooled(ids, lengths)
    np.testing.assert_allclose(pooled[1], [2.0, 1.0, 4.0])  # ids 0, 2; positions 0, 1


class Ones(Embedder):
    def __init__(self, name: str) -> None:
        super().__init__(name=name, dimension=2)

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        return np.ones((len(texts), 2), dtype=np.float32)


class SlowReader(Ones):
    """An embedder whose reader encoder takes until ``release`` is set to build."""

    def __init__(self) -> None:
        super().__init__("slow")
        self.release, self.building = threading.Event(), threading.Semaphore(0)
        self.made = Ones("slow-reader")

    def reader(self) -> Embedder | None:
        self.building.release()
        self.release.wait(10)
        return self.made


@pytest.mark.parametrize("wrap", [CachedEmbedder, BudgetedEmbedder])
def test_the_wrappers_hold_no_lock_while_the_reader_is_built(
    wrap: Callable[[Embedder], Embedder],
) -> None:
    inner = SlowReader()
    wrapper = wrap(inner)
    found: list[Embedder | None] = []
    threads = [threading.Thread(target=lambda: found.append(wrapper.reader())) for _ in "ab"]
    for thread in threads:
        thread.start()
    both = [inner.building.acquire(timeout=5) for _ in threads]
    inner.release.set()
    for thread in threads:
        thread.join()
    assert all(both)  # the second asked inner while the first was building
    assert found[0] is found[1] is wrapper.reader() is not None
    assert found[0].inner is inner.made  # type: ignore[union-attr]
