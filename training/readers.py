"""The sentence head fitted on readers' own questions (issue 32): the never-seen sets'
recorded evidence (``benchmarks/unseen_replay.py record``) turned into training groups,
measured by leaving one set out.

The shipped head was fitted on public QA sets (CMRC, DRCD, SciFact, HotpotQA): questions
written by annotators looking at one paragraph. Readers ask otherwise (terse, why/how,
follow-ups, manuals and code), and on their questions the head picks the sentence holding
the answer about half the time while the evidence it reads holds it nine times in ten.
Each recorded plain question becomes a group: the candidates the learned answerer scores
(``passage_choice`` then ``sentence_rows``: what it sees at run time), labelled by whether
a sentence holds a gold phrase. The rank head is a linear model of the features
(``features.COLUMNS``) added to ``BESIDE`` times the sentence head's score, fitted by the
same listwise softmax as ``train.py``; a 16-unit network overfitted (held-out sets 189
answers of 512 against the linear model's 254). ``cross`` fits on every set but one and
answers that set's questions with the real answerer (``learned_answer``), beside the
sentence head alone and the rules, so each figure is measured on documents the fit never
saw. ``fit`` writes the head fitted on every set as ``weights.json``'s ``rank`` (the
sentence and answerable heads and the thresholds kept: the refusal is unchanged).

    PYTHONPATH=src:benchmarks python training/readers.py cross /work/data/learn/unseen*.pkl
    PYTHONPATH=src:benchmarks python training/readers.py fit /work/data/learn/unseen*.pkl
"""

from __future__ import annotations

import argparse
import json
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from reader_layers import add_folds_argument, out_of_sample
from train import OUT, STEPS, adam, listwise_grad, spec, standardiser, starts_of, store_heads, top1

from _table import markdown_table
from askalong.answer.base import Draft, DraftRequest
from askalong.answer.extractive.answerer import ExtractiveAnswerer
from askalong.answer.extractive.learned import chosen, learned_answer
from askalong.answer.extractive.sentence_cache import CachedEmbedder
from askalong.answer.extractive.sentence_rows import candidate_rows, rank_rows
from askalong.answer.scorer.model import (
    RANK_COLUMNS,
    Scorer,
    network,
    scorer_from,
    shipped_scorer,
    variant,
)
from askalong.context.units import ContextUnit
from askalong.providers.base import Embedder
from askalong.question.reading import QuestionReading, read_question
from askalong.types import Hit
from unseen_replay import MARKS, Outcome, Replayed, _answerer, figures, kind_of
from unseen_set import Item, contains_any, load_items, questions_of

# The sentence head's weight beside the readers' linear model. Alone (0) the readers' model
# ranks best across sets (right sentence first 0.52 of the held-out sets' groups, the
# sentence head 0.45) but gives up plain lexical matches the unit tests pin (the sentence
# stating a default's value, a loss named in other words); 0.4 keeps them (0.2 and 0.6
# each lose one) and ranks 0.50.
BESIDE = 0.4
SCORE = RANK_COLUMNS.index("sentence_score")
READER = RANK_COLUMNS.index("reader_cosine")
NO_COLUMNS = np.zeros(0, dtype=int)
# What ties a sentence to the question directly: e5's cosine and the question's coverage
# (and their gaps to the best). Fitted on readers' groups alone, the head weighed them
# against a sentence (readers paraphrase; the sentence repeating the question is often a
# heading) and lost public QA, where the annotator wrote the question from the answer
# sentence (XQuAD en right sentence first 0.70 -> 0.47). ``--floor`` keeps them >= 0.
DIRECT_MATCH = ("cosine", "cosine_gap", "coverage", "coverage_gap")


@dataclass
class Asked:
    """One recorded plain question of a set."""

    set: str
    item: Item
    request: DraftRequest


@dataclass
class Groups:
    """Every covered question's candidate rows (``RANK_COLUMNS``: the features and the
    shipped sentence head's score), labels and group numbers, with its set."""

    x: np.ndarray
    y: np.ndarray
    group: np.ndarray
    sets: np.ndarray  # per group


def recorded(paths: Sequence[Path]) -> list[Asked]:
    """The plain questions (intent ``ask``) of the recordings, covered and uncovered."""
    out = []
    for path in paths:
        data = pickle.loads(path.read_bytes())
        items = {i.id: i for i in load_items(questions_of(data["set"]))}
        for key, request in data["requests"].items():
            if request.intent == "ask":
                out.append(Asked(data["set"], items[key], request))
    return out


def groups_of(asked: Sequence[Asked], embedder: Embedder | None) -> Groups:
    """The covered questions whose candidates hold a gold phrase, as training groups."""
    found = (
        (
            a.set,
            group_of(a.request.question, a.request.units, a.request.hits, a.item.gold, embedder),
        )
        for a in asked
        if not a.item.refuse
    )
    return _stacked([(name, group) for name, group in found if group is not None])


def public_groups(per_set: int, embedder: Embedder | None) -> Groups:
    """The public DEV questions (CMRC, DRCD, HotpotQA dev buckets, as ``scorer.py`` asks
    them: over their paragraph and a neighbour) as groups of the sets ``public <name>``.
    Wikipedia-style paragraphs the readers' sets lack, where the readers' head weighs e5's
    cosine and the question's coverage against a sentence; 200 a set did not pull those
    weights back (``benchmarks/results/xquad-regression-2026-12-07.md``)."""
    from extractive import units_of
    from scorer import DEV_SETS, dev_cases, hotpot_cases

    cases = {f"public {n}": dev_cases(n, files, per_set) for n, files in DEV_SETS.values()}
    cases["public hotpot"] = hotpot_cases(per_set)
    found = (
        (name, group_of(read_question(c.question), units_of(c.context, "retrieved"), (), c.golds,
                        embedder))
        for name, some in cases.items()
        for c in some
    )  # fmt: skip
    return _stacked([(name, group) for name, group in found if group is not None])


def group_of(
    question: QuestionReading,
    units: Sequence[ContextUnit],
    hits: Sequence[Hit],
    gold: Sequence[str],
    embedder: Embedder | None,
) -> tuple[np.ndarray, np.ndarray] | None:
    """One question's candidate rows (``RANK_COLUMNS``) and labels (the sentence holds a
    gold phrase), or None: no candidate holds one, or the question is across languages
    (every sentence, no lexical cap: those groups pulled the head off the plain matches
    the unit tests pin, a default's value, 注入東海)."""
    _, found, across = chosen(question, units, hits)
    labels = np.array([contains_any(c.text, gold) for c in found], dtype=float)
    if across or not labels.any():
        return None
    rows = candidate_rows(question.text, found, embedder)
    scores = shipped_scorer().sentence_scores(rows, embedded=embedder is not None)
    return np.hstack([rows, scores[:, None], rank_rows(question, found, embedder)]), labels


def _stacked(groups: Sequence[tuple[str, tuple[np.ndarray, np.ndarray]]]) -> Groups:
    numbers = [np.full(len(y), k) for k, (_, (_, y)) in enumerate(groups)]
    return Groups(
        np.vstack([x for _, (x, _) in groups]),
        np.concatenate([y for _, (_, y) in groups]),
        np.concatenate(numbers),
        np.array([name for name, _ in groups]),
    )


def concatenated(a: Groups, b: Groups) -> Groups:
    """``a``'s groups, then ``b``'s (renumbered after ``a``'s)."""
    return Groups(
        np.vstack([a.x, b.x]),
        np.concatenate([a.y, b.y]),
        np.concatenate([a.group, b.group + len(a.sets)]),
        np.concatenate([a.sets, b.sets]),
    )


def without(g: Groups, columns: Sequence[str]) -> Groups:
    """``g`` with ``columns`` (of ``RANK_COLUMNS``) zero, so a head fitted on it weighs them 0
    (the direct-match columns the readers' head weighed against a sentence: e5's ``cosine``
    and ``cosine_gap``, ``coverage`` and ``coverage_gap``)."""
    x = g.x.copy()
    x[:, [RANK_COLUMNS.index(c) for c in columns]] = 0.0
    return replace(g, x=x)


def fitted(g: Groups, keep: np.ndarray, beside: float, floor: Sequence[str] = ()) -> dict:
    """The rank head's JSON spec fitted on the groups where ``keep`` (per group): a linear
    model of the features added to ``beside`` times the sentence head's score; the
    ``floor`` columns may only count for a sentence (weights >= 0)."""
    rows = keep[g.group]
    x = np.delete(g.x[rows], SCORE, axis=1)
    mean, scale = standardiser(x)
    base = beside * g.x[rows][:, SCORE]
    features = [c for c in RANK_COLUMNS if c != "sentence_score"]
    floored = np.array([features.index(c) for c in floor], dtype=int)
    weights = fit_beside((x - mean) / scale, base, g.y[rows], _dense(g.group[rows]), floored)
    layer = [np.insert(weights, SCORE, beside)[:, None], np.zeros(1)]
    return spec(RANK_COLUMNS, np.insert(mean, SCORE, 0.0), np.insert(scale, SCORE, 1.0), layer)


def fit_beside(
    x: np.ndarray,
    base: np.ndarray,
    y: np.ndarray,
    group: np.ndarray,
    floored: np.ndarray = NO_COLUMNS,
) -> np.ndarray:
    """Weights ``w`` maximising the gold rows' softmax share of ``base + x @ w`` per group
    (full-batch Adam from zero, ``train.py``'s steps and rate), ``w[floored] >= 0``."""
    starts = starts_of(group)

    def grad_fn(params: list[np.ndarray]) -> tuple[float, list[np.ndarray]]:
        loss, ds = listwise_grad(base + x @ params[0], y, starts, group)
        return loss, [x.T @ ds]

    def project(params: list[np.ndarray]) -> list[np.ndarray]:
        w = params[0].copy()
        w[floored] = np.maximum(w[floored], 0.0)
        return [w]

    params, _ = adam([np.zeros(x.shape[1])], grad_fn, STEPS, project=project)
    return params[0]


def _dense(group: np.ndarray) -> np.ndarray:
    """Group numbers renumbered 0.. in order (``fit_sentence`` wants them contiguous)."""
    return np.unique(group, return_inverse=True)[1]


def with_head(head: dict, kind: str = "embedded") -> Scorer:
    """The shipped scorer with ``head`` as the rank head of variant ``kind``."""
    shipped = shipped_scorer()
    rank, trees = {**shipped.rank, kind: network(head, RANK_COLUMNS)}, dict(shipped.rank_trees)
    trees.pop(kind, None)  # a linear head reads no trees
    return replace(shipped, rank=rank, rank_trees=trees)


def answered(asked: Sequence[Asked], draft: Callable[[DraftRequest], Draft]) -> list[Outcome]:
    """Each question answered by ``draft``: refused, and a gold phrase in the direct answer."""
    out = []
    for a in asked:
        d = draft(a.request)
        refused = d.status == "not_covered"
        text = MARKS.sub("", d.answer)
        hit = not a.item.refuse and not refused and contains_any(text, a.item.gold)
        out.append(Outcome(a.item, refused, hit, text))
    return out


def learned_draft(scorer: Scorer, embedder: Embedder | None) -> Callable[[DraftRequest], Draft]:
    def draft(request: DraftRequest) -> Draft:
        result = learned_answer(
            request.question,
            request.units,
            embedder=embedder,
            scorer=scorer,
            hits=request.hits,
        )
        return Draft(result.status, result.answer, result.quotes, result.explanation)

    return draft


@dataclass(frozen=True)
class HeadFit:
    """How a rank head is fitted: the sentence head's weight beside it, the public DEV
    questions a set added, the columns weighed 0 and those kept >= 0."""

    beside: float = BESIDE
    public: int = 0
    drop: Sequence[str] = ()
    floor: Sequence[str] = ()


def collected(
    paths: Sequence[Path], embedder: Embedder | None, public: int, cache: Path | None
) -> Groups:
    """The recordings' groups, then ``public`` questions of each public DEV set; with
    ``cache`` (a folder) each recording's and the public groups are kept there (minutes of
    embedding each) and read back on the next run."""
    parts = [_cached(cache, p.stem, lambda p=p: groups_of(recorded([p]), embedder)) for p in paths]
    if public:
        parts.append(public_part(embedder, public, cache))
    g = parts[0]
    for part in parts[1:]:
        g = concatenated(g, part)
    return g


def public_part(embedder: Embedder | None, public: int, cache: Path | None) -> Groups:
    """``public`` questions of each public DEV set as groups (kept in ``cache``)."""
    return _cached(cache, f"public-{public}", lambda: public_groups(public, embedder))


def _cached(folder: Path | None, name: str, make: Callable[[], Groups]) -> Groups:
    if folder is None:
        return make()
    path = folder / f"{name}.groups.npz"
    if path.is_file():
        with np.load(path) as kept:
            return Groups(**{k: kept[k] for k in kept.files})
    folder.mkdir(parents=True, exist_ok=True)
    g = make()
    np.savez(path, **vars(g))
    return g


def cross(
    paths: Sequence[Path],
    how: HeadFit,
    lexical: bool = False,
    cache: Path | None = None,
    answer: bool = True,
    reader: tuple[Path, list[Path]] | None = None,
) -> None:
    """Leave one set out: fit on the others (and ``how.public`` questions of each public
    DEV set), rank its groups and (``answer``) answer it; beside the sentence head and
    rules. Prints answer hit and refusals per held-out set and per kind of question.
    ``reader`` (states, folds): the reader cosine column made out of sample, as ``fit``."""
    embedder = embedder_for(lexical)
    head_variant = variant(embedded=not lexical)
    asked = recorded(paths)
    g = head_groups(paths, embedder, how, cache, reader)
    print(f"{len(g.sets)} groups, {len(g.y)} candidates", flush=True)
    sentence_head = replace(shipped_scorer(), rank={})  # the choice before the rank head
    rules = _answerer("rules") if embedder else ExtractiveAnswerer(None, scorer="rules").draft
    systems = {"rules": rules, "sentence head": learned_draft(sentence_head, embedder)}
    done: dict[str, list[Outcome]] = {}
    for name in sorted(set(g.sets)):
        head = fitted(g, g.sets != name, how.beside, how.floor)
        rows = (g.sets == name)[g.group]
        groups = _dense(g.group[rows])
        acc = top1(network(head, RANK_COLUMNS)(g.x[rows]), g.y[rows], groups).mean()
        was = top1(g.x[rows][:, SCORE], g.y[rows], groups).mean()
        print(f"{name}: top-1 in its groups {acc:.3f} (shipped head {was:.3f})", flush=True)
        if not answer:
            continue
        mine = [a for a in asked if a.set == name]
        runs = {**systems, "readers": learned_draft(with_head(head, head_variant), embedder)}
        for system, draft in runs.items():
            done.setdefault(system, []).extend(answered(mine, draft))
    if done:
        _table(done)


def compare(paths: Sequence[Path], weights: Sequence[Path]) -> None:
    """Every recorded plain question answered with each weights file's heads (the bundled
    embedder), one column a file: a refitted head against the shipped one on DEV."""
    embedder = embedder_for(False)
    asked = recorded(paths)
    done = {
        str(w): answered(
            asked, learned_draft(scorer_from(json.loads(w.read_text("utf-8"))), embedder)
        )
        for w in weights
    }
    _table(done)


def _table(done: dict[str, list[Outcome]]) -> None:
    """Answer hit (and refusals) per kind of question, one column a system."""
    kinds = [kind_of(o.item) for o in next(iter(done.values()))]
    rows = []
    for label in [*sorted(set(kinds)), "all"]:
        chosen = [j for j, k in enumerate(kinds) if label in (k, "all")]
        cells = [figures([o[j] for j in chosen]) for o in done.values()]
        rows.append((label, *(_cell(c) for c in cells)))
    print(markdown_table(("kind", *done), "l" + "r" * len(done), rows))


def _cell(f: Replayed) -> str:
    return f"{f.hits}/{f.covered} cr {f.covered_refused} ur {f.uncovered_refused}/{f.uncovered}"


def fit(
    paths: Sequence[Path],
    how: HeadFit,
    out: Path,
    lexical: bool = False,
    reader: tuple[Path, list[Path]] | None = None,
    cache: Path | None = None,
) -> None:
    """The head fitted on every set, written as ``out``'s rank head of the variant;
    ``reader`` (states, folds): the reader cosine column made out of sample (the states
    hold the recordings' groups, so the public ones are added after it)."""
    g = head_groups(paths, embedder_for(lexical), how, cache, reader)
    head = fitted(g, np.ones(len(g.sets), dtype=bool), how.beside, how.floor)
    # a linear head replaces the trees too: they would be scored and never read
    store_heads(out, variant(embedded=not lexical), rank=head, rank_trees=None)
    print(f"{len(g.sets)} groups -> {out}")


def head_groups(
    paths: Sequence[Path],
    embedder: Embedder | None,
    how: HeadFit,
    cache: Path | None,
    reader: tuple[Path, list[Path]] | None,
) -> Groups:
    """The groups a rank head is fitted on: the recordings', their reader cosine out of
    sample where ``reader`` (states, folds) is given, then ``how.public`` questions of each
    public DEV set (after the states' groups), ``how.drop`` columns weighed 0."""
    g = collected(paths, embedder, how.public, cache)
    if reader is not None:
        g = with_reader_folds(g, *reader)
    return without(g, how.drop)


def with_reader_folds(g: Groups, states: Path, folds: list[Path]) -> Groups:
    """``g`` with the reader cosine of the groups ``states`` holds (its first groups, the
    same recordings in the same order) taken from the fold models not trained on them
    (``reader_layers.out_of_sample``); later groups keep the shipped encoder's cosine,
    out of sample where the shipped layers never saw their set."""
    column, labels = out_of_sample(states, folds)
    if not np.array_equal(g.y[: len(labels)], labels):
        raise ValueError(f"{states}: its groups are not the first groups of the recordings")
    x = g.x.copy()
    x[: len(column), READER] = column
    return replace(g, x=x)


def embedder_for(lexical: bool) -> Embedder | None:
    """The bundled embedder (cached), or None for the lexical variant."""
    if lexical:
        return None
    from askalong.config import load_settings
    from askalong.providers.local.embedder import default_embedder

    return CachedEmbedder(default_embedder(load_settings()), size=200_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("verb", choices=("cross", "fit", "compare"))
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--beside", type=float, default=BESIDE, help="the sentence head's weight")
    parser.add_argument("--lexical", action="store_true", help="the variant without vectors")
    parser.add_argument("--states", type=Path, help="late_xenc_data.py's cache of the groups")
    add_folds_argument(parser)
    parser.add_argument("--cache", type=Path, help="a folder where the groups are kept")
    parser.add_argument("--public", type=int, default=0, help="public DEV questions a set")
    parser.add_argument("--drop", nargs="*", default=[], help="columns the head weighs 0")
    parser.add_argument("--floor", nargs="*", default=[], help="columns weighed >= 0")
    parser.add_argument("--weights", type=Path, nargs="*", default=[], help="compare: files")
    parser.add_argument("--groups-only", action="store_true", help="cross: rank, not answer")
    args = parser.parse_args()
    how = HeadFit(args.beside, args.public, args.drop, args.floor)
    reader = (args.states, args.reader_folds) if args.reader_folds else None
    if args.verb == "compare":
        compare(args.recordings, args.weights)
    elif args.verb == "cross":
        cross(args.recordings, how, args.lexical, args.cache, not args.groups_only, reader)
    else:
        fit(args.recordings, how, args.out, args.lexical, reader, args.cache)


if __name__ == "__main__":
    main()
