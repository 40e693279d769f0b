"""Which of a search's passages the offline agent answers a part from.

Every passage the search returned, without its title line (``agent/title_lines``): a
page's title repeats the question and would be quoted over the sentence that answers it.
The extractive answerer then picks the best sentence over all of them. (Preferring the
first hit's own answer whenever it is backed was tried: on the dev items of the
knowledge-base evaluation the first hit is the gold one less often than the answerer's
choice is, cited Recall@5 0.576 -> 0.514.)

A summary ("summarise …", "总结…", "what are the ways …", "有哪些…": the question's
``asks_overview``, read in ``question/overview``) is answered from
each passage on its own, in the search's order: one checked answer per passage that
bears on it, up to ``SUMMARY_PASSAGES`` (a summary spans the passages the search found,
not two sentences of the first)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from askalong.agent.source_registry import Source
from askalong.agent.title_lines import untitled_units
from askalong.asking.asker import BACKING, Asker
from askalong.asking.evidence_base import Evidence
from askalong.asking.question import AskedQuestion
from askalong.types import Answer

SUMMARY_PASSAGES = 5  # the passages a summary may cite (the evaluation's Recall@5)


@dataclass(frozen=True)
class Drawn:
    """One answer with the passages (evidence units) and sources it was drawn from."""

    answer: Answer
    evidence: Evidence
    sources: tuple[Source, ...]


def chosen_answers(
    asker: Asker, asked: AskedQuestion, evidence: Evidence, sources: Sequence[Source]
) -> tuple[Drawn, ...]:
    """The answers a part is given, in source order: one per passage for an overview,
    else the one drawn from every passage (title lines left out)."""
    evidence, sources = _untitled(evidence, sources)
    if not evidence.units:
        return (Drawn(asker.answered(asked, evidence), evidence, ()),)
    if asked.question.asks_overview:
        each = _per_passage(asker, asked, evidence, sources)
        if each:
            return each
    return (Drawn(asker.answered(asked, evidence), evidence, tuple(sources)),)


def _untitled(evidence: Evidence, sources: Sequence[Source]) -> tuple[Evidence, tuple[Source, ...]]:
    """The passages without their title lines, each beside its source (the numbering is
    the search's: a passage left out takes its source with it)."""
    kept = [(i, u) for i, u in untitled_units(evidence.units, evidence.titles) if i < len(sources)]
    units = tuple(u for _, u in kept)
    return replace(evidence, units=units), tuple(sources[i] for i, _ in kept)


def _per_passage(
    asker: Asker, asked: AskedQuestion, evidence: Evidence, sources: Sequence[Source]
) -> tuple[Drawn, ...]:
    out: list[Drawn] = []
    for index in range(min(len(evidence.units), len(sources))):
        drawn = _drawn(asker, asked, evidence, sources, index)
        if _backed(drawn.answer):
            out.append(drawn)
        if len(out) == SUMMARY_PASSAGES:
            break
    return tuple(out)


def _drawn(
    asker: Asker,
    asked: AskedQuestion,
    evidence: Evidence,
    sources: Sequence[Source],
    index: int,
) -> Drawn:
    alone = replace(evidence, units=(evidence.units[index],))
    return Drawn(asker.answered(asked, alone), alone, (sources[index],))


def _backed(answer: Answer) -> bool:
    """Answered, with a claim its quotes hold (the checks' verdict, not the draft's)."""
    return answer.status == "answered" and any(c.verdict in BACKING for c in answer.claims)
