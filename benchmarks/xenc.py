"""The cross-encoder experiment against the learned scorer and the e5 cosine, on the
candidates the answerer actually saw (issue 32), then its CPU cost for 40 candidates.

For each covered plain question of the DEV recordings (``unseen_replay.py record``; DEV
sets only, ``unseen_set.DEV_SETS``), the learned answerer's own steps are replayed
(``learned.weighed``): its passage choice, its candidate cap, its feature rows and heads with
the bundled embedder. The *gold sentences* are the candidates holding a gold phrase;
questions with none among the candidates are counted apart. Each scorer's best candidate
is a hit when it is a gold sentence (rank@1): the learned scorer's sentence head, its rank
head (the answerer's order), the e5 cosine column and, given a trained ``--model``, the
cross-encoder and the rank head's score plus the cross-encoder's (each standardised over
the question's candidates). ``--limit N`` takes each set's first N covered plain questions.

    PYTHONPATH=src:benchmarks:training .venv/bin/python benchmarks/xenc.py \
        --model /work/data/xenc/xenc-L2.npz /work/data/rec/unseen.pkl /work/data/rec/unseen2.pkl
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "training"))

from xenc_model import CrossModel  # noqa: E402

from askalong.answer.base import DraftRequest  # noqa: E402
from askalong.answer.extractive.learned import weighed  # noqa: E402
from askalong.answer.extractive.sentence_rows import candidate_rows  # noqa: E402
from askalong.answer.scorer.features import COLUMNS, Sentence, sentence_features  # noqa: E402
from askalong.answer.scorer.model import Scorer, shipped_scorer  # noqa: E402
from askalong.config import load_settings  # noqa: E402
from askalong.providers.base import Embedder  # noqa: E402
from askalong.providers.local.embedder import default_embedder  # noqa: E402
from unseen_replay import recording  # noqa: E402
from unseen_set import DEV_SETS, contains_any  # noqa: E402

LEARNED = ("sentence head", "rank head", "cosine")
CROSSED = ("cross", "cross int8", "rank+cross")  # with a trained --model only
COSINE = COLUMNS.index("cosine")
Crosses = tuple[CrossModel, CrossModel]  # float32 numpy, int8 ONNX


@dataclass
class Tally:
    """rank@1 hits per ranker over the questions with a gold candidate."""

    rankers: tuple[str, ...]
    questions: int = 0
    no_gold: int = 0
    hits: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.questions += other.questions
        self.no_gold += other.no_gold
        self.hits.update(other.hits)

    def header(self) -> list[str]:
        names = " | ".join(self.rankers)
        return [
            f"| set | questions | gold not among candidates | {names} |",
            "|" + "---|" * (3 + len(self.rankers)),
        ]

    def row(self, name: str) -> str:
        shares = " | ".join(
            f"{self.hits[r]} ({self.hits[r] / max(self.questions, 1):.2f})" for r in self.rankers
        )
        return f"| {name} | {self.questions} | {self.no_gold} | {shares} |"


def standard(values: np.ndarray) -> np.ndarray:
    return (values - values.mean()) / (values.std() + 1e-6)


def ranked(
    request: DraftRequest, scorer: Scorer, embedder: Embedder, cross: Crosses | None
) -> tuple[list[str], dict[str, np.ndarray]]:
    """The candidate texts the learned answerer scores for ``request`` and each ranker's
    scores for them."""
    question = request.question
    w = weighed(question, request.units, scorer, embedder, request.hits)
    texts = [c.text for c in w.found]
    rows = candidate_rows(question.text, w.found, embedder)
    scores = {
        "sentence head": scorer.sentence_scores(rows, True),
        "rank head": w.ranks,
        "cosine": rows[:, COSINE],
    }
    if cross is not None and texts:
        scores["cross"] = cross[0].scores(question.text, texts)
        scores["cross int8"] = cross[1].scores(question.text, texts)
        scores["rank+cross"] = standard(w.ranks) + standard(scores["cross"])
    return texts, scores


def rank_set(
    path: Path, embedder: Embedder, cross: Crosses | None, tally: Tally, limit: int | None
) -> list[list[str]]:
    """Score one recording's covered plain questions (the first ``limit``) into ``tally``;
    their candidate texts."""
    name, items, requests = recording(path)
    if name not in DEV_SETS:
        raise SystemExit(f"{path}: a recording of {name}, not a DEV set")
    scorer, every = shipped_scorer(), []
    asked = [i for i in items if i.id in requests and requests[i.id].intent == "ask"]
    for item in [i for i in asked if not i.refuse][:limit]:
        texts, scores = ranked(requests[item.id], scorer, embedder, cross)
        gold = {k for k, text in enumerate(texts) if contains_any(text, item.gold)}
        if not gold:
            tally.no_gold += 1
            continue
        every.append(texts)
        tally.questions += 1
        for name in tally.rankers:
            tally.hits[name] += int(np.argmax(scores[name])) in gold
    return every


def cost_table(texts: list[list[str]], embedder: Embedder, cross: Crosses) -> list[str]:
    """Median CPU ms to score 40 candidates, on the same sentences in the same run: the
    learned scorer (the 40 sentences and the question embedded cold, features, network)
    and the cross-encoder (float32 numpy). Each repeat takes other sentences (no cache)."""
    every = [s for group in texts for s in group]
    scorer = shipped_scorer()
    times: dict[str, list[float]] = {"learned": [], "cross": [], "cross int8": []}
    for k in range(7):
        sentences = every[k * 40 : k * 40 + 40]
        question = f"What happens to the value in case {k} when nothing is set?"
        started = time.process_time()
        vectors = embedder.embed_passages(sentences)
        query = embedder.embed_query(question)
        found = [Sentence(0, i, t) for i, t in enumerate(sentences)]
        scorer.sentence_scores(sentence_features(question, found, query, vectors), True)
        times["learned"].append((time.process_time() - started) * 1000)
        for name, model in zip(("cross", "cross int8"), cross, strict=True):
            started = time.process_time()
            model.scores(question, sentences)
            times[name].append((time.process_time() - started) * 1000)
    layers = cross[0].layers
    ms = {name: statistics.median(t) for name, t in times.items()}
    return [
        "| 40 candidates | CPU ms (median of 7) |",
        "|---|---:|",
        f"| learned scorer (embedded cold) | {ms['learned']:.0f} |",
        f"| cross-encoder, {layers} layers, float32 numpy | {ms['cross']:.0f} |",
        f"| cross-encoder, {layers} layers, int8 ONNX Runtime | {ms['cross int8']:.0f} |",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--model", type=Path, help="a trained checkpoint (xenc_train.py)")
    parser.add_argument("--cache", type=Path, default=Path("/work/data/xenc/cache"))
    parser.add_argument("--limit", type=int, default=None, help="covered questions per set")
    args = parser.parse_args()
    embedder = default_embedder(load_settings())
    cross = None
    if args.model is not None:
        cross = (
            CrossModel.load(args.model, args.cache),
            CrossModel.load(args.model, args.cache, True),
        )
    total = Tally(LEARNED if cross is None else LEARNED + CROSSED)
    texts: list[list[str]] = []
    print("\n".join(total.header()), flush=True)
    for path in args.recordings:
        tally = Tally(total.rankers)
        texts += rank_set(path, embedder, cross, tally, args.limit)
        total.add(tally)
        print(tally.row(path.stem), flush=True)
    print(total.row("all"))
    if cross is not None:
        print("\n".join(["", *cost_table(texts, embedder, cross)]))


if __name__ == "__main__":
    main()
