"""Refusals on the never-seen DEV sets, replayed from recorded evidence (issue 32): what
each offline answerer refuses, per kind of question, before and after a change to the
decision, and what the coverage model (``training/coverage_model.py``, an experiment)
refuses alone.

``unseen_replay.py record`` keeps, for every item of a set, the request its answerer was
handed. Three verbs read those recordings (one per set):

- ``outcomes``: every recorded item (plain questions and intents) answered again by both
  offline answerers (``rules``, ``learned``) of the sources on ``PYTHONPATH``, with the
  bundled embedder; per item its group, whether it was refused and whether the direct
  answer holds a gold phrase, written as JSON. Run it once with the previous sources
  (``git archive <commit> src``) and once with these: the same recordings, the same run.
- ``compare BEFORE.json AFTER.json``: per group (prose en, zh-Hans, zh-Hant, code,
  cross-lingual, follow-ups, intents): covered refused, answer hit and uncovered refused,
  for each answerer before and after.
- ``sweep``: the coverage model alone over each answerer's evidence, per language and
  threshold (same-language plain questions, code left out).

    PYTHONPATH=src:benchmarks python benchmarks/refusals.py outcomes /tmp/unseen*.pkl \
        --out /tmp/after.json
    PYTHONPATH=benchmarks python benchmarks/refusals.py compare /tmp/before.json /tmp/after.json
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from unseen_replay import MARKS
from unseen_set import Item, contains_any, load_items, questions_of

TRAINING = Path(__file__).resolve().parents[1] / "training"

SCORERS = ("rules", "learned")
GROUPS = (
    "prose en", "zh-Hans", "zh-Hant", "code", "cross-lingual", "follow-ups",
    "intents (explain, example, compare)",
)  # fmt: skip
THRESHOLDS = (0.02, 0.03, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5)


def group_of(item: Item) -> str:
    """The kind of question and document an item stands for in the tables."""
    from askalong.question.traditional import plain

    if item.intent != "ask":
        return GROUPS[6]
    if item.kind == "follow_up":
        return "follow-ups"
    if item.kind == "cross_lingual":
        return "cross-lingual"
    if item.doc_kind.startswith("code") or item.kind == "code":
        return "code"
    if item.lang == "zh":  # Traditional: a character the plain reading changes
        return "zh-Hant" if plain(item.question) != item.question else "zh-Hans"
    return "prose en"


def recorded(paths: Sequence[Path]) -> Iterator[tuple[str, Item, Any]]:
    """(set, item, request) of every recorded item of every recording."""
    for path in paths:
        data = pickle.loads(path.read_bytes())
        for item in load_items(questions_of(data["set"])):
            request = data["requests"].get(item.id)
            if request is not None:
                yield data["set"], item, request


def outcomes(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """Per recorded item: its group, and each answerer's refusal and answer hit."""
    from askalong.answer.extractive.answerer import ExtractiveAnswerer

    embedder = bundled_embedder()
    answerers = {name: ExtractiveAnswerer(embedder, scorer=name) for name in SCORERS}  # type: ignore[arg-type]
    out = []
    for set_name, item, request in recorded(paths):
        row: dict[str, Any] = {"set": set_name, "id": item.id, "group": group_of(item)}
        row["covered"] = not item.refuse
        for name, answerer in answerers.items():
            draft = answerer.draft(request)
            row[f"{name}_refused"] = draft.status == "not_covered"
            row[f"{name}_hit"] = draft.status != "not_covered" and bool(
                item.gold and contains_any(MARKS.sub("", draft.answer), item.gold)
            )
        out.append(row)
    return out


def compare(before: Sequence[dict], after: Sequence[dict]) -> str:
    """Covered refused, answer hit and uncovered refused per group, before -> after."""
    assert [r["id"] for r in before] == [r["id"] for r in after], "not the same recordings"
    head = ["group", "covered", "uncovered"]
    for name in SCORERS:
        head += [f"{name}: covered refused", f"{name}: answer hit", f"{name}: uncovered refused"]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for group in (*GROUPS, None):
        rows = [(b, a) for b, a in zip(before, after, strict=True) if group in (None, b["group"])]
        lines.append(_row(group or "**all**", rows))
    return "\n".join(lines)


def _row(name: str, rows: Sequence[tuple[dict, dict]]) -> str:
    covered = [r for r in rows if r[0]["covered"]]
    uncovered = [r for r in rows if not r[0]["covered"]]
    cells = [name, str(len(covered)), str(len(uncovered))]
    for scorer in SCORERS:
        cells.append(_change(covered, f"{scorer}_refused"))
        cells.append(_change(covered, f"{scorer}_hit"))
        cells.append(_change(uncovered, f"{scorer}_refused"))
    return "| " + " | ".join(cells) + " |"


def _change(rows: Sequence[tuple[dict, dict]], field: str) -> str:
    """``before → after`` counts of ``field`` over ``rows`` ("—" with none)."""
    if not rows:
        return "—"
    old, new = (sum(r[k][field] for r in rows) for k in (0, 1))
    return f"{old} → **{new}**" if new != old else f"{old} → {new}"


def sweep(paths: Sequence[Path]) -> str:
    """Uncovered · covered refused by the coverage model alone, per language and threshold,
    over each answerer's evidence (the rules': every candidate; the learned one's: its
    chosen passages); cross-lingual questions and code left out, as the decision does."""
    probabilities: dict[str, list[tuple[bool, float, float]]] = {"en": [], "zh": []}
    embedder = bundled_embedder()
    for _, item, request in recorded(paths):
        found = _model_probabilities(item, request, embedder)
        if found is not None:
            probabilities[found[0]].append((not item.refuse, found[1], found[2]))
    parts = []
    for language, found in probabilities.items():
        covered = sum(c for c, *_ in found)
        head = f"{language}: {len(found) - covered} uncovered, {covered} covered"
        lines = [
            head,
            "",
            "| threshold | rules' evidence | learned's evidence |",
            "|---:|---:|---:|",
        ]
        for t in THRESHOLDS:
            cells = [_refused(found, lambda f, k=k, t=t: f[k] < t) for k in (1, 2)]
            lines.append(f"| {t:.2f} | " + " | ".join(cells) + " |")
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def _refused(found: Sequence[tuple], refused: Callable[[tuple], bool]) -> str:
    uncovered = [f for f in found if not f[0]]
    covered = [f for f in found if f[0]]
    return (
        f"{sum(map(refused, uncovered))}/{len(uncovered)} · "
        f"{sum(map(refused, covered))}/{len(covered)}"
    )


def _model_probabilities(
    item: Item, request: Any, embedder: Any
) -> tuple[str, float, float] | None:
    """(language, probability over every candidate, over the learned answerer's chosen
    passages) of a same-language plain question not about code; else None."""
    sys.path.insert(0, str(TRAINING))
    from coverage_model import model_coverage

    from askalong.answer.extractive.candidates import candidates, cross_lingual
    from askalong.answer.extractive.passage_choice import choose_passages

    question = request.question
    if request.intent != "ask" or group_of(item) in ("code", "cross-lingual"):
        return None
    every = [c for c in candidates(request.units) if c.text.strip()]
    if cross_lingual(question.language, every):
        return None
    chosen = choose_passages(question.text, question.language, request.units, request.hits)
    mine = [c for c in candidates(chosen.units) if c.text.strip()]
    language = "zh" if question.pairs else "en"
    every_p = model_coverage(question, every, embedder).probability
    return language, every_p, model_coverage(question, mine, embedder).probability


def bundled_embedder() -> Any:
    """The bundled embedder, its vectors remembered across the items."""
    from askalong.answer.extractive.sentence_cache import CachedEmbedder
    from askalong.config import load_settings
    from askalong.providers.local.embedder import default_embedder

    return CachedEmbedder(default_embedder(load_settings()))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    run = verbs.add_parser("outcomes", help="answer every recorded item again; write JSON")
    run.add_argument("recordings", type=Path, nargs="+", help="unseen_replay.py record's")
    run.add_argument("--out", type=Path, required=True)
    both = verbs.add_parser("compare", help="per group, before -> after")
    both.add_argument("before", type=Path)
    both.add_argument("after", type=Path)
    alone = verbs.add_parser("sweep", help="the coverage model alone, per threshold")
    alone.add_argument("recordings", type=Path, nargs="+")
    args = parser.parse_args()
    if args.verb == "outcomes":
        found = outcomes(args.recordings)
        args.out.write_text(json.dumps(found, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{len(found)} items -> {args.out}")
    elif args.verb == "compare":
        before, after = (
            json.loads(p.read_text(encoding="utf-8")) for p in (args.before, args.after)
        )
        print(compare(before, after))
    else:
        print(sweep(args.recordings))


if __name__ == "__main__":
    main()
