"""The intent heads (issue 32): how Explain, Example and Compare order their candidate
sentences, learned from readers' selections, not weighed by hand.

For an intent the learned answerer ranks the evidence sentences for the selection's key
terms with the plain questions' rank head (``intent_learned``). What that head cannot see
is where a sentence stands relative to the selection: an example is often the code block
after it, a definition or a contrast is written near what it explains. Each intent's head
is a linear model of the rank head's score and the candidate's ``PLACE`` row
(``selection_places``), fitted by a listwise softmax on the DEV recordings' intent items
(``benchmarks/unseen_replay.py record``; a group is an item whose candidates hold a gold
phrase), pulled towards "the rank head's score alone" (``PULL``) since an intent has about
a hundred groups. ``cross`` leaves each set out in turn and prints the best sentence's
hits with and without the head, per set; ``answer`` answers each set's intents through
the answerer (``intents_replay``'s learned way) with heads fitted on the other sets, the
figure a change is kept on; ``fit`` writes ``weights.json``'s ``intent`` heads (the other
heads kept). ``--cache`` keeps the groups between runs (minutes of embedding);
``--without`` holds columns at 0, to measure what each one brings.

    PYTHONPATH=src:benchmarks:training python training/intent_head.py cross \
        /work/data/rec/unseen*.pkl --reader-folds /work/data/s49/bi-a-l4.npz \
        /work/data/s49/bi-b-l4.npz --cache /tmp/intent-groups.pkl
    PYTHONPATH=src:benchmarks:training python training/intent_head.py answer \
        /work/data/rec/unseen*.pkl --cache /tmp/intent-groups.pkl
    PYTHONPATH=src:benchmarks:training python training/intent_head.py fit \
        /work/data/rec/unseen*.pkl --cache /tmp/intent-groups.pkl
"""

from __future__ import annotations

import argparse
import pickle
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from reader_layers import FoldEmbedders, add_folds_argument
from readers import embedder_for
from rich.progress import track
from train import OUT, STEPS, adam, spec, store_heads

from _table import markdown_table
from askalong.answer.extractive.intent_learned import intent_candidates
from askalong.answer.extractive.intents import unit_material
from askalong.answer.extractive.selection_places import place_rows
from askalong.answer.scorer.features import INTENT_COLUMNS
from askalong.answer.scorer.model import Scorer, network, shipped_scorer
from intents_replay import Judged, replayed, table, ways
from unseen_set import TEST_SETS, UNRUN_SETS, contains_any, load_items, questions_of

INTENTS = ("explain", "example", "compare")
PULL = 0.05  # the L2 pull of the weights towards the rank score alone


@dataclass(frozen=True)
class Group:
    """One intent item's candidates: ``INTENT_COLUMNS`` rows and gold labels."""

    set: str
    intent: str
    x: np.ndarray
    y: np.ndarray


def groups(paths: Sequence[Path], folds: Sequence[Path] = ()) -> list[Group]:
    """The recorded intent items whose candidates hold a gold phrase, as groups (each
    set's reader encoder a fold model not trained on it, where ``folds`` are given)."""
    embedders, scorer = FoldEmbedders(embedder_for(False), folds), shipped_scorer()
    out = []
    for path in paths:
        data = pickle.loads(path.read_bytes())
        if data["set"] in TEST_SETS + UNRUN_SETS:
            raise SystemExit(f"{data['set']} is held out")
        items = {i.id: i for i in load_items(questions_of(data["set"]))}
        embedder = embedders.of(data["set"])
        for key, r in track(data["requests"].items(), description=data["set"]):
            if r.intent not in INTENTS:
                continue
            found = unit_material(r.intent, r.question.text, r.units)
            if found is None:
                continue
            selection = found[0]
            scored = intent_candidates(
                r.intent, r.question.text, selection, r.units, embedder, scorer, placed=False
            )
            if scored is None:
                continue
            candidates, ranks, terms = scored
            y = np.array([contains_any(c.text, items[key].gold) for c in candidates], float)
            if y.any():
                x = np.hstack([ranks[:, None], place_rows(candidates, selection, r.units, terms)])
                out.append(Group(data["set"], r.intent, x, y))
    return out


def _rank_alone() -> np.ndarray:
    """The weights that order by the rank head's score alone (``INTENT_COLUMNS``' first)."""
    weights = np.zeros(len(INTENT_COLUMNS))
    weights[0] = 1.0
    return weights


def fitted(chosen: Sequence[Group]) -> np.ndarray:
    """Linear weights over ``INTENT_COLUMNS`` maximising the gold rows' softmax share."""
    start = _rank_alone()

    def grad_fn(params: list[np.ndarray]) -> tuple[float, list[np.ndarray]]:
        w = params[0]
        loss, grad = PULL * float(((w - start) ** 2).sum()), 2 * PULL * (w - start)
        for g in chosen:
            s = g.x @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            loss -= float(np.log((p * g.y).sum() + 1e-9)) / len(chosen)
            q = p * g.y / max((p * g.y).sum(), 1e-9)  # the gold rows' share, renormalised
            grad += g.x.T @ (p - q) / len(chosen)
        return loss, [grad]

    (w,), _ = adam([start.copy()], grad_fn, STEPS)
    return w


def _first_hits(chosen: Sequence[Group], w: np.ndarray) -> int:
    return sum(int(g.y[int(np.argmax(g.x @ w))] > 0) for g in chosen)


def without(found: Sequence[Group], columns: Sequence[str]) -> list[Group]:
    """``found`` with ``columns`` zeroed: a head fitted on them never reads them."""
    keep = np.array([c not in columns for c in INTENT_COLUMNS], float)
    return [Group(g.set, g.intent, g.x * keep, g.y) for g in found]


def cross(found: Sequence[Group]) -> None:
    """Leave one set out per intent: the best sentence holding a gold phrase, with the rank
    head alone and with the intent's head fitted on the other sets, per set and in all."""
    alone = _rank_alone()
    table = []
    for intent in INTENTS:
        mine = [g for g in found if g.intent == intent]
        base = headed = 0
        for name in sorted({g.set for g in mine}, key=_set_order):
            held = [g for g in mine if g.set == name]
            w = fitted([g for g in mine if g.set != name])
            one, two = _first_hits(held, alone), _first_hits(held, w)
            table.append((f"{name} {intent}", str(len(held)), str(one), str(two)))
            base, headed = base + one, headed + two
        table.append((intent, str(len(mine)), str(base), str(headed)))
    print(markdown_table(("set / intent", "groups", "rank head", "intent head"), "lrrr", table))


def _set_order(name: str) -> int:
    return int(name.removeprefix("unseen") or 1)


def held_out_heads(found: Sequence[Group], name: str) -> Scorer:
    """The shipped scorer with intent heads fitted on every set but ``name``."""
    heads = {
        i: network(
            _head_spec(fitted([g for g in found if g.intent == i and g.set != name])),
            INTENT_COLUMNS,
        )
        for i in INTENTS
    }
    return replace(shipped_scorer(), intent={"embedded": heads})


def _head_spec(w: np.ndarray) -> dict:  # type: ignore[type-arg]
    zero, one = np.zeros(len(INTENT_COLUMNS)), np.ones(len(INTENT_COLUMNS))
    return spec(INTENT_COLUMNS, zero, one, [w[:, None], np.zeros(1)])  # type: ignore[no-any-return]


def answer(found: Sequence[Group], paths: Sequence[Path]) -> None:
    """Each recording's intents answered (``intents_replay``'s learned way) with heads
    fitted on the other sets: hit (echo) per set and intent."""
    results: dict[str, list[Judged]] = {"held out": []}
    for path in paths:
        name = pickle.loads(path.read_bytes())["set"]
        way = ways(held_out_heads(found, name))["learned"]
        results["held out"] += replayed([path], {"held out": way})["held out"]
    print(table(results))


def fit(found: Sequence[Group], out: Path) -> None:
    """Each intent's head fitted on every set, written as ``out``'s embedded intent heads."""
    heads = {}
    for intent in INTENTS:
        w = fitted([g for g in found if g.intent == intent])
        heads[intent] = _head_spec(w)
        print(intent, dict(zip(INTENT_COLUMNS, np.round(w, 3), strict=True)))
    store_heads(out, "embedded", intent=heads)


def cached_groups(paths: Sequence[Path], folds: Sequence[Path], cache: Path | None) -> list[Group]:
    """``groups``, read from ``cache`` when it exists, else made and kept there."""
    if cache is not None and cache.exists():
        return pickle.loads(cache.read_bytes())  # type: ignore[no-any-return]
    found = groups(paths, folds)
    if cache is not None:
        cache.write_bytes(pickle.dumps(found))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("verb", choices=("cross", "answer", "fit"))
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--cache", type=Path, help="the groups, kept between runs")
    parser.add_argument("--without", nargs="*", default=[], choices=INTENT_COLUMNS)
    add_folds_argument(parser)
    args = parser.parse_args()
    found = without(cached_groups(args.recordings, args.reader_folds, args.cache), args.without)
    if args.verb == "cross":
        cross(found)
    elif args.verb == "answer":
        answer(found, args.recordings)
    else:
        fit(found, args.out)


if __name__ == "__main__":
    main()
