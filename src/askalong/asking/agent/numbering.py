"""From one part's own quote numbers to the answer's source numbers.

The extractive answerer numbers its quotes 1.. within the part it answers; the answer
cites sources, numbered across all its searches (``answer/agent/registry``). A quote's
source is the unit it was taken from; the markers, claims and quotes are renumbered so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from askalong.answer.agent.registry import Source
from askalong.asking.asker import unit_of
from askalong.asking.evidence import Evidence
from askalong.types import Answer, Claim

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
