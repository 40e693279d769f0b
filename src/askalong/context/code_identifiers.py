"""An identifier of a repository's code (pure): where it is defined and every line that
names it, for the reader's clickable names.

A definition is found as a developer would look for it: the call at the clicked line
resolved through the call graph (``Repository.resolve``: scope, imports, receiver types)
when the name is called there; else the functions, methods and classes of that name (the
clicked file first); else the constants, variables and fields assigned or declared so
(``NAME = …`` at a module's or a class's level, ``self.name = …``, Go ``const``/``var``
and struct fields, Java fields, JS ``const``); else the clicked file's import of it. A
reference is any line of the repository naming it as a whole word outside a comment line,
counted per file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from askalong.context.code_graph import Repository, block_calls, is_class
from askalong.context.code_places import Place, SourceFile

IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]{0,99}")
SHOWN_CHARS = 160  # of a reference's line
_COMMENT_LINE = ("#", "//", "/*", "*", "--")
_IMPORT = re.compile(r"\s*(?:import|from|using|use|#include|require)\b|\s*\w+\s*=\s*require\(")
# Words that open a statement, never a declaration's type: ``if DEBUG:`` declares nothing.
_STATEMENT = "(?:if|elif|while|for|return|case|assert|del|yield|await|not|raise|import|from)"


@dataclass(frozen=True)
class Definition:
    """Where a name is defined: a block and its line, and what it is."""

    place: Place
    line: int
    kind: str  # "function", "method", "class", "constant", "field", "variable", "import"


@dataclass(frozen=True)
class Reference:
    """A line naming the identifier: its block, line, the code-point span in the block,
    and the line's own text (trimmed) to show."""

    place: Place
    line: int
    start: int
    end: int
    text: str


def definitions(repository: Repository, name: str, at: Place, line: int) -> list[Definition]:
    """Where ``name``, clicked at ``line`` of ``at``, is defined (see the module's note)."""
    called = _called_at(repository, name, at, line)
    if called is not None:
        return [_symbol_definition(repository, called)]
    symbols = [p for p in repository.defined.get(name, []) if p.file.language == at.file.language]
    if symbols:
        symbols.sort(key=lambda p: (p.file != at.file, p.file.folder != at.file.folder))
        return [_symbol_definition(repository, p) for p in symbols]
    found = [d for file in repository.files for d in _assignments(repository, file, name)]
    owner = at.qualname[:-1] if len(at.qualname) > 1 else at.qualname
    own = [d for d in found if owner and d.place.file == at.file and _inside(d.place, owner)]
    if own:  # ``self._waiters`` in Lock: Lock's own field, not every class's
        return own
    found.sort(key=lambda d: (d.place.file != at.file, d.place.file.folder != at.file.folder))
    return found or list(_imports(at.file, name))


def _imports(file: SourceFile, name: str) -> Iterator[Definition]:
    """The import lines of ``file`` that bring ``name`` in (a library's module or class)."""
    word = _word(name)
    for block in file.blocks:
        first = block.lines[0] if block.lines else 1
        for number, row in enumerate(block.text.split("\n"), start=first):
            if _IMPORT.match(row) and word.search(row):
                yield Definition(Place(file, block), number, "import")


def _inside(place: Place, owner: tuple[str, ...]) -> bool:
    return place.qualname[: len(owner)] == owner


def references(repository: Repository, name: str) -> Iterator[Reference]:
    """Every line naming ``name`` as a whole word, outside comment lines, file by file."""
    word = _word(name)
    for file in repository.files:
        for block in file.blocks:
            if name not in block.text:
                continue
            yield from _block_references(Place(file, block), word)


def _block_references(place: Place, word: re.Pattern[str]) -> Iterator[Reference]:
    first = place.block.lines[0] if place.block.lines else 1
    offset = 0
    for number, row in enumerate(place.block.text.split("\n"), start=first):
        found = word.search(row)
        if found is not None and not row.lstrip().startswith(_COMMENT_LINE):
            span = offset + found.start(), offset + found.end()
            yield Reference(place, number, *span, row.strip()[:SHOWN_CHARS])
        offset += len(row) + 1


def _called_at(repository: Repository, name: str, at: Place, line: int) -> Place | None:
    for site in block_calls(at.file, at.block):
        if site.line == line and site.callee == name:
            return repository.resolve(site, at)
    return None


def _symbol_definition(repository: Repository, place: Place) -> Definition:
    """A function, method or class block, at its own line (past comments, decorators): a
    method when defined in a class, a function at top level or nested in a function."""
    owner = place.qualname[:-1]
    parent = repository.definition(owner, place.file) if owner else None
    method = len(place.qualname) > 1 and (parent is None or is_class(parent.block))
    kind = "method" if method else "function"
    if is_class(place.block):
        kind = "class"
    return Definition(place, _head_line(place, place.qualname[-1]), kind)


def _head_line(place: Place, name: str) -> int:
    """The first line of the block naming ``name`` (its ``def``/``func``/``class`` line)."""
    first = place.block.lines[0] if place.block.lines else 1
    word = _word(name)
    for number, row in enumerate(place.block.text.split("\n"), start=first):
        if word.search(row) and not row.lstrip().startswith((*_COMMENT_LINE, "@")):
            return number
    return first


def _assignments(repository: Repository, file: SourceFile, name: str) -> Iterator[Definition]:
    """The lines of ``file`` that assign or declare ``name`` outside any function (or as a
    field of an object: ``self.name =``)."""
    patterns = _declaring(name)
    for block in file.blocks:
        if name not in block.text:
            continue
        place = Place(file, block)
        level = _level(repository, place)
        first = block.lines[0] if block.lines else 1
        for number, row in enumerate(block.text.split("\n"), start=first):
            kind = _declared(patterns, row, level, name)
            if kind:
                yield Definition(place, number, kind)


def _level(repository: Repository, place: Place) -> str:
    """``"top"`` (a file's statements), ``"class"`` (a class's own lines) or ``"function"``."""
    if not place.qualname:
        return "top"
    if is_class(place.block):
        return "class"
    owner = repository.definition(place.qualname, place.file)
    return "class" if owner is not None and is_class(owner.block) else "function"


def _declared(patterns: tuple[re.Pattern[str], ...], row: str, level: str, name: str) -> str:
    field, top, member = patterns
    if field.search(row):
        return "field"
    if level == "top" and top.search(row):
        return "constant" if name.isupper() or "const " in row else "variable"
    if level == "class" and (member.search(row) or top.search(row)):
        return "constant" if name.isupper() else "field"
    return ""


def _declaring(name: str) -> tuple[re.Pattern[str], ...]:
    """(an object's field assigned, a top-level declaration, a class member declared)."""
    n = re.escape(name)
    assigned = r"\s*(?::[^=\n]+)?=(?!=)"
    return (
        re.compile(rf"\b(?:self|this)\.{n}{assigned}"),
        re.compile(
            rf"^\s*(?:export\s+)?(?:(?:const|let|var|static|final|public|private|protected)\s+)*"
            rf"(?!{_STATEMENT}\b)(?:[\w<>\[\],.?*]+\s+)?{n}\b"
            rf"(?:{assigned}|\s*[:;]|\s+[\w*\[\].]+\s*(?:=|$))"
        ),
        re.compile(rf"^\s+{n}\s+[\w*\[\].{{}}]+"),  # a Go struct field: ``Name Type``
    )


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
