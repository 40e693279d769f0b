"""What a PDF heading looks like, and how a new heading closes the sections open above it.

Font size alone makes figure labels, formula symbols, page numbers, contents entries and
Chinese rule sentences set a size up look like headings; these tests of the text itself
keep them out of section paths. The open sections form a stack of (level, title).
"""

from __future__ import annotations

import re

from askalong.parse.pdf.layout import TOC_ENTRY

PAGE_NUMBER = re.compile(
    r"^[\s\-–—(\[]*(?:page\s*)?(?:\d{1,4}|[ivxlcdm]{1,6})(?:\s*(?:/|of)\s*\d{1,4})?[\s\-–—)\]]*$"
    r"|^第\s*\d{1,4}\s*页(?:\s*共\s*\d{1,4}\s*页)?$",
    re.IGNORECASE,
)
SECTION_DEPTH = re.compile(r"^(\d{1,2}(?:\.\d{1,2})*)\.?\s")
# A Chinese sentence or a rule leading into a list ends so; a heading never does.
_CJK_SENTENCE_END = ("。", "；", "：")
# Marks inside a Chinese sentence: a heading with a clause in it is a sentence.
_CJK_CLAUSE_MARKS = ("，", "；", "。")
# A word a heading is made of: three Latin letters in a row, or a Han character. "T", "k k"
# and "ΘΨ2 ΘΨ1" (a figure's axis labels, a formula's symbols) have none.
_HEADING_WORD = re.compile(r"[A-Za-z]{3}|[\u3400-\u9fff]")
# The contents page's own title: its section ends where the first real heading starts.
_TOC_TITLE = re.compile(r"^\s*(?:目\s*录|contents|table of contents)\s*$", re.I)


# A chapter's label: "Chapter 4", "Part II", "Appendix B", "第三章".
_CHAPTER = re.compile(
    r"^(?:chapter|part|appendix)\s+[\dIVXLA-Z]{1,5}\b|^第\s*[一二三四五六七八九十百\d]{1,4}\s*[章篇部]",
    re.I,
)


def looks_like_heading(text: str) -> bool:
    """Words, not a symbol, a page number ("vii") or a contents line, and not a finished
    Chinese sentence."""
    stripped = text.strip()
    if not _HEADING_WORD.search(stripped) or TOC_ENTRY.search(stripped):
        return False
    if PAGE_NUMBER.match(stripped):
        return False
    clause = any(mark in stripped for mark in _CJK_CLAUSE_MARKS)
    return not clause and not stripped.endswith(_CJK_SENTENCE_END)


def open_section(stack: list[tuple[int, str]], level: int, title: str) -> None:
    """Push a heading, closing what it ends: deeper or equal levels, the contents page,
    numbered sections it is not part of ("1.2.1" closes "1.1.2"), an open chapter when it
    is a chapter ("第 4 章" closes "第 3 章" whatever their fonts), and an open heading of
    the same title (a running head set above it, now replaced)."""
    number = SECTION_DEPTH.match(title)
    while stack:
        top_level, top = stack[-1]
        top_number = SECTION_DEPTH.match(top)
        foreign = (
            number is not None and top_number is not None and not _within(number[1], top_number[1])
        )
        same = any(text == title for _, text in stack)
        sibling = bool(_CHAPTER.match(title) and _CHAPTER.match(top))  # never a chapter in one
        if top_level >= level or _TOC_TITLE.match(top) or foreign or same or sibling:
            stack.pop()
        else:
            break
    stack.append((level, title))


def _within(number: str, parent: str) -> bool:
    """Whether section "1.2.1" lies inside section "1.2" (or "1")."""
    return (number + ".").startswith(parent.rstrip(".") + ".") and number != parent
