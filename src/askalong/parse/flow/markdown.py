"""Markdown: markdown-it tokens -> blocks, their text stripped of markup.

Every block token carries ``map`` (0-based start line, exclusive end), which becomes the
1-based inclusive ``lines`` range. Inline markup is rendered to what a reader sees: link
text without the URL, code without backticks, emphasis without asterisks.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from markdown_it import MarkdownIt
from markdown_it.token import Token

from askalong.errors import EmptyDocument
from askalong.parse.boundary import parser_boundary
from askalong.parse.flow.builder import OutlineBuilder, clean_code, clean_text
from askalong.parse.flow.decoding import decode
from askalong.types import BlockKind, ParsedDocument

_FRONT_MATTER = re.compile(r"\A(---|\+\+\+)[ \t]*\n.*?\n\1[ \t]*(\n|\Z)", re.S)
_TAG = re.compile(r"<[^<>]*>")  # not [^>]*: unclosed "<<<<" would rescan to the end


def parse(data: bytes, *, source: str) -> ParsedDocument:
    """Markdown bytes -> headings, paragraphs, list items, tables and code blocks."""
    with parser_boundary("Markdown", source):
        return _parse(data, source)


def _parse(data: bytes, source: str) -> ParsedDocument:
    if not data.strip():
        raise EmptyDocument("the file is empty", source=source)
    decoded = decode(data, source=source)
    text = _blank_front_matter(decoded.text)
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    builder = OutlineBuilder()
    _Reader(tokens, builder).read()
    return builder.build("markdown", source=source, notices=decoded.notices)


def _blank_front_matter(text: str) -> str:
    """YAML/TOML front matter is metadata: blank it but keep the line numbers."""
    match = _FRONT_MATTER.match(text)
    if not match:
        return text
    return "\n" * match.group(0).count("\n") + text[match.end() :]


def _lines(token: Token) -> tuple[int, int] | None:
    if not token.map:
        return None
    start, end = token.map
    return (start + 1, max(start + 1, end))


def render_inline(token: Token) -> str:
    """The visible text of an ``inline`` token: no URLs, no emphasis markers, no HTML."""
    parts: list[str] = []
    for child in token.children or ():
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
    return clean_text("".join(parts))


class _Reader:
    """One pass over the token stream, tracking whether we are inside a list item."""

    def __init__(self, tokens: Sequence[Token], builder: OutlineBuilder) -> None:
        self.tokens = tokens
        self.out = builder
        self.list_depth = 0

    def read(self) -> None:
        index = 0
        while index < len(self.tokens):
            index = self.step(index)

    def step(self, index: int) -> int:
        """Handle the token at ``index``; return the index of the next one to read."""
        token = self.tokens[index]
        kind = token.type
        if kind == "heading_open":
            level = int(token.tag[1:])
            self.out.heading(render_inline(self.tokens[index + 1]), level, lines=_lines(token))
            return index + 3
        if kind == "paragraph_open":
            block_kind: BlockKind = "list_item" if self.list_depth else "paragraph"
            self.out.add(block_kind, render_inline(self.tokens[index + 1]), lines=_lines(token))
            return index + 3
        if kind in ("fence", "code_block"):
            self.out.add("code", clean_code(token.content), lines=_lines(token))
        elif kind == "html_block":
            self.out.add("paragraph", _html_text(token.content), lines=_lines(token))
        elif kind == "table_open":
            return self.table(index)
        elif kind == "list_item_open":
            self.list_depth += 1
        elif kind == "list_item_close":
            self.list_depth -= 1
        return index + 1

    def table(self, index: int) -> int:
        """Rows of ``a | b`` cells up to the matching ``table_close``."""
        rows: list[str] = []
        cells: list[str] = []
        lines = _lines(self.tokens[index])
        while self.tokens[index].type != "table_close":
            token = self.tokens[index]
            if token.type == "inline":
                cells.append(render_inline(token))
            elif token.type == "tr_close":
                rows.append(" | ".join(cells) if any(cells) else "")
                cells = []
            index += 1
        self.out.add("table", "\n".join(row for row in rows if row), lines=lines)
        return index + 1


def _html_text(markup: str) -> str:
    """Raw HTML in Markdown (badges, centred paragraphs): keep only its text."""
    return clean_text(html.unescape(_TAG.sub(" ", markup)))
