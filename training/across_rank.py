"""The across head (issue 32): how the learned answerer orders the candidate sentences of
a question asked over evidence in the other language, learned from readers' own
cross-lingual questions.

The rank head (``readers.py``) is fitted on same-language groups only: across languages
the question's words are not in the evidence, and the lexical columns it leans on read
next to nothing. Each recorded plain question (``benchmarks/unseen_replay.py record``)
whose evidence the answerer takes as in the other language (``learned.chosen``) and
whose candidates hold a gold phrase is a group: the rank head's inputs
(``RANK_COLUMNS``), its score and ``features.ACROSS`` (the question's Latin-script terms
the sentence holds, alone and with its neighbours; prose; its language), labelled by
the gold. The head is a linear model of them fitted by a listwise softmax, starting from
and pulled towards "the rank head's score alone" (``PULL``: a set holds about fifteen
groups). ``cross`` leaves each set out in turn: the best sentence's hits in its groups
and the answers of its cross-lingual questions through the real answerer, with the rank
head and with the across head fitted on the other sets. ``fit`` writes ``weights.json``'s
``across`` (embedded variant; every other head kept).

    PYTHONPATH=src:benchmarks:training python training/across_rank.py cross \\
        /work/data/rec/unseen*.pkl --cache /tmp/across-groups.pkl
    PYTHONPATH=src:benchmarks:training python training/across_rank.py fit \\
        /work/data/rec/unseen*.pkl --cache /tmp/across-groups.pkl
"""

from __future__ import annotations

import argparse
import pickle
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from readers import Asked, answered, embedder_for, learned_draft, recorded
from readers import _table as kinds_table
from train import OUT, STEPS, adam, listwise_grad, spec, standardiser, starts_of, store_heads

from _table import markdown_table
from askalong.answer.extractive.across_rows import across_features
from askalong.answer.extractive.learned import chosen
from askalong.answer.extractive.sentence_rows import candidate_rows, rank_rows
from askalong.answer.scorer.model import ACROSS_COLUMNS, Scorer, network, shipped_scorer
from askalong.providers.base import Embedder
from unseen_replay import Outcome, kind_of
from unseen_set import TEST_SETS, UNFITTED_SETS, UNRUN_SETS, contains_any

PULL = 0.02  # the L2 pull of the weights towards the rank head's score alone
RANK = ACROSS_COLUMNS.index("rank_score")
LEXICON_COLUMNS = ("translated_share", "translated_window")  # the bilingual lexicon's
SYSTEMS = ("rank head", "across head, no lexicon", "across head")
CROSS_HEADER = (
    "set left out",
    "groups",
    "best sentence gold: rank head",
    "across, no lexicon",
    "across",
    "cross-lingual answered: rank head",
    "across, no lexicon",
    "across",
    "cross-lingual taken as across",
)


@dataclass(frozen=True)
class Group:
    """One cross-lingual question's candidates: ``ACROSS_COLUMNS`` rows, gold labels."""

    set: str
    id: str
    x: np.ndarray
    y: np.ndarray


def across_asked(paths: Sequence[Path]) -> list[Asked]:
    """The recorded plain questions whose evidence the answerer takes as across."""
    out = []
    for a in recorded(paths):
        if a.set in TEST_SETS + UNRUN_SETS:
            raise SystemExit(f"{a.set} is held out")
        if chosen(a.request.question, a.request.units, a.request.hits)[2]:
            out.append(a)
    return out


def group_of(a: Asked, embedder: Embedder, scorer: Scorer) -> Group | None:
    """``a``'s candidates as the answerer reads them, or None when none holds the gold."""
    q = a.request.question
    _, found, _ = chosen(q, a.request.units, a.request.hits)
    y = np.array([contains_any(c.text, a.item.gold) for c in found], dtype=float)
    if a.item.refuse or not y.any():
        return None
    rows = candidate_rows(q.text, found, embedder)
    scores = scorer.sentence_scores(rows, embedded=True)
    entries = rank_rows(q, found, embedder)
    ranks = scorer.rank_scores(rows, scores, entries, embedded=True)
    x = np.hstack([rows, scores[:, None], entries, ranks[:, None], across_features(q, found)])
    return Group(a.set, a.item.id, x, y)


def groups(asked: Sequence[Asked], embedder: Embedder, cache: Path | None) -> list[Group]:
    """Every group of ``asked``, read from ``cache`` when it is there (else kept there)."""
    if cache is not None and cache.is_file():
        kept: list[Group] = pickle.loads(cache.read_bytes())
        return kept
    scorer = shipped_scorer()
    made = [g for a in asked if (g := group_of(a, embedder, scorer)) is not None]
    if cache is not None:
        cache.write_bytes(pickle.dumps(made))
    return made


def fitted(
    chosen_groups: Sequence[Group], pull: float = PULL, dropped: tuple[str, ...] = ()
) -> dict:
    """The across head's JSON spec: linear weights over the standardised columns (the
    rank score left as it is; ``dropped`` columns left out) maximising the gold rows'
    softmax share, pulled towards the rank score alone."""
    keep = [k for k, c in enumerate(ACROSS_COLUMNS) if c not in dropped]
    names = tuple(ACROSS_COLUMNS[k] for k in keep)
    rank = names.index("rank_score")
    x = np.vstack([g.x[:, keep] for g in chosen_groups])
    y = np.concatenate([g.y for g in chosen_groups])
    group = np.concatenate([np.full(len(g.y), k) for k, g in enumerate(chosen_groups)])
    mean, scale = standardiser(x)
    mean[rank], scale[rank] = 0.0, 1.0
    z, starts = (x - mean) / scale, starts_of(group)
    start = np.zeros(len(names))
    start[rank] = 1.0

    def grad_fn(params: list[np.ndarray]) -> tuple[float, list[np.ndarray]]:
        w = params[0]
        loss, ds = listwise_grad(z @ w, y, starts, group)
        return loss + pull * float(((w - start) ** 2).sum()), [z.T @ ds + 2 * pull * (w - start)]

    (w,), _ = adam([start.copy()], grad_fn, STEPS)
    return spec(names, mean, scale, [w[:, None], np.zeros(1)])


def with_head(head: dict | None) -> Scorer:
    """The shipped scorer with ``head`` as its embedded across head (None: none)."""
    if head is None:
        return replace(shipped_scorer(), across={})
    return replace(shipped_scorer(), across={"embedded": network(head, ACROSS_COLUMNS)})


def _first_hits(chosen_groups: Sequence[Group], head: dict | None) -> int:
    """Groups whose best-scored candidate holds the gold (the rank head's order: None)."""
    score = network(head, ACROSS_COLUMNS) if head else (lambda x: x[:, RANK])
    return sum(int(g.y[int(np.argmax(score(g.x)))] > 0) for g in chosen_groups)


def cross(paths: Sequence[Path], cache: Path | None, pull: float, every: bool) -> None:
    """Leave one set out: the best sentence in its groups and its cross-lingual
    questions' answers (of those taken as across; ``every``: all its plain questions',
    per kind), the rank head against the across head fitted on the other sets, without
    the lexicon's columns and with them."""
    embedder = embedder_for(False)
    everything = recorded(paths) if every else []
    asked = across_asked(paths)
    found = groups(asked, embedder, cache)
    print(f"{len(asked)} questions taken as across, {len(found)} groups", flush=True)
    done: dict[str, list[Outcome]] = {name: [] for name in SYSTEMS}
    rows = []
    for name in sorted({a.set for a in asked}, key=set_order):
        others = [g for g in found if g.set != name]
        heads = [None, fitted(others, pull, LEXICON_COLUMNS), fitted(others, pull)]
        held = [g for g in found if g.set == name]
        mine = [a for a in (everything or asked) if a.set == name]
        row = [name, len(held), *(_first_hits(held, h) for h in heads)]
        for system, head in zip(SYSTEMS, heads, strict=True):
            outcomes = answered(mine, learned_draft(with_head(head), embedder))
            done[system] += outcomes
            row.append(sum(o.hit for o in outcomes if kind_of(o.item) == "cross-lingual"))
        row.append(sum(kind_of(a.item) == "cross-lingual" for a in mine))
        rows.append(row)
        print(row, flush=True)
    print(markdown_table(CROSS_HEADER, "lrrrrrrrr", _with_totals(rows)))
    kinds_table(done)


def set_order(name: str) -> int:
    """``unseen`` first, then ``unseen2`` … by number."""
    return int(name.removeprefix("unseen") or 1)


def _with_totals(rows: list[list]) -> list[tuple[str, ...]]:
    """The rows, then their sums: the sets no head was fitted on before (``UNFITTED_SETS``),
    the others, all."""

    def total(label: str, chosen: list[list]) -> list:
        return [label, *(sum(r[k] for r in chosen) for k in range(1, len(CROSS_HEADER)))]

    judged = [r for r in rows if r[0] in UNFITTED_SETS]
    earlier = [r for r in rows if r[0] not in UNFITTED_SETS]
    sums = [total("earlier sets", earlier), total("in no fit before", judged), total("all", rows)]
    return [tuple(map(str, r)) for r in [*rows, *sums]]


def fit(paths: Sequence[Path], cache: Path | None, pull: float, out: Path) -> None:
    """The head fitted on every set but ``UNFITTED_SETS`` (kept out of every fit: what a
    change is judged on), written as ``out``'s embedded across head."""
    made = groups(across_asked(paths), embedder_for(False), cache)
    found = [g for g in made if g.set not in UNFITTED_SETS]
    head = fitted(found, pull)
    w = np.asarray(head["layers"][0]["w"])[:, 0]
    print(dict(zip(ACROSS_COLUMNS, np.round(w, 3), strict=True)))
    store_heads(out, "embedded", across=head)
    print(f"{len(found)} groups -> {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("verb", choices=("cross", "fit"))
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--pull", type=float, default=PULL)
    parser.add_argument("--cache", type=Path, help="the groups kept here (made if missing)")
    parser.add_argument("--every", action="store_true", help="cross: answer every question")
    args = parser.parse_args()
    if args.verb == "cross":
        cross(args.recordings, args.cache, args.pull, args.every)
    else:
        fit(args.recordings, args.cache, args.pull, args.out)


if __name__ == "__main__":
    main()
