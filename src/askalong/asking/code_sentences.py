"""Comment lines quoted as the sentences they are, code lines as the statements they are
(pure): a doc comment wraps a sentence over lines (Go's ``// Red is a convenient helper
... A`` / ``// newline is appended to format by default.``), a signature its parameters
(``def load_dotenv(`` / ``override: bool = False,``), and a line alone is half of either.
Lines picked next to each other in one comment are quoted as one span, their text joined
without the comment marks of the lines after the first; a picked comment line ending
mid-sentence takes the comment lines that finish it (``SENTENCE_LINES`` at most; a
comment's last line ends its sentence, full stop or not). A
picked code line whose brackets are still open is joined by the picked lines after it
that continue its statement (``statement`` finds them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from askalong.asking.code_lines import CodeLine
from askalong.text.patterns import lazy
from askalong.types import BlockSpan

SENTENCE_LINES = 2  # comment lines taken to finish a picked line's sentence, at most
STATEMENT_LINES = 12  # lines of one statement (a long signature), at most
_MARKS = lazy(r"^\s*(?://+|#+|/?\*+|\"\"\"|''')\s?")
_STRING = lazy(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"")
_SENTENCE_END = lazy(r"[.!?:;。！？：；]\s*(?:\*/|\"\"\"|''')?\s*$")


@dataclass(frozen=True)
class Cited:
    """What an answer writes of some picked lines, the unit they are in and their span."""

    text: str
    unit: int
    span: BlockSpan


def cited_lines(picked: Sequence[CodeLine], lines: Sequence[CodeLine]) -> list[Cited]:
    """``picked`` in order, each comment run and each statement joined (``lines``: all
    the evidence's lines, in text order, where a wrapped sentence's end is found)."""
    cited: list[Cited] = []
    last: CodeLine | None = None  # the last line of ``cited[-1]``
    depth = 0  # the brackets ``cited[-1]`` leaves open
    taken: set[BlockSpan] = set()
    for line in picked:
        if line.span in taken:
            continue
        run = [line, *_finishing(line, lines)] if line.comment else [line]
        taken.update(ln.span for ln in run)
        if last is not None and _continues(last, line, depth):
            cited[-1] = _joined(cited[-1], run)
        else:
            cited.append(_joined(Cited(run[0].text.strip(), run[0].unit, run[0].span), run[1:]))
            depth = 0
        depth += 0 if line.comment else open_brackets(line)
        last = run[-1]
    return cited


def statement(lines: Sequence[CodeLine], index: int) -> list[int]:
    """The indexes of the lines of the statement opening at ``lines[index]``: it and the
    lines of its unit after it while its brackets are open (``STATEMENT_LINES`` at most)."""
    found = [index]
    depth = open_brackets(lines[index])
    while depth > 0 and len(found) < STATEMENT_LINES and found[-1] + 1 < len(lines):
        following = lines[found[-1] + 1]
        if following.unit != lines[index].unit or following.comment:
            break
        found.append(found[-1] + 1)
        depth += open_brackets(following)
    return found


def open_brackets(line: CodeLine) -> int:
    """Parentheses and square brackets the line (with the bare lines after it) opens less
    those it closes, string literals aside; braces open a body (``func f() {``), not the
    rest of a statement."""
    code = _STRING.sub("", line.text + line.tail)
    return sum(code.count(c) for c in "([") - sum(code.count(c) for c in ")]")


def _continues(last: CodeLine, line: CodeLine, depth: int) -> bool:
    """``line`` goes on from ``last``: the next line of one comment, or the next line of
    a statement whose brackets are still open (``depth``)."""
    if last.unit != line.unit or last.span.block_id != line.span.block_id:
        return False
    if line.comment:
        return last.comment and _next_to(last.span, line.span)
    if last.comment or depth <= 0:
        return False
    # the next line of the block, past the bare lines after ``last``: never across a gap
    # in the unit (its pieces skip a nested definition's lines)
    return line.span.start == last.span.end + 1 + len(last.tail)


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
        if _SENTENCE_END.search(following.text) or _last_of_comment(following, lines):
            return found
    return []  # no end found near: the line stands alone


def _last_of_comment(line: CodeLine, lines: Sequence[CodeLine]) -> bool:
    """Whether ``line`` ends its comment (no comment line right after it): a comment's
    end is its last sentence's, full stop or not (``... with the lowest q`` / ``*/``)."""
    index = lines.index(line)
    following = lines[index + 1] if index + 1 < len(lines) else None
    return following is None or not (following.comment and _adjacent(line, following))


def _adjacent(line: CodeLine, following: CodeLine) -> bool:
    return line.unit == following.unit and _next_to(line.span, following.span)


def _next_to(span: BlockSpan, following: BlockSpan) -> bool:
    return span.block_id == following.block_id and span.end + 1 == following.start


def _joined(cited: Cited, run: Sequence[CodeLine]) -> Cited:
    """``cited`` with the lines of ``run`` (right after it) added: its text, its span."""
    if not run:
        return cited
    told = (_MARKS.sub("", ln.text) if ln.comment else ln.text for ln in run)
    text = " ".join([cited.text, *(t.strip() for t in told)])
    span = BlockSpan(cited.span.block_id, cited.span.start, run[-1].span.end)
    return Cited(text, cited.unit, span)
