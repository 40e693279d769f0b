"""The DEV recordings' plain questions weighed once as the learned answerer weighs them
(``answer_window.py`` and ``answer_type_bonus.py`` read them, issue 32).

Each recorded plain question (``benchmarks/unseen_replay.py record``) is read as the
answerer reads it (a follow-up with its thread's subject: ``answerer.learned_question``),
its candidates weighed by every head (``learned.weighed``) with the follow-up's thread
weights added, and answered. The sets the shipped reader layers were trained on are read
with a fold model not trained on them (``--reader-folds``: ``reader_layers.FoldEmbedders``),
so no rank score is in-sample; the ``JUDGED`` sets, in no fit, with the shipped embedder,
as the product reads them. ``--cache FOLDER`` keeps each set as ``FOLDER/<set>.pkl``
(weighing a set takes about 20 CPU seconds).
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from reader_layers import FoldEmbedders
from readers import embedder_for

from askalong.answer.base import DraftRequest
from askalong.answer.extractive.answerer import leaned_on, learned_question
from askalong.answer.extractive.learned import Weighed, answered, weighed
from askalong.answer.extractive.thread_position import THREAD_WEIGHTS, thread_bonus
from askalong.answer.scorer.model import shipped_scorer
from askalong.providers.base import Embedder
from askalong.question.reading import QuestionReading
from unseen_replay import MARKS
from unseen_set import DEV_SETS, UNFITTED_SETS, Item, contains_any, load_items, questions_of

JUDGED = UNFITTED_SETS  # in no fit of any head: what a change is judged on


@dataclass(frozen=True)
class WeighedQuestion:
    """One recorded plain question: the question the answerer ranked by, what it weighed,
    and the product's answer (its status and text, citation markers kept)."""

    set: str
    item: Item
    question: QuestionReading
    w: Weighed
    status: str
    answer: str

    @property
    def hit(self) -> bool:
        """Covered, answered, and a gold phrase in the direct answer."""
        shown = MARKS.sub("", self.answer)
        return (
            not self.item.refuse
            and self.status == "answered"
            and contains_any(shown, self.item.gold)
        )


def weighed_question(
    name: str, item: Item, request: DraftRequest, embedder: Embedder | None
) -> WeighedQuestion:
    """``item`` weighed and answered as ``ExtractiveAnswerer`` answers a plain question."""
    scorer, question = shipped_scorer(), learned_question(request)
    w = weighed(question, request.units, scorer, embedder, request.hits)
    bonus = thread_bonus(w.found, leaned_on(request), THREAD_WEIGHTS)
    w = replace(w, ranks=w.ranks + bonus) if bonus.any() else w
    result = answered(question, w, scorer, True)
    return WeighedQuestion(name, item, question, w, result.status, result.answer)


def weighed_sets(
    paths: Sequence[Path], folds: Sequence[Path], cache: Path | None
) -> list[WeighedQuestion]:
    """Every plain question of the recordings weighed (kept per set under ``cache``)."""
    shipped = embedder_for(False)
    embedders = FoldEmbedders(shipped, folds)
    out: list[WeighedQuestion] = []
    for path in paths:
        data = pickle.loads(path.read_bytes())
        name = data["set"]
        if name not in DEV_SETS:
            raise SystemExit(f"{name} is held out")
        kept = cache / f"{name}.pkl" if cache is not None else None
        if kept is not None and kept.exists():
            out += pickle.loads(kept.read_bytes())
            continue
        embedder = shipped if name in JUDGED else embedders.of(name)
        requests = data["requests"]
        mine = [
            weighed_question(name, item, requests[item.id], embedder)
            for item in load_items(questions_of(name))
            if item.id in requests and requests[item.id].intent == "ask"
        ]
        if kept is not None:
            kept.parent.mkdir(parents=True, exist_ok=True)
            kept.write_bytes(pickle.dumps(mine))
        out += mine
    return out
