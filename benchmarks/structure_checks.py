"""Structure checks over one parsed document (pure): what answers, quotes and highlights
rely on, measured on documents nobody tuned the parsers on (``structure.py`` sweeps them).

Each check takes the parsed document and its chunks and returns one ``Violation`` per
offending block or chunk:

- ``path``: a section path longer than ``MAX_PATH_CHARS`` characters (joined with " > ");
- ``nav_chunk``: a chunk made of table-of-contents entries (dot leaders, page numbers) or
  of link-list lines (short labels, not one sentence among them);
- ``heading``: a heading longer than ``MAX_HEADING_CHARS``;
- ``monotone``: a numbered heading under a numbered one that is not its prefix ("3.1"
  under "2.3", "Chapter 4" under "Chapter 3");
- ``page_split``: a paragraph ending mid-sentence at a page's foot whose continuation
  opens the next page (lower case, or Chinese after a comma or ideograph: the sentence
  test is the parser's own, ``parse/pdf/page_breaks.continues``; the check finds the
  pairs on its own, over the blocks as parsed);
- ``running``: a body block repeated at the same place on most pages (a running header);
- ``line_numbers``: a code listing whose lines open with the consecutive numbers of a
  printed listing ("1 int main", "2{").
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from askalong.parse.pdf.page_breaks import continues
from askalong.types import FURNITURE_KINDS, Block, Chunk, ParsedDocument

MAX_PATH_CHARS = 200
MAX_HEADING_CHARS = 150
PATH_JOINER = " > "
# A table of contents entry: leader dots (or spaced dots) then a page number.
_TOC_LINE = re.compile(r"(?:\.{4,}|…{2,}|·{4,}|(?:\. ){4,})\s*[\dvixlc]{1,4}\s*$", re.I)
_NAV_MIN_LINES = 6
_NAV_LABEL_WORDS = 6
_SENTENCE_WORDS = 9
_TERMINAL = ".!?。！？:：;；"
# "2.3", "2.3.1", "第三章", "Chapter 4": a heading's number, the comparable part.
_SECTION_NUMBER = re.compile(r"^(\d{1,2}(?:\.\d{1,2})*)\.?(?:\s|$)(?!\s*\d)")
_CHAPTER = re.compile(r"^(?:chapter|part)\s+(\d+)\b|^第([一二三四五六七八九十百\d]+)章", re.I)
_CJK_NUMERALS = {c: i for i, c in enumerate("零一二三四五六七八九十", start=0)}
_HAN = re.compile(r"[\u4e00-\u9fff]")
_BETWEEN_PAGES = frozenset({"header", "footer", "footnote", "caption", "table"})
_RUNNING_SHARE = 0.5
_RUNNING_MIN_PAGES = 4
_RUNNING_SLACK = 12.0  # points: how far a repeated line may move between pages
_DIGITS = re.compile(r"\d+")
# A listing line's number, glued or spaced: "12 int x;", "3{", "10\tfoo".
_LISTING_NUMBER = re.compile(r"^\s*(\d{1,4})(?![.)\d:,])\s*(.*)$")
_CODE_SIGNS = re.compile(r"[{}();=\\<>#\[\]$]|^\s*(?:def|int|if|for|return|import)\b")
_LISTING_RUN = 3


@dataclass(frozen=True)
class Violation:
    check: str
    where: str  # a block or chunk id, with its page when it has one
    detail: str


def _where(block: Block) -> str:
    return f"{block.id} p.{block.page}" if block.page else block.id


def _short(text: str, limit: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def long_paths(parsed: ParsedDocument, chunks: Sequence[Chunk]) -> list[Violation]:
    """Blocks whose section path, joined, is over ``MAX_PATH_CHARS`` (one per path)."""
    seen: set[tuple[str, ...]] = set()
    found: list[Violation] = []
    for block in parsed.blocks:
        joined = PATH_JOINER.join(block.section_path)
        if len(joined) > MAX_PATH_CHARS and block.section_path not in seen:
            seen.add(block.section_path)
            found.append(Violation("path", _where(block), f"{len(joined)} chars: {_short(joined)}"))
    return found


def is_toc_line(line: str) -> bool:
    return bool(_TOC_LINE.search(line.strip()))


def _label_line(line: str) -> bool:
    """A short line that is no sentence: a link's text, a menu entry, an index term."""
    words = line.split()
    han = len(_HAN.findall(line))
    size = len(words) + han // 2
    return 0 < size <= _NAV_LABEL_WORDS and not line.rstrip().endswith(tuple(".!?。！？"))


def _is_sentence(line: str) -> bool:
    words = len(line.split()) + len(_HAN.findall(line)) // 2
    return words >= _SENTENCE_WORDS


def navigation_lines(lines: Sequence[str]) -> bool:
    """Whether lines read as a table of contents or a link list, not as prose."""
    lines = [line for line in lines if line.strip()]
    if not lines:
        return False
    toc = sum(is_toc_line(line) for line in lines)
    if toc * 2 >= len(lines) and toc >= 2:
        return True
    if len(lines) < _NAV_MIN_LINES or any(_is_sentence(line) for line in lines):
        return False
    return sum(_label_line(line) for line in lines) >= 0.9 * len(lines)


def navigation_chunks(parsed: ParsedDocument, chunks: Sequence[Chunk]) -> list[Violation]:
    """Chunks that are a table of contents or a list of links."""
    by_id = {block.id: block for block in parsed.blocks}
    found = []
    for chunk in chunks:
        if any(by_id[span.block_id].kind in ("code", "table") for span in chunk.spans):
            continue
        if navigation_lines(chunk.text.split("\n")):
            found.append(Violation("nav_chunk", chunk.id, _short(chunk.text)))
    return found


def long_headings(parsed: ParsedDocument, chunks: Sequence[Chunk]) -> list[Violation]:
    return [
        Violation("heading", _where(b), f"{len(b.text)} chars: {_short(b.text)}")
        for b in parsed.blocks
        if b.kind == "heading" and len(b.text) > MAX_HEADING_CHARS
    ]


def heading_number(text: str) -> tuple[str, tuple[int, ...]] | None:
    """("chapter", (4,)) for "Chapter 4", ("section", (2, 3)) for "2.3 Model", else None."""
    text = text.strip()
    if match := _CHAPTER.match(text):
        value = match.group(1) or match.group(2)
        number = int(value) if value.isdigit() else _cjk_number(value)
        return ("chapter", (number,)) if number else None
    if match := _SECTION_NUMBER.match(text):
        return ("section", tuple(int(part) for part in match.group(1).split(".")))
    return None


def _cjk_number(text: str) -> int:
    """一 .. 九十九: enough for chapter numbers."""
    if not all(char in _CJK_NUMERALS for char in text):
        return 0
    if "十" not in text:
        return _CJK_NUMERALS.get(text, 0)
    tens, _, units = text.partition("十")
    return (_CJK_NUMERALS[tens] if tens else 1) * 10 + (_CJK_NUMERALS[units] if units else 0)


def _nests(ancestor: tuple[str, tuple[int, ...]], heading: tuple[str, tuple[int, ...]]) -> bool:
    """Whether ``heading`` may sit under ``ancestor``: a chapter holds any numbered
    section; a numbered section only its own subsections ("2.3" holds "2.3.1")."""
    (kind_a, number_a), (kind_h, number_h) = ancestor, heading
    if kind_a == "chapter":
        return kind_h != "chapter"
    if kind_h == "chapter":
        return False
    return len(number_a) < len(number_h) and number_h[: len(number_a)] == number_a


def non_monotone(parsed: ParsedDocument, chunks: Sequence[Chunk]) -> list[Violation]:
    """Numbered headings whose section path holds a numbered heading they cannot be under."""
    found = []
    for block in parsed.blocks:
        own = heading_number(block.text) if block.kind == "heading" else None
        if own is None:
            continue
        for title in block.section_path[:-1]:
            above = heading_number(title)
            if above is not None and not _nests(above, own):
                detail = f"{_short(block.text, 40)!r} under {_short(title, 40)!r}"
                found.append(Violation("monotone", _where(block), detail))
                break
    return found


def page_splits(parsed: ParsedDocument, chunks: Sequence[Chunk]) -> list[Violation]:
    """A body paragraph at a page's end continued by the first body paragraph of the next:
    only furniture, footnotes and floats (tables, captions) between them (a heading, a
    code listing or a formula between is where the text itself goes on)."""
    body = [b for b in parsed.blocks if b.kind not in _BETWEEN_PAGES and b.page]
    found = []
    for prev, block in itertools.pairwise(body):
        if prev.kind != "paragraph" or block.kind != "paragraph":
            continue
        if block.page == (prev.last_page or 0) + 1 and continues(prev.text, block.text):
            detail = f"…{_short(prev.text[-40:], 40)} | {_short(block.text, 40)}"
            found.append(Violation("page_split", _where(block), detail))
    return found


def _position_key(block: Block) -> str:
    text = _DIGITS.sub("#", " ".join(block.text.lower().split()))
    return f"{round(block.boxes[0].top / _RUNNING_SLACK)}:{text}"


def running_headers(parsed: ParsedDocument, chunks: Sequence[Chunk]) -> list[Violation]:
    """Body blocks whose text (numbers aside) recurs at the same height on most pages."""
    pages = parsed.page_count
    if pages < _RUNNING_MIN_PAGES:
        return []
    placed = [b for b in parsed.blocks if b.boxes and b.page]
    on_pages: dict[str, set[int]] = {}
    for block in placed:
        on_pages.setdefault(_position_key(block), set()).add(block.page or 0)
    found = []
    reported: Counter[str] = Counter()
    for block in placed:
        key = _position_key(block)
        if block.kind in FURNITURE_KINDS or len(on_pages[key]) < _RUNNING_SHARE * pages:
            continue
        reported[key] += 1
        if reported[key] == 1:
            detail = f"on {len(on_pages[key])}/{pages} pages: {_short(block.text, 50)}"
            found.append(Violation("running", _where(block), detail))
    return found


def _printed_lines(block: Block) -> list[str]:
    if block.boxes:
        return [block.text[box.start : box.end] for box in block.boxes]
    return block.text.split("\n")


def numbered_listing(lines: Sequence[str]) -> bool:
    """Whether ``_LISTING_RUN`` lines in a row open with consecutive numbers and read as
    code (a numbered list "1. ..." or a table of contents does not)."""
    run, last, code = 0, -1, False
    for line in lines:
        match = None if is_toc_line(line) else _LISTING_NUMBER.match(line)
        number = int(match.group(1)) if match else None
        if number is not None and number == last + 1:
            run, code = run + 1, code or bool(_CODE_SIGNS.search(match.group(2) or ""))
        else:
            run, code = 1, bool(match and _CODE_SIGNS.search(match.group(2) or ""))
        last = number if number is not None else -1
        if run >= _LISTING_RUN and code:
            return True
    return False


def line_numbers(parsed: ParsedDocument, chunks: Sequence[Chunk]) -> list[Violation]:
    """Blocks holding a listing whose printed line numbers are part of the text."""
    return [
        Violation("line_numbers", _where(b), _short(b.text))
        for b in parsed.blocks
        if b.kind not in FURNITURE_KINDS | {"table"} and numbered_listing(_printed_lines(b))
    ]


Check = Callable[[ParsedDocument, Sequence[Chunk]], list[Violation]]
CHECKS: dict[str, Check] = {
    "path": long_paths,
    "nav_chunk": navigation_chunks,
    "heading": long_headings,
    "monotone": non_monotone,
    "page_split": page_splits,
    "running": running_headers,
    "line_numbers": line_numbers,
}


def check_document(parsed: ParsedDocument, chunks: Sequence[Chunk]) -> list[Violation]:
    """Every check's violations for one document, check by check."""
    return [violation for check in CHECKS.values() for violation in check(parsed, chunks)]
