"""Code context for an anchor in source code (pure): what a reader of three lines needs.

In this order, ranked before ordinary retrieval (``asking/evidence.py`` puts them where
cross-references go): the definition of the enclosing function's class (its header and
fields, not every method: the header block ``parse/code/parser.py`` makes), the
functions it calls that the repository defines (signature and first lines), and its call
sites with their enclosing functions, its own file first. The anchor unit itself is the
enclosing function whole (``code_anchor_unit``). The context's character budget
(``CODE_BUDGET``, applied by ``assemble_context``) keeps what fits, in this order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import islice

from askalong.context.code_graph import Repository
from askalong.context.code_places import Place
from askalong.context.units import Budget, ContextUnit, places_of
from askalong.parse.code.outline import CallSite
from askalong.types import Block, BlockSpan

CODE_BUDGET = Budget(12_000, len)  # characters: a function, its class, callees and callers
ANCHOR_CHARS = 6000
CALLEE_LINES = 6  # the signature and the first lines of a called function
CALLER_LINES = 12  # of a long caller: this many lines either side of the call
HEADER_LINES = 40
MAX_CALLEES = 8
MAX_CALLERS = 4


def code_units(repository: Repository, anchor: Place) -> list[ContextUnit]:
    """The class, callees and callers of ``anchor``'s function, as context units."""
    units = [place_unit(p, *head_span(p.block, HEADER_LINES)) for p in _classes(repository, anchor)]
    for _, callee in islice(repository.callees(anchor), MAX_CALLEES):
        units.append(place_unit(callee, *head_span(callee.block, CALLEE_LINES)))
    for site, caller in islice(repository.callers(anchor), MAX_CALLERS):
        units.append(place_unit(caller, *_around(caller.block, site, CALLER_LINES), cited=site))
    return units


def code_anchor_unit(place: Place, start: int, end: int) -> ContextUnit:
    """The enclosing function whole (a window of ``ANCHOR_CHARS`` around the selection
    when it is longer), the selection ``start..end`` cited."""
    block = place.block
    lo, hi = 0, len(block.text)
    if hi > ANCHOR_CHARS:
        middle = (start + end) // 2
        lo = max(0, min(middle - ANCHOR_CHARS // 2, hi - ANCHOR_CHARS))
        hi = lo + ANCHOR_CHARS
    unit = place_unit(place, lo, hi, origin="anchor")
    cited = BlockSpan(block.id, max(start, lo), min(max(end, start + 1), hi))
    return replace(unit, cited_spans=(cited,), score=None)


def _classes(repository: Repository, anchor: Place) -> Iterator[Place]:
    """The class (struct, impl) the function belongs to: its header block."""
    owner = anchor.qualname[:-1]
    if owner:
        found = repository.definition(owner, anchor.file)
        if found is not None and found.key != anchor.key:
            yield found


def head_span(block: Block, lines: int) -> tuple[int, int]:
    """The first ``lines`` lines of the block."""
    end = -1
    for _ in range(lines):
        end = block.text.find("\n", end + 1)
        if end < 0:
            return 0, len(block.text)
    return 0, end


def _around(block: Block, site: CallSite, lines: int) -> tuple[int, int]:
    """The whole block, or ``lines`` lines either side of the call in a long one."""
    rows = block.text.split("\n")
    if len(rows) <= 2 * lines + 1 or block.lines is None:
        return 0, len(block.text)
    at = site.line - block.lines[0]
    first, last = max(0, at - lines), min(len(rows), at + lines + 1)
    start = sum(len(r) + 1 for r in rows[:first])
    return start, start + len("\n".join(rows[first:last]))


def line_span(block: Block, line: int) -> tuple[int, int]:
    rows = block.text.split("\n")
    index = min(max(line - (block.lines[0] if block.lines else 1), 0), len(rows) - 1)
    start = sum(len(r) + 1 for r in rows[:index])
    return start, start + len(rows[index])


def place_unit(
    place: Place,
    start: int,
    end: int,
    *,
    cited: CallSite | None = None,
    origin: str = "crossref",
) -> ContextUnit:
    block = place.block
    span = BlockSpan(block.id, start, end)
    quoted = span
    if cited is not None:
        lo, hi = line_span(block, cited.line)
        quoted = BlockSpan(block.id, max(lo, start), min(hi, end))
    return ContextUnit(
        document_id=place.file.document_id,
        chunk_ids=(),
        text=block.text[start:end],
        spans=(span,),
        cited_spans=(quoted,),
        section_path=block.section_path,
        page_start=None,
        page_end=None,
        origin="anchor" if origin == "anchor" else "crossref",
        score=1.0,
        places=places_of([block]),
    )
