"""The classes a class derives from, as its header names them (pure): Python's
parenthesised list, Java/TS/C# ``extends``/``implements``, C++'s ``: public``, a Go
struct's embedded fields (``type Engine struct { RouterGroup; … }``: Engine has
RouterGroup's methods, so ``engine.GET()`` is ``RouterGroup.GET``), and a Perl package's
``use parent`` / ``use base`` / ``@ISA`` (whole package names: ``Text::Diff::Base``).
"""

from __future__ import annotations

import re

from askalong.text.patterns import lazy

# A class header's bases: Python's parenthesised list, Java/TS/C# ``extends``/``implements``,
# C++'s ``: public``.
_PY_BASES = lazy(r"^\s*class\s+\w+\s*\(([^)]*)\)", re.M)
_OTHER_BASES = lazy(
    r"\b(?:extends|implements)\s+([\w.]+(?:<[^>]*>)?(?:\s*,\s*[\w.]+(?:<[^>]*>)?)*)"
)
_CPP_BASE = lazy(
    r"\b(?:class|struct)\s+\w+\s*:\s*(?:(?:public|protected|private|virtual)\s+)*([\w:]+)"
)
# Doc comments and comment lines (C-style and Python's) above a class's header.
_COMMENTS = lazy(r"/\*.*?\*/|^\s*(?://|#)[^\n]*", re.S | re.M)
_GO_STRUCT = lazy(r"^\s*type\s+\w+(?:\[[^\]]*\])?\s+struct\s*\{", re.M)
# An embedded field: a type alone on its line, maybe a pointer or another package's.
_GO_EMBEDDED = lazy(r"^\s*\*?(?:\w+\.)?([A-Za-z_]\w*)\s*(?:`[^`]*`)?\s*(?://.*)?$")


# Perl: ``use parent -norequire, 'A::B';``, ``use base qw(A B);``, ``our @ISA = qw( A B );``
_PERL_BASES = lazy(
    r"^\s*(?:use\s+(?:parent|base)\s+(?:-norequire\s*,\s*)?|(?:our\s+)?@ISA\s*=\s*)"
    r"(qw\s*[(\[{/][^)\]}/]*|['\"][\w:]+['\"](?:\s*,\s*['\"][\w:]+['\"])*)",
    re.M,
)


def perl_bases(text: str) -> frozenset[str]:
    """The packages a Perl package block names as its parents, whole."""
    found = (m.group(1).removeprefix("qw") for m in _PERL_BASES.finditer(text))
    return frozenset(n for group in found for n in re.findall(r"\w+(?:::\w+)*", group))


def class_bases(text: str) -> frozenset[str]:
    """The base classes a class block's header names (``class_bases("class A(b.B, C):")``
    is ``{"B", "C"}``); keywords such as ``metaclass=`` are not bases; a Go struct's are
    the types it embeds."""
    embedded = go_embedded(text) or perl_bases(text)
    if embedded:
        return embedded
    code = _COMMENTS.sub(" ", text)  # "This class implements a stream" in its doc comment
    header = code.split("{", 1)[0].split(":\n", 1)[0]
    python = _PY_BASES.search(header)
    found = (
        [python.group(1)] if python else _OTHER_BASES.findall(header) or _CPP_BASE.findall(header)
    )
    plain = (re.sub(r"<[^<>]*>", "", group) for group in found)  # generics' commas
    names = (part.strip() for group in plain for part in group.split(","))
    return frozenset(
        re.split(r"[<\s]", name)[0].replace("::", ".").rsplit(".", 1)[-1]
        for name in names
        if name and "=" not in name
    )


def go_embedded(text: str) -> frozenset[str]:
    """The types a Go struct block embeds (``RouterGroup``, ``*sync.Mutex`` → ``Mutex``)."""
    found = _GO_STRUCT.search(text)
    if found is None:
        return frozenset()
    body = text[found.end() :].rsplit("}", 1)[0]
    return frozenset(m.group(1) for row in body.split("\n") if (m := _GO_EMBEDDED.match(row)))
