"""What the call graph says about the identifier a code question names (pure): its
definitions, found through the repository's symbols, and the places that call it.

A question naming ``X`` finds ``X`` wherever the repository defines it (``Lock.acquire``
narrows to the class ``Lock``), anchored or not; a question about "this" takes the
function at the anchor. The finding's units are what an answer may quote: each definition
with its signature line cited, each caller with its call line cited (line-exact).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import islice

from askalong.context.call_path import definition_span
from askalong.context.call_tree import CallNode
from askalong.context.code import place_unit
from askalong.context.code_graph import Repository
from askalong.context.code_places import Place
from askalong.context.units import ContextUnit
from askalong.parse.code.outline import CallSite
from askalong.question.code_asks import CodeQuestion

MAX_DEFINITIONS = 5
MAX_CALLERS = 12
SIGNATURE_LINES = 12  # a definition's unit: its signature and first lines


@dataclass(frozen=True)
class CodeFinding:
    """A code question and what the graph holds for it."""

    question: CodeQuestion
    targets: tuple[Place, ...]  # the definitions of the named identifier (or the anchor's)
    callers: tuple[tuple[CallSite, Place], ...] = ()


def named_places(repository: Repository, question: CodeQuestion) -> tuple[Place, ...]:
    """The definitions of the identifier ``question`` names, narrowed by its qualifier
    (``Lock.acquire``: a member of ``Lock``), classes and top-level names first."""
    places = repository.defined.get(question.name, [])
    if question.qualifier:
        owner = question.qualifier.rsplit(".", 1)[-1]
        places = [p for p in places if _owner_name(p) == owner] or places
    ranked = sorted(places, key=lambda p: (len(p.qualname), p.file.source))
    return tuple(ranked[:MAX_DEFINITIONS])


def _owner_name(place: Place) -> str:
    """The last part of the name a definition is a member of (``Color`` of Perl's
    ``Paint::Color``), ``""`` at top level."""
    parent = place.qualname[:-1]
    return parent[-1].rsplit("::", 1)[-1] if parent else ""


def code_finding(
    repository: Repository, question: CodeQuestion, anchored: Place | None
) -> CodeFinding | None:
    """The finding for ``question``: None when it names nothing the repository defines
    (and no anchor stands for "this")."""
    targets = named_places(repository, question) if question.name else ()
    if not targets and anchored is not None and not question.name:
        targets = (repository.head(anchored),)  # the function, from its first line
    if not targets:
        return None
    callers: list[tuple[CallSite, Place]] = []
    if question.ask in ("callers", "usage"):
        for target in targets:
            callers.extend(islice(repository.callers(target), MAX_CALLERS - len(callers)))
    if question.ask == "usage" or (question.ask == "callers" and not callers):
        # a call the graph resolves nowhere (``self.popitem()`` of a base class's own
        # method) still names the target: the lines naming it stand for its callers
        callers.extend(islice(references(repository, targets, callers), MAX_CALLERS))
    return CodeFinding(question, targets, tuple(callers))


def references(
    repository: Repository, targets: Sequence[Place], calls: Sequence[tuple[CallSite, Place]]
) -> Iterator[tuple[CallSite, Place]]:
    """The other places that name the target (``self.parse_array = JSONArray``): the
    first line naming it of each block neither defining nor calling it."""
    name = targets[0].qualname[-1]
    word = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")
    known = {p.key for p in targets} | {p.key for _, p in calls}
    for file in repository.files:
        for block in file.blocks:
            place = Place(file, block)
            if place.key in known or name not in block.text:
                continue
            for offset, row in enumerate(block.text.split("\n")):
                if word.search(row) and not row.lstrip().startswith(("import ", "from ")):
                    line = (block.lines[0] if block.lines else 1) + offset
                    yield CallSite(name, "", line, block.section_path, reference=True), place
                    break


def finding_units(finding: CodeFinding) -> list[ContextUnit]:
    """The definitions (their first lines, the signature cited) then the callers (each
    whole, its call line cited), each once."""
    units = {}
    for place in finding.targets:
        signature = definition_span(CallNode(place, 0))
        unit = place_unit(place, 0, _lines_after(place.block.text, signature.end))
        units[place.key] = replace(unit, cited_spans=(signature,))
    for site, caller in finding.callers:
        if caller.key not in units:
            units[caller.key] = place_unit(caller, 0, len(caller.block.text), cited=site)
    return list(units.values())


def _lines_after(text: str, end: int) -> int:
    """Where the ``SIGNATURE_LINES`` lines after offset ``end`` (a definition line's
    end, below its leading comment) stop."""
    for _ in range(SIGNATURE_LINES):
        end = text.find("\n", end + 1)
        if end < 0:
            return len(text)
    return end


def unit_of_place(place: Place, units: Sequence[ContextUnit]) -> ContextUnit:
    """The unit ``finding_units`` made for ``place``."""
    document_id, block_id = place.key
    return next(
        u for u in units if u.document_id == document_id and u.spans[0].block_id == block_id
    )
