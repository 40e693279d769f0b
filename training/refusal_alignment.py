"""An experiment (issue 32): does every part of the question find its match among the best
sentences' tokens? A soft, contextual form of ``refusal_row.UNSAID`` for the refusal head.

``UNSAID`` asks whether each question word is written in the evidence; a reader's uncovered
question often names something the document never does ("does sshfs run on Windows?"), but
a covered one in the reader's own words misses words too. Here each question piece (e5's
SentencePiece pieces, final hidden states of the bundled e5, untuned so no readers' set
leaks in) is matched to its closest token among the rank head's ``TOP`` best sentences (the
cosine of the two states), and the misses are weighed by how rarely the piece is written
(``information``): ``ALIGN`` columns beside ``REFUSAL``, the logistic head refitted leaving
each set out (``refusal_pairs.refused``), with and without them.

    PYTHONPATH=src:benchmarks:training python training/refusal_alignment.py collect \
        /work/data/rec/unseen*.pkl --reader-folds bi-a-l4.npz bi-b-l4.npz --out align.npz
    PYTHONPATH=src:benchmarks:training python training/refusal_alignment.py cross \
        --rows align.npz
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
from reader_layers import FoldEmbedders, _plain, add_folds_argument
from readers import embedder_for
from refusal import refusal_questions
from refusal_pairs import _auc, _shares, refused

from _table import markdown_table
from askalong.answer.extractive.learned import weighed
from askalong.answer.scorer.model import shipped_scorer
from askalong.providers.local.e5 import information
from askalong.providers.local.e5.encoder import Encoder
from askalong.providers.local.e5.model import FastE5Embedder

TOP = 4  # candidates a question is matched against, in the rank head's order
TOKENS = 96  # pieces a text at most, <s> and </s> included
RARE = 10.0  # nats: a piece this informative must find its match
MATCHED = 0.85  # cosine of two final states that counts as the same thing said
ALIGN = (
    "unmatched_share",  # information-weighted share of the question left unmatched
    "rare_worst",  # the worst-matched rare piece's best cosine
    "unmatched_most",  # the most information left unmatched by one piece
    "unmatched_share_best",  # the share, against the rank head's best sentence alone
    "matched_mean",  # the pieces' mean best cosine
    "one_sentence",  # the best single sentence's information-weighted match
    "unmatched_sum",  # information of the pieces under ``MATCHED``
)


class PieceStates:
    """Final e5 states per piece of a text (prefix, ``<s>`` and ``</s>`` dropped), unit
    length, with the pieces' ids; remembered per text."""

    def __init__(self, model: FastE5Embedder) -> None:
        self.model = model
        self.encoder = Encoder(model.weights)
        self.scores = information._pieces()[1]
        self.prefix = {kind: len(model.token_ids("", kind)) for kind in ("query", "passage")}
        self.memo: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = {}

    def of(self, text: str, kind: str) -> tuple[np.ndarray, np.ndarray]:
        key = (kind, text)
        if key not in self.memo:
            self.memo[key] = self._states(text, kind)
        return self.memo[key]

    def _states(self, text: str, kind: str) -> tuple[np.ndarray, np.ndarray]:
        ids = self.model.token_ids(text, kind)[: TOKENS - 2]  # type: ignore[arg-type]
        full = np.array([[self.model._bos, *ids, self.model._eos]])
        hidden = self.encoder.hidden_states(full, np.array([full.shape[1]]))[0]
        skip = self.prefix[kind]
        hidden = hidden[1 + skip : -1]
        norms = np.maximum(np.linalg.norm(hidden, axis=1, keepdims=True), 1e-6)
        return hidden / norms, np.array(ids[skip:], dtype=np.int64)

    def information(self, ids: np.ndarray) -> np.ndarray:
        return np.maximum(-self.scores[ids], 0.0)


def alignment(states: PieceStates, question: str, texts: Sequence[str]) -> np.ndarray:
    """``ALIGN`` of ``question`` against ``texts`` (best first)."""
    q, ids = states.of(question, "query")
    if not len(q) or not texts:
        return np.zeros(len(ALIGN), dtype=np.float32)
    info = states.information(ids)
    per = np.array([_best_match(q, states.of(t, "passage")[0]) for t in texts])
    best = per.max(axis=0)
    share = info / max(float(info.sum()), 1e-6)
    rare = info >= RARE
    return np.array(
        [
            share @ (1 - best),
            best[rare].min() if rare.any() else 1.0,
            (info * (1 - best)).max(),
            share @ (1 - per[0]),
            best.mean(),
            (per @ share).max(),
            (info * (1 - best))[best < MATCHED].sum(),
        ],
        dtype=np.float32,
    )


def _best_match(question: np.ndarray, sentence: np.ndarray) -> np.ndarray:
    """Per question piece, its best cosine to a piece of the sentence."""
    if not len(sentence):
        return np.zeros(len(question))
    return (question @ sentence.T).max(axis=1)


def collect(paths: Sequence[Path], folds: Sequence[Path], out: Path) -> None:
    """Per question (readers' recorded plain ones, then the public DEV ones over their
    paragraph and over another article's): the ``REFUSAL`` row and the ``ALIGN`` row."""
    shipped = embedder_for(False)
    embedders = FoldEmbedders(shipped, folds)
    states = PieceStates(_plain(shipped))
    scorer = replace(shipped_scorer(), refusal={})
    rows: dict[str, list] = {k: [] for k in ("x", "align", "y", "sets")}

    def add(question, units, hits, covered, name) -> None:  # type: ignore[no-untyped-def]
        w = weighed(question, units, scorer, embedders.of(name), hits)
        if w.row is None:
            return
        texts = [w.found[i].text for i in np.argsort(-w.ranks, kind="stable")[:TOP]]
        for key, value in (("x", w.row), ("align", alignment(states, question.text, texts)),
                           ("y", float(covered)), ("sets", name)):  # fmt: skip
            rows[key].append(value)

    for q in refusal_questions(paths):
        add(q.question, q.units, q.hits, q.covered, q.set)
    np.savez(out, **{k: np.array(v) for k, v in rows.items()})
    print(f"{len(rows['y'])} questions -> {out}")


def cross(path: Path) -> None:
    """Leave each set out: the refusal head with and without ``ALIGN``."""
    with np.load(path) as f:
        x, align, y, sets = f["x"], f["align"], f["y"], f["sets"]
    readers = np.array([not s.startswith("public") for s in sets])
    wide = np.hstack([x, align])
    table, totals = [], np.zeros(4, dtype=int)
    for name in sorted(set(sets[readers])) + sorted(set(sets[~readers])):
        held = sets == name
        before, after = refused(x, y, readers, held), refused(wide, y, readers, held)
        counts = [int((r & (y == k)).sum()) for r in (before, after) for k in (1, 0)]
        if not name.startswith("public"):
            totals += counts
        table.append(
            (name, *_shares(counts, (int((held & (y == 1)).sum()), int((held & (y == 0)).sum()))))
        )
    of = (int((readers & (y == 1)).sum()), int((readers & (y == 0)).sum()))
    table.append(("readers", *_shares(list(totals), of)))
    head = ("held-out set", "covered refused", "uncovered refused",
            "with ALIGN: covered", "with ALIGN: uncovered")  # fmt: skip
    print(markdown_table(head, "lrrrr", table))
    for j, column in enumerate(ALIGN):
        auc = _auc(align[readers, j], y[readers])
        print(f"{column}: readers' covered above uncovered, AUC {auc:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("verb", choices=("collect", "cross"))
    parser.add_argument("recordings", type=Path, nargs="*")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--rows", type=Path)
    add_folds_argument(parser)
    args = parser.parse_args()
    if args.verb == "collect":
        collect(args.recordings, args.reader_folds, args.out)
    else:
        cross(args.rows)


if __name__ == "__main__":
    main()
