"""A never-seen set's evidence recorded once, then re-answered in seconds: for trying an
answerer change on dev material without asking every item through the product again.

``record`` asks every item of a set as ``unseen.py`` does (its documents added and
embedded in a fresh home, follow-ups in their threads), through an asker whose answerer
keeps each ``DraftRequest`` it is handed (the question read, the context units, the
search's hits, the thread): the last one per item is pickled to ``--out``. ``replay``
answers the recorded plain questions (intent ``ask``; intents and code questions take
other paths) with this checkout's offline answerer (``--scorer``, the bundled embedder) and
prints answer hit (a gold phrase in the direct answer), covered refused and uncovered
refused; ``--answers F`` also writes each question's answer to F (JSON lines: id, kind,
refused, hit, answer), to compare two checkouts item by item. The figures are the
answerer's alone, on the evidence of the recording's commit.
``compare`` replays recordings with both scorers and prints answer hit per kind of
question (``kind_of``) and, with ``--show N``, N covered questions where one hits and the
other does not, with both answers; ``--vectors none`` answers without an embedder, as the
product does with ``ASKALONG_EMBEDDER=none`` (the evidence stays the recording's).

    PYTHONPATH=src python benchmarks/unseen_replay.py record --set unseen3 --out /tmp/u3.pkl
    PYTHONPATH=src python benchmarks/unseen_replay.py replay /tmp/u3.pkl --scorer learned
    PYTHONPATH=src python benchmarks/unseen_replay.py compare /tmp/u*.pkl --show 20
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from _table import markdown_table
from askalong.answer.base import Answerer, Draft, DraftRequest
from askalong.providers.base import Embedder
from askalong.settings import SentenceScorerName
from unseen_set import DEV_SETS, SETS, Item, contains_any, load_items, questions_of

MARKS = re.compile(r"\s*\[\d+\]")  # citation markers, never part of a gold phrase


@dataclass
class Recording(Answerer):
    """``inner``, with every request it is handed kept under the item being asked."""

    inner: Answerer
    requests: dict[str, DraftRequest] = field(default_factory=dict)
    asking: str = ""  # the id of the item being asked

    def __post_init__(self) -> None:
        self.name, self.offline = self.inner.name, self.inner.offline

    def draft(self, request: DraftRequest) -> Draft:
        self.requests[self.asking] = request
        return self.inner.draft(request)


@dataclass(frozen=True)
class Replayed:
    """The figures of one replay."""

    hits: int
    covered: int
    covered_refused: int
    uncovered: int
    uncovered_refused: int

    def __str__(self) -> str:
        return (
            f"answer hit {self.hits}/{self.covered}, covered refused "
            f"{self.covered_refused}/{self.covered}, uncovered refused "
            f"{self.uncovered_refused}/{self.uncovered}"
        )


@dataclass(frozen=True)
class Outcome:
    """One recorded plain question answered again."""

    item: Item
    refused: bool
    hit: bool  # covered, answered, and a gold phrase in the direct answer
    answer: str


def outcomes(
    items: Sequence[Item], requests: dict[str, DraftRequest], draft: Callable[[DraftRequest], Draft]
) -> list[Outcome]:
    """Each recorded plain question (intent ``ask``) answered again by ``draft``."""
    answered = []
    for item in items:
        request = requests.get(item.id)
        if request is None or request.intent != "ask":
            continue
        answer = draft(request)
        refused = answer.status == "not_covered"
        text = MARKS.sub("", answer.answer)
        hit = not item.refuse and not refused and contains_any(text, item.gold)
        answered.append(Outcome(item, refused, hit, text))
    return answered


def replayed(
    items: Sequence[Item], requests: dict[str, DraftRequest], draft: Callable[[DraftRequest], Draft]
) -> Replayed:
    """Each recorded plain question answered again by ``draft``, scored."""
    return figures(outcomes(items, requests, draft))


def figures(done: Sequence[Outcome]) -> Replayed:
    """Answer hit and refusals of some answered questions."""
    covered = [o for o in done if not o.item.refuse]
    uncovered = [o for o in done if o.item.refuse]
    return Replayed(
        sum(o.hit for o in covered),
        len(covered),
        sum(o.refused for o in covered),
        len(uncovered),
        sum(o.refused for o in uncovered),
    )


def kind_of(item: Item) -> str:
    """The kind of question a default is judged per: follow-ups, questions over code,
    across languages, over Simplified or Traditional Chinese documents, else prose."""
    if item.refuse:
        return "uncovered"
    if item.kind == "follow_up":
        return "follow-ups"
    if item.doc_kind.startswith("code"):
        return "code"
    if item.kind == "cross_lingual":
        return "cross-lingual"
    if "zh" in item.doc_kind:
        return "zh-Hant" if item.doc_kind.endswith("zh_tw") else "zh-Hans"
    return "prose"


def record(set_name: str, out: Path) -> None:
    """Every item of ``set_name`` asked; the requests its answerer was handed, pickled."""
    import unseen
    from askalong.answer.choose import make_answerer, make_judge
    from askalong.asking.asker import Asker

    items = load_items(questions_of(set_name))
    with tempfile.TemporaryDirectory(prefix="askalong-replay-") as folder:
        home = Path(folder)
        ids = unseen.build(home, questions_of(set_name).parent / "docs", items, True)
        with unseen.open_library(home) as library:
            embedder = library.indexes.embedder
            answerer = Recording(make_answerer(library.settings, embedder))
            asker = Asker(
                library.store,
                library.searcher,
                answerer,
                embedder=embedder,
                judge=make_judge(library.settings),
            )
            threads: dict[str, Any] = {}
            for item in items:
                answerer.asking = item.id
                _, threads[item.id] = unseen.ask_one(library, asker, ids[item.doc], item, threads)
    out.write_bytes(pickle.dumps({"set": set_name, "requests": answerer.requests}))
    print(f"{len(answerer.requests)} requests of {len(items)} items -> {out}")


def _answerer(scorer: str, vectors: bool = True) -> Callable[[DraftRequest], Draft]:
    """This checkout's offline answerer with ``scorer`` and the bundled embedder (none
    without ``vectors``: the product with ``ASKALONG_EMBEDDER=none``)."""
    from askalong.answer.extractive.answerer import ExtractiveAnswerer

    chosen = cast(SentenceScorerName, scorer)
    return ExtractiveAnswerer(bundled_embedder() if vectors else None, scorer=chosen).draft


def bundled_embedder() -> Embedder:
    """The bundled e5 embedder, as the product's default settings make it."""
    from askalong.config import load_settings
    from askalong.providers.local.embedder import default_embedder

    return default_embedder(load_settings())


def recording(path: Path) -> tuple[str, list[Item], dict[str, DraftRequest]]:
    """The set a recording was made of, its items and the requests kept per item id."""
    recorded = pickle.loads(path.read_bytes())
    items = load_items(questions_of(recorded["set"]))
    return recorded["set"], items, recorded["requests"]


def covered_questions(paths: Sequence[Path]) -> Iterator[tuple[str, Item, DraftRequest]]:
    """The covered plain questions (intent ``ask``) of DEV recordings, with their set and
    request; a recording of a held-out set stops the run."""
    for path in paths:
        recorded = pickle.loads(path.read_bytes())
        name, requests = recorded["set"], recorded["requests"]
        if name not in DEV_SETS:  # before its questions are read
            raise SystemExit(f"{name} is held out")
        for item in load_items(questions_of(name)):
            request = requests.get(item.id)
            if not item.refuse and request is not None and request.intent == "ask":
                yield name, item, request


def replay(path: Path, scorer: str, answers: Path | None = None) -> Replayed:
    """The recording at ``path`` answered by this checkout's offline answerer; each
    answer written to ``answers`` (JSON lines) when given."""
    _, items, requests = recording(path)
    done = outcomes(items, requests, _answerer(scorer))
    if answers is not None:
        rows = (
            {"id": o.item.id, "kind": kind_of(o.item), "refused": o.refused, "hit": o.hit,
             "answer": o.answer}
            for o in done
        )  # fmt: skip
        answers.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    return figures(done)


def compare(paths: Sequence[Path], show: int, vectors: bool = True) -> None:
    """The recordings answered by both scorers (without an embedder unless ``vectors``):
    answer hit and refusals per set and per kind of question, then ``show`` covered
    questions where one hits and the other not."""
    learned, rules = _answerer("learned", vectors), _answerer("rules", vectors)
    groups: dict[str, list[tuple[str, Outcome, Outcome]]] = {"all": []}
    for path in paths:
        name, items, requests = recording(path)
        mine, theirs = outcomes(items, requests, learned), outcomes(items, requests, rules)
        for a, b in zip(mine, theirs, strict=True):
            for group in (name, kind_of(a.item), "all"):
                groups.setdefault(group, []).append((name, a, b))
    rows = []
    for group in (*(g for g in groups if g != "all"), "all"):
        side = [figures([p[1] for p in groups[group]]), figures([p[2] for p in groups[group]])]
        rows.append((
            group, str(side[0].covered), str(side[0].hits), str(side[1].hits),
            f"{side[0].covered_refused} / {side[1].covered_refused}",
            f"{side[0].uncovered_refused} / {side[1].uncovered_refused} of {side[0].uncovered}",
        ))  # fmt: skip
    header = ("set / kind", "covered", "learned", "rules", "covered refused", "uncovered refused")
    print(markdown_table(header, "lrrrrr", rows))
    disagreeing = [p for p in groups["all"] if p[1].hit != p[2].hit]
    for name, a, b in disagreeing[:show]:
        print(f"{name} {a.item.id} [{a.item.kind}] {a.item.question}\n  gold: {a.item.gold}")
        print(f"  learned ({'hit' if a.hit else 'miss'}): {a.answer[:300]}")
        print(f"  rules ({'hit' if b.hit else 'miss'}): {b.answer[:300]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    recorder = verbs.add_parser("record", help="ask every item; keep the answerer's requests")
    recorder.add_argument("--set", choices=SETS, default="unseen")
    recorder.add_argument("--out", type=Path, required=True)
    replaying = verbs.add_parser("replay", help="answer the recorded plain questions again")
    replaying.add_argument("recording", type=Path)
    replaying.add_argument("--scorer", choices=("learned", "rules"), default="learned")
    replaying.add_argument("--answers", type=Path, help="each answer written here (JSON lines)")
    comparing = verbs.add_parser("compare", help="both scorers, per kind of question")
    comparing.add_argument("recordings", type=Path, nargs="+")
    comparing.add_argument("--show", type=int, default=0, help="disagreements to print")
    comparing.add_argument(
        "--vectors", choices=("all", "none"), default="all", help="none: no embedder"
    )
    args = parser.parse_args()
    if args.verb == "record":
        record(args.set, args.out)
    elif args.verb == "compare":
        compare(args.recordings, args.show, args.vectors == "all")
    else:
        print(replay(args.recording, args.scorer, args.answers))


if __name__ == "__main__":
    main()
