"""Drafted blocks -> typed blocks: furniture, captions, footnotes, headings, sections.

Everything is judged relative to the document's body font size (the size carrying the
most characters): headings are larger or bold, footnotes smaller and low on the page.
Running headers and footers are text repeated at the same place on several pages, or a
bare page number near the top or bottom edge.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from askalong.parse.pdf.layout import CAPTION_START, NUMBERED_TITLE
from askalong.parse.pdf.outline import PAGE_NUMBER, SECTION_DEPTH, looks_like_heading, open_section
from askalong.types import Block, BlockKind, LineBox

_EDGE_ZONE = 0.09  # share of the page height where running headers/footers live
_FOOTNOTE_ZONE = 0.6  # footnotes start below this share of the page height
_FURNITURE_SLACK = 12.0
# Running furniture sits apart from the body: at least this many of its line heights.
_FURNITURE_GAP_LINES = 0.9  # points: how far a running header may move between pages
_MAX_HEADING_CHARS = 200
_MAX_HEADING_LINES = 3
_MAX_CJK_CAPTION = 80
# "表 1.2 – 文档类选项。": a number, then a dash or colon, is a caption however it ends.
_CJK_CAPTION_MARK = re.compile(r"^[图表]\s*[0-9０-９]+(?:\.[0-9]+)*\s*[–—:：]")
_DIGITS = re.compile(r"\d+")
# E-mail addresses and web addresses are author lines, not headings.
_CONTACT = re.compile(r"\S@\S|https?://|www\.")
# A numbered title in the body font: "2.1 可视化试验台的搭建", "第三章 ...", "二、...";
# a single "1." is too often a list item to count without a larger or bolder font.
_SAME_FONT_TITLE = re.compile(
    r"^(?:\d{1,2}(?:\.\d{1,2})+\.?\s*[^\d\s.]|第[一二三四五六七八九十百\d]+[章节部分篇]"
    r"|[一二三四五六七八九十]+、)"
)
_MAX_PLAIN_HEADING_CHARS = 40
_REFERENCES = re.compile(
    r"^(?:\d{1,2}\.?\s*)?(?:references|bibliography|literature cited|参考文献)\s*$", re.I
)
_SENTENCE_END = (".", "。", "!", "?", "！", "？", ":", "：", ";", "；")


@dataclass(frozen=True)
class Draft:
    """A block before it is typed: its page, text, line boxes and font."""

    page: int
    page_height: float
    text: str
    boxes: tuple[LineBox, ...]
    size: float
    bold: bool
    kind: BlockKind | None = None  # known from the layout: a table or a formula

    @property
    def style(self) -> tuple[float, bool]:
        return (round(self.size * 2) / 2, self.bold)


def body_size(drafts: Sequence[Draft]) -> float:
    """The font size that carries the most characters."""
    weights: Counter[float] = Counter()
    for draft in drafts:
        weights[draft.style[0]] += len(draft.text)
    return weights.most_common(1)[0][0] if weights else 10.0


def furniture(drafts: Sequence[Draft]) -> dict[int, BlockKind]:
    """Indices of running headers/footers and page numbers, with their kind."""
    zones = [_zone(draft) for draft in drafts]
    pages: dict[tuple[str, str], set[int]] = {}
    for draft, zone in zip(drafts, zones, strict=True):
        if zone:
            pages.setdefault((zone, _furniture_key(draft)), set()).add(draft.page)
    found: dict[int, BlockKind] = {}
    for index, (draft, zone) in enumerate(zip(drafts, zones, strict=True)):
        if not zone:
            continue
        repeated = len(pages[(zone, _furniture_key(draft))]) >= 2
        if repeated or PAGE_NUMBER.match(draft.text):
            found[index] = "header" if zone == "top" else "footer"
    return _beyond_body(drafts, _outermost(drafts, found))


def _beyond_body(drafts: Sequence[Draft], found: dict[int, BlockKind]) -> dict[int, BlockKind]:
    """Keep furniture that lies outside where body text usually starts and ends.

    A label that often falls on a page's last body line ("Syntax:") sits at the body's
    usual bottom; a running footer sits below it.
    """
    tops: dict[int, float] = {}
    bottoms: dict[int, float] = {}
    for index, draft in enumerate(drafts):
        if index not in found:
            tops[draft.page] = min(tops.get(draft.page, draft.boxes[0].top), draft.boxes[0].top)
            bottom = draft.boxes[-1].bottom
            bottoms[draft.page] = max(bottoms.get(draft.page, bottom), bottom)
    if len(bottoms) < 3:
        return found
    body_top, body_bottom = statistics.median(tops.values()), statistics.median(bottoms.values())
    return {
        index: kind
        for index, kind in found.items()
        if (kind == "footer" and drafts[index].boxes[0].top >= body_bottom - 1)
        or (kind == "header" and drafts[index].boxes[-1].bottom <= body_top + 1)
    }


def _outermost(drafts: Sequence[Draft], found: dict[int, BlockKind]) -> dict[int, BlockKind]:
    """Keep furniture with only margin (or other furniture) between it and the page edge.

    A manual's "Syntax:" recurs near the bottom of many pages, but body text follows it.
    """
    by_page: dict[int, list[int]] = {}
    for index, draft in enumerate(drafts):
        by_page.setdefault(draft.page, []).append(index)
    kept = dict(found)
    changed = True
    while changed:
        changed = False
        for index in list(kept):
            if _covered(drafts, index, kept, by_page[drafts[index].page]):
                del kept[index]
                changed = True
    return kept


def _covered(
    drafts: Sequence[Draft], index: int, kept: dict[int, BlockKind], page: Sequence[int]
) -> bool:
    """Whether body text lies between furniture ``index`` and its page edge, or closer
    to it on the body side than a line height (then it is the body's last line).
    ``page`` holds the indices of the drafts on the same page."""
    draft, kind = drafts[index], kept[index]
    top, bottom = draft.boxes[0].top, draft.boxes[-1].bottom
    margin = _FURNITURE_GAP_LINES * (draft.boxes[0].bottom - draft.boxes[0].top)
    for other_index in page:
        other = drafts[other_index]
        if other_index in kept or not _overlaps(draft, other):
            continue
        if kind == "footer" and other.boxes[-1].bottom > top - margin:
            return True
        if kind == "header" and other.boxes[0].top < bottom + margin:
            return True
    return False


def _overlaps(one: Draft, two: Draft) -> bool:
    """Whether two blocks share some horizontal extent (one may lie above the other)."""
    left = max(min(b.x0 for b in one.boxes), min(b.x0 for b in two.boxes))
    right = min(max(b.x1 for b in one.boxes), max(b.x1 for b in two.boxes))
    return left < right


def _zone(draft: Draft) -> str:
    if draft.boxes[0].top < _EDGE_ZONE * draft.page_height:
        return "top"
    if draft.boxes[-1].bottom > (1 - _EDGE_ZONE) * draft.page_height:
        return "bottom"
    return ""


def _furniture_key(draft: Draft) -> str:
    """Same text (numbers aside) at about the same height: repeated page furniture."""
    text = _DIGITS.sub("#", " ".join(draft.text.lower().split()))
    return f"{round(draft.boxes[0].top / _FURNITURE_SLACK)}:{text}"


def plain_kind(draft: Draft, body: float) -> BlockKind:
    """caption, footnote or paragraph (headings are decided over the whole document)."""
    if is_caption(draft.text):
        return "caption"
    small = draft.size <= body - 1.0 and draft.size < 0.92 * body
    if small and draft.boxes[0].top > _FOOTNOTE_ZONE * draft.page_height:
        return "footnote"
    return "paragraph"


def is_caption(text: str) -> bool:
    """ "Figure 2: ..." or "表 1 ..."; a Chinese sentence about a figure ends with "。"."""
    if not CAPTION_START.match(text):
        return False
    if text[0] not in "图表" or _CJK_CAPTION_MARK.match(text):
        return True
    return len(text) <= _MAX_CJK_CAPTION and not text.endswith("。")


def is_heading(draft: Draft, body: float, *, bold_body: bool = False) -> bool:
    """Whether ``draft`` is a heading; ``bold_body`` says the body text itself counts as
    bold (some fonts report a heavy weight throughout), so boldness tells nothing."""
    text = draft.text
    if len(text) > _MAX_HEADING_CHARS or len(draft.boxes) > _MAX_HEADING_LINES:
        return False
    if text.endswith((",", ";", "，", "；")) or "=" in text or _CONTACT.search(text):
        return False
    if not looks_like_heading(text):
        return False
    if _SAME_FONT_TITLE.match(text) and len(draft.boxes) == 1 and abs(draft.size - body) < 1.0:
        return len(text) <= _MAX_PLAIN_HEADING_CHARS and not text.endswith(_SENTENCE_END)
    # Mostly letters, past a section number ("3.1 网络"): not a formula or a figure's labels.
    number = SECTION_DEPTH.match(text)
    words = text[number.end() :] if number else text
    letters = sum(char.isalpha() for char in words)
    if letters * 2 < len(words.replace(" ", "")):
        return False
    if draft.size >= body + 1.0 and draft.size >= 1.08 * body:
        return True
    if not draft.bold or bold_body or draft.size < body - 0.5:
        return False
    short = len(text.split()) <= 10 and not text.endswith((".", "。"))
    return bool(NUMBERED_TITLE.match(text)) or short


Rank = tuple[tuple[float, bool], int]  # a heading's style and its numbering depth


def heading_levels(ranks: Sequence[Rank]) -> dict[Rank, int]:
    """Level 1 for the largest heading style, then down by size (bold before regular);
    within one style, "1.2" ranks below "1." (both may be set alike)."""
    ordered = sorted(set(ranks), key=lambda rank: (-rank[0][0], not rank[0][1], rank[1]))
    return {rank: level + 1 for level, rank in enumerate(ordered)}


def numbering_depth(text: str) -> int:
    """1 for "2 Model", 2 for "2.3 ...", 3 for "2.3.1 ...", 0 when unnumbered."""
    match = SECTION_DEPTH.match(text)
    return match.group(1).count(".") + 1 if match else 0


def build_blocks(drafts: Sequence[Draft]) -> tuple[Block, ...]:
    """Type every draft and give it its id, order and section path.

    The document title (the largest heading style, found on the first page only) is a
    level-1 heading outside every section path; sections rank below it.
    """
    kinds = _kinds(drafts)
    title = _title(drafts, kinds)
    _demote_front_matter(drafts, kinds, title)
    _masthead(drafts, kinds, title)
    _demote_title_page_orphans(drafts, kinds, title)
    rank, levels = _levels(drafts, kinds, title)
    first = 2 if title else 1
    stack: list[tuple[int, str]] = []
    blocks: list[Block] = []
    for order, (draft, kind) in enumerate(zip(drafts, kinds, strict=True)):
        if order in title:
            blocks.append(_block(draft, kind, order, (draft.text,), 1))
            continue
        level = levels[rank(draft)] + first - 1 if kind == "heading" else 0
        if level:
            open_section(stack, level, draft.text)
        path = tuple(text for _, text in stack)
        blocks.append(_block(draft, kind, order, path, level))
    return tuple(blocks)


def _levels(
    drafts: Sequence[Draft], kinds: Sequence[BlockKind], title: set[int]
) -> tuple[Callable[[Draft], Rank], dict[Rank, int]]:
    """The rank of a section heading and the level (1 the top) of each rank."""
    pairs = zip(drafts, kinds, strict=True)
    headings = [d for i, (d, k) in enumerate(pairs) if k == "heading" and i not in title]
    rank = _ranker(headings)
    return rank, heading_levels([rank(d) for d in headings])


def _demote_title_page_orphans(
    drafts: Sequence[Draft], kinds: list[BlockKind], title: set[int]
) -> None:
    """The lines right under the title set like subsection headings: the authors
    ("Martin Maechler and Douglas Bates"), a date. They come before any section opens,
    and a subsection cannot come before the first section: so an unnumbered heading
    between the title and the first body text that ranks below the document's top
    section level is body text."""
    if not title:
        return
    rank, levels = _levels(drafts, kinds, title)
    top = min(levels.values(), default=0)
    index = max(title) + 1
    while index < len(drafts) and kinds[index] == "heading" and index not in title:
        draft = drafts[index]
        if levels[rank(draft)] > top and not numbering_depth(draft.text):
            kinds[index] = "paragraph"
        index += 1


def _ranker(headings: Sequence[Draft]) -> Callable[[Draft], Rank]:
    """A heading's rank: its style and numbering depth; an unnumbered heading ranks with
    the deepest numbered ones of its style (a run-in "Data" under "2.3 ...")."""
    deepest: dict[tuple[float, bool], int] = {}
    for draft in headings:
        depth = numbering_depth(draft.text)
        deepest[draft.style] = max(deepest.get(draft.style, 1), depth)

    def rank(draft: Draft) -> Rank:
        return (draft.style, numbering_depth(draft.text) or deepest.get(draft.style, 1))

    return rank


def _kinds(drafts: Sequence[Draft]) -> list[BlockKind]:
    body = body_size(drafts)
    edges = furniture(drafts)
    kinds: list[BlockKind] = [
        d.kind or edges.get(i) or plain_kind(d, body) for i, d in enumerate(drafts)
    ]
    references = False
    bold_body = _bold_body(drafts, body)
    for index, draft in enumerate(drafts):
        if kinds[index] == "paragraph" and is_heading(draft, body, bold_body=bold_body):
            kinds[index] = "heading"
            references = bool(_REFERENCES.match(draft.text))
        elif kinds[index] == "footnote" and references:
            kinds[index] = "paragraph"  # a reference list set small is not footnotes
    return kinds


def _bold_body(drafts: Sequence[Draft], body: float) -> bool:
    """Whether most of the body-size text is bold."""
    sized = [draft for draft in drafts if draft.style[0] == body]
    bold = sum(len(draft.text) for draft in sized if draft.bold)
    return bold * 2 > sum(len(draft.text) for draft in sized)


def _title(drafts: Sequence[Draft], kinds: Sequence[BlockKind]) -> set[int]:
    """The title's blocks: headings of the largest size, all of them on the first page."""
    headings = [i for i, kind in enumerate(kinds) if kind == "heading"]
    if not headings:
        return set()
    largest = max(drafts[i].style[0] for i in headings)
    title = {i for i in headings if drafts[i].style[0] == largest}
    others = [drafts[i].style[0] for i in headings if i not in title]
    if any(drafts[i].page != 1 for i in title) or not others:
        return set()
    return title


def _masthead(drafts: Sequence[Draft], kinds: list[BlockKind], title: set[int]) -> None:
    """A journal's masthead: text in the top margin of page 1 printed above the title.

    It is not repeated on later pages, so it is not found as a running header."""
    if not title:
        return
    first = drafts[min(title)]
    if first.page != 1 or first.boxes[0].top > 2 * _EDGE_ZONE * first.page_height:
        return  # the title is not near the top: what is above it is no masthead
    for index in range(min(title)):
        draft = drafts[index]
        top_margin = draft.boxes[-1].bottom < _EDGE_ZONE * draft.page_height
        if draft.page == 1 and kinds[index] == "paragraph" and top_margin:
            kinds[index] = "header"


def _demote_front_matter(drafts: Sequence[Draft], kinds: list[BlockKind], title: set[int]) -> None:
    """Authors, affiliations and the like: heading styles seen on the first page only.

    A style that never heads a section after page 1 is how a paper sets its author
    names, not how it sets section titles.
    """
    if not title or max(draft.page for draft in drafts) < 2:
        return
    later = {d.style for d, k in zip(drafts, kinds, strict=True) if k == "heading" and d.page > 1}
    for index, (draft, kind) in enumerate(zip(drafts, kinds, strict=True)):
        if kind == "heading" and index not in title and draft.style not in later:
            kinds[index] = "paragraph"


def renumbered(blocks: Sequence[Block]) -> tuple[Block, ...]:
    """``blocks`` numbered 0, 1, ... again (ids ``b0``, ``b1``, ...) once some are joined."""
    return tuple(
        block if block.order == order else replace(block, id=_block_id(order), order=order)
        for order, block in enumerate(blocks)
    )


def _block_id(order: int) -> str:
    return f"b{order}"


def _block(draft: Draft, kind: BlockKind, order: int, path: tuple[str, ...], level: int) -> Block:
    return Block(
        id=_block_id(order),
        kind=kind,
        text=draft.text,
        order=order,
        section_path=path,
        heading_level=level,
        page=draft.page,
        boxes=draft.boxes,
    )
