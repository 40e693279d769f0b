"""From one part's own quote numbers to the answer's source numbers, and from those to
the numbers a reader sees.

The extractive answerer numbers its quotes 1.. within the part it answers; the answer
cites sources, numbered across all its searches (``agent/source_registry``). A quote's
source is the unit it was taken from; the markers, claims and quotes are renumbered so.

The registry numbers every passage found, and only the cited ones are shown, so a finished
answer is renumbered once more (``shown_in_order``): its shown sources 1..N in the order
the answer first cites them, across its parts, with no gap ("[3] … [2]" becomes
"[1] … [2]"); the passages found but not shown follow from N+1. The parts streamed before
it are numbered the same way as they come (``FirstCited``), so no number changes when the
finished answer replaces them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from askalong.agent.source_registry import Source
from askalong.asking.asker import unit_of
from askalong.asking.evidence_base import Evidence
from askalong.types import Answer, Claim
from askalong.values.chat_answers import ChatAnswer, ChatPart

_LIST_MARKER = re.compile(r"\[\s*(\d+(?:\s*[,，、;]\s*\d+)*)\s*\]")


def local_to_source(
    answer: Answer, evidence: Evidence, sources: Sequence[Source]
) -> dict[int, int]:
    """Each quote number of ``answer`` -> the number of the source it quotes (``sources``
    are ``evidence.units`` registered, in the same order)."""
    index = {id(unit): i for i, unit in enumerate(evidence.units)}
    mapping = {}
    for quote in answer.quotes:
        at = index.get(id(unit_of(quote, evidence.units)))
        if at is not None and at < len(sources):
            mapping[quote.number] = sources[at].number
    return mapping


def renumber_markers(text: str, mapping: Mapping[int, int]) -> str:
    """``text`` with each marker's numbers mapped (a number not mapped is dropped, and a
    marker left with none goes)."""

    def replaced(match: re.Match[str]) -> str:
        numbers = [mapping.get(int(n)) for n in re.findall(r"\d+", match.group(1))]
        kept = list(dict.fromkeys(n for n in numbers if n is not None))
        return f"[{', '.join(map(str, kept))}]" if kept else ""

    return _LIST_MARKER.sub(replaced, text)


def renumber_claims(claims: Sequence[Claim], mapping: Mapping[int, int]) -> tuple[Claim, ...]:
    return tuple(
        Claim(
            c.text,
            tuple(dict.fromkeys(mapping[n] for n in c.quote_numbers if n in mapping)),
            c.verdict,
            c.reasons,
        )
        for c in claims
    )


def shown_in_order(answer: ChatAnswer) -> ChatAnswer:
    """``answer`` with its numbers as a reader follows them: the shown sources 1..N in the
    order of their first citation (the answer's text, then its parts'), any shown source
    not cited in the text after them, then the other passages its steps found. Every
    field that holds a number (markers, parts, sources, claims, steps) is mapped alike."""
    mapping = _shown_order(answer)
    if all(old == new for old, new in mapping.items()):
        return answer
    sources = sorted(
        (replace(s, number=mapping[s.number]) for s in answer.sources), key=lambda s: s.number
    )
    return replace(
        answer,
        answer=renumber_markers(answer.answer, mapping),
        parts=tuple(
            replace(
                p,
                answer=renumber_markers(p.answer, mapping),
                sources=_mapped(p.sources, mapping),
            )
            for p in answer.parts
        ),
        sources=tuple(sources),
        claims=renumber_claims(answer.claims, mapping),
        steps=tuple(replace(s, sources=_mapped(s.sources, mapping)) for s in answer.steps),
    )


class FirstCited:
    """The streamed parts' numbers, handed out in the order the parts first cite them: what
    ``shown_in_order`` gives the finished answer, whose text is the parts in order."""

    def __init__(self) -> None:
        self._numbers: dict[int, int] = {}

    def part(self, part: ChatPart) -> ChatPart:
        for number in (*_marker_numbers(part.answer), *part.sources):
            self._numbers.setdefault(number, len(self._numbers) + 1)
        return replace(
            part,
            answer=renumber_markers(part.answer, self._numbers),
            sources=_mapped(part.sources, self._numbers),
        )


def _shown_order(answer: ChatAnswer) -> dict[int, int]:
    shown = {s.number for s in answer.sources}
    texts = [answer.answer, *(p.answer for p in answer.parts)]
    cited = [n for text in texts for n in _marker_numbers(text) if n in shown]
    found = [n for step in answer.steps for n in step.sources]
    claimed = [n for c in answer.claims for n in c.quote_numbers]
    rest = sorted({*found, *claimed, *(n for p in answer.parts for n in p.sources)} - shown)
    order = dict.fromkeys([*cited, *sorted(shown), *rest])
    return {old: new for new, old in enumerate(order, 1)}


def _marker_numbers(text: str) -> Iterable[int]:
    for match in _LIST_MARKER.finditer(text):
        yield from (int(n) for n in re.findall(r"\d+", match.group(1)))


def _mapped(numbers: Sequence[int], mapping: Mapping[int, int]) -> tuple[int, ...]:
    return tuple(mapping[n] for n in numbers if n in mapping)
