"""Where the gold phrase sits relative to the learned answerer's direct answer, per kind of
question (issue 32: "how" questions whose steps follow the sentence chosen).

Each recorded plain question of the DEV recordings (``unseen_replay.py record``) is weighed
and answered again by this checkout's learned answerer; for the covered ones answered, the
gold phrase is looked for in the direct answer (shaped, as the product shows it), then in
the answer read on: with the next sentence of its passage, with the rest of that
sentence's block, with the next three blocks, in the passage's other sentences, in the
further quotes, in the other chosen passages and in the evidence the passage choice left
out. A row counts each question once, at the first place that holds the gold. ``--shapes``
adds, for the kinds asked, how the answer's last sentence ends (a colon, unfinished, a full
stop) and the kind of the block read next, with the gold's place beside them.

    PYTHONPATH=src:benchmarks python benchmarks/how_answers.py /work/data/rec/unseen*.pkl
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from _table import markdown_table
from askalong.answer.base import DraftRequest
from askalong.answer.extractive.candidates import Candidate, candidates
from askalong.answer.extractive.direct_choice import direct_answer
from askalong.answer.extractive.learned import answer_order, answered, weighed
from askalong.answer.extractive.sentence_cache import CachedEmbedder
from askalong.answer.scorer.model import shipped_scorer
from askalong.answer.shape import shaped
from askalong.providers.base import Embedder
from askalong.text.sentences import SENTENCE_ENDS
from unseen_replay import MARKS, bundled_embedder, covered_questions
from unseen_set import Item, contains_any

PLACES = (
    "answer", "next sentence", "next block", "next 3 blocks", "passage", "quotes",
    "other passages", "left out", "nowhere",
)  # fmt: skip
KINDS = ("how", "factual", "why", "chinese")


@dataclass(frozen=True)
class Placed:
    """One covered question answered: where its gold sits, and the answer's last sentence's
    ending and the next block's kind (``-`` when nothing follows in the passage)."""

    set: str
    item: Item
    place: str
    ending: str
    next_kind: str
    answer: str
    after: str


def placed(name: str, item: Item, request: DraftRequest, embedder: Embedder) -> Placed | None:
    """Where ``item``'s gold sits relative to its answer, or None when it was refused."""
    scorer = shipped_scorer()
    w = weighed(request.question, request.units, scorer, embedder, request.hits)
    result = answered(request.question, w, scorer, True)
    if result.status != "answered":
        return None
    direct = direct_answer(request.question, w, answer_order(request.question, w), scorer, True)
    every = [c for c in candidates(w.units) if c.text.strip()]
    after = _read_on(every, direct)
    text = MARKS.sub("", shaped(result.answer).direct)  # as the product shows it
    place = _place_of(item.gold, text, after, every, direct[0].unit, result, request, w.units)
    last = max((c for c in direct if c.unit == direct[0].unit), key=_at)
    ending = ":" if last.text.rstrip().endswith((":", "：")) else "."
    ending = ending if last.text.rstrip().endswith(SENTENCE_ENDS) or ending == ":" else "open"
    shown = " ".join(c.text for c in after[:1])
    return Placed(name, item, place, ending, after[0].kind if after else "-", text, shown)


def _at(c: Candidate) -> tuple[int, int, int]:
    return (c.unit, c.piece, c.index)


def _read_on(every: list[Candidate], direct: list[Candidate]) -> list[Candidate]:
    """The sentences of the answer's first passage after its last sentence there."""
    last = max((c for c in direct if c.unit == direct[0].unit), key=_at)
    return [c for c in every if c.unit == last.unit and _at(c) > _at(last)]


def _place_of(
    gold: Sequence[str],
    text: str,
    after: list[Candidate],
    every: list[Candidate],
    unit: int,
    result: object,
    request: DraftRequest,
    units: Sequence[object],
) -> str:
    """The first of ``PLACES`` holding a gold phrase."""
    if contains_any(text, gold):
        return "answer"
    pieces = list(dict.fromkeys(c.piece for c in after))
    reads = {
        "next sentence": after[:1],
        "next block": [c for c in after if c.piece == (pieces[0] if pieces else -1)],
        "next 3 blocks": [c for c in after if c.piece in pieces[:3]],
    }
    for place, more in reads.items():
        if more and contains_any(" ".join([text, *(c.text for c in more)]), gold):
            return place
    if contains_any(" ".join(c.text for c in every if c.unit == unit), gold):
        return "passage"
    quotes = getattr(result, "quotes", ())
    if contains_any(" ".join(q.text for q in quotes), gold):
        return "quotes"
    if contains_any(" ".join(c.text for c in every), gold):
        return "other passages"
    if contains_any(" ".join(u.text for u in request.units), gold):
        return "left out"
    return "nowhere"


def all_placed(paths: Sequence[Path]) -> tuple[list[Placed], Counter[str]]:
    """Every covered plain question of the recordings placed; refusals counted per kind."""
    embedder = CachedEmbedder(bundled_embedder())
    out, refused = [], Counter[str]()
    for name, item, request in covered_questions(paths):
        found = placed(name, item, request, embedder)
        if found is None:
            refused[item.kind] += 1
        else:
            out.append(found)
    return out, refused


def place_table(done: Sequence[Placed], refused: Counter[str]) -> str:
    """Per kind of question: covered, refused, then the count at each place."""
    rows = []
    asked = sorted({p.item.kind for p in done} | set(refused), key=_kind_order)
    for kind in (*asked, "all"):
        mine = [p for p in done if kind in ("all", p.item.kind)]
        gone = sum(refused.values()) if kind == "all" else refused[kind]
        count = Counter(p.place for p in mine)
        rows.append((kind, str(len(mine) + gone), str(gone), *(str(count[p]) for p in PLACES)))
    header = ("kind", "covered", "refused", *PLACES)
    return markdown_table(header, "l" + "r" * (len(header) - 1), rows)


def _kind_order(kind: str) -> tuple[int, str]:
    return (KINDS.index(kind) if kind in KINDS else len(KINDS), kind)


def shape_table(done: Sequence[Placed], kind: str) -> str:
    """For ``kind``'s answers: the last sentence's ending and the next block's kind, with
    how many hit, and how many had the gold in the next sentence / block / three blocks."""
    shapes = Counter((p.ending, p.next_kind) for p in done if p.item.kind == kind)
    rows = []
    for shape, n in shapes.most_common():
        ending, next_kind = shape
        mine = [p for p in done if p.item.kind == kind and (p.ending, p.next_kind) == shape]
        count = Counter(p.place for p in mine)
        rows.append((ending, next_kind, str(n), *(str(count[p]) for p in PLACES[:4])))
    header = ("answer ends", "next block", "answered", *PLACES[:4])
    return markdown_table(header, "llrrrrr", rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--shapes", nargs="*", default=["how"], help="kinds to break down")
    parser.add_argument("--show", type=int, default=0, help="misses of the first kind to print")
    args = parser.parse_args()
    done, refused = all_placed(args.recordings)
    print(place_table(done, refused))
    for kind in args.shapes:
        print(f"\n{kind}\n\n{shape_table(done, kind)}")
    misses = [p for p in done if p.item.kind == args.shapes[0] and p.place != "answer"]
    for p in misses[: args.show]:
        print(f"\n{p.set} {p.item.id} [{p.place}] {p.item.question}\n  gold: {p.item.gold}")
        print(f"  answer ({p.ending}): {p.answer[:300]}\n  next ({p.next_kind}): {p.after[:200]}")


if __name__ == "__main__":
    main()
