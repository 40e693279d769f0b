"""The encoder of multilingual-e5-small as an ONNX graph, built here from the package's weights.

Input ``embeddings`` is ``(batch, seq, hidden)``: word + position + token-type rows
(summed in numpy, so the 250k-row table never enters the graph); ``mask`` is
``(batch, seq)`` int32, 1 for real tokens. Output ``hidden`` is the final states.
The encoder also comes in two halves cut at a layer boundary, a trunk and a head that
reads the trunk's states (``trunk_graph``, ``head_graph``): one trunk serves two heads.

Every matrix product runs in int8, as the package's own engine does: weights are
rounded per output column to int8 (from the package's 4-bit blocks, so almost
nothing is lost), activations per token (one scale per row, symmetric, stored as
uint8 around 128 because u8 x s8 is what VNNI multiplies natively). Per-token
scales keep a vector independent of what it is batched with, and keep the
cosine to the package above 0.998, where ONNX Runtime's per-tensor dynamic
quantisation gives 0.995. Attention and GELU use ONNX Runtime's fused
``com.microsoft`` kernels in float32; LayerNorm its standard one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from onnx import NodeProto, TensorProto, helper, numpy_helper

from askalong.providers.local.e5.weights import EncoderWeights, LayerWeights

MS = "com.microsoft"


@dataclass
class _Builder:
    """Nodes and initialisers collected while the graph is written."""

    nodes: list[NodeProto] = field(default_factory=list)
    inits: list[TensorProto] = field(default_factory=list)

    def const(self, name: str, value: np.ndarray) -> str:
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(self, op: str, inputs: list[str], output: str, **attrs: Any) -> str:
        domain = MS if op in _CONTRIB else ""
        self.nodes.append(helper.make_node(op, inputs, [output], output, domain=domain, **attrs))
        return output


_CONTRIB = {"MultiHeadAttention", "BiasGelu", "MatMulIntegerToFloat"}


def build_graph(weights: EncoderWeights) -> bytes:
    """The serialised ONNX model (opset 21 + com.microsoft) of the whole encoder."""
    return _graph(weights, weights.layers, embedded=True)


def trunk_graph(weights: EncoderWeights, depth: int) -> bytes:
    """The encoder's first ``depth`` layers: ``embeddings`` in, their ``hidden`` states out
    (what the plain model and the reader encoder share: ``e5/trunk.py``)."""
    return _graph(weights, weights.layers[:depth], embedded=True)


def head_graph(weights: EncoderWeights, layers: tuple[LayerWeights, ...]) -> bytes:
    """``layers`` over the trunk's states: input ``states`` (``(batch, seq, hidden)``) in
    place of ``embeddings``, no embedding LayerNorm; output ``hidden``, the final states.
    The trunk graph then this give the whole graph's products, bit for bit."""
    return _graph(weights, layers, embedded=False)


def _graph(weights: EncoderWeights, layers: tuple[LayerWeights, ...], *, embedded: bool) -> bytes:
    hidden = weights.positions.shape[1]
    source = "embeddings" if embedded else "states"
    b = _Builder()
    b.node("Shape", [source], "shape3")
    _constants(b, hidden)
    x = b.node("Reshape", [source, "rows_h"], f"{source}2")
    if embedded:
        norm = [x, b.const("eln.w", weights.ln_w), b.const("eln.b", weights.ln_b)]
        x = b.node("LayerNormalization", norm, "x0", axis=-1, epsilon=weights.eps)
    for index, layer in enumerate(layers):
        x = _layer(b, x, layer, f"l{index}", weights)
    b.node("Reshape", [x, "shape3"], "hidden")
    inputs = [
        helper.make_tensor_value_info(source, TensorProto.FLOAT, ["b", "s", hidden]),
        helper.make_tensor_value_info("mask", TensorProto.INT32, ["b", "s"]),
    ]
    output = helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["b", "s", hidden])
    graph = helper.make_graph(b.nodes, "e5", inputs, [output], b.inits)
    opsets = [helper.make_opsetid("", 21), helper.make_opsetid(MS, 1)]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="askalong")
    model.ir_version = 10
    return bytes(model.SerializeToString())


def _constants(b: _Builder, hidden: int) -> None:
    b.const("rows_h", np.array([-1, hidden], np.int64))
    b.const("qkv_tail", np.array([3 * hidden], np.int64))
    b.const("axis1", np.array([1], np.int64))
    b.const("inv127", np.array(1 / 127, np.float32))
    b.const("tiny", np.array(1e-30, np.float32))
    b.const("f127", np.array(127, np.float32))
    b.const("one", np.array(1, np.float32))
    b.const("u128", np.array(128, np.uint8))
    b.const("start0", np.array([0], np.int64))
    b.const("end2", np.array([2], np.int64))
    b.node("Slice", ["shape3", "start0", "end2"], "batch_seq")
    b.node("Concat", ["batch_seq", "qkv_tail"], "shape_qkv", axis=0)


def _layer(b: _Builder, x: str, ly: LayerWeights, p: str, w: EncoderWeights) -> str:
    qkv = _linear(b, x, ly.wqkv, f"{p}.qkv")
    b.node("Reshape", [qkv, "shape_qkv"], f"{p}.qkv3")
    b.nodes.append(
        helper.make_node(
            "Split", [f"{p}.qkv3"], [f"{p}.q", f"{p}.k", f"{p}.v"], f"{p}.split",
            axis=-1, num_outputs=3,
        )
    )  # fmt: skip
    bias = b.const(f"{p}.bqkv", ly.bqkv)
    attn_in = [f"{p}.q", f"{p}.k", f"{p}.v", bias, "mask"]
    context = b.node("MultiHeadAttention", attn_in, f"{p}.ctx3", num_heads=w.heads)
    context = b.node("Reshape", [context, "rows_h"], f"{p}.ctx")
    attended = _linear(b, context, ly.wo, f"{p}.ao")
    x1 = _skip_norm(b, attended, x, (ly.ln1_w, ly.ln1_b, ly.bo), f"{p}.x1", w.eps)
    inner = _linear(b, x1, ly.wi, f"{p}.fi")
    gelu = b.node("BiasGelu", [inner, b.const(f"{p}.bi", ly.bi)], f"{p}.gelu")
    out = _linear(b, gelu, ly.wf, f"{p}.fo")
    return _skip_norm(b, out, x1, (ly.ln2_w, ly.ln2_b, ly.bf), f"{p}.x2", w.eps)


def _skip_norm(
    b: _Builder, x: str, skip: str, params: tuple[np.ndarray, ...], out: str, eps: float
) -> str:
    """``LayerNorm(x + bias + skip)``, the residual step, as two Adds and a LayerNorm:
    ONNX Runtime's fused ``SkipLayerNormalization`` cost 15 % of the graph's CPU on
    this model (1.32, one thread), these three ~3 % (``benchmarks/embed.py``)."""
    gamma, beta, bias = (b.const(f"{out}.{n}", a) for n, a in zip("gbc", params, strict=True))
    biased = b.node("Add", [x, bias], f"{out}.biased")
    summed = b.node("Add", [biased, skip], f"{out}.sum")
    return b.node("LayerNormalization", [summed, gamma, beta], out, axis=-1, epsilon=eps)


def _linear(b: _Builder, x: str, weight: np.ndarray, out: str) -> str:
    """``x @ weight`` (rows of ``x`` are tokens) with per-token int8 activations.

    ``MatMulIntegerToFloat`` applies the columns' scales as it writes the product, so one
    ``Mul`` by the rows' scales is left: 7 % less CPU than ``MatMulInteger`` followed by
    a blocked ``DequantizeLinear`` and a ``Mul``."""
    codes, scale = quantise_columns(np.asarray(weight, np.float32))
    quantised, row_scale = _quantise_rows(b, x, out)
    inputs = [quantised, b.const(f"{out}.w", codes), "one", b.const(f"{out}.ws", scale), "u128"]
    product = b.node("MatMulIntegerToFloat", inputs, f"{out}.cols")
    return b.node("Mul", [product, row_scale], out)


def _quantise_rows(b: _Builder, x: str, out: str) -> tuple[str, str]:
    """uint8 codes (zero point 128) with one scale per row, ``max |row| / 127``: the row
    is multiplied by ``127 / max |row|`` and rounded by a plain (per-tensor, vectorised)
    ``QuantizeLinear``, where a blocked one runs element by element."""
    magnitude = b.node("Abs", [x], f"{out}.abs")
    peak = b.node("ReduceMax", [magnitude, "axis1"], f"{out}.peak", keepdims=1)
    peak = b.node("Max", [peak, "tiny"], f"{out}.peak1")
    scale = b.node("Mul", [peak, "inv127"], f"{out}.scale")
    stretch = b.node("Div", ["f127", peak], f"{out}.stretch")
    stretched = b.node("Mul", [x, stretch], f"{out}.stretched")
    codes = b.node("QuantizeLinear", [stretched, "one", "u128"], f"{out}.q")
    return codes, scale


def quantise_columns(weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric int8 codes per output column of an ``(in, out)`` matrix, and the scales."""
    scale = np.maximum(np.abs(weight).max(axis=0), np.float32(1e-30)) / np.float32(127)
    codes = np.clip(np.rint(weight / scale), -127, 127).astype(np.int8)
    return codes, scale.astype(np.float32)
