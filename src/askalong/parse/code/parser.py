"""A source file -> blocks that follow its structure (runs in the parser guard's child).

Every definition is a block of its own: a function, a method, a struct, a function
nested in a function; a class (an ``impl``, a namespace) gives a header block (its line,
docstring and fields up to its first member) and then its members, and a function with
nested definitions its header block (up to the first of them), each nested one, and the
lines after each as blocks of its own section (``context/code_own.py`` reads them as
one). What lies between definitions (imports, constants, a ``main`` guard) is a statement
block of its section. A block's text is its source lines exactly, ``lines`` their 1-based
range, and its section path its qualified name, so a quote maps to exact lines and
carries its symbol. A file in a language without a grammar here goes in as line blocks
(blank-line paragraphs packed to ``TEXT_BLOCK_LINES``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import PurePosixPath

from askalong.errors import EmptyDocument
from askalong.parse.boundary import parser_boundary
from askalong.parse.code.file_names import grammar_for
from askalong.parse.code.outline import Symbol, code_outline
from askalong.parse.flow.decoding import decode
from askalong.types import Block, ParsedDocument

TEXT_BLOCK_LINES = 40
_BARE = re.compile(r"[\s{}()\[\];,]*")  # a span of only these is no block


def parse(data: bytes, *, source: str) -> ParsedDocument:
    """Source bytes -> code blocks (``kind="code"``) with lines and qualified names."""
    with parser_boundary("code", source):
        return _parse(data, source)


def _parse(data: bytes, source: str) -> ParsedDocument:
    if not data.strip():
        raise EmptyDocument("the file is empty", source=source)
    text = decode(data, source=source).text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    grammar = grammar_for(source, data)
    if grammar is None:
        spans = list(_text_spans(lines))
    else:
        # Blocks need the definitions only: the calls are read from a block when asked.
        outline = code_outline(text.encode("utf-8"), grammar, calls=False)
        kept = _block_level(outline.symbols, nested=grammar.nested_functions)
        spans = list(_structure(kept, 1, len(lines), ()))
    blocks = tuple(_blocks(lines, spans))
    title = PurePosixPath(source.replace("\\", "/")).name or source
    return ParsedDocument(format="code", blocks=blocks, title=title)


Span = tuple[int, int, tuple[str, ...]]  # first line, last line, section path


def _block_level(symbols: Sequence[Symbol], *, nested: bool) -> list[Symbol]:
    """The definitions that are blocks: every one whose lines lie wholly inside the lines
    after its parent's first (a class's members; with ``nested``, a function nested in a
    function too), none that overlaps another's partly or starts on its parent's first
    line."""
    kept: list[Symbol] = []
    open_: list[Symbol] = []  # kept symbols whose lines are still running
    for symbol in symbols:
        while open_ and open_[-1].lines[1] < symbol.lines[0]:
            open_.pop()
        parent = open_[-1] if open_ else None
        if parent and (
            symbol.lines[1] > parent.lines[1]
            or symbol.lines[0] <= parent.lines[0]
            or (parent.kind != "class" and not nested)
        ):
            continue
        kept.append(symbol)
        open_.append(symbol)
    return kept


def _structure(
    symbols: Sequence[Symbol], first: int, last: int, section: tuple[str, ...]
) -> Iterator[Span]:
    """Spans for the lines ``first..last``, which hold exactly ``symbols`` (block-level,
    sorted by first line): each member, the members inside it right after it."""
    line, index = first, 0
    while index < len(symbols):
        member = symbols[index]
        start, end = member.lines
        after = index + 1
        while after < len(symbols) and symbols[after].lines[0] <= end:
            after += 1
        inner = symbols[index + 1 : after]  # only a class has any (``_block_level``)
        if line < start:
            yield (line, start - 1, section)
        if inner:
            header_end = inner[0].lines[0] - 1
            yield (start, max(header_end, start), member.qualname)
            yield from _structure(inner, header_end + 1, end, member.qualname)
        else:
            yield (start, end, member.qualname)
        line, index = end + 1, after
    if line <= last:
        yield (line, last, section)


def _text_spans(lines: Sequence[str]) -> Iterator[Span]:
    """Blank-line paragraphs packed into blocks of at most ``TEXT_BLOCK_LINES`` lines."""
    start = 1
    for number in range(1, len(lines) + 1):
        full = number - start + 1 >= TEXT_BLOCK_LINES
        if full or (not lines[number - 1].strip() and number - start >= TEXT_BLOCK_LINES // 2):
            yield (start, number, ())
            start = number + 1
    if start <= len(lines):
        yield (start, len(lines), ())


def _blocks(lines: Sequence[str], spans: Sequence[Span]) -> Iterator[Block]:
    """The spans as blocks, blank edge lines dropped; a span of only braces is dropped."""
    order = 0
    for first, last, section in spans:
        while first <= last and not lines[first - 1].strip():
            first += 1
        while last >= first and not lines[last - 1].strip():
            last -= 1
        if first > last:
            continue
        text = "\n".join(lines[first - 1 : last])
        if _BARE.fullmatch(text):
            continue
        yield Block(
            id=f"b{order}", kind="code", text=text, order=order, section_path=section,
            lines=(first, last),
        )  # fmt: skip
        order += 1
