"""The encoder's lower layers, run once for the plain model and the reader encoder.

The reader encoder (``e5/reader.py``) is the bundled model with its last four layers
replaced (``reader.TUNED_LAYERS``): the eight below are the plain model's. So each engine
runs the encoder as a trunk (``SharedTrunk``: the first ``depth`` layers) and a head over
the trunk's states (the last layers: the plain model's or the reader's), and both embedders
of one model share the trunk. Once a second head reads it, the trunk keeps the states of the
windows it ran last (``KEPT_TOKENS``): the answerer embeds its candidate sentences with e5,
then with the reader encoder, and the second pass runs the reader's tuned layers alone.

A window's states do not depend on what it was batched with (attention sees its own
tokens; activations are quantised per token), so states kept from one batch and run in
another give the same vectors as one pass over the whole encoder.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

import numpy as np

from askalong.providers.local.e5.onnx import mean_over_tokens

# (inputs, lengths) -> states ``(batch, width, hidden)``: ids for a trunk, states for a head
Stage = Callable[[np.ndarray, np.ndarray], np.ndarray]
# Window tokens whose trunk states are kept (1.5 KB each): a question's 24 candidate
# sentences and the question are ~1,000; past this the oldest go (recomputed if asked).
KEPT_TOKENS = 4096


class SharedTrunk:
    """The first ``depth`` layers of one engine, and the states of the last windows run."""

    def __init__(self, run: Stage, depth: int) -> None:
        self.depth = depth
        self._run = run
        self._kept: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._kept_tokens = 0
        self._lock = threading.Lock()
        self.keeps = False  # set once a second head reads the trunk: none is copied before

    def states(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """The trunk's states of each row's first ``lengths`` ids (past them: any values)."""
        if not self.keeps:
            return self._run(ids, lengths)
        keys = [ids[row, :n].tobytes() for row, n in enumerate(lengths.tolist())]
        found = self._recalled(keys)
        missing = [row for row, states in enumerate(found) if states is None]
        if missing:
            ran = self._run(ids[missing, : int(lengths[missing].max())], lengths[missing])
            if len(missing) == len(keys):
                for row, states in enumerate(ran):
                    self._keep(keys[row], states[: lengths[row]])
                return ran
            for row, states in zip(missing, ran, strict=True):
                found[row] = self._keep(keys[row], states[: lengths[row]])
        return _padded([s for s in found if s is not None], ids.shape[1])

    def _recalled(self, keys: list[bytes]) -> list[np.ndarray | None]:
        with self._lock:
            found = [self._kept.get(key) for key in keys]
            for key, states in zip(keys, found, strict=True):
                if states is not None:
                    self._kept.move_to_end(key)
        return found

    def _keep(self, key: bytes, states: np.ndarray) -> np.ndarray:
        """A copy of ``states`` kept under ``key`` (the batch's array is not held)."""
        kept = states.copy()
        with self._lock:
            if key not in self._kept:
                self._kept[key] = kept
                self._kept_tokens += len(kept)
            while self._kept_tokens > KEPT_TOKENS and len(self._kept) > 1:
                self._kept_tokens -= len(self._kept.popitem(last=False)[1])
        return kept


def _padded(rows: list[np.ndarray], width: int) -> np.ndarray:
    """``rows`` (each ``(tokens, hidden)``) as one ``(batch, width, hidden)`` array, zeros
    past each row's tokens."""
    out = np.zeros((len(rows), width, rows[0].shape[1]), dtype=np.float32)
    for row, states in enumerate(rows):
        out[row, : len(states)] = states
    return out


class HeadedEncoder:
    """``mean_pooled`` as the whole encoder has it: a shared trunk, then one head."""

    def __init__(self, trunk: SharedTrunk, head: Stage) -> None:
        self.trunk = trunk
        self.head = head

    def mean_pooled(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """Mean of the final hidden states over each row's first ``lengths`` tokens."""
        hidden = self.head(self.trunk.states(ids, lengths), lengths)
        return mean_over_tokens(hidden, lengths)
