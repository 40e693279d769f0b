"""The block outline shared by the flowing-text parsers (HTML, Markdown, text, DOCX).

Parsers feed headings and blocks in reading order; the builder numbers them, drops empty
ones and keeps the heading stack that gives every block its section path. It also owns
the one whitespace rule all four formats share, so a quote matches whatever the format.
"""

from __future__ import annotations

import re

from askalong.errors import EmptyDocument
from askalong.parse.navigation import mark_navigation
from askalong.types import Block, BlockKind, DocumentFormat, ParsedDocument

# Han, kana, hangul and CJK punctuation: scripts written without spaces between words.
_CJK = (
    "\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3190-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
)
CJK_CHAR = re.compile(f"[{_CJK}]")
# A line break between two CJK characters is only a wrap in the source: drop it.
# Up to the first newline, then the rest of the gap possessively: the old
# ``[^\S\u3000]*\n\s*`` could split a run of newlines k ways (quadratic in the run).
_CJK_WRAP = re.compile(f"(?<=[{_CJK}])[^\\S\u3000\\n]*\\n\\s*+(?=[{_CJK}])")
_SPACES = re.compile(r"\s+")
# Control characters that are not white space (NUL, ESC, DEL...): stray bytes of a damaged
# or mis-decoded file, never text a reader would quote (the parser fuzz stored NULs).
_CONTROLS = re.compile("[\x00-\x08\x0e-\x1b\x7f]")

TITLE_CHARS = 200  # a longer title is cut there, with "…"
# A heading is a label: longer "heading" text (a page whose body sits inside one heading
# element, a paragraph set in a heading style) is a paragraph, and names no section.
HEADING_CHARS = 150


def clean_text(raw: str) -> str:
    """Collapse whitespace to single spaces; a line wrap between CJK characters vanishes."""
    return _SPACES.sub(" ", _CJK_WRAP.sub("", _CONTROLS.sub("", raw))).strip()


def clean_code(raw: str) -> str:
    """Keep a code block's newlines and indentation; drop blank edges and trailing spaces."""
    lines = [line.rstrip() for line in _CONTROLS.sub("", raw).expandtabs(8).split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


class OutlineBuilder:
    """Collects blocks in reading order; a heading's section path includes itself last."""

    def __init__(self) -> None:
        self._blocks: list[Block] = []
        self._stack: list[tuple[int, str]] = []
        self._links: set[str] = set()  # ids of blocks that are all link text

    @property
    def blocks(self) -> tuple[Block, ...]:
        return tuple(self._blocks)

    def heading(
        self,
        text: str,
        level: int,
        *,
        lines: tuple[int, int] | None = None,
        rank: int | None = None,
    ) -> None:
        """Add a heading; ``rank`` (default ``level``) places it in the stack, so a
        document title (rank 0) can enclose the level-1 headings below it. Text over
        ``HEADING_CHARS`` is added as a paragraph."""
        if not text:
            return
        if len(text) > HEADING_CHARS:
            self.add("paragraph", text, lines=lines)
            return
        depth = level if rank is None else rank
        while self._stack and self._stack[-1][0] >= depth:
            self._stack.pop()
        self._stack.append((depth, text))
        self._append("heading", text, lines, level)

    def label(self, text: str) -> None:
        """Open a label that nests under everything open and adds no block: a definition
        list term over its definition. The caller closes it with ``restore``."""
        if text:
            depth = self._stack[-1][0] if self._stack else 0
            self._stack.append((depth, text))

    def add(
        self,
        kind: BlockKind,
        text: str,
        *,
        lines: tuple[int, int] | None = None,
        link: bool = False,
    ) -> None:
        """Add a non-heading block; empty text is dropped. ``link``: all its text is link
        text (a run of such short blocks is a link list: ``navigation``)."""
        if text.strip():
            if link:
                self._links.add(f"b{len(self._blocks)}")
            self._append(kind, text, lines, 0)

    def _append(
        self, kind: BlockKind, text: str, lines: tuple[int, int] | None, level: int
    ) -> None:
        order = len(self._blocks)
        path = tuple(title for _, title in self._stack)
        self._blocks.append(
            Block(
                id=f"b{order}",
                kind=kind,
                text=text,
                order=order,
                section_path=path,
                heading_level=level,
                lines=lines,
            )
        )

    def scope(self) -> tuple[tuple[int, str], ...]:
        """The open headings now; ``restore`` it where a boxed region (a note) ends."""
        return tuple(self._stack)

    def restore(self, scope: tuple[tuple[int, str], ...]) -> None:
        self._stack = list(scope)

    def first_heading(self) -> str:
        """The text of the highest-level heading that comes first, or ''."""
        headings = [b for b in self._blocks if b.kind == "heading"]
        if not headings:
            return ""
        top = min(b.heading_level for b in headings)
        return next(b.text for b in headings if b.heading_level == top)

    def build(
        self,
        fmt: DocumentFormat,
        *,
        source: str,
        title: str = "",
        notices: tuple[str, ...] = (),
    ) -> ParsedDocument:
        """The parsed document, titled ``title`` or its first heading or first block (its
        first line, at most ``TITLE_CHARS``: a title is shown, and indexed with every chunk,
        so a text whose first line is the whole text must not make it its title)."""
        if not self._blocks:
            raise EmptyDocument("the document has no text", source=source)
        title = _first_line(title or self.first_heading() or self._blocks[0].text)
        blocks = mark_navigation(self.blocks, self._links)
        return ParsedDocument(format=fmt, blocks=blocks, title=title, page_count=1, notices=notices)


def _first_line(text: str, limit: int = TITLE_CHARS) -> str:
    line = text.strip().split("\n", 1)[0].strip()
    return line if len(line) <= limit else line[:limit].rstrip() + "…"
