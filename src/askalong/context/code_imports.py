"""The imports a source file states (pure): its top-level import statements, those inside
a function's own lines, and CommonJS ``require`` bindings, read with tree-sitter and
cached; how ``code_graph.Repository`` binds a bare or module-qualified name to a file."""

from __future__ import annotations

import functools
import re
import textwrap
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from askalong.parse.code.languages import grammar_for
from askalong.parse.code.outline import Import, code_outline
from askalong.types import Block

if TYPE_CHECKING:
    from askalong.context.code_graph import SourceFile

_REQUIRE = re.compile(
    r"\b(?:const|let|var)\s+(?:\{([^}]*)\}|(\w+))\s*=\s*require\(\s*['\"]([^'\"]+)['\"]\s*\)"
)


def block_imports(file: SourceFile, block: Block) -> tuple[Import, ...]:
    """The imports inside a function's own lines (``from .parser import Parser`` in it)."""
    return _imports(file.source, (textwrap.dedent(block.text),))


def file_requires(file: SourceFile) -> dict[str, str]:
    """CommonJS: each name ``const x = require('./dir/mod')`` (or ``const {x, y} = ...``)
    binds, with the module's stem (``mod``)."""
    if file.language not in ("javascript", "typescript"):
        return {}
    bound = {}
    for block in file.blocks:
        if block.section_path:
            continue
        for names, single, path in _REQUIRE.findall(block.text):
            stem = PurePosixPath(path).stem if path.startswith(".") else path
            for name in [single] if single else re.findall(r"\w+", names):
                bound[name] = stem
    return bound


def file_imports(file: SourceFile) -> tuple[Import, ...]:
    """The imports of the file's top-level statement blocks."""
    return _imports(file.source, tuple(b.text for b in file.blocks if not b.section_path))


@functools.lru_cache(maxsize=4096)
def _imports(source: str, texts: tuple[str, ...]) -> tuple[Import, ...]:
    grammar = grammar_for(source)
    if grammar is None:
        return ()
    return tuple(i for t in texts for i in code_outline(t.encode("utf-8"), grammar).imports)
