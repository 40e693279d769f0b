"""The call graph's ground truth for Python, read with ``ast`` (for ``call_graph.py``).

An edge is a call (or a function passed as an argument) from a function or method of the
repository to a function, method or class of the repository whose target is certain from
the source alone: a bare name defined in the file or imported from a module of the
repository (never a parameter or a local), ``self.m()`` / ``cls.m()`` / ``super().m()``
through the class and its bases, ``module.f()`` through an import, and ``x.m()`` where
``x`` was assigned a repository class's instance in the same function (``x = C(...)``)
or annotated with one. A call whose receiver's type the source does not give is no edge
(a graph that binds it guesses). A function nested in a function is a node of its own
(``outer.inner``): its calls are its own, a bare name defined by a ``def`` in it or in a
function around it is that nested function, and a name the functions around it bind
(a closure's parameter) is no call of the repository's; a function's calls to itself are
left out (the graph lists each callee once, never the caller itself).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

Node = tuple[str, tuple[str, ...]]  # (file path relative to the root, qualified name)
Edge = tuple[Node, Node]
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass
class Module:
    path: str
    name: str
    tree: ast.Module
    top: dict[str, ast.AST] = field(default_factory=dict)  # top-level defs and classes
    imports: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (module, attr)


def modules_of(root: Path) -> dict[str, Module]:
    """Every ``.py`` file under ``root``, by dotted module name."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        parts = list(relative.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        module = Module(relative.as_posix(), ".".join(parts), tree)
        module.top = {n.name: n for n in tree.body if isinstance(n, (*_FUNCTIONS, ast.ClassDef))}
        found[module.name] = module
    for module in found.values():
        module.imports = _imports(module, found)
    return found


def _imports(module: Module, modules: dict[str, Module]) -> dict[str, tuple[str, str]]:
    package = module.name if module.path.endswith("__init__.py") else module.name.rpartition(".")[0]
    bound: dict[str, tuple[str, str]] = {}
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = (alias.name, "")
                else:
                    head = alias.name.split(".")[0]
                    bound[head] = (head, "")
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            for alias in node.names:
                full = f"{base}.{alias.name}" if base else alias.name
                target = (full, "") if full in modules else (base, alias.name)
                bound[alias.asname or alias.name] = target
    return bound


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".") if package else []
    base = parts[: len(parts) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def nodes_of(modules: dict[str, Module]) -> Iterator[tuple[Module, tuple[str, ...], ast.AST]]:
    """Each top-level function, class and method, and each function nested in a function
    (what the graph makes blocks of)."""
    for module in modules.values():
        for name, node in module.top.items():
            yield module, (name,), node
            if isinstance(node, ast.ClassDef):
                for member in node.body:
                    if isinstance(member, _FUNCTIONS):
                        yield module, (name, member.name), member
                        yield from _nested(module, (name, member.name), member)
            else:
                yield from _nested(module, (name,), node)


def _nested(
    module: Module, qualname: tuple[str, ...], function: ast.AST
) -> Iterator[tuple[Module, tuple[str, ...], ast.AST]]:
    for inner in _own_nodes(function):
        if isinstance(inner, _FUNCTIONS):
            yield module, (*qualname, inner.name), inner
            yield from _nested(module, (*qualname, inner.name), inner)


def _own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's own body: a nested function or class is yielded, not
    entered (its body is its own)."""
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))


def true_edges(modules: dict[str, Module]) -> set[Edge]:
    edges = set()
    nodes = {(m.path, q): n for m, q, n in nodes_of(modules)}
    for module, qualname, node in nodes_of(modules):
        if not isinstance(node, _FUNCTIONS):
            continue
        around = [nodes.get((module.path, qualname[:k])) for k in range(len(qualname) - 1, 0, -1)]
        enclosing = [
            (qualname[:k], n)
            for k, n in zip(range(len(qualname) - 1, 0, -1), around, strict=True)
            if isinstance(n, _FUNCTIONS)
        ]
        reader = _Function(modules, module, qualname, node, enclosing)
        for target in reader.targets():
            if target != (module.path, qualname):
                edges.add(((module.path, qualname), target))
    return edges


class _Function:
    """One function's calls, resolved as ``true_edges`` says."""

    def __init__(
        self,
        modules: dict[str, Module],
        module: Module,
        qualname: tuple[str, ...],
        node: ast.AST,
        enclosing: list[tuple[tuple[str, ...], ast.AST]] | None = None,
    ) -> None:
        self.modules, self.module, self.qualname, self.node = modules, module, qualname, node
        # the function itself, then each function around it, innermost first
        self.scopes = [(qualname, node), *(enclosing or [])]
        self.locals = set().union(*(_locals(n) for _, n in self.scopes))
        self.types = _local_types(node)

    def targets(self) -> Iterator[Node]:
        for call in (n for n in _own_nodes(self.node) if isinstance(n, ast.Call)):
            found = self._callee(call.func)
            if found is not None:
                yield found
            for arg in [*call.args, *(k.value for k in call.keywords)]:
                if isinstance(arg, (ast.Name, ast.Attribute)):
                    passed = self._callee(arg)
                    if passed is not None:
                        yield passed

    def _callee(self, func: ast.AST) -> Node | None:
        if isinstance(func, ast.Name):
            return self._bare(func.id)
        if not isinstance(func, ast.Attribute):
            return None
        value = func.value
        owner = self.qualname[:-1]
        if isinstance(value, ast.Name) and value.id in ("self", "cls") and owner:
            return self._member((self.module, owner[0]), func.attr)
        if _is_super(value) and owner:
            return self._in_bases((self.module, owner[0]), func.attr)
        if isinstance(value, ast.Name) and value.id in self.types:
            cls = self._class(self.types[value.id])
            return self._member(cls, func.attr) if cls else None
        if isinstance(value, ast.Name) and value.id not in self.locals:
            kind = _module_types(self.module.tree).get(value.id, value.id)
            cls = self._class(kind)  # a module's instance, or ``Base.__init__(self)``
            if cls is not None:
                return self._member(cls, func.attr)
        if _is_self_attribute(value) and owner:
            kind = _attribute_types(self.module.top[owner[0]]).get(value.attr)  # type: ignore[union-attr]
            cls = self._class(kind) if kind else None
            return self._member(cls, func.attr) if cls else None
        module = self._module_of(value)
        if module is not None and func.attr in module.top:
            return (module.path, (func.attr,))
        return None

    def _bare(self, name: str) -> Node | None:
        for qualname, scope in self.scopes:
            if any(isinstance(n, _FUNCTIONS) and n.name == name for n in _own_nodes(scope)):
                return (self.module.path, (*qualname, name))
        if name in self.locals:
            return None
        if name in self.module.top:
            return (self.module.path, (name,))
        bound = self.module.imports.get(name)
        if bound and bound[1]:
            source = self.modules.get(bound[0])
            if source is not None and bound[1] in source.top:
                return (source.path, (bound[1],))
        return None

    def _module_of(self, value: ast.AST) -> Module | None:
        dotted = _dotted(value)
        if dotted is None or dotted.split(".")[0] in self.locals:
            return None
        head, _, rest = dotted.partition(".")
        bound = self.module.imports.get(head)
        if bound is None:
            return None
        base = f"{bound[0]}.{bound[1]}" if bound[1] else bound[0]
        return self.modules.get(f"{base}.{rest}" if rest else base)

    def _class(self, name: str) -> tuple[Module, str] | None:
        node = self._bare(name) if "." not in name else None
        if node is None:
            return None
        module = next(m for m in self.modules.values() if m.path == node[0])
        if isinstance(module.top.get(node[1][0]), ast.ClassDef):
            return module, node[1][0]
        return None

    def _member(self, cls: tuple[Module, str], name: str, depth: int = 0) -> Node | None:
        module, class_name = cls
        node = module.top.get(class_name)
        if not isinstance(node, ast.ClassDef) or depth > 10:
            return None
        if any(isinstance(m, _FUNCTIONS) and m.name == name for m in node.body):
            return (module.path, (class_name, name))
        return self._in_bases(cls, name, depth)

    def _in_bases(self, cls: tuple[Module, str], name: str, depth: int = 0) -> Node | None:
        module, class_name = cls
        node = module.top.get(class_name)
        if not isinstance(node, ast.ClassDef):
            return None
        for base in node.bases:
            found = _Function(self.modules, module, (class_name,), node)._base(base)
            if found is not None:
                member = self._member(found, name, depth + 1)
                if member is not None:
                    return member
        return None

    def _base(self, base: ast.AST) -> tuple[Module, str] | None:
        if isinstance(base, ast.Name):
            return self._class(base.id)
        if isinstance(base, ast.Attribute):
            module = self._module_of(base.value)
            if module is not None and isinstance(module.top.get(base.attr), ast.ClassDef):
                return module, base.attr
        return None


def _locals(node: ast.AST) -> set[str]:
    """Parameters and names bound in the function's own body (a nested function's name
    too, not what it binds inside); a name it imports is resolved as the module's imports
    are."""
    names: set[str] = set()
    for inner in _own_nodes(node):
        if isinstance(inner, ast.arg):
            names.add(inner.arg)
        elif isinstance(inner, ast.Name) and isinstance(inner.ctx, (ast.Store, ast.Del)):
            names.add(inner.id)
        elif isinstance(inner, (*_FUNCTIONS, ast.ClassDef)) and inner is not node:
            names.add(inner.name)
    return names


def _local_types(node: ast.AST) -> dict[str, str]:
    """``x = C(...)`` and ``x: C`` in the function: x's class name (a bare name)."""
    types = {}
    for inner in ast.walk(node):
        if isinstance(inner, ast.Assign) and isinstance(inner.value, ast.Call):
            func = inner.value.func
            if isinstance(func, ast.Name) and len(inner.targets) == 1:
                target = inner.targets[0]
                if isinstance(target, ast.Name):
                    types[target.id] = func.id
        elif isinstance(inner, (ast.arg, ast.AnnAssign)):
            annotation = inner.annotation
            name = inner.arg if isinstance(inner, ast.arg) else _dotted(inner.target)
            if isinstance(annotation, ast.Name) and name:
                types[name] = annotation.id
    return types


def _module_types(tree: ast.Module) -> dict[str, str]:
    """``x = C(...)`` at a module's top level: x's class name."""
    types = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            called = value.func if isinstance(value, ast.Call) else None
            if isinstance(target, ast.Name) and isinstance(called, ast.Name):
                types[target.id] = called.id
    return types


def _is_self_attribute(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in ("self", "this")
    )


def _attribute_types(cls: ast.ClassDef) -> dict[str, str]:
    """``self.x = C(...)`` in any method of the class: x's class name."""
    types = {}
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            called = value.func if isinstance(value, ast.Call) else None
            if _is_self_attribute(target) and isinstance(called, ast.Name):
                types[target.attr] = called.id  # type: ignore[attr-defined]
    return types


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else None
    return None


def _is_super(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
    )
