"""Comment lines quoted as the sentences they are (pure): a doc comment wraps a sentence
over lines (Go's ``// Red is a convenient helper ... A`` / ``// newline is appended to
format by default.``), and a line alone is half a sentence. Lines picked next to each
other in one comment are quoted as one span, their text joined without the comment marks
of the lines after the first; a picked comment line ending mid-sentence takes the
comment lines that finish it (``SENTENCE_LINES`` at most).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from askalong.asking.code_lines import CodeLine
from askalong.types import BlockSpan

SENTENCE_LINES = 2  # comment lines taken to finish a picked line's sentence, at most
_MARKS = re.compile(r"^\s*(?://+|#+|/?\*+|\"\"\"|''')\s?")
_SENTENCE_END = re.compile(r"[.!?:;。！？：；]\s*(?:\*/|\"\"\"|''')?\s*$")


@dataclass(frozen=True)
class Cited:
    """What an answer writes of some picked lines, the unit they are in and their span."""

    text: str
    unit: int
    span: BlockSpan


def cited_lines(picked: Sequence[CodeLine], lines: Sequence[CodeLine]) -> list[Cited]:
    """``picked`` in order, each comment run joined (``lines``: all the evidence's lines,
    in text order, where a wrapped sentence's end is found)."""
    cited: list[Cited] = []
    taken: set[BlockSpan] = set()
    for line in picked:
        if line.span in taken:
            continue
        run = [line, *_finishing(line, lines)] if line.comment else [line]
        run = [ln for ln in run if ln.span not in taken or ln is line]
        taken.update(ln.span for ln in run)
        last = cited[-1] if cited else None
        if last is not None and line.comment and _follows(last, run[0]):
            cited[-1] = _joined(last, run)
        else:
            cited.append(_joined(Cited(run[0].text.strip(), run[0].unit, run[0].span), run[1:]))
    return cited


def _finishing(line: CodeLine, lines: Sequence[CodeLine]) -> list[CodeLine]:
    """The comment lines right after ``line`` that end its sentence."""
    if _SENTENCE_END.search(line.text):
        return []
    index = lines.index(line)
    found: list[CodeLine] = []
    for following in lines[index + 1 : index + 1 + SENTENCE_LINES]:
        if not (following.comment and _adjacent(found[-1] if found else line, following)):
            break
        found.append(following)
        if _SENTENCE_END.search(following.text):
            return found
    return []  # no end found near: the line stands alone


def _follows(cited: Cited, line: CodeLine) -> bool:
    return cited.unit == line.unit and _next_to(cited.span, line.span)


def _adjacent(line: CodeLine, following: CodeLine) -> bool:
    return line.unit == following.unit and _next_to(line.span, following.span)


def _next_to(span: BlockSpan, following: BlockSpan) -> bool:
    return span.block_id == following.block_id and span.end + 1 == following.start


def _joined(cited: Cited, run: Sequence[CodeLine]) -> Cited:
    """``cited`` with the lines of ``run`` (right after it) added: its text, its span."""
    if not run:
        return cited
    text = " ".join([cited.text, *(_MARKS.sub("", ln.text).strip() for ln in run)])
    span = BlockSpan(cited.span.block_id, cited.span.start, run[-1].span.end)
    return Cited(text, cited.unit, span)
