"""The JSON forms of reading code: a source file's symbols, a place in a repository (a
citation: document, block, lines), a call between two places, a node of a call tree, the
reader's code view (a file's symbols and each block's highlighting spans) and an
identifier's definitions and references."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from typing_extensions import TypedDict

if TYPE_CHECKING:  # the code graph and the highlighter (pygments) are the builders' callers'
    # to load: ``askalong ask`` prints answers through this package (~20 CPU ms)
    from askalong.context.call_tree import CallNode
    from askalong.context.code_identifiers import Definition, Reference
    from askalong.context.code_places import Place
    from askalong.parse.code.tokens import TokenSpan
    from askalong.types import Block
    from askalong.values.collections import Collection

MAX_LINES_PER_FILE = 200  # references listed per file; the count is always whole


class SymbolJSON(TypedDict):
    """A definition of a source file: ``name`` is the qualified name dotted, ``qualname``
    its parts (nesting: ``["Lock", "acquire"]`` is inside ``Lock``)."""

    name: str
    qualname: list[str]
    block_id: str
    lines: list[int] | None


class PlaceJSON(TypedDict):
    """A function, method or class of a repository, as a citation."""

    name: str
    document_id: str
    source: str
    block_id: str
    lines: list[int] | None


class CallJSON(TypedDict):
    """A call: ``line`` is where the caller calls, ``place`` the other end."""

    line: int
    place: PlaceJSON


class CallNodeJSON(TypedDict):
    """A node of a call tree (``askalong calls --json``)."""

    depth: int
    name: str
    document_id: str
    source: str
    block_id: str
    lines: list[int] | None
    called_at: int | None
    cycle: bool


class BlockTokensJSON(TypedDict):
    """A block's coloured spans, ``[start, end, kind]`` in code points of its text."""

    block_id: str
    tokens: list[tuple[int, int, str]]


class RepositoryRefJSON(TypedDict):
    """A collection holding the file: its repository, whose file tree the reader links."""

    id: str
    name: str


class CodeViewJSON(TypedDict):
    document_id: str
    symbols: list[SymbolJSON]
    blocks: list[BlockTokensJSON]
    repositories: list[RepositoryRefJSON]


def symbols_json(blocks: Sequence[Block]) -> list[SymbolJSON]:
    """A source file's definitions: qualified name, block and lines, in reading order."""
    seen: set[tuple[str, ...]] = set()
    symbols: list[SymbolJSON] = []
    for block in blocks:
        if block.section_path and block.section_path not in seen:  # a symbol's first block
            seen.add(block.section_path)
            symbols.append(
                {
                    "name": ".".join(block.section_path),
                    "qualname": list(block.section_path),
                    "block_id": block.id,
                    "lines": list(block.lines) if block.lines else None,
                }
            )
    return symbols


def place_json(place: Place) -> PlaceJSON:
    return {
        "name": ".".join(place.qualname),
        "document_id": place.file.document_id,
        "source": place.file.source,
        "block_id": place.block.id,
        "lines": list(place.block.lines) if place.block.lines else None,
    }


def call_json(line: int, place: Place) -> CallJSON:
    return {"line": line, "place": place_json(place)}


def call_node_json(node: CallNode) -> CallNodeJSON:
    return {
        "depth": node.depth,
        **place_json(node.place),
        "called_at": node.line,
        "cycle": node.cut == "cycle",
    }


def code_view_json(
    document_id: str,
    blocks: Sequence[Block],
    tokens: Sequence[Sequence[TokenSpan]],
    repositories: Sequence[Collection] = (),
) -> CodeViewJSON:
    """The code view of a file: its symbols, ``tokens[i]`` as ``blocks[i]``'s spans, and
    the collections holding it (its repositories)."""
    return {
        "repositories": [{"id": c.id, "name": c.name} for c in repositories],
        "document_id": document_id,
        "symbols": symbols_json(blocks),
        "blocks": [
            {"block_id": block.id, "tokens": [(t.start, t.end, t.kind) for t in spans]}
            for block, spans in zip(blocks, tokens, strict=True)
        ],
    }


class DefinitionJSON(TypedDict):
    """Where an identifier is defined: ``kind`` is function, method, class, constant,
    field, variable or import; ``line`` the line of the definition in ``place``."""

    kind: str
    line: int
    place: PlaceJSON


class ReferenceLineJSON(TypedDict):
    """A line naming the identifier: ``[start, end)`` its code points in the block,
    ``text`` the line trimmed (at most 160 characters)."""

    line: int
    block_id: str
    start: int
    end: int
    text: str


class ReferenceFileJSON(TypedDict):
    """A file's references: ``count`` every one, ``lines`` the first ``MAX_LINES_PER_FILE``."""

    document_id: str
    source: str
    path: str
    count: int
    lines: list[ReferenceLineJSON]


class IdentifierJSON(TypedDict):
    name: str
    definitions: list[DefinitionJSON]
    references: int
    files: list[ReferenceFileJSON]


def identifier_json(
    name: str, found: Sequence[Definition], named: Sequence[Reference]
) -> IdentifierJSON:
    """An identifier's definitions and its references grouped by file, in the order given."""
    files: dict[str, ReferenceFileJSON] = {}
    for ref in named:
        file = ref.place.file
        entry = files.setdefault(
            file.document_id,
            {
                "document_id": file.document_id,
                "source": file.source,
                "path": file.where,
                "count": 0,
                "lines": [],
            },
        )
        entry["count"] += 1
        if len(entry["lines"]) < MAX_LINES_PER_FILE:
            entry["lines"].append(
                {
                    "line": ref.line,
                    "block_id": ref.place.block.id,
                    "start": ref.start,
                    "end": ref.end,
                    "text": ref.text,
                }
            )
    return {
        "name": name,
        "definitions": [
            {"kind": d.kind, "line": d.line, "place": place_json(d.place)} for d in found
        ],
        "references": len(named),
        "files": list(files.values()),
    }
