"""The direct answer chosen as a window, an experiment (issue 32; measured, not shipped).

The learned answerer shows its best sentence with one more: the runner-up when close,
else the better-scored neighbour, or what the best sentence leads into where the read-on
head says so (``direct_choice``). On the held-out replays most misses whose passage holds
the gold miss it by one sentence (``benchmarks/why_how_misses.py``). This head chooses
the shown pair as a whole among *offers*: the product's answer, the best sentence with the
sentence before it, with the one after it, with the 2nd or the 3rd ranked (each with what
it announces, where it fits the answer's shape). A linear model over ``COLUMNS`` scores
each offer; fitted by the listwise softmax (the offers holding the gold as the answer is
shown) on the fit sets' questions, pulled towards zero (``--pull``); an offer replaces the
product's answer only where it scores ``--margin`` above it.

``cross`` leaves each fit set out, then fits on every fit set and answers the ``JUDGED``
sets (in no fit); it prints the answers holding the gold with the product's answer, with
the head and with the best offer (the ceiling), and per offer how often it alone holds the
gold against the product's answer or the reverse.

    PYTHONPATH=src:benchmarks:training python training/answer_window.py cross \
        /work/data/rec/unseen*.pkl --reader-folds A.npz B.npz --cache /tmp/weighed
"""

from __future__ import annotations

import argparse
import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from reader_layers import add_folds_argument
from train import adam, standardiser
from weighed_recordings import JUDGED, WeighedQuestion, weighed_sets

from _table import markdown_table
from askalong.answer.extractive.candidates import Candidate, candidates
from askalong.answer.extractive.cues import continues, states_answer
from askalong.answer.extractive.direct import NOT_ANSWERS, joined
from askalong.answer.extractive.direct_choice import _announced, direct_answer, place, with_blocks
from askalong.answer.extractive.learned import answer_order
from askalong.answer.scorer.model import shipped_scorer
from askalong.answer.shape import first_line, fits, shaped, share_of_limit
from askalong.question.reading import QuestionReading
from askalong.text.tokens import terms_of
from unseen_replay import MARKS
from unseen_set import contains_any

OFFERS = ("product", "before", "after", "second", "third")
CROSSED = ("before", "after", "ranked", "states", "continues")  # read again per why / how
COLUMNS = (
    *OFFERS,
    "added_gap",  # the rank head's score of the sentence the offer adds, less the best's
    "dropped_gap",  # of the sentence it drops from the product's answer
    "adds", "drops",
    "terms",  # share of the question's terms added, less the share dropped
    "states",  # a sentence with the answer type's cue added, less dropped (why / how)
    "continues",  # the offer's second sentence leans on its first, less the product's
    "size", "adds_code", "adds_list",
    *(f"{t}_{c}" for t in ("reason", "method") for c in CROSSED),
)  # fmt: skip
UNRANKED_GAP = -10.0


@dataclass(frozen=True)
class Offered:
    """One answered covered question: its set and answer type, each offer's ``COLUMNS``
    row and whether it holds the gold as shown (the product's answer first)."""

    set: str
    answer_type: str
    names: tuple[str, ...]
    x: np.ndarray
    y: np.ndarray


def offers(q: QuestionReading, wq: WeighedQuestion) -> list[tuple[str, list[Candidate]]]:
    """The product's answer, then the other offers that fit the answer's shape."""
    w = wq.w
    order = answer_order(q, w)
    product = direct_answer(q, w, order, shipped_scorer(), True)
    best = w.found[order[0]]
    reading = sorted(
        (c for c in candidates(w.units) if c.unit == best.unit and c.text.strip()), key=place
    )
    at = [place(c) for c in reading].index(place(best))
    raw = [
        ("before", reading[at - 1 : at + 1] if at > 0 else []),
        ("after", reading[at : at + 2] if at + 1 < len(reading) else []),
        *(
            (name, _in_order(best, w.found[k]))
            for name, k in zip(OFFERS[3:], order[1:3], strict=False)
        ),
    ]
    out, seen = [("product", product)], {tuple(place(c) for c in product)}
    for name, sentences in raw:
        if len(sentences) < 2 or any(c.kind in NOT_ANSWERS for c in sentences):
            continue
        shown = _announced(w.units, sentences)
        key = tuple(place(c) for c in shown)
        if key not in seen and fits(" ".join(c.text for c in shown)):
            seen.add(key)
            out.append((name, shown))
    return out


def _in_order(best: Candidate, other: Candidate) -> list[Candidate]:
    return sorted([best, other], key=place) if other.unit == best.unit else [best, other]


def row(
    q: QuestionReading,
    wq: WeighedQuestion,
    name: str,
    offer: list[Candidate],
    product: list[Candidate],
) -> np.ndarray:
    """The ``COLUMNS`` row of ``offer`` against the product's answer."""
    ranks = {place(c): float(r) for c, r in zip(wq.w.found, wq.w.ranks, strict=True)}
    top = float(wq.w.ranks.max())
    added = [c for c in offer if c not in product]
    dropped = [c for c in product if c not in offer]
    asked = terms_of(q.text)

    def gap(cs: list[Candidate]) -> float:
        return max((ranks.get(place(c), top + UNRANKED_GAP) - top for c in cs), default=0.0)

    def share(cs: list[Candidate]) -> float:
        return (
            len(asked & terms_of(" ".join(c.text for c in cs))) / len(asked)
            if asked and cs
            else 0.0
        )

    def cue(cs: list[Candidate]) -> float:
        return float(any(states_answer(q.form, c.text) for c in cs))

    def leans(cs: list[Candidate]) -> float:
        return float(
            any(a.unit == b.unit and continues(a.text, b.text) for a, b in itertools.pairwise(cs))
        )

    states, lean = cue(added) - cue(dropped), leans(offer) - leans(product)
    crossed = [name == "before", name == "after", name in ("second", "third"), states, lean]
    kind = q.form.answer_type
    values = [
        *(name == n for n in OFFERS),
        gap(added), gap(dropped), bool(added), bool(dropped),
        share(added) - share(dropped), states, lean,
        share_of_limit(" ".join(c.text for c in offer)),
        any(c.kind == "code" for c in added), any(c.kind == "list_item" for c in added),
        *(float(kind == "reason") * v for v in crossed),
        *(float(kind == "method") * v for v in crossed),
    ]  # fmt: skip
    return np.asarray(values, dtype=np.float64)


def shown_hit(wq: WeighedQuestion, sentences: list[Candidate]) -> bool:
    """Whether ``sentences`` hold the gold as the product shows them (blocks they announce
    by their first line, shaped)."""
    direct, opened = with_blocks(wq.w.units, sentences)
    cited = [
        f"{first_line(c.text) if k in opened else c.text} [{k + 1}]" for k, c in enumerate(direct)
    ]
    text = shaped(joined(cited, wq.question.language)).direct
    return contains_any(MARKS.sub("", text), wq.item.gold)


def offered(found: Sequence[WeighedQuestion]) -> list[Offered]:
    """Every answered covered question's offers."""
    out = []
    for wq in found:
        if wq.item.refuse or wq.status != "answered":
            continue
        choices = offers(wq.question, wq)
        product = choices[0][1]
        x = np.array([row(wq.question, wq, name, o, product) for name, o in choices])
        y = np.array([shown_hit(wq, o) for _, o in choices], dtype=np.float64)
        names = tuple(name for name, _ in choices)
        out.append(Offered(wq.set, wq.question.form.answer_type, names, x, y))
    return out


Head = tuple[np.ndarray, np.ndarray, np.ndarray]


def fitted(groups: Sequence[Offered], pull: float) -> Head:
    """Standardisation and weights by the listwise softmax over each question's offers
    (the offers holding the gold the targets; questions where all or none do teach nothing)."""
    decisive = [g for g in groups if 0 < g.y.sum() < len(g.y)]
    mean, scale = standardiser(np.vstack([g.x for g in decisive]))
    zs = [((g.x - mean) / scale, g.y) for g in decisive]

    def grad_fn(params: list[np.ndarray]) -> tuple[float, list[np.ndarray]]:
        (w,) = params
        loss, grad = 0.0, np.zeros_like(w)
        for z, y in zs:
            s = z @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            held = float((p * y).sum())
            loss -= math.log(held + 1e-12)
            grad -= z.T @ (p * y / (held + 1e-12) - p)
        n = len(zs)
        return loss / n + pull * float(w @ w), [grad / n + 2 * pull * w]

    (w,), _ = adam([np.zeros(len(COLUMNS))], grad_fn, 300)
    return mean, scale, w


def chosen(g: Offered, head: Head, margin: float) -> int:
    mean, scale, w = head
    s = ((g.x - mean) / scale) @ w
    k = int(np.argmax(s))
    return k if s[k] - s[0] > margin else 0


def cross(groups: Sequence[Offered], pull: float, margin: float) -> None:
    """Each fit set left out, then the ``JUDGED`` sets with the head fitted on all others."""
    fit_sets = sorted({g.set for g in groups} - set(JUDGED))
    picked: dict[int, int] = {}
    for name in fit_sets:
        head = fitted([g for g in groups if g.set in fit_sets and g.set != name], pull)
        picked |= {id(g): chosen(g, head, margin) for g in groups if g.set == name}
    head = fitted([g for g in groups if g.set in fit_sets], pull)
    picked |= {id(g): chosen(g, head, margin) for g in groups if g.set in JUDGED}
    rows = []
    for label, mine in _groupings(groups, fit_sets):
        rows.append((
            label, str(len(mine)), str(int(sum(g.y[0] for g in mine))),
            str(int(sum(g.y[picked[id(g)]] for g in mine))), str(int(sum(g.y.max() for g in mine))),
        ))  # fmt: skip
    header = ("questions", "answered", "product", "head", "best offer")
    print(markdown_table(header, "lrrrr", rows))
    print(_swaps([g for g in groups if g.set in fit_sets]))


def _groupings(groups: Sequence[Offered], fit_sets: list[str]) -> list[tuple[str, list[Offered]]]:
    out = [("fit sets, each left out", [g for g in groups if g.set in fit_sets])]
    out += [(name, [g for g in groups if g.set == name]) for name in JUDGED]
    judged = [g for g in groups if g.set in JUDGED]
    out += [
        (f"judged, {t}", [g for g in judged if g.answer_type == t]) for t in ("reason", "method")
    ]
    return out


def _swaps(groups: Sequence[Offered]) -> str:
    """Per offer: offered, holds the gold where the product's answer does not, the reverse."""
    offered_, gained, lost = Counter[str](), Counter[str](), Counter[str]()
    for g in groups:
        for name, y in zip(g.names[1:], g.y[1:], strict=True):
            offered_[name] += 1
            gained[name] += bool(y and not g.y[0])
            lost[name] += bool(g.y[0] and not y)
    rows = [(n, str(offered_[n]), str(gained[n]), str(lost[n])) for n in OFFERS[1:]]
    return markdown_table(
        ("offer", "offered", "holds, product not", "product holds, offer not"), "lrrr", rows
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("verb", choices=("cross",))
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--cache", type=Path, help="a folder keeping each set weighed")
    parser.add_argument("--pull", type=float, default=0.01)
    parser.add_argument("--margin", type=float, default=0.0)
    add_folds_argument(parser)
    args = parser.parse_args()
    groups = offered(weighed_sets(args.recordings, args.reader_folds, args.cache))
    cross(groups, args.pull, args.margin)


if __name__ == "__main__":
    main()
