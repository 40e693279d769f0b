"""A source file's symbols, imports and call sites, read with tree-sitter (pure).

``code_outline`` parses once and answers with every definition (function, method, class,
struct: its qualified name, parent, kind and line range, leading comments and decorators
included), every import and every call site (the called name, what it is called on, its
line and the function it sits in). Names passed as arguments are recorded as references
(``Thread(target=_worker)`` starts ``_worker`` as surely as a call). Both walks are
tree-sitter queries, run in C: a Python walk over every node was ten times slower.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from askalong.parse.code.languages import Grammar, parser_for, queries_for

SymbolKind = Literal["function", "method", "class", "type"]
_WORD = re.compile(r"[A-Za-z_]\w*")
_GENERIC = re.compile(r"<.*>|\[.*\]", re.S)
_TABLE_NAMES = frozenset({"dot_index_expression", "method_index_expression"})
_UNFIELDED_NAMES = frozenset({"simple_identifier", "type_identifier"})


@dataclass(frozen=True)
class Symbol:
    """One definition: ``qualname`` is its parents' names then its own."""

    qualname: tuple[str, ...]
    kind: SymbolKind
    lines: tuple[int, int]  # 1-based inclusive, with its decorators and leading comments
    body: int  # the line its body starts on (the signature is ``lines[0]`` up to it)

    @property
    def name(self) -> str:
        return self.qualname[-1]

    @property
    def parent(self) -> tuple[str, ...]:
        return self.qualname[:-1]


@dataclass(frozen=True)
class CallSite:
    """A call (or a function passed by name, ``reference``) inside ``enclosing``."""

    callee: str
    receiver: str  # the text it is called on: "self", "s", "os.path"; "" for a bare name
    line: int
    enclosing: tuple[str, ...]  # the innermost function's qualname; () at module level
    reference: bool = False


@dataclass(frozen=True)
class Import:
    """An import statement: the modules or paths it names, and the names it binds."""

    line: int
    text: str
    names: tuple[str, ...]


@dataclass(frozen=True)
class CodeOutline:
    grammar: str
    symbols: tuple[Symbol, ...]
    calls: tuple[CallSite, ...]
    imports: tuple[Import, ...]
    tree: Any = None  # the tree-sitter tree, for the block builder (not compared)


def code_outline(
    source: bytes, grammar: Grammar, *, first_line: int = 1, calls: bool = True
) -> CodeOutline:
    """Everything ``source`` defines, imports and calls (``calls``: the call sites too, a
    third of the time); lines count from ``first_line``."""
    if grammar.opening and b"<?" not in source:
        source = grammar.opening.encode() + source  # on the first line: lines count the same
    if grammar.blanked:
        source = _blank(source, grammar.blanked)
    tree = parser_for(grammar).parse(source)
    definitions, call_query = queries_for(grammar)
    symbols: list[Symbol] = []
    imports: list[Import] = []
    for node, scope in _scoped(_captured(definitions, tree.root_node, "node"), grammar):
        if node.type in grammar.imports:
            imports.append(_import(node, first_line))
        elif scope.name:
            symbols.append(_symbol(node, grammar, scope, first_line))
    if grammar.extra_definitions:  # imports that are calls: ``require "json"``
        called = _captured(definitions, tree.root_node, "import")
        imports += [_import(node, first_line) for node in called]
        imports.sort(key=lambda i: i.line)
    symbols.sort(key=lambda s: (s.lines[0], -s.lines[1]))
    sites = _call_sites(call_query, tree.root_node, symbols, grammar, first_line) if calls else ()
    return CodeOutline(grammar.name, tuple(symbols), sites, tuple(imports), tree)


def _blank(source: bytes, pattern: str) -> bytes:
    """``source`` with what ``pattern`` matches turned to spaces, its line breaks kept."""
    return re.sub(pattern.encode(), lambda m: re.sub(rb"[^\n]", b" ", m.group()), source)


def _captured(query: Any, root: Any, name: str) -> list[Any]:
    from tree_sitter import QueryCursor

    return list(QueryCursor(query).captures(root).get(name, []))


class _Scope(NamedTuple):
    """A captured node's own name and what encloses it, read off the capture order
    (``node.parent`` walks down from the root in tree-sitter: asking each definition for
    its ancestors was a fifth of the outline's time)."""

    name: tuple[str, ...]  # the node's own name, () if it has none
    outer: tuple[str, ...]  # the names of the functions and containers around it
    in_function: bool  # the innermost of those is a function


def _scoped(nodes: list[Any], grammar: Grammar) -> Iterator[tuple[Any, _Scope]]:
    """Each node in source order (outer before inner) with its ``_Scope``."""
    nodes.sort(key=lambda n: (n.start_byte, -n.end_byte))  # captures come pattern by pattern
    open_: list[tuple[int, tuple[str, ...], bool]] = []  # enclosing: end, names in it, function
    for node in nodes:
        while open_ and open_[-1][0] <= node.start_byte:
            open_.pop()
        outer, in_function = (open_[-1][1], open_[-1][2]) if open_ else ((), False)
        name = _name(node, grammar) if node.type not in grammar.imports else ()
        yield node, _Scope(name, outer, in_function)
        function = node.type in grammar.functions or node.type in grammar.assigned_functions
        if function or node.type in grammar.containers:
            end = _last(node, grammar).end_byte
            open_.append((end, (*_owner(node, grammar, outer, name), *name), function))


def _name(node: Any, grammar: Grammar) -> tuple[str, ...]:
    """A definition's name as parts; where the grammar joins packages to names in one word
    (Perl), a package's name whole and a sub's as (package, name) when it gives one."""
    named = node.child_by_field_name("name") if grammar.package_separator else None
    if named is None:
        return definition_name(node)
    if node.type in grammar.containers:
        return (_text(named),)
    package, _, name = _text(named).rpartition(grammar.package_separator)
    return (package, name) if package else (name,)


def _last(node: Any, grammar: Grammar) -> Any:
    """The last node a definition covers: itself, or for a scoping statement with no block
    of its own (Perl's ``package Foo;``) the last one before the next such statement (or
    a stop: ``__END__``)."""
    if node.type not in grammar.scoping or any(c.type == "block" for c in node.named_children):
        return node
    stops = grammar.scoping | grammar.scoping_stops
    last, sibling = node, node.next_named_sibling
    while sibling is not None and sibling.type not in stops:
        last, sibling = sibling, sibling.next_named_sibling
    return last


def _owner(
    node: Any, grammar: Grammar, outer: tuple[str, ...], name: tuple[str, ...]
) -> tuple[str, ...]:
    """What a definition's own name is qualified by: a Go method's receiver type, nothing
    for a Perl package or a sub named with its package (their names are whole), else the
    definitions around it."""
    if node.type == "method_declaration" and grammar.name == "go":
        receiver = _go_receiver(node)
        return (receiver,) if receiver else outer
    if grammar.package_separator and (node.type in grammar.containers or len(name) > 1):
        return ()
    return outer


def _symbol(node: Any, grammar: Grammar, scope: _Scope, first_line: int) -> Symbol:
    kind = _kind(node, grammar)
    outer = _owner(node, grammar, scope.outer, scope.name)
    if outer != scope.outer and kind == "function":
        kind = "method"
    if kind == "function" and outer and not scope.in_function:
        kind = "method"
    wrapped = _wrapped(node, grammar)
    start = _with_comments(wrapped, grammar).start_point[0] + first_line
    body = node.child_by_field_name("body")
    body_line = (body or node).start_point[0] + first_line
    end = _last(wrapped, grammar).end_point[0] + first_line
    return Symbol((*outer, *scope.name), kind, (start, end), body_line)


def _kind(node: Any, grammar: Grammar) -> SymbolKind:
    if node.type in grammar.functions or node.type in grammar.assigned_functions:
        return "function"
    return "class" if node.type in grammar.containers else "type"


def definition_name(node: Any) -> tuple[str, ...]:
    """The name a definition node gives, as parts (``A::g`` -> ("A", "g")); () if none."""
    for field in ("name", "declarator", "type", "left"):  # left: Go's ``f := func...``
        child = node.child_by_field_name(field)
        if child is not None:
            return _name_parts(child)
    for child in node.named_children:  # a Go type_declaration's type_spec, Lua's ``f = ``
        if child.type in ("type_spec", "type_alias", "variable_list"):
            return definition_name(child)
        if child.type in _UNFIELDED_NAMES:  # Kotlin names a definition by no field
            return (_text(child),)
    return ()


def _name_parts(node: Any) -> tuple[str, ...]:
    while node.type in ("function_declarator", "pointer_declarator", "reference_declarator"):
        inner = node.child_by_field_name("declarator")
        if inner is None:
            break
        node = inner
    if node.type in ("struct_type", "interface_type", "function_declarator"):
        return ()
    if node.type in _TABLE_NAMES:  # Lua's ``function M.f``, ``function M:m``: ("M", "f")
        return tuple(_WORD.findall(node.text.decode("utf-8", "replace"))[-2:])
    text = node.text.decode("utf-8", "replace")
    if text.isascii() and text.isidentifier():  # nearly every name: what the patterns give
        return (text,)
    text = _GENERIC.sub("", text)
    return tuple(_WORD.findall(text)[-2:] if "::" in text else _WORD.findall(text)[-1:])


def _go_receiver(node: Any) -> str:
    receiver = node.child_by_field_name("receiver")
    words = _WORD.findall(_GENERIC.sub("", receiver.text.decode())) if receiver else []
    return words[-1] if words else ""


def _wrapped(node: Any, grammar: Grammar) -> Any:
    """The decorators, ``export`` or ``template`` around a definition belong to it."""
    while node.parent is not None and node.parent.type in grammar.wrappers:
        node = node.parent
    return node


def _with_comments(node: Any, grammar: Grammar) -> Any:
    """The comments right above a definition (its doc comment) start it."""
    first = node
    previous = node.prev_named_sibling
    while (
        previous is not None
        and "comment" in previous.type
        and previous.end_point[0] >= first.start_point[0] - 1
    ):
        first, previous = previous, previous.prev_named_sibling
    return first


def _import(node: Any, first_line: int) -> Import:
    text = _text(node)
    return Import(node.start_point[0] + first_line, text, tuple(dict.fromkeys(_WORD.findall(text))))


def _call_sites(
    query: Any, root: Any, symbols: list[Symbol], grammar: Grammar, first_line: int
) -> tuple[CallSite, ...]:
    from tree_sitter import QueryCursor

    functions = [s for s in symbols if s.kind in ("function", "method")]
    starts = [s.lines[0] for s in functions]
    sites = []
    for _, match in QueryCursor(query).matches(root):
        names = match.get("callee") or match.get("ref")
        if not names:
            continue
        receivers = match.get("receiver")
        callee, receiver = _text(names[0]), _text(receivers[0]) if receivers else ""
        if grammar.package_separator:
            callee, receiver = _unpackaged(callee, receiver, grammar.package_separator)
        line = names[0].start_point[0] + first_line
        sites.append(
            CallSite(
                callee=callee,
                receiver=receiver,
                line=line,
                enclosing=_enclosing(functions, starts, line),
                reference="ref" in match,
            )
        )
    sites.sort(key=lambda s: s.line)
    return tuple(sites)


def _unpackaged(callee: str, receiver: str, separator: str) -> tuple[str, str]:
    """Perl's ``&f(...)`` calls ``f``; ``Pkg::f(...)`` is ``f`` called on ``Pkg``, and
    ``$self->SUPER::m(...)`` ``m`` on ``SUPER``."""
    package, _, name = callee.lstrip("&").rpartition(separator)
    return name, package or receiver


def _text(node: Any) -> str:
    return bytes(node.text or b"").decode("utf-8", "replace")


def _enclosing(functions: list[Symbol], starts: list[int], line: int) -> tuple[str, ...]:
    """The innermost function whose lines hold ``line`` (the latest-starting one)."""
    index = bisect.bisect_right(starts, line) - 1
    while index >= 0:
        symbol = functions[index]
        if symbol.lines[0] <= line <= symbol.lines[1]:
            return symbol.qualname
        index -= 1
    return ()
