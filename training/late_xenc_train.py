"""Train the late cross-encoder (issue 32 experiment; measurement only) in torch on CPU.

The question's and each candidate sentence's e5 states after the first layers are cached
(``late_xenc_data.py``); here e5's last layers (initialised from the bundled model's) run
over ``[question states ; sentence states]`` with full attention, a learned segment vector
added to each side, then the mean over the pair's tokens and one linear score. A softmax
over each group's candidates (``train.py``'s listwise loss: the gold rows' share) trains
the upper layers, the segment vectors and the head; the cached states stay fixed. Fits on
the groups of the sets given by ``--fit`` and writes every candidate's score (all groups)
and the trained arrays.

Dev-only: torch is not a dependency of the product; put a CPU build on the path
(``--torch``, a ``pip install --target`` folder).

    PYTHONPATH=src:training python training/late_xenc_train.py \
        --states /work/data/latexenc/states.npz --fit unseen unseen2 unseen3 unseen4 unseen5 \
        --out /work/data/latexenc/fold-a.npz
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

SEED = 32
HEADS = 12
EPS = 1e-12
NAMES = ("wqkv", "bqkv", "wo", "bo", "ln1_w", "ln1_b", "wi", "bi", "wf", "bf", "ln2_w", "ln2_b")
SCALE = 20.0  # the "cosine" design's start: e5 cosines of a question's candidates span ~0.1
GATE = -4.0  # its start bias across the texts: ~1 % of attention crosses at first
NEGATIVES = 15  # negatives a training group keeps at most (all gold rows kept): CPU time


def load_torch(folder: Path, threads: int = 2):  # type: ignore[no-untyped-def]
    """torch from a dev-only folder, appended so it never shadows the product's packages;
    ``threads`` 1 lets two folds train side by side on two cores."""
    sys.path.append(str(folder))
    import torch

    torch.manual_seed(SEED)
    torch.set_num_threads(threads)
    return torch


class Late:
    """The trainable part: upper layers, segment vectors, head (torch tensors).

    ``design`` "pooled": the mean over the pair's tokens, one linear score (zero at the
    start). "bi": the bi-encoder itself, fine-tuned: no attention across the texts, no
    segment vectors, the score ``scale`` times the two pooled states' cosine (what the
    reader encoder gives at run time, ``e5/reader.py``). "cosine": starts as the
    bi-encoder: a learned bias per layer and head on attention across the two texts
    (``GATE``: nearly closed, so the upper layers first see each text alone, as e5 does),
    each text's tokens mean-pooled, the score ``scale`` times
    their cosine plus a linear score of their product (zero at the start)."""

    def __init__(self, torch, data: dict, design: str = "pooled") -> None:  # type: ignore[no-untyped-def]
        self.torch = torch
        self.design = design
        count = len({k.split(".")[0] for k in data if k.startswith("l") and "." in k})
        self.layers = [
            {n: torch.tensor(data[f"l{k}.{n}"], requires_grad=True) for n in NAMES}
            for k in range(count)
        ]
        hidden = self.layers[0]["wo"].shape[0]
        self.segment = torch.zeros((2, hidden), requires_grad=True)
        self.head_w = torch.zeros(hidden, requires_grad=True)
        self.head_b = torch.zeros(1, requires_grad=True)
        self.scale = torch.full((1,), SCALE, requires_grad=True)
        self.gate = torch.full((count, HEADS), GATE, requires_grad=True)

    def body(self) -> list:  # type: ignore[type-arg]
        return [p for layer in self.layers for p in layer.values()]

    def top(self) -> list:  # type: ignore[type-arg]
        if self.design == "bi":  # a plain tuned e5: no inputs beyond the texts' own states
            return [self.scale]
        extra = [self.scale] if self.design == "cosine" else []
        return [self.segment, self.head_w, self.head_b, *extra]

    def scores(self, x, mask, side):  # type: ignore[no-untyped-def]
        """One score per row: ``x`` ``(rows, width, hidden)``, ``mask`` ``(rows, width)``
        the pair's tokens, ``side`` the sentence's."""
        torch = self.torch
        bias = torch.where(mask, 0.0, -1e30)[:, None, None, :]
        across = (side[:, :, None] != side[:, None, :]).float()[:, None]
        for k, p in enumerate(self.layers):
            gated = bias + across * self.gate[k][None, :, None, None]
            closed = bias + across * -1e30  # "bi": each text attends to itself only
            x = layer(torch, x, p, {"cosine": gated, "bi": closed}.get(self.design, bias))
        if self.design == "pooled":
            return mean_of(x, mask) @ self.head_w + self.head_b
        q, s = mean_of(x, mask & ~side), mean_of(x, side)
        cosine = torch.nn.functional.cosine_similarity(q, s, dim=1)
        if self.design == "bi":
            return self.scale * cosine
        return self.scale * cosine + (q * s) @ self.head_w + self.head_b

    def arrays(self) -> dict[str, np.ndarray]:
        out = {
            f"l{k}.{n}": p.detach().numpy()
            for k, lay in enumerate(self.layers)
            for n, p in lay.items()
        }
        out.update(segment=self.segment.detach().numpy(), head_w=self.head_w.detach().numpy())
        out.update(scale=self.scale.detach().numpy(), gate=self.gate.detach().numpy())
        out["head_b"] = self.head_b.detach().numpy()
        return out


def mean_of(x, rows):  # type: ignore[no-untyped-def]
    """The mean of ``x``'s tokens where ``rows`` (``(rows, width)``)."""
    return (x * rows[:, :, None]).sum(1) / rows.sum(1, keepdim=True)


def layer(torch, x, p: dict, bias):  # type: ignore[no-untyped-def]
    """One post-LayerNorm BERT layer, as ``e5/encoder.py`` computes it."""
    rows, width, hidden = x.shape
    dim = hidden // HEADS
    qkv = (x @ p["wqkv"] + p["bqkv"]).reshape(rows, width, 3, HEADS, dim).permute(2, 0, 3, 1, 4)
    weights = torch.softmax(qkv[0] @ qkv[1].transpose(-1, -2) / dim**0.5 + bias, -1)
    context = (weights @ qkv[2]).transpose(1, 2).reshape(rows, width, hidden)
    x = torch.nn.functional.layer_norm(
        x + context @ p["wo"] + p["bo"], (hidden,), p["ln1_w"], p["ln1_b"], EPS
    )
    inner = torch.nn.functional.gelu(x @ p["wi"] + p["bi"])
    return torch.nn.functional.layer_norm(
        x + inner @ p["wf"] + p["bf"], (hidden,), p["ln2_w"], p["ln2_b"], EPS
    )


class Pairs:
    """Padded ``[question ; sentence]`` batches from the cached states."""

    def __init__(self, torch, data: dict) -> None:  # type: ignore[no-untyped-def]
        self.torch = torch
        self.states = data["states"]
        self.starts, self.ends = data["starts"], data["ends"]

    def text(self, number: int) -> np.ndarray:
        return self.states[self.starts[number] : self.ends[number]]

    def batch(self, question: int, sentences: np.ndarray, segment):  # type: ignore[no-untyped-def]
        torch = self.torch
        q = torch.from_numpy(self.text(question).astype(np.float32)) + segment[0]
        parts = [self.text(s) for s in sentences]
        width = len(q) + max(len(s) for s in parts)
        x = torch.zeros((len(parts), width, q.shape[1]))
        mask = torch.zeros((len(parts), width), dtype=torch.bool)
        side = torch.zeros((len(parts), width), dtype=torch.bool)
        for k, s in enumerate(parts):
            end = len(q) + len(s)
            x[k, : len(q)] = q
            x[k, len(q) : end] = torch.from_numpy(s.astype(np.float32)) + segment[1]
            mask[k, :end] = True
            side[k, len(q) : end] = True
        return x, mask, side


def kept(labels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Rows a training step reads: every gold row, at most ``NEGATIVES`` others."""
    gold = np.flatnonzero(labels == 1)
    others = np.flatnonzero(labels != 1)
    if len(others) > NEGATIVES:
        others = rng.choice(others, NEGATIVES, replace=False)
    return np.sort(np.r_[gold, others])


def train(late: Late, pairs: Pairs, data, groups: np.ndarray, args) -> None:  # type: ignore[no-untyped-def]
    """``args.epochs`` passes over ``groups`` in a seeded order, one group a step."""
    torch = late.torch
    optimiser = torch.optim.AdamW(
        [
            {"params": late.body(), "lr": args.lr},
            {"params": late.top(), "lr": args.lr * 30},
            {"params": [late.gate] if late.design == "cosine" else [], "lr": 1e-2},
        ],
        weight_decay=0.01,
    )
    rng = np.random.default_rng(SEED)
    cand_group, labels = data["cand_group"], data["labels"]
    for epoch in range(args.epochs):
        total, clock = 0.0, time.process_time()
        for g in rng.permutation(groups):
            rows = np.flatnonzero(cand_group == g)
            rows = rows[kept(labels[rows], rng)]
            batch = pairs.batch(int(data["question"][g]), data["cands"][rows], late.segment)
            s = late.scores(*batch)
            y = torch.from_numpy(labels[rows] == 1)
            loss = -torch.logsumexp(s[y], 0) + torch.logsumexp(s, 0)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += float(loss.detach())
        cpu = time.process_time() - clock
        print(f"epoch {epoch + 1}: loss {total / len(groups):.4f}, {cpu:.0f} CPU s", flush=True)


def scored(late: Late, pairs: Pairs, data, groups: np.ndarray) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The candidates' scores in ``groups`` (0 elsewhere), group by group."""
    torch = late.torch
    out = np.zeros(len(data["cands"]), np.float32)
    with torch.no_grad():
        for g in groups:
            rows = np.flatnonzero(data["cand_group"] == g)
            batch = pairs.batch(int(data["question"][g]), data["cands"][rows], late.segment)
            out[rows] = late.scores(*batch).numpy()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--states", type=Path, required=True)
    parser.add_argument("--fit", nargs="+", required=True, help="sets whose groups train")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--torch", type=Path, default=Path("/work/data/latexenc/torch"))
    parser.add_argument("--score", nargs="*", help="sets whose groups are scored (all)")
    parser.add_argument("--design", choices=("pooled", "cosine", "bi"), default="pooled")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=3e-5)
    parser.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    args = parser.parse_args()
    torch = load_torch(args.torch, args.threads)
    data = dict(np.load(args.states))
    late, pairs = Late(torch, data, args.design), Pairs(torch, data)
    groups = np.flatnonzero(np.isin(data["sets"], args.fit))
    print(f"fit on {len(groups)} groups of {len(data['sets'])}", flush=True)
    train(late, pairs, data, groups, args)
    wanted = np.isin(data["sets"], args.score) if args.score else np.ones(len(data["sets"]), bool)
    scores = scored(late, pairs, data, np.flatnonzero(wanted))
    np.savez(args.out, scores=scores, fit=np.array(args.fit), **late.arrays())
    print(f"-> {args.out}")


if __name__ == "__main__":
    main()
