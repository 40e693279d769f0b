"""Where the never-seen DEV sets' follow-ups lose their gold, from recorded evidence
(``unseen_replay.py record``): per follow-up, the query its search ran (the question made
self-contained, ``question/rewrite.py``), how the thread was carried (elliptic: the
previous question first; new subject: its own words; subject words added; as typed), and
whether the gold was in the evidence the asker built (``request.units``), in the unit the
learned answerer quoted, and in its direct answer. Each miss is one of:

- ``no evidence``: no unit holds a gold phrase (the rewrite / the search lost it);
- ``passage``: a unit holds it, the passage choice (``passage_choice``) kept none of them;
- ``sentence``: a kept unit holds it, the answer quotes no block holding it;
- ``wording``: a quoted block holds it, the direct answer does not (the sentence choice
  within the right block, or its trimming).

Each is also counted by whether the gold lies in the previous answer's passage (a unit
with a sentence that answer said, ``thread_position``).

    PYTHONPATH=src:benchmarks nice -n 10 python benchmarks/followup_breakdown.py \
        /work/data/rec/unseen*.pkl [--show 40]
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from _table import markdown_table
from askalong.answer.base import Draft, DraftRequest
from askalong.answer.extractive.answerer import learned_question
from askalong.answer.extractive.candidates import candidates
from askalong.answer.extractive.learned import chosen
from askalong.answer.extractive.thread_position import thread_positions
from askalong.context.units import ContextUnit
from askalong.question.leaning import thread_subject
from askalong.question.rewrite import elliptic, names_new_subject, self_contained
from unseen_replay import MARKS, _answerer, recording
from unseen_set import Item, contains_any

OUTCOMES = ("hit", "wording", "sentence", "passage", "no evidence")


@dataclass(frozen=True)
class FollowUp:
    """One recorded follow-up, read back."""

    set_name: str
    item: Item
    query: str  # what the search ran
    carried: str  # how the thread was carried into the query
    in_previous_answer: bool  # a gold phrase in the thread's last answer
    in_previous_passage: str  # the gold in the previous answer's passage: yes, no, no such
    outcome: str  # one of OUTCOMES
    answer: str


def carried(request: DraftRequest) -> tuple[str, str]:
    """The query a follow-up was searched as and how its thread was carried into it."""
    question = request.question
    previous = [turn.question for turn in request.history]
    said = request.history[-1].answer if request.history else ""
    if not question.leans_on_thread or not previous:
        return question.text, "as typed (not leaning)"
    query = self_contained(question.text, previous, True, said)
    if elliptic(question.text):
        return query, "elliptic: previous question first"
    if names_new_subject(question.text, thread_subject(previous), said):
        return query, "new subject: own words"
    return query, "subject words added" if query != question.text else "as typed (all held)"


def follow_ups(path: Path) -> list[FollowUp]:
    """The follow-ups of one recording, each answered again and classified."""
    name, items, requests = recording(path)
    draft = _answerer("learned")
    found = []
    for item in items:
        request = requests.get(item.id)
        if item.kind != "follow_up" or item.refuse or request is None or request.intent != "ask":
            continue
        answer = draft(request)
        text = MARKS.sub("", answer.answer)
        query, how = carried(request)
        said = request.history[-1].answer if request.history else ""
        outcome = classified(item, request, answer)
        previous = previous_passages(request.units, said)
        in_passage = (
            "no such"
            if not previous
            else str(any(contains_any(u.text, item.gold) for u in previous))
        )
        in_answer = contains_any(said, item.gold)
        found.append(FollowUp(name, item, query, how, in_answer, in_passage, outcome, text))
    return found


def classified(item: Item, request: DraftRequest, answer: Draft) -> str:
    """Which of ``OUTCOMES`` the learned answerer's ``answer`` to ``item`` is."""
    refused = answer.status == "not_covered"
    if not refused and contains_any(MARKS.sub("", answer.answer), item.gold):
        return "hit"
    golden = [u for u in request.units if contains_any(u.text, item.gold)]
    if not golden:
        return "no evidence"
    quoted = {q.block_id for q in answer.quotes}
    pieces = [p for u in golden for p in u.pieces if p.span.block_id in quoted]
    if not refused and any(contains_any(p.text, item.gold) for p in pieces):
        return "wording"
    question = learned_question(request)
    choice = chosen(question, request.units, request.hits)[0]
    return "sentence" if any(u in choice.units for u in golden) else "passage"


def previous_passages(units: Sequence[ContextUnit], said: str) -> list[ContextUnit]:
    """The units holding a sentence of the previous answer ``said``."""
    found = candidates(units)
    places = thread_positions(found, said) if said.strip() else [None] * len(found)
    return [
        units[u]
        for u in sorted({c.unit for c, p in zip(found, places, strict=True) if p == "said"})
    ]


def table(rows: Sequence[FollowUp], key: str) -> str:
    """Counts of each outcome per value of ``key`` (an attribute of FollowUp), then all."""
    groups: dict[str, Counter[str]] = {}
    for row in rows:
        for group in (str(getattr(row, key)), "all"):
            groups.setdefault(group, Counter())[row.outcome] += 1
    lines = [
        (g, str(sum(c.values())), *(str(c[o]) for o in OUTCOMES))
        for g, c in sorted(groups.items(), key=lambda p: (p[0] == "all", p[0]))
    ]
    return markdown_table((key, "n", *OUTCOMES), "l" + "r" * (1 + len(OUTCOMES)), lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--show", type=int, default=0, help="misses to print")
    args = parser.parse_args()
    rows = [row for path in args.recordings for row in follow_ups(path)]
    for key in ("set_name", "carried", "in_previous_answer", "in_previous_passage"):
        print(table(rows, key), end="\n\n")
    for row in [r for r in rows if r.outcome != "hit"][: args.show]:
        print(f"{row.set_name} {row.item.id} [{row.outcome}; {row.carried}] {row.item.question}")
        print(f"  query: {row.query!r}\n  gold: {row.item.gold}\n  answer: {row.answer[:200]}")


if __name__ == "__main__":
    main()
