"""A never-seen set's evidence recorded once, then re-answered in seconds: for trying an
answerer change on dev material without asking every item through the product again.

``record`` asks every item of a set as ``unseen.py`` does (its documents added and
embedded in a fresh home, follow-ups in their threads), through an asker whose answerer
keeps each ``DraftRequest`` it is handed (the question read, the context units, the
search's hits, the thread): the last one per item is pickled to ``--out``. ``replay``
answers the recorded plain questions (intent ``ask``; intents and code questions take
other paths) with this checkout's offline answerer (``--scorer``, the bundled embedder) and
prints answer hit (a gold phrase in the direct answer), covered refused and uncovered
refused. The figures are the answerer's alone, on the evidence of the recording's commit.

    PYTHONPATH=src python benchmarks/unseen_replay.py record --set unseen3 --out /tmp/u3.pkl
    PYTHONPATH=src python benchmarks/unseen_replay.py replay /tmp/u3.pkl --scorer learned
"""

from __future__ import annotations

import argparse
import pickle
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from askalong.answer.base import Answerer, Draft, DraftRequest
from askalong.settings import SentenceScorerName
from unseen_set import SETS, Item, contains_any, load_items, questions_of

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


def replayed(
    items: Sequence[Item], requests: dict[str, DraftRequest], draft: Callable[[DraftRequest], Draft]
) -> Replayed:
    """Each recorded plain question answered again by ``draft``, scored."""
    counts = {"hits": 0, "covered": 0, "covered_refused": 0, "uncovered": 0}
    counts["uncovered_refused"] = 0
    for item in items:
        request = requests.get(item.id)
        if request is None or request.intent != "ask":
            continue
        answer = draft(request)
        refused = answer.status == "not_covered"
        kind = "uncovered" if item.refuse else "covered"
        counts[kind] += 1
        counts[f"{kind}_refused"] += refused
        hit = not item.refuse and not refused
        counts["hits"] += hit and contains_any(MARKS.sub("", answer.answer), item.gold)
    return Replayed(**counts)


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


def replay(path: Path, scorer: str) -> Replayed:
    """The recording at ``path`` answered by this checkout's offline answerer."""
    from askalong.answer.extractive.answerer import ExtractiveAnswerer
    from askalong.config import load_settings
    from askalong.providers.local.embedder import default_embedder

    recorded = pickle.loads(path.read_bytes())
    items = load_items(questions_of(recorded["set"]))
    chosen = cast(SentenceScorerName, scorer)
    answerer = ExtractiveAnswerer(default_embedder(load_settings()), scorer=chosen)
    return replayed(items, recorded["requests"], answerer.draft)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    recording = verbs.add_parser("record", help="ask every item; keep the answerer's requests")
    recording.add_argument("--set", choices=SETS, default="unseen")
    recording.add_argument("--out", type=Path, required=True)
    replaying = verbs.add_parser("replay", help="answer the recorded plain questions again")
    replaying.add_argument("recording", type=Path)
    replaying.add_argument("--scorer", choices=("learned", "rules"), default="learned")
    args = parser.parse_args()
    if args.verb == "record":
        record(args.set, args.out)
    else:
        print(replay(args.recording, args.scorer))


if __name__ == "__main__":
    main()
