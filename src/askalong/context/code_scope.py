"""What a function's own text says about its names (pure): which names are its parameters
and locals (never a call target elsewhere in the repository: a parameter ``request``
called as ``request()`` is not the module's ``request`` function), and which class a
receiver is known to hold (``x = Parser(...)``, ``x: Parser``, ``Parser x = new
Parser()``, ``x := &Parser{}``): only then may ``x.feed()`` bind to ``Parser.feed``.

Python is read with ``ast`` (exact, and a function parses in well under a millisecond);
other languages with a few declaration patterns, which may miss a local (the call then
stays resolved as before) but never invent a type.
"""

from __future__ import annotations

import ast
import functools
import re
import textwrap
from collections.abc import Sequence

from askalong.text.patterns import lazy

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_TYPE = r"([A-Z]\w*)"
_JS_LOCAL = lazy(r"\b(?:let|const|var)\s+(\w+)")
_GO_LOCAL = lazy(r"\b(\w+)(?:\s*,\s*\w+)*\s*:=|\bvar\s+(\w+)")
_COMMENTS = lazy(r"/\*.*?\*/|//[^\n]*", re.S)
_JAVA_LOCAL = lazy(r"\b[A-Z]\w*(?:<[^;=()]*>)?(?:\[\])?\s+(\w+)\s*[=;:)]")


@functools.lru_cache(maxsize=65536)
def bound_names(language: str, text: str) -> frozenset[str]:
    """The parameters and locals of the function whose block is ``text`` (nested
    functions' too: a name bound there is not a repository's function either)."""
    if language == "python":
        tree = _python(text)
        if tree is not None:
            return frozenset(_python_bound(tree))
    if language == "perl":  # a variable carries its sigil: a bare name is never one
        return frozenset()
    patterns = {"go": _GO_LOCAL, "javascript": _JS_LOCAL, "typescript": _JS_LOCAL}
    pattern = patterns.get(language, _JAVA_LOCAL)
    return frozenset(n for m in pattern.finditer(text) for n in m.groups() if n)


@functools.lru_cache(maxsize=65536)
def receiver_type(language: str, text: str, receiver: str) -> str:
    """The class name ``receiver`` is known to hold in the function ``text``, or ``""``."""
    if not receiver.isidentifier():
        return ""
    if language == "python":
        tree = _python(text)
        return _python_types(tree).get(receiver, "") if tree is not None else ""
    name = re.escape(receiver)
    text = _COMMENTS.sub(" ", text)  # "the ASCII Characters" in a comment declares nothing
    java = rf"\b{_TYPE}(?:<[^;=()]*>)?\s+{name}\b"  # T x
    for pattern in (
        rf"\b{name}\s*(?::=|=)\s*(?:new\s+|&)?{_TYPE}\s*[({{]",  # x := &T{}, x = new T()
        # Go writes ``x T``: an embedded ``Pos`` above ``tr *Tree`` types nothing
        *([] if language == "go" else [java]),
        rf"\b{name}\s+\*?{_TYPE}\b",  # Go: x *T, var x T
        rf"\b{name}\s*:\s*{_TYPE}\b",  # TypeScript: x: T
    ):
        found = re.search(pattern, text)
        if found:
            return found.group(1)
    if language == "go":  # an unexported type is lower-case: ``l *lexer`` on one line
        found = re.search(rf"\b{name}[ \t]+\*?([a-z_]\w*)\b", text)
        return found.group(1) if found else ""
    return ""


def field_type(language: str, class_texts: Sequence[str], name: str) -> str:
    """The class a field is declared with in a class's own lines (Java ``Deflater def;``,
    Go ``def *Deflater``, TypeScript ``def: Deflater``), or ``""``; Python's fields are
    ``self.x = C()`` (``attribute_type``)."""
    if language == "python":
        return ""
    return next((t for text in class_texts if (t := receiver_type(language, text, name))), "")


def attribute_type(text: str, attribute: str) -> str:
    """``self.attr = T(...)`` / ``this.attr = new T(...)`` in a class's block: ``T``."""
    found = re.search(
        rf"\b(?:self|this)\.{re.escape(attribute)}\s*(?::\s*[\w.]+\s*)?=\s*(?:new\s+)?{_TYPE}\(",
        text,
    )
    return found.group(1) if found else ""


@functools.lru_cache(maxsize=16384)
def _python(text: str) -> ast.Module | None:
    try:
        return ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError):
        return None


def _python_bound(tree: ast.Module) -> set[str]:
    function = next((n for n in tree.body if isinstance(n, _FUNCTIONS)), None)
    if function is None:
        return set()
    names: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (*_FUNCTIONS, ast.ClassDef)) and node is not function:
            names.add(node.name)
    return names


@functools.lru_cache(maxsize=16384)
def _python_types(tree: ast.Module) -> dict[str, str]:
    """``x = C(...)``, ``x: C = ...`` and a parameter ``x: C``: x's class name."""
    types = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            called = value.func if isinstance(value, ast.Call) else None
            if isinstance(target, ast.Name) and isinstance(called, ast.Name):
                types[target.id] = called.id
        elif isinstance(node, ast.arg) and isinstance(node.annotation, ast.Name):
            types[node.arg] = node.annotation.id
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            annotation = node.annotation
            if isinstance(annotation, ast.Name):
                types[node.target.id] = annotation.id
    return types


_JAVA_STATIC = lazy(r"^\s*import\s+static\s+(?:[\w$]+\.)*?([A-Z][\w$]*)\.([\w$]+|\*)\s*;", re.M)


def static_import_owners(header: str, name: str) -> list[str]:
    """The classes a Java file's ``import static a.b.C.name;`` (first) or ``a.b.C.*``
    imports may bring ``name`` from, in that order."""
    found = _JAVA_STATIC.findall(header)
    named = [owner for owner, member in found if member == name]
    return named + [owner for owner, member in found if member == "*"]
