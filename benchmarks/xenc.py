"""The cross-encoder experiment against the learned scorer and the e5 cosine, on the
candidates the answerer actually saw (issue 32), then its CPU cost for 40 candidates.

For each covered plain question of the DEV recordings (``unseen_replay.py record``: the
never-seen sets ``unseen`` .. ``unseen4``, all DEV), the learned answerer's own steps are
replayed: its passage choice, its candidate cap (``MAX_CANDIDATES``), its feature rows with
the bundled embedder. The *gold sentences* are the candidates holding a gold phrase;
questions with none among the candidates are counted apart. Each scorer's best candidate
is a hit when it is a gold sentence (rank@1): the learned scorer's sentence head, the e5
cosine column, the cross-encoder, and the learned score plus the cross-encoder's
(each standardised over the question's candidates).

    PYTHONPATH=src:training .venv/bin/python benchmarks/xenc.py \
        --model /work/data/xenc/xenc-L2.npz /work/data/xenc/rec/unseen*.pkl
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "training"))

from xenc_model import CrossModel  # noqa: E402

from answers import contains_any  # noqa: E402
from askalong.answer.extractive.candidates import candidates  # noqa: E402
from askalong.answer.extractive.learned import _kept, _rows  # noqa: E402
from askalong.answer.extractive.passage_choice import choose_passages  # noqa: E402
from askalong.answer.scorer.features import COLUMNS, Sentence, sentence_features  # noqa: E402
from askalong.answer.scorer.model import shipped_scorer  # noqa: E402
from askalong.config import load_settings  # noqa: E402
from askalong.providers.base import Embedder  # noqa: E402
from askalong.providers.local.embedder import default_embedder  # noqa: E402
from unseen_set import load_items, questions_of  # noqa: E402

RANKERS = ("learned", "cosine", "cross", "cross int8", "learned+cross")
COSINE = COLUMNS.index("cosine")


@dataclass
class Tally:
    """rank@1 hits per ranker over the questions with a gold candidate."""

    questions: int = 0
    no_gold: int = 0
    hits: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RANKERS, 0))

    def row(self, name: str) -> str:
        shares = " | ".join(
            f"{self.hits[r]} ({self.hits[r] / max(self.questions, 1):.2f})" for r in RANKERS
        )
        return f"| {name} | {self.questions} | {self.no_gold} | {shares} |"


def standard(values: np.ndarray) -> np.ndarray:
    return (values - values.mean()) / (values.std() + 1e-6)


def seen_candidates(request: object) -> tuple[str, list]:
    """The question and the candidates the learned answerer scores for ``request``."""
    question = request.question  # type: ignore[attr-defined]
    choice = choose_passages(question.text, question.language, request.units, request.hits)  # type: ignore[attr-defined]
    found = [c for c in candidates(choice.units) if c.text.strip()]
    return question.text, _kept(question.text, found)


def rank_set(
    path: Path, embedder: Embedder, cross: tuple[CrossModel, CrossModel], tally: Tally
) -> list[list[str]]:
    """Score one recording's covered plain questions into ``tally``; their candidate texts."""
    recorded = pickle.loads(path.read_bytes())
    scorer, texts = shipped_scorer(), []
    for item in load_items(questions_of(recorded["set"])):
        request = recorded["requests"].get(item.id)
        if request is None or request.intent != "ask" or item.refuse:
            continue
        question, found = seen_candidates(request)
        gold = {k for k, c in enumerate(found) if contains_any(c.text, item.gold)}
        if not gold:
            tally.no_gold += 1
            continue
        texts.append([c.text for c in found])
        rows = _rows(question, found, embedder)
        learned = scorer.sentence_scores(rows, True)
        crossed = cross[0].scores(question, texts[-1])
        ranked = {"learned": learned, "cosine": rows[:, COSINE], "cross": crossed}
        ranked["cross int8"] = cross[1].scores(question, texts[-1])
        ranked["learned+cross"] = standard(learned) + standard(crossed)
        tally.questions += 1
        for name, values in ranked.items():
            tally.hits[name] += int(np.argmax(values)) in gold
    return texts


def cost_table(
    texts: list[list[str]], embedder: Embedder, cross: tuple[CrossModel, CrossModel]
) -> list[str]:
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
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--cache", type=Path, default=Path("/work/data/xenc/cache"))
    args = parser.parse_args()
    embedder = default_embedder(load_settings())
    cross = CrossModel.load(args.model, args.cache), CrossModel.load(args.model, args.cache, True)
    header = "| set | questions | gold not among candidates | " + " | ".join(RANKERS) + " |"
    lines, total, texts = [header, "|" + "---|" * (3 + len(RANKERS))], Tally(), []
    for path in args.recordings:
        tally = Tally()
        texts += rank_set(path, embedder, cross, tally)
        lines.append(tally.row(path.stem))
        total.questions += tally.questions
        total.no_gold += tally.no_gold
        for name in RANKERS:
            total.hits[name] += tally.hits[name]
        print(lines[-1], flush=True)
    lines.append(total.row("all"))
    print("\n".join([*lines, "", *cost_table(texts, embedder, cross)]))


if __name__ == "__main__":
    main()
