"""HTML: the visible article text as blocks, without the page's navigation furniture.

One walk over the lxml tree in document order. A block element flushes the inline text
gathered so far, so text written directly inside a ``div`` between inline elements is
kept once, in place. Line numbers follow the walk: each element restarts the count at
its ``sourceline`` and text advances it by its newlines. What each element is (furniture,
a block, a box, a data table) is ``html_elements``; the bytes are decoded by
``decoding.decode_html`` (a declared charset first).
"""

from __future__ import annotations

from dataclasses import dataclass

import lxml.html
from lxml import etree

from askalong.errors import CorruptDocument, EmptyDocument
from askalong.parse.boundary import parser_boundary
from askalong.parse.flow.builder import OutlineBuilder, clean_code, clean_text
from askalong.parse.flow.decoding import decode_html
from askalong.parse.flow.html_elements import (
    child_kind,
    dropped,
    is_block,
    is_layout_table,
    is_scoping_box,
    row_text,
    spacer,
    unwrap,
    visible_text,
)
from askalong.types import BlockKind, ParsedDocument

_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BOXED_RANK = 99
# Between a definition list's term and its definition, where the two become one block.
TERM_SEPARATOR = " — "
_LABEL_CHARS = 60  # a definition's label in section paths
_LINK_SHARE = 0.9  # of a block's characters in links: the block is a link


def parse(data: bytes, *, source: str) -> ParsedDocument:
    """HTML bytes -> headings, paragraphs, list items, tables, code and captions."""
    with parser_boundary("HTML", source):
        return _parse(data, source)


def _parse(data: bytes, source: str) -> ParsedDocument:
    if not data.strip():
        raise EmptyDocument("the file is empty", source=source)
    decoded = decode_html(data, source=source)
    markup = _strip_xml_declaration(decoded.text)
    if not markup.strip():
        raise EmptyDocument("the file is empty", source=source)
    parser = lxml.html.HTMLParser(
        remove_comments=True, remove_pis=True, no_network=True, huge_tree=True
    )
    root = lxml.html.document_fromstring(markup, parser=parser)
    if any(error.type_name == "ERR_RESOURCE_LIMIT" for error in parser.error_log):
        raise CorruptDocument("the HTML is nested too deeply to read", source=source)
    walker = _Walker()
    body = root.find("body")
    walker.container(body if body is not None else root, "paragraph", 1)
    walker.release()
    return walker.out.build("html", source=source, title=_title(root), notices=decoded.notices)


def _strip_xml_declaration(markup: str) -> str:
    """lxml refuses a str that still declares its byte encoding."""
    markup = markup.lstrip("\ufeff")
    if markup.lstrip().startswith("<?xml"):
        end = markup.find("?>")
        return markup[end + 2 :] if end >= 0 else markup
    return markup


def _title(root: etree._Element) -> str:
    node = root.find(".//title")
    return clean_text(node.text_content()) if node is not None else ""


# --- the walk -------------------------------------------------------------------------


class _Run:
    """Inline text gathered for one block, with the source lines it spans."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.first: int | None = None
        self.last = 0
        self.link_chars = 0  # non-space characters inside <a> elements

    def feed(self, text: str | None, line: int) -> int:
        """Append ``text`` starting at ``line``; return the line where it ends."""
        if not text:
            return line
        self.pieces.append(text)
        stripped = text.strip()
        if stripped:
            lead = text.find(stripped[0])
            start = line + text.count("\n", 0, lead)
            self.first = start if self.first is None else self.first
            self.last = start + stripped.count("\n")
        return line + text.count("\n")

    @property
    def raw(self) -> str:
        return "".join(self.pieces)

    def visible(self) -> int:
        """How many non-space characters the run holds."""
        return sum(len("".join(piece.split())) for piece in self.pieces)

    @property
    def all_link(self) -> bool:
        """Whether (almost) all the run's text is link text."""
        return self.link_chars >= _LINK_SHARE * self.visible() > 0

    @property
    def lines(self) -> tuple[int, int] | None:
        return None if self.first is None else (self.first, max(self.first, self.last))


@dataclass(frozen=True)
class _Term:
    """A definition list term waiting for its definition."""

    text: str
    lines: tuple[int, int] | None


def _span(*ranges: tuple[int, int] | None) -> tuple[int, int] | None:
    """The source lines from the first range's start to the last range's end."""
    known = [r for r in ranges if r is not None]
    return (known[0][0], max(known[-1][1], known[0][0])) if known else None


class _Walker:
    """Walks one document; ``out`` receives the blocks."""

    def __init__(self) -> None:
        self.out = OutlineBuilder()
        self.boxes = 0  # how many boxes (notes, list items, cells) enclose the walk
        # A definition list's terms wait for their <dd>: its first paragraph starts with
        # them, so "DROP — The temporary table will be dropped…" is one quotable block.
        self.terms: list[_Term] = []
        self.lead: _Term | None = None  # the terms the current <dd>'s first block takes

    def container(self, el: etree._Element, kind: BlockKind, line: int) -> int:
        """Inline runs between block children become ``kind`` blocks."""
        el = unwrap(el)
        run = _Run()
        line = run.feed(el.text, el.sourceline or line)
        return self._children(list(el), run, kind, line)

    def _children(
        self, children: list[etree._Element], run: _Run, kind: BlockKind, line: int
    ) -> int:
        """Walk ``children`` after the inline text already in ``run``."""
        after_br = False
        for child in children:
            if dropped(child):
                line = _skip(child, line)
            elif is_block(child):
                self._flush(run, kind)
                run = _Run()
                line = self.block(child, kind, line)
            elif child.tag == "br" and after_br:
                self._flush(run, kind)  # <br><br> separates paragraphs in old pages
                run = _Run()
            else:
                line = self.inline_child(child, run, line)
            after_br = child.tag == "br" and not (child.tail or "").strip()
            line = run.feed(child.tail, line)
        self._flush(run, kind)
        return line

    def inline(self, el: etree._Element, run: _Run, line: int) -> int:
        """Feed all visible text under ``el`` into ``run``."""
        line = run.feed(el.text, el.sourceline or line)
        for child in el:
            keep = not dropped(child)
            line = self.inline_child(child, run, line) if keep else _skip(child, line)
            line = run.feed(child.tail, line)
        return line

    def inline_child(self, el: etree._Element, run: _Run, line: int) -> int:
        """An element inside a run; a ``<br>`` or block boundary still separates words."""
        space = spacer(el)
        run.feed(space, line)
        before = run.visible() if el.tag == "a" else 0
        line = self.inline(el, run, line)
        if el.tag == "a":
            run.link_chars += run.visible() - before
        run.feed(space, line)
        return line

    def block(self, el: etree._Element, kind: BlockKind, line: int) -> int:
        tag = el.tag
        if tag == "dt":
            return self._term(el, line)
        if tag == "dd":
            return self._definition(el, line)
        if tag in _HEADINGS:
            return self._heading(el, _HEADINGS[tag], line)
        if tag == "pre" or tag == "code":
            return self._code(el, line)
        if tag == "table" and not is_layout_table(el):
            return self._table(el, line)
        if tag == "hr":
            return _skip(el, line)
        if is_scoping_box(el):
            scope = self.out.scope()
            self.boxes += 1
            line = self.container(el, child_kind(el, kind), line)
            self.boxes -= 1
            self.out.restore(scope)
            return line
        return self.container(el, child_kind(el, kind), line)

    def _flush(self, run: _Run, kind: BlockKind) -> None:
        if run.first is None:
            return  # only whitespace
        self._emit(kind, clean_text(run.raw), run.lines, link=run.all_link)

    def _emit(
        self, kind: BlockKind, text: str, lines: tuple[int, int] | None, *, link: bool = False
    ) -> None:
        """Add a block; a definition's first paragraph starts with its terms."""
        lead = self.lead
        if lead is not None and kind == "paragraph" and text:
            self.lead = None
            text = lead.text + TERM_SEPARATOR + text
            lines = _span(lead.lines, lines)
            link = False  # a term defined by a link ("CIDR — Classless …") is a glossary's
        else:
            self.release()
        self.out.add(kind, text, lines=lines, link=link)

    def release(self) -> None:
        """Terms that no definition paragraph took stand as blocks of their own."""
        pending = [*([self.lead] if self.lead else []), *self.terms]
        self.terms, self.lead = [], None
        for term in pending:
            self.out.add("paragraph", term.text, lines=term.lines)

    def _term(self, el: etree._Element, line: int) -> int:
        run = _Run()
        end = self.inline(el, run, line)
        if run.first is not None:
            self.terms.append(_Term(clean_text(run.raw), run.lines))
        return end

    def _definition(self, el: etree._Element, line: int) -> int:
        """A <dd> is a box labelled by its terms: its blocks' section path ends with them."""
        terms, self.terms = self.terms, []
        self.release()
        lead = _Term(_label(terms), _span(*(t.lines for t in terms)))
        scope = self.out.scope()
        self.out.label(lead.text)
        self.lead = lead if terms else None
        self.boxes += 1
        line = self.container(el, "paragraph", line)
        self.boxes -= 1
        self.release()
        self.out.restore(scope)
        return line

    def _heading(self, el: etree._Element, level: int, line: int) -> int:
        """A heading; one left open around the page's body (``<h2>…</h1>``) heads it
        with its text up to its first block and walks the rest as body."""
        run = _Run()
        children = list(el)
        first_block = next((i for i, c in enumerate(children) if is_block(c)), len(children))
        line = run.feed(el.text, el.sourceline or line)
        for child in children[:first_block]:
            line = self.inline_child(child, run, line) if not dropped(child) else _skip(child, line)
            line = run.feed(child.tail, line)
        rank = _BOXED_RANK if self.boxes else None  # a box's label nests, closes nothing
        self.release()
        self.out.heading(clean_text(run.raw), level, lines=run.lines, rank=rank)
        if first_block == len(children):
            return line
        return self._children(children[first_block:], _Run(), "paragraph", line)

    def _code(self, el: etree._Element, line: int) -> int:
        run = _Run()
        end = self.inline(el, run, line)
        self._emit("code", clean_code(run.raw), run.lines)
        return end

    def _table(self, el: etree._Element, line: int) -> int:
        start = el.sourceline or line
        caption = el.find("caption")
        if caption is not None:
            self._emit("caption", clean_text(visible_text(caption)), (start, start))
        end = _skip(el, line)
        rows = [row_text(tr) for tr in el.iter("tr")]
        self._emit("table", "\n".join(row for row in rows if row), (start, end))
        return end


def _label(terms: list[_Term]) -> str:
    """A definition's label: its terms, or the first one and "…" when all of them would
    make a section path too long to show (``${parameter/pattern/string}, …`` four ways)."""
    joined = ", ".join(term.text for term in terms)
    if len(joined) <= _LABEL_CHARS or not terms:
        return joined
    return terms[0].text[:_LABEL_CHARS] + " …"


def _skip(el: etree._Element, line: int) -> int:
    """The line where ``el`` ends, walking past it without keeping its text."""
    line = (el.sourceline or line) + (el.text or "").count("\n")
    for child in el:
        line = _skip(child, line) + (child.tail or "").count("\n")
    return line
