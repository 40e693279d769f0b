"""Cached e5 states for the late cross-encoder experiment (issue 32; measurement only).

The readers' groups of ``readers.py`` (each covered plain question's candidate sentences,
``learned.chosen``, labelled by a gold phrase; same order as ``readers.groups_of``) with
the bundled multilingual-e5-small's hidden states after its first ``LOWER`` layers, run on
the question (``query: ``) and on each sentence (``passage: ``) separately, as an index
could keep them per text. ``late_xenc_train.py`` runs the last layers over the pair.

    PYTHONPATH=src:benchmarks:training python training/late_xenc_data.py \
        --out /work/data/latexenc/states.npz $(cat /work/data/s43/recs)

Writes one ``.npz``: ``states`` (float16, every text's tokens one after another, ``<s>``
and ``</s>`` included), ``starts``/``ends`` per text, per group its question's text number,
its candidates' text numbers (``cands``, ``cand_group``), labels and set, and the float32
arrays of the upper layers (``l<k>.<name>``) the training starts from.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from readers import recorded

from askalong.answer.extractive.learned import chosen
from askalong.config import load_settings
from askalong.providers.local.e5.encoder import Encoder
from askalong.providers.local.e5.model import FastE5Embedder, plan_batches
from unseen_set import contains_any

LOWER = 10  # layers run per text (cacheable); the rest run over the pair
TOKENS = 128  # tokens a text at most, <s> and </s> included


@dataclass
class Texts:
    """Distinct (kind, text) pairs in first-seen order, numbered."""

    keys: dict[tuple[str, str], int] = dataclasses.field(default_factory=dict)

    def number(self, kind: str, text: str) -> int:
        return self.keys.setdefault((kind, text), len(self.keys))


@dataclass
class GroupRows:
    question: list[int] = dataclasses.field(default_factory=list)
    cands: list[int] = dataclasses.field(default_factory=list)
    cand_group: list[int] = dataclasses.field(default_factory=list)
    labels: list[float] = dataclasses.field(default_factory=list)
    sets: list[str] = dataclasses.field(default_factory=list)


def groups(paths: Sequence[Path], texts: Texts) -> GroupRows:
    """``readers.groups_of``'s groups (same filter, same order), as text numbers."""
    out = GroupRows()
    for a in recorded(paths):
        if a.item.refuse:
            continue
        q = a.request.question
        _, found, across = chosen(q, a.request.units, a.request.hits)
        labels = [float(contains_any(c.text, a.item.gold)) for c in found]
        if across or not any(labels):
            continue
        number = len(out.sets)
        out.question.append(texts.number("query", q.text))
        out.cands.extend(texts.number("passage", c.text) for c in found)
        out.cand_group.extend([number] * len(found))
        out.labels.extend(labels)
        out.sets.append(a.set)
    return out


def token_rows(embedder: FastE5Embedder, texts: Texts) -> list[list[int]]:
    """``<s> prefix text </s>`` ids per text, cut to ``TOKENS``."""
    rows = []
    for kind, text in texts.keys:
        content = embedder.token_ids(text, kind)[: TOKENS - 2]  # type: ignore[arg-type]
        rows.append([embedder._bos, *content, embedder._eos])
    return rows


def encoded(
    embedder: FastE5Embedder, rows: list[list[int]], lower: int = LOWER
) -> list[np.ndarray]:
    """Each row's states after ``lower`` layers (float16), batched by length."""
    out: list[np.ndarray] = [np.zeros(0)] * len(rows)
    encoder = Encoder(embedder.weights)  # the numpy engine's: every layer loaded
    for batch in plan_batches([len(r) for r in rows], 1):
        lengths = np.array([len(rows[r]) for r in batch])
        ids = np.full((len(batch), int(lengths.max())), embedder._eos, dtype=np.int64)
        for k, r in enumerate(batch):
            ids[k, : lengths[k]] = rows[r]
        states = encoder.hidden_states(ids, lengths, lower)
        for k, r in enumerate(batch):
            out[r] = states[k, : lengths[k]].astype(np.float16)
    return out


def upper_layers(embedder: FastE5Embedder, lower: int = LOWER) -> dict[str, np.ndarray]:
    """The float32 arrays of the layers above ``lower``, as ``l<k>.<name>``."""
    encoder = Encoder(embedder.weights)  # the numpy engine's: every layer loaded
    out = {}
    for k, layer in enumerate(encoder.weights.layers[lower:]):
        for field in dataclasses.fields(layer):
            out[f"l{k}.{field.name}"] = np.asarray(getattr(layer, field.name), np.float32)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--lower", type=int, default=LOWER, help="layers cached per text")
    args = parser.parse_args()
    texts = Texts()
    g = groups(args.recordings, texts)
    print(f"{len(g.sets)} groups, {len(g.labels)} candidates, {len(texts.keys)} texts", flush=True)
    embedder = FastE5Embedder(load_settings().home / "cache", engine="numpy")
    states = encoded(embedder, token_rows(embedder, texts), args.lower)
    ends = np.cumsum([len(s) for s in states])
    np.savez(
        args.out,
        states=np.concatenate(states),
        starts=ends - np.array([len(s) for s in states]),
        ends=ends,
        question=np.array(g.question),
        cands=np.array(g.cands),
        cand_group=np.array(g.cand_group),
        labels=np.array(g.labels),
        sets=np.array(g.sets),
        **upper_layers(embedder, args.lower),
    )
    print(f"{int(ends[-1])} tokens -> {args.out}")


if __name__ == "__main__":
    main()
