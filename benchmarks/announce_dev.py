"""Direct answers that end on a lead-in ("This looks like:", "Available fields:") without
what it announces, on recorded DEV evidence (issue 32): plain questions and Explain /
Example / Compare, answered again by this checkout (``unseen_replay.py`` and
``intents_replay.py``, the learned scorer on the bundled e5).

An answer is shaped as the asker shapes it (``shape.shaped_draft``) and cut at its citation
markers into cited parts; a part whose text, an intent's label ("Around the selection:")
aside, announces what follows (``text.announce.announces``) is **left hanging** when no
cited part comes after it or the next one opens with such a label (the words beside the
selection, not what the lead-in announces). Printed per set, with answer hit (plain:
``unseen_replay.outcomes``' rule; intents: ``intents_replay.judged``'s) and covered refused.

    PYTHONPATH=src:benchmarks python benchmarks/announce_dev.py /work/data/rec/unseen*.pkl
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from _table import markdown_table
from askalong.answer.base import Draft, DraftRequest
from askalong.answer.extractive.intents import AROUND, BEGINS, GOES_ON, NEAREST
from askalong.answer.shape import shaped_draft
from askalong.text.announce import announces
from intents_replay import INTENTS, Way, judged, recorded, ways
from unseen_replay import MARKS, _answerer
from unseen_set import Item, contains_any

CITED_PART = re.compile(r"\s*\[\d+\]\s*")
LABELS = tuple(label for said in (AROUND, BEGINS, GOES_ON, NEAREST) for label in said.values())


@dataclass
class Tally:
    """One group's figures: answers, hits, covered refused, answers left hanging."""

    answers: int = 0
    hits: int = 0
    refused: int = 0
    hanging: int = 0
    shown: list[str] = field(default_factory=list)

    def add(self, item: Item, draft: Draft, hit: bool, language: str) -> None:
        shaped = shaped_draft(draft, language).answer
        self.answers += 1
        self.hits += hit
        self.refused += draft.status == "not_covered" and not item.refuse
        if draft.status != "not_covered" and hangs(shaped):
            self.hanging += 1
            self.shown.append(f"{item.id} [{item.kind}]: {shaped[:200]}")


def hangs(answer: str) -> bool:
    """Whether a cited part of ``answer`` announces what follows and nothing of it comes."""
    cited = [p.strip() for p in CITED_PART.split(answer)][:-1]  # the last is after every mark
    return any(announces(_unlabelled(p)) and _ends_lead_in(cited, k) for k, p in enumerate(cited))


def _unlabelled(part: str) -> str:
    for label in LABELS:
        part = part.split(label)[-1]
    return part.strip()


def _ends_lead_in(cited: Sequence[str], k: int) -> bool:
    later = [p for p in cited[k + 1 :] if p]
    return not later or later[0].startswith(LABELS)


def tallied(paths: Sequence[Path]) -> dict[str, Tally]:
    """Every recorded plain question and intent of ``paths``, tallied per set and kind."""
    plain, intent = _answerer("learned"), ways()["learned"]
    out: dict[str, Tally] = {}
    for name, item, request in recorded(paths):
        answered = _answered(name, item, request, plain, intent)
        if answered is None:
            continue
        draft, hit, group = answered
        for key in (f"{name} {group}", group):
            out.setdefault(key, Tally()).add(item, draft, hit, request.question.language)
    return out


def _answered(
    name: str, item: Item, request: DraftRequest, plain: Way, intent: Way
) -> tuple[Draft, bool, str] | None:
    """``request`` answered as a plain question or as its intent, with its hit and group."""
    if request.intent not in ("ask", *INTENTS):
        return None
    if request.intent == "ask":
        draft = plain(request)
        text = MARKS.sub("", draft.answer)
        hit = not item.refuse and draft.status != "not_covered" and contains_any(text, item.gold)
        return draft, hit, "plain"
    draft = intent(request)
    if draft is None:
        return None
    return draft, judged(name, item, request, draft).hit, request.intent


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--show", action="store_true", help="print the hanging answers")
    args = parser.parse_args()
    tallies = tallied(args.recordings)
    order = sorted(tallies, key=lambda g: (" " not in g, g))
    rows = [
        (g, str(t.answers), str(t.hits), str(t.refused), str(t.hanging))
        for g, t in ((g, tallies[g]) for g in order)
    ]
    header = ("set / kind", "answers", "hit", "covered refused", "left hanging")
    print(markdown_table(header, "lrrrr", rows))
    if args.show:
        for g in order:
            if " " not in g:
                continue
            for line in tallies[g].shown:
                print(f"{g}: {line}")


if __name__ == "__main__":
    main()
