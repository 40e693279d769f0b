"""A paragraph cut by a page break, joined back into one block.

"…is passed as an" | page number | "array to …": a page's last body paragraph ends
without terminal punctuation and the next page's first body paragraph opens in lower case
(or, in Chinese, an ideograph after an ideograph or a comma). Between the two lie only
what a page puts around its body (running headers and footers, footnotes) and floats a
typesetter moves to a page's top (tables, captions). The joined block keeps the first's
id, order and page; the continuation's line boxes carry their own page, so the reader
lays them on it and a quote across the break is highlighted on both pages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from askalong.types import Block, LineBox

# Between a paragraph and its continuation: the page's furniture and its floats.
_BETWEEN_PAGES = frozenset({"header", "footer", "footnote", "caption", "table"})
_OPEN_END = re.compile(r"[^\W_]$|[,，、]$")
# A continuation opens with a lower-case word of a script (not a formula's italic "ℎ", nor
# a version or name with digits in it: "v2.4.3" heading a change log's next entry).
_LOWER_START = re.compile(r"[a-z\u00df-\u00ff\u0101-\u017f\u0430-\u045f](?![\w.]*\d)")
_HAN = re.compile(r"[\u3400-\u9fff]")


def join_page_breaks(blocks: Sequence[Block]) -> tuple[Block, ...]:
    """``blocks`` with every paragraph cut by a page break joined to its continuation."""
    out = list(blocks)
    index = 0
    while index < len(out):
        follower = _continuation(out, index)
        if follower is None:
            index += 1
            continue
        out[index] = joined(out[index], out[follower])
        del out[follower]
    return tuple(out)


def _continuation(blocks: Sequence[Block], index: int) -> int | None:
    """The index of the block that finishes ``blocks[index]`` on the next page, if any."""
    block = blocks[index]
    if block.kind != "paragraph" or block.last_page is None:
        return None
    for after in range(index + 1, len(blocks)):
        other = blocks[after]
        if other.kind in _BETWEEN_PAGES:
            continue
        on_next = other.page == block.last_page + 1 and other.kind == "paragraph"
        return after if on_next and continues(block.text, other.text) else None
    return None


def continues(text: str, following: str) -> bool:
    """Whether ``following`` reads as the rest of the sentence ``text`` breaks off."""
    text, following = text.rstrip(), following.lstrip()
    if not text or not following or not _OPEN_END.search(text):
        return False
    if _LOWER_START.match(following):
        return True
    return bool(_HAN.match(following)) and bool(_HAN.match(text[-1]) or text[-1] in "，、")


def joined(first: Block, second: Block) -> Block:
    """``first`` running on into ``second``: one text, each line box on its own page."""
    han_seam = _HAN.match(first.text[-1:]) and _HAN.match(second.text[:1])
    seam = "" if han_seam else " "
    shift = len(first.text) + len(seam)
    moved = tuple(_moved(box, shift, second.page) for box in second.boxes)
    return replace(first, text=first.text + seam + second.text, boxes=first.boxes + moved)


def _moved(box: LineBox, shift: int, page: int | None) -> LineBox:
    return replace(box, start=box.start + shift, end=box.end + shift, page=box.page or page)
