"""Where the gold sentence stands when the learned answerer's passage holds it and its
direct answer does not (issue 32: "why" and "how" answers one sentence off).

Each covered plain question of the DEV recordings (``unseen_replay.py record``) is answered
again by this checkout's learned answerer, as ``unseen_replay.py replay`` does (the thread's
question and weights included). For a miss whose answer's first passage (the unit of its
best sentence) holds a gold phrase, the gold sentence nearest the answer is placed: before
or after the answer's sentences in reading order and how many sentences away, and where
the rank head put it (2nd, 3rd, 4th-5th, lower, not a candidate). Rows per answer type
(``QuestionForm.answer_type``, the product's reading of the question) and per the set's
kind of question.

    PYTHONPATH=src:benchmarks python benchmarks/why_how_misses.py \
        /work/data/rec/unseen17.pkl /work/data/rec/unseen18.pkl /work/data/rec/unseen19.pkl
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from _table import markdown_table
from askalong.answer.base import DraftRequest
from askalong.answer.extractive.answerer import leaned_on, learned_question
from askalong.answer.extractive.candidates import candidates
from askalong.answer.extractive.direct_choice import direct_answer, place
from askalong.answer.extractive.learned import answer_order, answered, weighed
from askalong.answer.extractive.sentence_cache import CachedEmbedder
from askalong.answer.extractive.thread_position import THREAD_WEIGHTS, thread_bonus
from askalong.answer.scorer.model import shipped_scorer
from askalong.providers.base import Embedder
from unseen_replay import MARKS, bundled_embedder, covered_questions
from unseen_set import Item, contains_any

STANDS = ("before, next", "before, 2-3", "before, 4+", "after, next", "after, 2-3", "after, 4+")
RANKED = ("2nd", "3rd", "4th-5th", "lower", "no candidate")


@dataclass(frozen=True)
class Answered:
    """One covered question answered: whether the direct answer holds the gold and, for a
    miss whose first passage holds it, where the gold sentence stands and was ranked."""

    item: Item
    answer_type: str
    hit: bool
    stands: str | None  # one of STANDS; None: a hit, or the passage lacks the gold
    ranked: str | None  # one of RANKED


def answered_again(item: Item, request: DraftRequest, embedder: Embedder) -> Answered | None:
    """``item`` answered as the product answers it; None when refused."""
    scorer, question = shipped_scorer(), learned_question(request)
    w = weighed(question, request.units, scorer, embedder, request.hits)
    bonus = thread_bonus(w.found, leaned_on(request), THREAD_WEIGHTS)
    w = replace(w, ranks=w.ranks + bonus) if bonus.any() else w
    result = answered(question, w, scorer, True)
    if result.status != "answered":
        return None
    kind = question.form.answer_type
    if contains_any(MARKS.sub("", result.answer), item.gold):
        return Answered(item, kind, True, None, None)
    order = answer_order(question, w)
    direct = direct_answer(question, w, order, scorer, True)
    unit = [c for c in candidates(w.units) if c.unit == direct[0].unit and c.text.strip()]
    golden = [k for k, c in enumerate(unit) if contains_any(c.text, item.gold)]
    shown = [k for k, c in enumerate(unit) if place(c) in {place(d) for d in direct}]
    if not golden or not shown:
        return Answered(item, kind, False, None, None)
    gold = min(golden, key=lambda k: min(abs(k - s) for s in shown))
    ranked = _ranked([place(w.found[k]) for k in order], place(unit[gold]))
    return Answered(item, kind, False, _stands(gold, shown), ranked)


def _stands(gold: int, shown: list[int]) -> str:
    """Where the sentence at ``gold`` stands against the answer's sentences ``shown``."""
    side, away = (
        ("before", min(shown) - gold) if gold < min(shown) else ("after", gold - max(shown))
    )
    if gold > min(shown) and gold < max(shown):
        side, away = "after", 1  # between the answer's two sentences: read on from the first
    return f"{side}, {'next' if away == 1 else '2-3' if away <= 3 else '4+'}"


def _ranked(order: Sequence[tuple[int, int, int]], gold: tuple[int, int, int]) -> str:
    if gold not in order:
        return "no candidate"
    at = order.index(gold) + 1
    return {2: "2nd", 3: "3rd"}.get(at, "4th-5th" if at <= 5 else "lower")


def all_answered(paths: Sequence[Path]) -> list[Answered]:
    """Every covered plain question of the recordings answered again (refusals dropped)."""
    embedder = CachedEmbedder(bundled_embedder())
    done = (
        answered_again(item, request, embedder) for _, item, request in covered_questions(paths)
    )
    return [d for d in done if d is not None]


def miss_table(done: Sequence[Answered], name: str, key: Callable[[Answered], str]) -> str:
    """Per group (``key``: the answer type or the set's kind): answered, hits, misses whose
    passage holds the gold, and those misses by where the gold stands and was ranked."""
    rows = []
    for group in (*sorted({key(d) for d in done}), "all"):
        mine = [d for d in done if group in ("all", key(d))]
        placed = [d for d in mine if d.stands is not None]
        stands, ranked = Counter(d.stands for d in placed), Counter(d.ranked for d in placed)
        counts = [str(stands[s]) for s in STANDS] + [str(ranked[r]) for r in RANKED]
        hits = str(sum(d.hit for d in mine))
        rows.append((group, str(len(mine)), hits, str(len(placed)), *counts))
    header = (name, "answered", "hit", "miss, passage holds", *STANDS, *RANKED)
    return markdown_table(header, "l" + "r" * (len(header) - 1), rows)


def stands_by_rank(done: Sequence[Answered]) -> str:
    """The placed misses counted by where the gold stands (rows) and was ranked."""
    placed = Counter((d.stands, d.ranked) for d in done if d.stands is not None)
    rows = [(s, *(str(placed[s, r]) for r in RANKED)) for s in STANDS]
    return markdown_table(("gold stands", *RANKED), "l" + "r" * len(RANKED), rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("recordings", type=Path, nargs="+")
    args = parser.parse_args()
    done = all_answered(args.recordings)
    print(miss_table(done, "answer type", lambda d: d.answer_type))
    print(miss_table(done, "set's kind", lambda d: d.item.kind))
    print(stands_by_rank(done))


if __name__ == "__main__":
    main()
