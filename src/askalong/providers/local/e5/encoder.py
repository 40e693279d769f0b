"""The BERT encoder of multilingual-e5-small as batched float32 numpy.

Same arithmetic as ``forward_batch`` in the package's e5.c: word + position +
token-type embeddings and LayerNorm; per layer, attention over the text's own
tokens (padding is masked out), residual + LayerNorm, erf-GELU feed-forward,
residual + LayerNorm; then the mean over every token of the window, ``<s>`` and
``</s>`` included. The package rounds activations to int8 before each product; we
keep float32, which moves vectors by a cosine of about 1e-4.

One ``Encoder`` call runs on one thread; parallelism comes from running several
batches at once. Elementwise work (GELU, softmax) runs in
slices that fit in the L2 cache, which is about 1.6 times faster than whole arrays.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from askalong.providers.local.e5.weights import EncoderWeights, LayerWeights

_F = np.float32
_SLICE = 1 << 16  # elements per slice of elementwise work: fits in L2
# Abramowitz & Stegun 7.1.26: erf to 1.5e-7, far below float32 GEMM noise.
_ERF_P = _F(0.3275911)
_ERF_A = tuple(_F(a) for a in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592))


class Encoder:
    def __init__(self, weights: EncoderWeights) -> None:
        self.weights = weights

    def mean_pooled(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """Mean of the final hidden states over each row's first ``lengths`` tokens.

        ``ids`` is ``(batch, max_len)``, padded past each length with any valid id.
        """
        mask = np.arange(ids.shape[1])[None, :] < lengths[:, None]
        hidden = self.hidden_states(ids, lengths) * mask[:, :, None]
        return hidden.sum(axis=1) / lengths[:, None].astype(_F)

    def hidden_states(
        self, ids: np.ndarray, lengths: np.ndarray, layers: int | None = None
    ) -> np.ndarray:
        """The states after the first ``layers`` layers (all: None), ``(batch, max_len,
        hidden)``; padding rows hold whatever attention left there (training's late
        cross-encoder keeps the lower layers' states per text)."""
        w = self.weights
        batch, width = ids.shape
        x = w.word_rows(ids) + w.positions[:width] + w.token_type
        x = layer_norm(x.reshape(batch * width, -1), w.ln_w, w.ln_b, w.eps)
        return self.through(x.reshape(batch, width, -1), lengths, w.layers[:layers])

    def through(
        self, states: np.ndarray, lengths: np.ndarray, layers: tuple[LayerWeights, ...]
    ) -> np.ndarray:
        """``states`` (``(batch, max_len, hidden)``, after some layers) run through
        ``layers``: a head over a shared trunk's states (``e5/trunk.py``)."""
        batch, width, _ = states.shape
        mask = np.arange(width)[None, :] < lengths[:, None]
        bias = np.where(mask, _F(0), _F(-1e30))[:, None, None, :]
        x = states.reshape(batch * width, -1)
        for layer in layers:
            x = self._layer(x, layer, bias, batch)
        return x.reshape(batch, width, -1)

    def _layer(self, x: np.ndarray, ly: LayerWeights, bias: np.ndarray, batch: int) -> np.ndarray:
        context = self._attention(x @ ly.wqkv + ly.bqkv, bias, batch)
        x = layer_norm(x + (context @ ly.wo + ly.bo), ly.ln1_w, ly.ln1_b, self.weights.eps)
        inner = x @ ly.wi
        inner += ly.bi
        _sliced(gelu_, inner)
        return layer_norm(x + (inner @ ly.wf + ly.bf), ly.ln2_w, ly.ln2_b, self.weights.eps)

    def _attention(self, qkv: np.ndarray, bias: np.ndarray, batch: int) -> np.ndarray:
        heads = self.weights.heads
        tokens, three_h = qkv.shape
        width, dim = tokens // batch, three_h // (3 * heads)
        split = qkv.reshape(batch, width, 3, heads, dim).transpose(2, 0, 3, 1, 4)
        q = split[0] * _F(1.0 / np.sqrt(dim))
        scores = q @ np.ascontiguousarray(split[1].transpose(0, 1, 3, 2))
        scores += bias
        _sliced(softmax_rows_, scores.reshape(-1, width))
        context = scores @ split[2]
        return context.transpose(0, 2, 1, 3).reshape(tokens, heads * dim)


def _sliced(fn: Callable[[np.ndarray], None], x: np.ndarray) -> None:
    """Apply an in-place row-wise ``fn`` to ``x`` (2-D) a few rows at a time."""
    step = max(1, _SLICE // x.shape[1])
    for start in range(0, x.shape[0], step):
        fn(x[start : start + step])


def layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    """LayerNorm over the last axis with the model's eps (biased variance, as in e5.c)."""
    centred = x - x.mean(axis=-1, keepdims=True)
    variance = np.einsum("ij,ij->i", centred, centred)[:, None] / _F(x.shape[-1])
    centred *= _F(1) / np.sqrt(variance + _F(eps))
    centred *= w
    centred += b
    return centred


def gelu_(x: np.ndarray) -> None:
    """In place: ``x * (1 + erf(x / sqrt 2)) / 2``, the exact (erf) GELU of BERT."""
    a = np.abs(x)
    a *= _F(0.7071067811865476)
    t = _ERF_P * a
    t += _F(1)
    np.reciprocal(t, out=t)
    y = _ERF_A[0] * t
    for coef in _ERF_A[1:]:
        y += coef
        y *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    y *= a  # y = 1 - erf(|x| / sqrt 2)
    y *= x
    y *= _F(0.5)  # x >= 0: x - x*y/2 ; x < 0: x*y/2
    negative = x < 0
    np.subtract(x, y, out=x)
    np.copyto(x, y, where=negative)


def softmax_rows_(x: np.ndarray) -> None:
    """In place softmax along the last axis."""
    x -= x.max(axis=-1, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
