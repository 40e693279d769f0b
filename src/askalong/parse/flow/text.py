"""Plain text: decode (``decoding.py``, shared with the HTML and Markdown parsers), split
into paragraphs at blank lines, spot the obvious titles. Title detection is deliberately
conservative: a wrong heading moves a sentence into every later section path, a missed one
only loses a label. A man page rendered to text keeps its running lines ("TREE(1)  General
Commands Manual  TREE(1)" on top, "Tree 2.1.0  TREE(1)" at the foot): page furniture,
kept for the reader, never searched or quoted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from askalong.errors import EmptyDocument
from askalong.parse.boundary import parser_boundary
from askalong.parse.flow import helpfile
from askalong.parse.flow.builder import CJK_CHAR, OutlineBuilder, clean_text
from askalong.parse.flow.decoding import decode
from askalong.parse.flow.line_ends import ended_lines
from askalong.types import ParsedDocument


@dataclass(frozen=True)
class Paragraph:
    """Consecutive non-blank lines: stripped lines and the 1-based first line number."""

    lines: tuple[str, ...]
    first: int

    @property
    def span(self) -> tuple[int, int]:
        return (self.first, self.first + len(self.lines) - 1)


def paragraphs(text: str) -> list[Paragraph]:
    """Split at blank lines, keeping the source line numbers, and after a line of Chinese
    text its writer ended (``line_ends``)."""
    found: list[Paragraph] = []
    current: list[str] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            current.append(line.strip())
            continue
        if current:
            found += _cut(Paragraph(tuple(current), number - len(current)))
        current = []
    if current:
        found += _cut(Paragraph(tuple(current), text.count("\n") + 2 - len(current)))
    return found


def _cut(para: Paragraph) -> list[Paragraph]:
    """``para`` cut after each line its writer ended."""
    pieces, start = [], 0
    for end in [*(i + 1 for i in ended_lines(para.lines)), len(para.lines)]:
        pieces.append(Paragraph(para.lines[start:end], para.first + start))
        start = end
    return pieces


def join_lines(lines: tuple[str, ...] | list[str]) -> str:
    """Join wrapped lines: a space between Latin words, nothing between CJK characters."""
    return clean_text("\n".join(lines))


_NUMBERED = re.compile(
    r"^(\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+([A-Z\u4e00-\u9fff][^.!?;:。！？；：]*)$"
)
_CHINESE_CHAPTER = re.compile(
    r"^第[一二三四五六七八九十百千零〇两\d]{1,6}([章篇部卷编节条])(\s|$|[\u4e00-\u9fff])"
)
_CHINESE_ENUM = re.compile(r"^[一二三四五六七八九十]{1,3}、\S[^。！？；]*$")
_ATX = re.compile(r"^(#{1,6})\s+(\S.*?)\s*#*$")
_UNDERLINE = re.compile(r"^(=+|-+)$")
_CHAPTER_LEVEL = {"章": 1, "篇": 1, "部": 1, "卷": 1, "编": 1, "节": 2, "条": 3}
# A man page's running header: its name and section at both ends, a title between.
_MAN_HEADER = re.compile(r"^(?P<page>[\w.+-]+\(\d\w{0,3}\))\s{2,}.*\S\s{2,}(?P=page)$")


def title_level(line: str) -> int:
    """The heading level a one-line paragraph would have, or 0 when it is not a title."""
    if len(line) > 80 or (CJK_CHAR.search(line) and len(line) > 40):
        return 0
    if match := _ATX.match(line):
        return len(match.group(1))
    if match := _NUMBERED.match(line):
        return match.group(1).count(".") + 1 if len(match.group(2).split()) <= 10 else 0
    if match := _CHINESE_CHAPTER.match(line):
        return _CHAPTER_LEVEL[match.group(1)]
    if _CHINESE_ENUM.match(line):
        return 2
    return 1 if _all_caps(line) else 0


def _all_caps(line: str) -> bool:
    letters = [c for c in line if c.isalpha()]
    words = line.split()
    if len(letters) < 3 or len(words) > 8 or line[-1] in ".:;,!?":
        return False
    return all(c.isupper() for c in letters)


def _underline_level(lines: tuple[str, ...]) -> int:
    """``Title`` over a line of ``===`` (level 1) or ``---`` (level 2) of similar length."""
    if len(lines) < 2 or not _UNDERLINE.match(lines[1]) or len(lines[1]) < 3:
        return 0
    if len(lines[0]) > 80 or len(lines[1]) < len(lines[0]) // 2:
        return 0
    return 1 if lines[1][0] == "=" else 2


def _heading_text(line: str) -> str:
    match = _ATX.match(line)
    return match.group(2) if match else line


def man_page_name(paras: list[Paragraph]) -> str | None:
    """``NAME(1)`` when the text opens with a rendered man page's running header."""
    first = paras[0].lines if paras else ()
    match = _MAN_HEADER.match(first[0]) if len(first) == 1 else None
    return match.group("page") if match else None


def _running_line(para: Paragraph, page: str | None) -> bool:
    """A man page's header or footer: one line ending in its ``NAME(1)`` after a gap."""
    if page is None or len(para.lines) != 1:
        return False
    line = para.lines[0]
    return (
        line.endswith(page) and len(line) > len(page) and line[: -len(page)].endswith(("  ", "\t"))
    )


def _add_paragraph(builder: OutlineBuilder, para: Paragraph, next_para: Paragraph | None) -> None:
    level = _underline_level(para.lines)
    if level:
        builder.heading(clean_text(para.lines[0]), level, lines=(para.first, para.first + 1))
        rest = para.lines[2:]
        if rest:
            builder.add("paragraph", join_lines(rest), lines=(para.first + 2, para.span[1]))
        return
    level = _single_line_title(para, next_para)
    if level:
        builder.heading(clean_text(_heading_text(para.lines[0])), level, lines=para.span)
    else:
        builder.add("paragraph", join_lines(para.lines), lines=para.span)


def _single_line_title(para: Paragraph, next_para: Paragraph | None) -> int:
    """A one-line title is followed by text: a run of short numbered lines is a list."""
    if len(para.lines) != 1 or next_para is None:
        return 0
    level = title_level(para.lines[0])
    if not level or not _NUMBERED.match(para.lines[0]):
        return level
    following = title_level(next_para.lines[0]) if len(next_para.lines) == 1 else 0
    return level if not following or following > level else 0


def _help_lines(text: str) -> str:
    """A help file's text with separator rows and tag-only lines blanked (line numbers
    stay as they were), and the ``~`` of indented lines (examples, not headings) dropped."""
    return "\n".join(helpfile.prepared(line) for line in text.split("\n"))


def _add_help_paragraph(builder: OutlineBuilder, para: Paragraph) -> None:
    """A help file's paragraph: its heading lines (tagged or ``~``) open sections, the
    lines between them are paragraphs, all without their markup."""
    pending: list[str] = []
    start = para.first
    for number, line in enumerate(para.lines, start=para.first):
        found = helpfile.heading(line)
        if found is None:
            pending.append(helpfile.clean(line))
            continue
        if pending:
            builder.add("paragraph", join_lines(pending), lines=(start, number - 1))
        builder.heading(clean_text(found[0]), found[1], lines=(number, number))
        pending, start = [], number + 1
    if pending:
        builder.add("paragraph", join_lines(pending), lines=(start, para.span[1]))


def parse(data: bytes, *, source: str) -> ParsedDocument:
    """Plain text bytes -> paragraphs and conservatively detected headings."""
    with parser_boundary("text", source):
        return _parse(data, source)


def _parse(data: bytes, source: str) -> ParsedDocument:
    if not data.strip():
        raise EmptyDocument("the file is empty", source=source)
    decoded = decode(data, source=source)
    text = decoded.text.replace("\r\n", "\n").replace("\r", "\n")
    help_file = helpfile.is_help_file(text)
    paras = paragraphs(_help_lines(text) if help_file else text)
    builder = OutlineBuilder()
    page = None if help_file else man_page_name(paras)
    for index, para in enumerate(paras):
        if help_file:
            _add_help_paragraph(builder, para)
        elif _running_line(para, page):
            builder.add(
                "header" if index == 0 else "footer", join_lines(para.lines), lines=para.span
            )
        else:
            _add_paragraph(builder, para, paras[index + 1] if index + 1 < len(paras) else None)
    first_line = paras[0].lines[0] if paras else ""
    title = page or clean_text(_heading_text(first_line))
    if help_file:
        title = clean_text(helpfile.title([para.lines[0] for para in paras[:4]]))
    return builder.build("text", source=source, title=title, notices=decoded.notices)
