"""A repository's code as a graph (pure): which block defines a name, what a block calls,
which blocks call it.

The blocks of a source file are its definitions (``parse/code/parser.py``), each with
its qualified name as section path; a block's call sites are read again from its own
text with tree-sitter when asked (a function parses in well under a millisecond) and
cached. A call is resolved by name within the repository: a method called on ``self``
(``this``, ``cls``, a Go receiver) to its own class first, then to a class it names as a
base (``class Lock(mixins._LoopBoundMixin)``, ``extends``), a bare name to a top-level
function of the same file, then of a file the caller imports, then anywhere; a call on
any other object only when the name is imported from a module or defined once.
"""

from __future__ import annotations

import functools
import re
import textwrap
from collections.abc import Iterator, Sequence
from dataclasses import replace

from askalong.context.code_bases import class_bases
from askalong.context.code_imports import bare_call, module_call, package_call
from askalong.context.code_own import own_blocks, own_text, scope_bound
from askalong.context.code_paths import shown_paths
from askalong.context.code_places import Place, SourceFile
from askalong.context.code_scope import (
    attribute_type,
    field_type,
    receiver_type,
    static_import_owners,
)
from askalong.parse.code.file_names import grammar_for
from askalong.parse.code.outline import CallSite, code_outline
from askalong.text.patterns import lazy
from askalong.types import Block

SELF_NAMES = frozenset({"self", "cls", "this", "Self", "__PACKAGE__"})
_ARROW_LANGUAGES = frozenset({"javascript", "typescript"})
# ``const f = (a, b) =>``, ``let f = async x =>``: an arrow function's header line
_ARROW = lazy(
    r"(?:export\s+)?(?:const|let|var)\s+\w+\s*(?::[^=]+)?="
    r"\s*(?:async\s+)?(?:\([^)]*\)|\w+)\s*(?::[^=]+)?=>"
)
# Languages where a bare call is a method of the caller's class, its bases or the classes
# around it (a local variable is never called: the call syntax says method).
MEMBER_CALLS = frozenset({"java"})
SUPER_NAMES = frozenset({"super()", "super", "SUPER"})  # Perl: ``$self->SUPER::new``
MAX_BASES = 8  # levels of base classes followed
_NEW = lazy(r"^new\s+([A-Z]\w*)\b")
_NOT_HEADER = ("#", "//", "/*", "*", "@")
_CLASS_HEADER = lazy(
    r"(?:(?:export|public|private|protected|abstract|final|static|default|sealed"
    r"|data|open|internal|inner|value|annotation)\s+)*"  # Kotlin's ``data class``
    r"(?:(?:class|struct|interface|enum|record|type|impl)\b|(?:module|object)\s+[A-Z]"
    r"|package\s+\w+(?:::\w+)*\s*[;{])"
)  # Ruby's ``module Paint``, Kotlin's ``object Registry``, Perl's ``package Text::Diff;``:
# members called on the name
_GO_RECEIVER = lazy(r"^\s*func\s*\(\s*(\w+)", re.M)
_GO_RETURNS = lazy(r"^func\s+\w+\([^)]*\)\s*\*?(\w+)\s*\{", re.M)  # a function's type


def block_calls(file: SourceFile, block: Block) -> tuple[CallSite, ...]:
    """The call sites in ``block`` (lines of the file), with their enclosing function."""
    return _calls(file.source, block.text, block.lines[0] if block.lines else 1)


@functools.lru_cache(maxsize=65536)
def _calls(source: str, text: str, first_line: int) -> tuple[CallSite, ...]:
    grammar = grammar_for(source)
    if grammar is None:
        return ()
    # A method's lines keep their indentation; dedented they parse as a top-level definition.
    outline = code_outline(textwrap.dedent(text).encode("utf-8"), grammar, first_line=first_line)
    return outline.calls


class Repository:
    """The source files asked about together, indexed by the names they define."""

    def __init__(self, files: Sequence[SourceFile]) -> None:
        shown = shown_paths([f.source for f in files])
        self.files = tuple(replace(f, shown_path=s) for f, s in zip(files, shown, strict=True))
        self.defined: dict[str, list[Place]] = {}
        for file in self.files:
            seen: set[tuple[str, ...]] = set()
            for block in file.blocks:  # a definition's first block stands for it
                if block.section_path and block.section_path not in seen:
                    seen.add(block.section_path)
                    self.defined.setdefault(block.section_path[-1], []).append(Place(file, block))

    def file(self, document_id: str) -> SourceFile | None:
        return next((f for f in self.files if f.document_id == document_id), None)

    def definition(self, qualname: tuple[str, ...], near: SourceFile) -> Place | None:
        """The block named exactly ``qualname``: in ``near`` first, then anywhere."""
        found = [p for p in self.defined.get(qualname[-1], []) if p.qualname == qualname]
        return min(found, key=lambda p: p.file != near, default=None)

    def head(self, place: Place) -> Place:
        """The block ``place``'s definition starts with: itself, or its function's header
        when it is the lines after a nested definition."""
        if not place.qualname:
            return place
        found = self.definition(place.qualname, place.file)
        return found if found is not None and found.file == place.file else place

    def resolve(self, site: CallSite, caller: Place) -> Place | None:
        """Where the called name is defined in the repository, or None (a library's, or a
        receiver whose type the code does not give: unresolved, not guessed). Only a file
        of the caller's language can define it; in Go, of its package."""
        here = caller.file
        candidates = [
            p
            for p in self.defined.get(site.callee, [])
            if p.file.language == here.language
            and (here.language != "go" or p.file.folder == here.folder)
        ]
        if not candidates:
            return None
        candidates.sort(key=lambda p: (p.file != here, p.file.folder != here.folder))
        owner = caller.qualname[:-1]
        if site.receiver in SUPER_NAMES:
            return self._in_bases(owner, site.callee, here)
        if _on_self(site, caller):
            return self.member(self._this_owner(caller), site.callee, here)
        if here.language == "perl":
            return package_call(site, candidates, caller)
        if site.receiver:
            return module_call(site, candidates, caller) or self._typed(site, caller)
        if here.language in MEMBER_CALLS:
            member = self._enclosing_member(site.callee, caller)
            if member is not None:
                return member
        nested = self.nested(site.callee, caller)
        if nested is not None:
            return nested
        if caller.qualname and site.callee in scope_bound(
            here.language, here.blocks, caller.block, is_class
        ):
            return None  # a parameter or a local, whatever the repository defines so
        found = self._statically_imported(site.callee, here) or bare_call(site, candidates, caller)
        if found is not None and here.language == "go" and is_class(found.block):
            return None  # ``Pos(n)`` in Go is a conversion, no call
        return found

    def _this_owner(self, caller: Place) -> tuple[str, ...]:
        """The class ``this`` is an instance of: the caller's, or in JS/TS for an arrow
        function (``const f = () => this.m()`` in a method) the class around it, whose
        ``this`` an arrow keeps."""
        owner = caller.qualname[:-1]
        header = self.head(caller).block.text.lstrip().split("\n", 1)[0]
        if caller.file.language not in _ARROW_LANGUAGES or not _ARROW.match(header):
            return owner
        for depth in range(len(owner), 0, -1):
            place = self.definition(owner[:depth], caller.file)
            if place is not None and is_class(place.block):
                return owner[:depth]
        return owner

    def _enclosing_member(self, name: str, caller: Place) -> Place | None:
        """A bare ``name()`` in Java: a method of the caller's class or a class it derives
        from, else of a class around it (an inner class calls its outer class's methods)."""
        owner = caller.qualname[:-1]
        for depth in range(len(owner), 0, -1):
            found = self.member(owner[:depth], name, caller.file)
            if found is not None:
                return found
        return None

    def nested(self, name: str, caller: Place) -> Place | None:
        """``name`` defined in the caller's function or a function around it (Python,
        JavaScript and Go close over their enclosing functions; a class's scope is not
        one its methods see)."""
        path = caller.qualname
        for depth in range(len(path), 0, -1):
            scope = self.definition(path[:depth], caller.file)
            if scope is not None and scope.file == caller.file and not is_class(scope.block):
                found = self.definition((*path[:depth], name), caller.file)
                if found is not None and found.file == caller.file:
                    return found
        return None

    def _statically_imported(self, name: str, file: SourceFile) -> Place | None:
        """Java's ``import static a.b.Strings.trim;`` (or ``Strings.*``): ``trim`` is
        ``Strings.trim``, whichever package ``Strings`` is in."""
        if file.language != "java":
            return None
        header = "\n".join(b.text for b in file.blocks if not b.section_path)
        for owner in static_import_owners(header, name):
            place = self.class_named(owner, file)
            found = self.member(place.qualname, name, place.file) if place else None
            if found is not None:
                return found
        return None

    def member(
        self, owner: tuple[str, ...], name: str, near: SourceFile, depth: int = 0
    ) -> Place | None:
        """``name`` as a member of the class ``owner``, or of a class it derives from."""
        if not owner:
            return None
        own = self.definition((*owner, name), near)
        if own is not None:
            return own
        return self._in_bases(owner, name, near, depth)

    def _in_bases(
        self, owner: tuple[str, ...], name: str, near: SourceFile, depth: int = 0
    ) -> Place | None:
        if depth > MAX_BASES or not owner:
            return None
        for base in sorted(self.bases(owner, near)):
            place = self.class_named(base, near)
            if place is not None and place.qualname != owner:
                found = self.member(place.qualname, name, place.file, depth + 1)
                if found is not None:
                    return found
        return None

    def bases(self, owner: tuple[str, ...], near: SourceFile) -> frozenset[str]:
        """The names of the classes ``owner`` (a class's qualified name) derives from, last
        dotted part each (``mixins._LoopBoundMixin`` → ``_LoopBoundMixin``)."""
        place = self.definition(owner, near) if owner else None
        if place is None:
            return frozenset()
        return class_bases(place.block.text)

    def class_named(self, name: str, near: SourceFile) -> Place | None:
        """The class (struct, interface) called ``name``: in ``near``'s file, folder, or
        anywhere in the repository."""
        classes = [p for p in self.defined.get(name, []) if is_class(p.block)]
        return min(
            classes,
            key=lambda p: (p.file != near, p.file.folder != near.folder, p.file.source),
            default=None,
        )

    def _typed(self, site: CallSite, caller: Place) -> Place | None:
        """``x.m()`` where the code gives ``x``'s class: ``x = T()``, an annotation, a
        constructor's ``self.x = T()``, or ``T.m()`` itself (a static call)."""
        here = caller.file
        receiver = site.receiver
        head, _, attribute = receiver.partition(".")
        if attribute.isidentifier() and _is_self(head, caller):
            kind = self._attribute_type(caller, attribute) or self._field_type(caller, attribute)
        elif receiver.isidentifier():
            text = own_text(here.blocks, caller.block)
            kind = receiver_type(here.language, text, receiver)
            if here.language == "go" and self.class_named(kind, here) is None:
                kind = self._made_by(text, receiver) or kind  # ``x := NewT()``: no type T
            if not kind and receiver not in scope_bound(
                here.language, here.blocks, caller.block, is_class
            ):
                # a field of the class (``Deflater def;``), a class's own name (a static
                # call), or a module's own instance (``_default_decoder = JSONDecoder()``)
                kind = self._field_type(caller, receiver)
                if not kind and self.class_named(receiver, here) is None:
                    kind = _module_type(here, receiver)
                kind = kind or receiver
        else:  # ``new T(...).m()``
            created = _NEW.match(receiver)
            kind = created.group(1) if created else ""
        place = self.class_named(kind, here) if kind else None
        return self.member(place.qualname, site.callee, place.file) if place else None

    def _made_by(self, text: str, receiver: str) -> str:
        """Go: the type ``x := NewT(...)`` gives ``x``, the one its function returns."""
        made = re.search(rf"\b{re.escape(receiver)}\s*:=\s*(\w+)\(", text)
        if made is None:
            return ""
        found = [p for p in self.defined.get(made.group(1), []) if p.file.language == "go"]
        header = _GO_RETURNS.search(found[0].block.text) if found else None
        return header.group(1) if header else ""

    def _field_type(self, caller: Place, name: str) -> str:
        """``name``'s declared class among the fields (``field_type``) of the caller's
        class, the classes it derives from (a base's protected field), then the classes
        around it (an inner class reads its outer class's fields)."""
        for owner in self._field_owners(caller.qualname[:-1], caller.file):
            texts = [b.text for b in owner.file.blocks if b.section_path == owner.qualname]
            found = field_type(owner.file.language, texts, name)
            if found:
                return found
        return ""

    def _field_owners(self, owner: tuple[str, ...], near: SourceFile) -> Iterator[Place]:
        """The class ``owner`` and its bases, then each class around it and its bases."""
        seen: set[tuple[str, str]] = set()
        for depth in range(len(owner), 0, -1):
            pending = [self.definition(owner[:depth], near)]
            while pending and len(seen) <= MAX_BASES * 4:
                place = pending.pop(0)
                if place is None or place.key in seen or not is_class(place.block):
                    continue
                seen.add(place.key)
                yield place
                bases = sorted(self.bases(place.qualname, place.file))
                pending += [self.class_named(b, place.file) for b in bases]

    def _attribute_type(self, caller: Place, attribute: str) -> str:
        owner = caller.qualname[:-1]
        for block in caller.file.blocks:
            if owner and block.section_path[: len(owner)] == owner:
                found = attribute_type(block.text, attribute)
                if found:
                    return found
        return ""

    def callees(self, caller: Place) -> Iterator[tuple[CallSite, Place]]:
        """The calls of ``caller`` that resolve in the repository, first of each callee."""
        seen: set[tuple[str, str]] = {caller.key}
        own = own_blocks(caller.file.blocks, caller.qualname) or (caller.block,)
        sites = (s for block in own for s in block_calls(caller.file, block))
        for site in sites:
            target = self.resolve(site, caller)
            if target is not None and target.key not in seen:
                seen.add(target.key)
                yield site, target

    def unresolved(self, caller: Place) -> Iterator[CallSite]:
        """The calls in ``caller``'s own block that resolve to no function of the
        repository (a library's, or an alias the graph does not follow: Lua's ``local merge
        = tablex.merge``), first of each line; functions passed by name left out."""
        lines: set[int] = set()
        for site in block_calls(caller.file, caller.block):
            if site.reference or site.line in lines or self.resolve(site, caller) is not None:
                continue
            lines.add(site.line)
            yield site

    def callers(self, target: Place) -> Iterator[tuple[CallSite, Place]]:
        """The blocks that call (or pass) ``target``: its own file first, then the rest."""
        if not target.qualname:  # a file's top-level statements: called by nothing
            return
        name = target.qualname[-1]
        word = re.compile(rf"\b{re.escape(name)}\b")
        files = sorted(self.files, key=lambda f: f != target.file)
        target_name = (target.file, target.qualname)  # itself, even split around nested ones
        for file in files:
            seen: set[tuple[str, ...]] = set()  # a definition split around nested ones: once
            for block in file.blocks:
                if name not in block.text or not word.search(block.text):
                    continue
                place = Place(file, block)
                for site in block_calls(file, block):
                    if site.callee == name and (file, place.qualname) != target_name:
                        resolved = self.resolve(site, place)
                        if resolved is not None and resolved.key == target.key:
                            if block.section_path not in seen:
                                seen.add(block.section_path)
                                yield site, place
                            break


def _on_self(site: CallSite, caller: Place) -> bool:
    """Called on the caller's own object: ``self``, ``this``, or a Go method's receiver."""
    return _is_self(site.receiver, caller)


def _is_self(name: str, caller: Place) -> bool:
    """Whether ``name`` is the caller's own object: ``self``, ``this``, a Go receiver."""
    if name in SELF_NAMES:
        return True
    go = _GO_RECEIVER.search(own_text(caller.file.blocks, caller.block))
    return go is not None and name == go.group(1)


def _module_type(file: SourceFile, name: str) -> str:
    """The class a module-level name is assigned an instance of, in the file's top-level
    statements, or ``""``."""
    for block in file.blocks:
        if not block.section_path:
            found = receiver_type(file.language, block.text, name)
            if found:
                return found
    return ""


def is_class(block: Block) -> bool:
    """Whether the block defines a class (struct, interface, type): its first line past
    comments and decorators."""
    for row in block.text.split("\n"):
        line = row.strip()
        if line and not line.startswith(_NOT_HEADER):
            return _CLASS_HEADER.match(line) is not None
    return False
