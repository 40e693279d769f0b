"""The lines a chosen line of code brings with it into an answer (``code_answers``): the
comment right above it, the line whose body it is in, the line right above it setting a
name it reads, the first code line of the block it opens, the code a comment stands over, the
declarations of the constants it names, and for a selection its statement whole with its
parent and what follows it."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice, takewhile

from askalong.asking.code_lines import CodeLine
from askalong.asking.code_sentences import statement
from askalong.context.code_constants import declared_name
from askalong.context.units import ContextUnit
from askalong.text.patterns import lazy
from askalong.types import BlockSpan

ANCHOR_LINES = 4  # of the selection, at most
ABOVE_LINES = 2  # comment lines right above the selection
AFTER_LINES = 2  # after the selection: what follows it (an ``except``, a ``catch``)
STATEMENT_REST = 3  # lines of a statement a picked line leaves open, brought with it
BODY_LINES = 1  # code lines of its body a picked block opener brings (two: level, DEV)
_WORD = lazy(r"[A-Za-z_]\w*")
# A comment under a signature that notes the code under it; a docstring's lines (its
# opening quotes alone on a line or not) start otherwise.
_NOTE_MARKS = ("#", "//", "/*", "*")


def around_selection(lines: list[CodeLine], anchor: ContextUnit) -> list[CodeLine]:
    own = [ln for ln in lines if ln.unit == 0]
    picked = [i for i, ln in enumerate(own) if _cited(anchor, ln.span)][:ANCHOR_LINES]
    if not picked:
        return []
    first, last = picked[0], statement(own, picked[-1])[-1]  # the selected statement whole
    picked += list(range(picked[-1] + 1, last + 1))
    depth = _indent(own[first].text)
    parent = next((i for i in range(first - 1, -1, -1) if _indent(own[i].text) < depth), None)
    above = _comment_above(own, first)
    around = ([parent] if parent is not None and parent not in above else []) + above + picked
    around += list(range(last + 1, min(last + 1 + AFTER_LINES, len(own))))
    return [own[i] for i in around]


def commented_code(lines: list[CodeLine], anchor: ContextUnit) -> list[CodeLine]:
    """The statement a selected comment inside a body stands over (``## We keep
    2*ctx_lines so that ...`` over ``if ( $diffs && ++$ctx > $ctx_lines * 2 ) {``), past
    the rest of its comment: what it explains. None for a doc comment (above its
    definition's line or right under it), which tells of the definition whole."""
    own = [ln for ln in lines if ln.unit == 0]
    picked = [i for i, ln in enumerate(own) if _cited(anchor, ln.span)]
    if not picked or sum(not ln.comment for ln in own[: picked[0]]) < 2:
        return []
    after = next((i for i in range(picked[-1] + 1, len(own)) if not own[i].comment), None)
    return [] if after is None else [own[i] for i in statement(own, after)]


def said_above(lines: list[CodeLine], line: CodeLine) -> list[CodeLine]:
    """The comment right above a picked code line (``// `content-type` normalizes the
    type, but accept methods return original casing.`` over the line that slices it
    back out): why the line is there, in its author's words."""
    if line.comment:
        return []
    own = [ln for ln in lines if ln.unit == line.unit]
    return [own[i] for i in _comment_above(own, own.index(line))]


def _comment_above(own: list[CodeLine], first: int) -> list[int]:
    """The comment lines right above line ``first`` (``// Verify size not exceeded``
    over ``evict := ...``): what the code's author said of it, ``ABOVE_LINES`` at most."""
    found: list[int] = []
    index = first - 1
    while index >= 0 and own[index].comment and len(found) < ABOVE_LINES:
        if own[index].span.end + 1 != own[index + 1].span.start:
            break  # a blank line between: a comment on something else (a module's)
        found.insert(0, index)
        index -= 1
    return found


def headed(lines: list[CodeLine], line: CodeLine) -> list[CodeLine]:
    """The code a comment line stands right above (``// Foreground text colors`` ->
    ``const (`` -> ``FgBlack Attribute = iota + 30``): what the comment is about."""
    index = lines.index(line)
    following = lines[index + 1] if line.comment and index + 1 < len(lines) else None
    if following is None or following.comment or following.unit != line.unit:
        return []
    if following.span.block_id != line.span.block_id or following.span.start != line.span.end + 1:
        return []
    return [following, *opened(lines, following)]


def governing(lines: list[CodeLine], line: CodeLine) -> list[CodeLine]:
    """The line whose body ``line`` is in, inside the same definition (``if size <= 0 {``
    over ``return nil, errors.New(...)``, ``except io.UnsupportedOperation:`` over its
    ``raise``): the condition under which the line runs. None for a comment, or for a
    line right in its definition's body (its governing line is the definition's own)."""
    if line.comment:
        return []
    index = lines.index(line)
    same = [ln for ln in lines[:index] if ln.unit == line.unit and not ln.comment]
    same = [ln for ln in same if ln.span.block_id == line.span.block_id]
    if not same:
        return []
    depth = _indent(line.text)
    parent = next((ln for ln in reversed(same) if _indent(ln.text) < depth), None)
    outermost = min(_indent(ln.text) for ln in same)
    return [parent] if parent is not None and _indent(parent.text) > outermost else []


def assigned_above(lines: list[CodeLine], line: CodeLine) -> list[CodeLine]:
    """The code line right above a picked code line, in its unit, when it sets a name the
    picked line reads (``msg = f"Unset environment variable: {env_var_name}"`` over
    ``raise ValueError(msg)``): what the line raises, returns or passes on."""
    if line.comment:
        return []
    index = lines.index(line)
    above = next((ln for ln in reversed(lines[:index]) if not ln.comment), None)
    if above is None or above.unit != line.unit:
        return []
    name = declared_name(above.text)
    reads = name and name != declared_name(line.text) and name in _WORD.findall(line.text)
    return [above] if reads else []


def declaring(lines: list[CodeLine], line: CodeLine) -> list[CodeLine]:
    """The lines declaring the constants a code line names (``text =
    DEFAULT_SEPARATOR.join(words)`` -> ``DEFAULT_SEPARATOR = '-'``): the value it uses;
    ``lines``: those of a file's top level and of the subject's class."""
    if line.comment:
        return []
    named = set(_WORD.findall(line.text)) - {declared_name(line.text)}
    return [ln for ln in lines if not ln.comment and declared_name(ln.text) in named]


def opened(lines: list[CodeLine], line: CodeLine) -> list[CodeLine]:
    """The first code line of the block ``line`` opens, past the comment over it (``if
    response.status == 304:`` -> ``cached_response = self.controller.update_cached_response(``
    under four lines of comment: what is done, where the comment says why; ``if r == nil
    {`` -> its body), the first line of a list it opens (``const (`` -> its first
    constant), or the rest of the call or expression it leaves open (``warnings.warn(`` ->
    its message's lines, ``STATEMENT_REST`` at most)."""
    index = lines.index(line)
    if not line.comment and not line.text.rstrip().endswith(("{", ":")):
        rest = statement(lines, index)[1 : 1 + STATEMENT_REST]
        if rest:
            return [lines[i] for i in rest]
    if not line.text.rstrip().endswith(("{", ":", "(")):
        return []
    following = [ln for ln in lines[index + 1 : index + 2] if ln.unit == line.unit]
    if line.comment or line.text.rstrip().endswith("("):
        return following
    return list(islice(body_code(lines, index), BODY_LINES)) or following


def body_code(lines: list[CodeLine], index: int) -> Iterator[CodeLine]:
    """The code lines of the block ``lines[index]`` opens, the comments in it aside: the
    code after it in its block, up to the first code line no deeper than it."""
    opener = lines[index]
    depth = _indent(opener.text)
    for line in code_after(lines, index):
        if line.span.block_id != opener.span.block_id or _indent(line.text) <= depth:
            return
        yield line


def code_after(lines: list[CodeLine], index: int) -> Iterator[CodeLine]:
    """The code lines after ``lines[index]`` in its unit, the comments aside."""
    unit = lines[index].unit
    return (line for line in lines[index + 1 :] if line.unit == unit and not line.comment)


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def selected(lines: list[CodeLine], anchor: ContextUnit) -> list[CodeLine]:
    """The anchor's selected lines (those of its unit, ``0``, that its citation covers)."""
    return [ln for ln in lines if ln.unit == 0 and _cited(anchor, ln.span)]


def _cited(unit: ContextUnit, span: BlockSpan) -> bool:
    return any(
        c.block_id == span.block_id and span.start < c.end and c.start < span.end
        for c in unit.cited_spans
    )


def doc_comment(head: list[CodeLine]) -> list[CodeLine]:
    """A definition's doc comment (``head``: its own lines): the comment right above its
    definition line, as Go, Rust and C write it, or the docstring right under its
    signature, never a comment inside its body (``# Move the cursor to the beginning``,
    first under the signature or not: a note on the lines under it)."""
    first = next((i for i, ln in enumerate(head) if not ln.comment), None)
    if first is None:
        return []
    after = statement(head, first)[-1] + 1  # past the signature, over lines or not
    under = list(takewhile(lambda ln: ln.comment, head[after:]))
    if under and under[0].text.lstrip().startswith(_NOTE_MARKS):
        under = []  # a ``#`` or ``//`` line under a signature is about the code under it
    return [*head[:first], *under]


def documented(lines: list[CodeLine], line: CodeLine) -> list[CodeLine]:
    """The definition line a doc comment line documents (``\"\"\"Wait strategy that
    applies exponential backoff.`` -> ``class wait_exponential(wait_base):``, ``///
    Compute the display width`` -> ``pub fn display_width(text: &str) -> usize {``):
    where what it says is, the answer to "where is it done?"."""
    if not line.comment:
        return []
    head = [ln for ln in lines if ln.unit == line.unit]
    definition = next((ln for ln in head if not ln.comment), None)
    if definition is None or line not in doc_comment(head):
        return []
    return [definition]
