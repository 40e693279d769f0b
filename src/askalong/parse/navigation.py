"""Navigation: tables of contents, link lists and index pages, told from their text (pure).

A table of contents entry ends in leader dots and a page number ("2.1 安装 . . . . 14");
a contents list without page numbers (a plain-text FAQ's, a man page's) is a block made
mostly of the titles the document gives later, each as a block of its own; a link list is
a run of short labels, each all link text, with not one sentence among them ("Home",
"About", "Download" ...). Such blocks are kept for the reader but typed
``navigation``, so they are never chunked, searched or quoted. Every parser runs
``mark_navigation`` over its blocks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence, Set
from dataclasses import replace

from askalong.types import Block

# Leader dots (or spaced dots, or ellipses) then a page number, roman or arabic.
TOC_ENTRY = re.compile(r"(?:\.{4,}|…{2,}|·{4,}|(?:\. ){4,})\s*[\divxlc]{1,4}\s*$", re.I)
_HAN = re.compile(r"[\u4e00-\u9fff]")
_LABEL_SIZE = 6  # words (two Han characters count one) in a link or menu label
_MIN_RUN = 6  # labels in a row that make a link list
_TOC_SHARE = 0.5
_MARKABLE = frozenset({"paragraph", "list_item", "footnote"})
_MIN_LETTERS = 5
_PART_ENTRY = re.compile(r"^.{1,40}\s[\dvixlc]{1,4}$", re.I)
_INITIAL_CHARS = 2
_SENTENCE_ENDS = (".", "!", "?", "。", "！", "？")
_TITLE_CHARS = 160  # a later block this short may be a title a contents block lists
_MIN_TITLES = 4  # later titles a contents block lists, at least ...
_TITLES_SHARE = 0.5  # ... covering this share of its characters
_CONTENTS_WITHIN = 200  # a contents block comes before what it lists: among the first blocks


def is_toc_entry(line: str) -> bool:
    return bool(TOC_ENTRY.search(line.strip()))


def _lines(block: Block) -> list[str]:
    """The printed lines (PDF) or source lines of a block."""
    if block.boxes:
        return [block.text[box.start : box.end] for box in block.boxes]
    return [line for line in block.text.split("\n") if line.strip()]


def is_contents(block: Block) -> bool:
    """Whether most of a block's lines are table-of-contents entries."""
    lines = _lines(block)
    entries = sum(is_toc_entry(line) for line in lines)
    return entries >= 1 and entries >= _TOC_SHARE * len(lines)


def is_letter_bar(text: str) -> bool:
    """An index's row of initials: "A B C D E F G H", a few symbols among them (a list
    of operator characters, "+ - * / < >", is no index)."""
    tokens = text.split()
    letters = sum(token.isalpha() for token in tokens)
    single = all(len(token) == 1 for token in tokens)
    return single and letters >= _MIN_LETTERS and letters * 2 >= len(tokens)


def _contents_piece(block: Block) -> bool:
    """What sits among contents or index entries without leaders of its own: a part line
    ("G 数学公式 18": short, ending in a page number) or an index group's letter ("A")."""
    text = " ".join(block.text.split())
    return len(text) <= _INITIAL_CHARS or bool(_PART_ENTRY.match(text))


def is_label(text: str) -> bool:
    """A short line that is not a sentence: a link, a menu entry, an index term."""
    size = _words(text)
    return 0 < size <= _LABEL_SIZE and not text.rstrip().endswith(_SENTENCE_ENDS)


def _words(text: str) -> int:
    """Words, two Han characters counting one."""
    return len(text.split()) + len(_HAN.findall(text)) // 2


def _link_runs(blocks: Sequence[Block], links: Set[str]) -> set[int]:
    """Indices of blocks in runs of at least ``_MIN_RUN`` link labels in a row (headings
    between them do not break a run: an index's letters, a contents page's parts)."""
    marked: set[int] = set()
    run: list[int] = []
    for index, block in enumerate([*blocks, None]):
        if block is not None and block.kind == "heading" and run:
            continue
        if block is not None and block.id in links and is_label(block.text):
            run.append(index)
            continue
        if len(run) >= _MIN_RUN:
            marked.update(run)
        run = []
    return marked


def mark_navigation(blocks: Sequence[Block], links: Set[str] = frozenset()) -> tuple[Block, ...]:
    """``blocks`` with tables of contents and link lists typed ``navigation``; ``links``
    names the blocks whose text is all link text (a list of features is no link list)."""
    marked = _link_runs(blocks, links)
    marked |= {i for i, b in enumerate(blocks) if is_contents(b) or is_letter_bar(b.text)}
    early = range(min(len(blocks), _CONTENTS_WITHIN))
    marked |= {i for i in early if lists_later_titles(blocks, i)}
    marked |= {
        i for i, b in enumerate(blocks) if _contents_piece(b) and _beside_contents(i, marked)
    }
    return tuple(
        replace(block, kind="navigation") if block.kind in _MARKABLE and index in marked else block
        for index, block in enumerate(blocks)
    )


def _beside_contents(index: int, marked: Set[int]) -> bool:
    return index - 1 in marked or index + 1 in marked


def lists_later_titles(blocks: Sequence[Block], index: int) -> bool:
    """Whether block ``index`` is mostly the titles of later blocks, as written there: at
    least ``_MIN_TITLES`` of them covering ``_TITLES_SHARE`` of its characters ("o 1.
    chrony compared to other programs ? 1.1. How does chrony compare to ntpd? o 2. …")."""
    text = " ".join(blocks[index].text.split())
    if blocks[index].kind not in _MARKABLE or len(text) < _TITLE_CHARS:
        return False
    covered = [False] * len(text)
    titles = 0
    for later in blocks[index + 1 :]:
        title = " ".join(later.text.split())
        at = text.find(title) if _may_be_title(title) else -1
        if at >= 0:
            titles += 1
            covered[at : at + len(title)] = [True] * len(title)
    return titles >= _MIN_TITLES and sum(covered) >= _TITLES_SHARE * len(text)


def _may_be_title(text: str) -> bool:
    """Short, and words, not a page number or a lone symbol: a title a contents lists."""
    return _words(text) >= 2 and len(text) <= _TITLE_CHARS
