"""The imports a source file states (pure): its top-level import statements, those inside
a function's own lines, and CommonJS ``require`` bindings, read with tree-sitter and
cached; how ``code_graph.Repository`` binds a bare or module-qualified name to a file."""

from __future__ import annotations

import functools
import re
import textwrap
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from askalong.context.code_places import Place, SourceFile
from askalong.parse.code.file_names import grammar_for
from askalong.parse.code.outline import Import, code_outline
from askalong.text.patterns import lazy
from askalong.types import Block

if TYPE_CHECKING:
    from askalong.parse.code.outline import CallSite

# Languages where a bare name is its file's or an import's, never a same-named definition
# elsewhere nor a method of the caller's class.
SCOPED = frozenset({"python", "javascript", "typescript"})

_REQUIRE = lazy(
    r"\b(?:const|let|var)\s+(?:\{([^}]*)\}|(\w+))\s*=\s*require\(\s*['\"]([^'\"]+)['\"]\s*\)"
)

_QUOTED = lazy(r"['\"]([^'\"]+)['\"]")
_PACKAGE = lazy(r"\w+(?:::\w+)*")  # a Perl package's name: ``Text::Diff::Table``
_PACKAGE_STATEMENT = lazy(r"^\s*package\s+(\w+(?:::\w+)*)\s*;", re.M)


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


def _import_names(statement: Import) -> set[str]:
    """The words an import names, and the stems of the paths it quotes: a file named
    ``string-utils.js`` is no word of ``from './string-utils.js'``."""
    stems = (PurePosixPath(path).stem for path in _QUOTED.findall(statement.text))
    return {*statement.names, *stems}


@functools.lru_cache(maxsize=4096)
def _imports(source: str, texts: tuple[str, ...]) -> tuple[Import, ...]:
    grammar = grammar_for(source)
    if grammar is None:
        return ()
    return tuple(i for t in texts for i in code_outline(t.encode("utf-8"), grammar).imports)


def module_call(site: CallSite, candidates: list[Place], caller: Place) -> Place | None:
    """``module.f()`` where the file (or the function itself) imports ``module``, under
    its own name or another (``import email.charset as _charset``, a ``require``): ``f``
    of that file."""
    head = site.receiver.split(".")[-1]
    imports = (*file_imports(caller.file), *block_imports(caller.file, caller.block))
    names = [_import_names(i) for i in imports if head in i.names]
    required = file_requires(caller.file).get(head)  # ``var m = require('./m.js'); m.f()``
    if required:
        names.append({required})
    if not names:
        return None
    top = [p for p in candidates if len(p.qualname) == 1]
    return next((p for p in top if any(module_name(p.file) in n for n in names)), None)


def module_name(file: SourceFile) -> str:
    """The name a file is imported by: its stem, or its folder's for an ``__init__``."""
    parts = file.parts
    return parts[-2] if parts[-1] == "__init__" and len(parts) > 1 else parts[-1]


def bare_call(site: CallSite, candidates: list[Place], caller: Place) -> Place | None:
    """A bare name: a member of the caller's own class (Java, C++), else a top-level
    definition of the same file, of a file it imports the name from, or (where a bare name
    may reach further: Go's package, C's includes) of any file."""
    file = caller.file
    scoped = file.language in SCOPED
    own = [p for p in candidates if p.qualname == (*caller.qualname[:-1], site.callee)]
    # a Go method is always called on a receiver: a bare ``append`` is the builtin
    if own and len(own[0].qualname) > 1 and not scoped and file.language != "go":
        return own[0]
    top = [p for p in candidates if len(p.qualname) == 1]
    imports = (*file_imports(file), *block_imports(file, caller.block))
    imported = {n for i in imports if site.callee in i.names for n in _import_names(i)}
    required = file_requires(file).get(site.callee)
    if required:
        imported.add(required)
    if scoped:
        top = [p for p in top if p.file == file or module_name(p.file) in imported]
    if not top:
        return None

    def rank(place: Place) -> tuple[bool, bool, bool]:
        return (
            place.file != file,
            not (imported & set(place.file.parts)),
            place.file.folder != file.folder,
        )

    return min(top, key=rank)


def package_call(site: CallSite, candidates: list[Place], caller: Place) -> Place | None:
    """Perl: ``Pkg::f()`` and ``Pkg->m()`` are ``f`` of the package ``Pkg``; a bare ``f()``
    is the ``f`` of the package its sub is compiled in (the ``package`` statement above
    it, whatever package the sub's own name gives), else of a package the file ``use``s
    (``use Text::Diff;`` exports ``diff``), else one defined with no package. A call on a
    variable (``$obj->m``) stays unresolved: Perl declares no types."""
    if site.receiver:
        return next((p for p in candidates if p.qualname == (site.receiver, site.callee)), None)
    packages = [_compiled_in(caller.file, caller.block), caller.qualname[:-1]]
    used = [n for i in file_imports(caller.file) for n in _PACKAGE.findall(i.text)]
    packages += [(n,) for n in used]
    for package in packages:
        found = next((p for p in candidates if p.qualname == (*package, site.callee)), None)
        if found is not None:
            return found
    return None


def _compiled_in(file: SourceFile, block: Block) -> tuple[str, ...]:
    """The package of the last ``package`` statement above ``block`` (a Perl file)."""
    package: tuple[str, ...] = ()
    for each in file.blocks:
        if each.lines and block.lines and each.lines[0] > block.lines[0]:
            break
        for found in _PACKAGE_STATEMENT.finditer(each.text):
            package = (found.group(1),)
    return package
