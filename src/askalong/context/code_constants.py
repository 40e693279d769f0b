"""The constants a definition reads (pure over a ``Repository``): the names declared at its
file's top level (``DEFAULT_SEPARATOR = '-'``, Go ``const``/``var``, C ``#define``, Rust
``const``) or in its class's own lines (``default_table_name = '_default'``) that its code
names. A reader asking "which character joins the words?" of ``slugify`` wants the value
``DEFAULT_SEPARATOR`` holds, not only the line ``DEFAULT_SEPARATOR.join(words)``; a
developer would go to its definition.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from askalong.context.code import line_span, place_unit
from askalong.context.code_places import Place
from askalong.context.units import ContextUnit

MAX_CONSTANTS = 16  # declaration lines read for one definition, at most (one line each)
_DECLARES = re.compile(
    r"^\s*(?:export\s+)?(?:(?:const|var|let|static|final|pub|#define)\s+)*"
    r"([A-Za-z_]\w*)(?:\s*(?::[^=\n]+)?=(?!=)|\s+[^\s=(])"
)
# Words a statement opens with: ``import os``, ``if DEBUG:`` and ``type T int`` declare no
# constant of that name.
_NOT_NAMES = frozenset(
    {
        "import", "from", "package", "if", "elif", "else", "for", "while", "return", "def",
        "class", "func", "type", "use", "mod", "fn", "struct", "enum", "impl", "try",
        "with", "switch", "case", "include", "async", "await", "raise", "throw", "new",
        "extern", "typedef", "namespace", "using", "interface", "trait", "module",
        "except", "catch", "finally", "del", "assert", "yield", "goto", "defer", "go",
        "match", "loop", "unless", "until", "begin", "end", "do", "then", "fi", "done",
    }
)  # fmt: skip


def declared_name(row: str) -> str:
    """The name a line declares (``NAME = …``, ``const NAME``, ``#define NAME 256``,
    ``FgBlack Attribute = iota + 30``); ``""`` when it declares none."""
    found = _DECLARES.match(row)
    name = found.group(1) if found else ""
    return "" if name in _NOT_NAMES else name


def constant_units(place: Place) -> list[ContextUnit]:
    """The declaration lines of the file's top level and of the definition's class that
    the definition's code names, one unit each (``MAX_CONSTANTS`` at most)."""
    words = set(re.findall(r"[A-Za-z_]\w*", place.block.text))
    units = []
    for block_place, line in _declarations(place):
        name = declared_name(line[1])
        if name in words and block_place.block.id != place.block.id:
            span = line_span(block_place.block, line[0])
            units.append(place_unit(block_place, *span))
        if len(units) == MAX_CONSTANTS:
            break
    return units


def _declarations(place: Place) -> Iterator[tuple[Place, tuple[int, str]]]:
    """Each line (number, text) of the file's top-level blocks and of the class's own
    block (its header and fields)."""
    owner = place.qualname[:-1]
    for block in place.file.blocks:
        if block.section_path and block.section_path != owner:
            continue
        first = block.lines[0] if block.lines else 1
        for number, row in enumerate(block.text.split("\n"), start=first):
            yield Place(place.file, block), (number, row)
