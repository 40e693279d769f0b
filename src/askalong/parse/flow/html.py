"""HTML: the visible article text as blocks, without the page's navigation furniture.

One walk over the lxml tree in document order. A block element flushes the inline text
gathered so far, so text written directly inside a ``div`` between inline elements is
kept once, in place. Line numbers follow the walk: each element restarts the count at
its ``sourceline`` and text advances it by its newlines.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

import lxml.html
from lxml import etree

from askalong.errors import CorruptDocument, EmptyDocument
from askalong.parse.boundary import parser_boundary
from askalong.parse.flow.builder import OutlineBuilder, clean_code, clean_text
from askalong.parse.flow.decoding import Decoded, decode
from askalong.types import BlockKind, ParsedDocument


def _names(words: str) -> frozenset[str]:
    return frozenset(words.split())


_DROP_TAGS = _names(
    "script style noscript template nav form aside iframe object embed canvas svg "
    "button select input textarea audio video map head title meta link"
)
_PAGE_FURNITURE = frozenset({"header", "footer"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BLOCK_TAGS = _names(
    "address article aside blockquote body caption center dd details dialog dir div dl "
    "dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html "
    "li main menu nav ol p pre section summary table tbody td tfoot th thead tr ul"
)
_NAV_ROLES = _names("navigation banner contentinfo complementary search menu menubar toolbar")
_NAV_WORDS = re.compile(
    r"^(nav|navbar|navheader|navfooter|navigation|menu|toc|sidebar|breadcrumbs?|"
    r"skip-?link|site-?(header|footer|nav)|social|share|sharing|pagination)$"
    r"|cookie|consent|gdpr|breadcrumb|navbar"
)
# Headings inside these boxes label the box only; the outline resumes after it.
_SCOPING_TAGS = _names("blockquote figure details li td th")
_BOXED_RANK = 99
# Between a definition list's term and its definition, where the two become one block.
TERM_SEPARATOR = " — "
_SCOPING_CLASSES = _names("note tip warning caution important admonition callout")
_WRAPPERS = _names("div section article main span font center")
_MARKED_CLASSES = _SCOPING_CLASSES | {"footnote", "title"}
_CAPTIONED = frozenset({"table", "informaltable", "example", "figure", "equation"})
_KIND_OF_TAG: dict[str, BlockKind] = {
    "li": "list_item",
    "figcaption": "caption",
    "caption": "caption",
    "dd": "paragraph",
    "blockquote": "paragraph",
}


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


# --- decoding -------------------------------------------------------------------------

_META_CHARSET = re.compile(rb"""<meta[^<>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9_.:-]+)""", re.I)
# Browsers read these labels as the wider encodings that contain them.
_WIDER = {"gb2312": "gb18030", "gbk": "gb18030", "latin-1": "cp1252", "ascii": "cp1252"}


def decode_html(data: bytes, *, source: str) -> Decoded:
    """Decode by byte-order mark, then the declared charset, then by guessing."""
    declared = _declared_codec(data[:4096])
    if declared and not data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        try:
            return Decoded(data.decode(declared), declared)
        except UnicodeDecodeError:
            pass  # a wrong declaration: guess instead
    return decode(data, source=source)


def _declared_codec(head: bytes) -> str | None:
    match = _META_CHARSET.search(head) or _XML_ENCODING.search(head)
    if not match:
        return None
    try:
        name = codecs.lookup(match.group(1).decode("ascii")).name
    except LookupError:
        return None
    if name.startswith("utf-16") or name.startswith("utf-32"):
        return None  # an ASCII-compatible file cannot really be UTF-16
    return _WIDER.get(name, name)


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


# --- what is furniture ----------------------------------------------------------------


def _dropped(el: etree._Element) -> bool:
    """Scripts, forms, navigation and banners: nothing a reader would quote."""
    tag = el.tag
    if not isinstance(tag, str) or tag in _DROP_TAGS:
        return True
    if tag in _PAGE_FURNITURE and next(el.iterancestors("article", "main"), None) is None:
        return True
    role = el.get("role")
    if role and role.lower() in _NAV_ROLES:
        return True
    if el.get("hidden") is not None or el.get("aria-hidden") == "true":
        return True
    return _navigational_name(el.get("class")) or _navigational_name(el.get("id"))


def _navigational_name(value: str | None) -> bool:
    if not value:
        return False
    return any(_NAV_WORDS.search(word) for word in value.lower().split())


def _is_block(el: etree._Element) -> bool:
    """Block tags, inline tags wrapping blocks, and multi-line code standing alone."""
    if el.tag in _BLOCK_TAGS:
        return True
    if el.tag == "code" and "\n" in (el.text or ""):
        alone = not (el.getparent().text or "").strip() and not (el.tail or "").strip()
        if alone:
            return True
    return next(el.iterdescendants(*_BLOCK_TAGS), None) is not None


def _is_layout_table(el: etree._Element) -> bool:
    """A table holding headings or other tables lays out a page; it is not data."""
    if el.get("role") == "presentation":
        return True
    return next(el.iterdescendants("table", *(f"h{n}" for n in range(1, 7))), None) is not None


def _class_words(el: etree._Element | None) -> set[str]:
    return set((el.get("class") or "").split()) if el is not None else set()


# --- the walk -------------------------------------------------------------------------


class _Run:
    """Inline text gathered for one block, with the source lines it spans."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.first: int | None = None
        self.last = 0

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
        el = _unwrap(el)
        run = _Run()
        line = run.feed(el.text, el.sourceline or line)
        after_br = False
        for child in el:
            if _dropped(child):
                line = _skip(child, line)
            elif _is_block(child):
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
            keep = not _dropped(child)
            line = self.inline_child(child, run, line) if keep else _skip(child, line)
            line = run.feed(child.tail, line)
        return line

    def inline_child(self, el: etree._Element, run: _Run, line: int) -> int:
        """An element inside a run; a ``<br>`` or block boundary still separates words."""
        spacer = _spacer(el)
        run.feed(spacer, line)
        line = self.inline(el, run, line)
        run.feed(spacer, line)
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
        if tag == "table" and not _is_layout_table(el):
            return self._table(el, line)
        if tag == "hr":
            return _skip(el, line)
        if tag in _SCOPING_TAGS or _class_words(el) & _SCOPING_CLASSES:
            scope = self.out.scope()
            self.boxes += 1
            line = self.container(el, _child_kind(el, kind), line)
            self.boxes -= 1
            self.out.restore(scope)
            return line
        return self.container(el, _child_kind(el, kind), line)

    def _flush(self, run: _Run, kind: BlockKind) -> None:
        if run.first is None:
            return  # only whitespace
        self._emit(kind, clean_text(run.raw), run.lines)

    def _emit(self, kind: BlockKind, text: str, lines: tuple[int, int] | None) -> None:
        """Add a block; a definition's first paragraph starts with its terms."""
        lead = self.lead
        if lead is not None and kind == "paragraph" and text:
            self.lead = None
            text = lead.text + TERM_SEPARATOR + text
            lines = _span(lead.lines, lines)
        else:
            self.release()
        self.out.add(kind, text, lines=lines)

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
        lead = _Term(", ".join(t.text for t in terms), _span(*(t.lines for t in terms)))
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
        run = _Run()
        end = self.inline(el, run, line)
        rank = _BOXED_RANK if self.boxes else None  # a box's label nests, closes nothing
        self.release()
        self.out.heading(clean_text(run.raw), level, lines=run.lines, rank=rank)
        return end

    def _code(self, el: etree._Element, line: int) -> int:
        run = _Run()
        end = self.inline(el, run, line)
        self._emit("code", clean_code(run.raw), run.lines)
        return end

    def _table(self, el: etree._Element, line: int) -> int:
        start = el.sourceline or line
        caption = el.find("caption")
        if caption is not None:
            self._emit("caption", clean_text(_visible_text(caption)), (start, start))
        end = _skip(el, line)
        rows = [_row_text(tr) for tr in el.iter("tr")]
        self._emit("table", "\n".join(row for row in rows if row), (start, end))
        return end


def _unwrap(el: etree._Element) -> etree._Element:
    """Skip chains of bare wrapper divs in a loop: deep div soup must not recurse."""
    while len(el) == 1 and not (el.text or "").strip():
        child = el[0]
        plain = child.tag in _WRAPPERS and not (child.tail or "").strip()
        if not plain or _dropped(child) or _class_words(child) & _MARKED_CLASSES:
            break
        el = child
    return el


def _child_kind(el: etree._Element, inherited: BlockKind) -> BlockKind:
    """The kind of the inline text inside ``el``: list items stay list items below."""
    titled = el.tag == "p" and "title" in _class_words(el)
    if titled and _class_words(el.getparent()) & _CAPTIONED:
        return "caption"  # DocBook's "Table 9.1. ..." titles
    if "footnote" in _class_words(el):
        return "footnote"
    if inherited in ("list_item", "caption") and el.tag not in _KIND_OF_TAG:
        return inherited
    return _KIND_OF_TAG.get(el.tag, inherited)


def _row_text(tr: etree._Element) -> str:
    cells = [clean_text(_visible_text(cell)) for cell in tr if cell.tag in ("td", "th")]
    return " | ".join(cells) if any(cells) else ""


def _spacer(el: etree._Element) -> str:
    """Line breaks and block boundaries separate words even where the source has no space."""
    return " " if el.tag == "br" or el.tag in _BLOCK_TAGS else ""


def _visible_text(el: etree._Element) -> str:
    parts: list[str] = [el.text or ""]
    for child in el:
        if not _dropped(child):
            spacer = _spacer(child)
            parts.append(spacer + _visible_text(child) + spacer)
        parts.append(child.tail or "")
    return "".join(parts)


def _skip(el: etree._Element, line: int) -> int:
    """The line where ``el`` ends, walking past it without keeping its text."""
    line = (el.sourceline or line) + (el.text or "").count("\n")
    for child in el:
        line = _skip(child, line) + (child.tail or "").count("\n")
    return line
