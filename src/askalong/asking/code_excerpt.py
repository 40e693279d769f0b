"""The lines picked for a code answer shaped as the excerpt a reader recognises (pure):
each definition whose lines are quoted is introduced by its own definition line (``def
card_number(value: str, /):``, ``func (c *Cache) Get(key string) ...``), its lines
follow in file order, and the definitions come in the order of their best line. Lines
scattered over several definitions, best first, read as a list of fragments; the same
lines under the statement that holds them read as the code does, as BM25's paragraph
shows a function contiguous.

The lines are taken in the order ``code_answers`` ranks them while the excerpt holds
``room`` quotes or fewer (comment runs and statements joined, ``code_sentences``), the
definition lines among them: an excerpt of ten short lines is read at a glance.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from askalong.asking.code_lines import CodeLine
from askalong.asking.code_sentences import Cited, cited_lines
from askalong.context.units import ContextUnit

HEAD_SEARCH = 3  # a definition's first code lines, where its name is (C: ``static int``)
_WRAPPERS = ("@", "#[")  # decorators and attributes above a definition line

Definition = tuple[str, tuple[str, ...]]  # a document and a qualified name in it


@dataclass(frozen=True)
class Quoted:
    """One quote of the excerpt, and whether it stands under its definition's line (the
    answer indents it there, as the code does)."""

    cited: Cited
    under: bool


def excerpt(
    picked: Sequence[CodeLine],
    lines: Sequence[CodeLine],
    units: Sequence[ContextUnit],
    *,
    room: int,
) -> list[Quoted]:
    """The ``picked`` lines (best first) taken while their excerpt, definition lines
    included, quotes ``room`` lines or fewer; a line that would pass it is left out and
    the next tried (it may join a quote already there: a statement's next line)."""
    heads = _heads(lines, units)
    chosen: list[CodeLine] = []
    best: list[Cited] = []
    for line in picked:
        trial = cited_lines(shaped([*chosen, line], lines, units, heads), lines)
        if len(trial) <= room:
            chosen.append(line)
            best = trial
    return [Quoted(c, _definition(units, c.unit) in heads and not _is_head(c, heads)) for c in best]


def shaped(
    chosen: Sequence[CodeLine],
    lines: Sequence[CodeLine],
    units: Sequence[ContextUnit],
    heads: dict[Definition, CodeLine],
) -> list[CodeLine]:
    """``chosen`` grouped by definition, each group its definition line first, then its
    lines in file order; the groups in the order of their first line."""
    groups: dict[Definition, list[CodeLine]] = {}
    for line in chosen:
        groups.setdefault(_definition(units, line.unit), []).append(line)
    out: list[CodeLine] = []
    for definition, group in groups.items():
        head = heads.get(definition)
        rest = sorted((ln for ln in group if ln != head), key=lambda ln: _place(units, ln))
        out += [head, *rest] if head is not None else rest
    return out


def head_line(lines: Sequence[CodeLine], unit: ContextUnit) -> CodeLine | None:
    """The definition line of ``unit`` (``lines``: its own), its ``def``/``func``/``class``
    statement's first line: past its doc comment, decorators and attributes, the first
    code line naming it, among its first ``HEAD_SEARCH``; none for a file's top-level
    lines, a function's lines after a nested one, or a window inside a long function."""
    if not unit.section_path:
        return None
    code = [ln for ln in lines if not ln.comment]
    code = [ln for ln in code if not ln.text.lstrip().startswith(_WRAPPERS)][:HEAD_SEARCH]
    named = re.compile(rf"(?<!\w){re.escape(unit.section_path[-1])}(?!\w)")
    return next((ln for ln in code if named.search(ln.text)), None)


def _heads(lines: Sequence[CodeLine], units: Sequence[ContextUnit]) -> dict[Definition, CodeLine]:
    """Each definition's line, from whichever of its units holds it."""
    own: dict[int, list[CodeLine]] = {}
    for line in lines:
        own.setdefault(line.unit, []).append(line)
    found: dict[Definition, CodeLine] = {}
    for number, unit in enumerate(units):
        head = head_line(own.get(number, []), unit)
        if head is not None:
            found.setdefault(_definition(units, number), head)
    return found


def _definition(units: Sequence[ContextUnit], number: int) -> Definition:
    """The definition unit ``number`` is part of: a function split by a nested one is one."""
    return units[number].document_id, units[number].section_path


def _place(units: Sequence[ContextUnit], line: CodeLine) -> tuple[int, int]:
    """Where ``line`` is in its file: its block's order, its offset in the block."""
    order = units[line.unit].place(line.span.block_id).order
    return (order if order is not None else 0), line.span.start


def _is_head(cited: Cited, heads: dict[Definition, CodeLine]) -> bool:
    starts = {(h.span.block_id, h.span.start) for h in heads.values()}
    return (cited.span.block_id, cited.span.start) in starts
