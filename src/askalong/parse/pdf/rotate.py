"""Pages shown turned (/Rotate 90, 180, 270): boxes moved to the page as displayed.

pdfium gives character positions on the unturned page, where the printed lines run
left to right, so lines, columns and reading order are worked out there; only the
finished boxes are turned, clockwise as the PDF rotation says, so they lie over the
text of the page as rendered (pdfium renders the page turned).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from askalong.types import Block, LineBox


def displayed_size(width: float, height: float, rotation: int) -> tuple[float, float]:
    """The page's (width, height) as displayed."""
    return (height, width) if rotation % 180 else (width, height)


def turn_box(box: LineBox, rotation: int, width: float, height: float) -> LineBox:
    """``box`` on the unturned ``width`` x ``height`` page, on the displayed page."""
    x0, top, x1, bottom = box.x0, box.top, box.x1, box.bottom
    if rotation == 90:  # a point (x, y) goes to (height - y, x)
        x0, top, x1, bottom = height - bottom, x0, height - top, x1
    elif rotation == 180:  # (width - x, height - y)
        x0, top, x1, bottom = width - x1, height - bottom, width - x0, height - top
    elif rotation == 270:  # (y, width - x)
        x0, top, x1, bottom = top, width - x1, bottom, width - x0
    return LineBox(x0, top, x1, bottom, box.start, box.end)


def turn_blocks(
    blocks: Sequence[Block], turns: Mapping[int, tuple[int, float, float]]
) -> tuple[Block, ...]:
    """``blocks`` with the boxes on turned pages turned; ``turns`` maps a 1-based page
    number to its rotation and unturned width and height (pages not named stay)."""
    if not turns:
        return tuple(blocks)
    out: list[Block] = []
    for block in blocks:
        turn = turns.get(block.page or 0)
        if turn is None:
            out.append(block)
            continue
        rotation, width, height = turn
        boxes = tuple(turn_box(box, rotation, width, height) for box in block.boxes)
        out.append(replace(block, boxes=boxes))
    return tuple(out)
