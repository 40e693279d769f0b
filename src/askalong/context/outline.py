"""A document's outline for cross-references: numbered headings, their parts, captions.

A heading's *part* runs from the heading over the following blocks whose section path
lies inside the heading's own path (page furniture skipped). Two parser habits are
handled: a label heading followed directly by its title heading ("Chapter 2" then
"文本排版") is one part, and a numbered heading's part ends at the next numbered heading
that is not inside it ("2.13" ends at "3.1" even when the parser nested them wrongly).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from askalong.text.numerals import numeral
from askalong.types import FURNITURE_KINDS, Block


def section_root(blocks: Sequence[Block]) -> tuple[str, ...]:
    """The section-path prefix that every body block with a path shares (often the title)."""
    root: tuple[str, ...] | None = None
    for block in blocks:
        path = block.section_path
        if block.kind in FURNITURE_KINDS or not path:
            continue
        if root is None:
            root = path
            continue
        common = 0
        while common < min(len(root), len(path)) and root[common] == path[common]:
            common += 1
        root = root[:common]
        if not root:
            break
    return root or ()


# Part names a question may use, each with the heading titles that name it.
NAMED_PARTS: Mapping[str, tuple[str, ...]] = {
    "introduction": ("introduction", "intro", "引言", "绪论", "前言", "导言", "简介"),
    "conclusion": ("conclusion", "conclusions", "concluding remarks", "结论", "结语", "结束语"),
    "related work": ("related work", "related works", "相关工作", "相关研究"),
    "abstract": ("abstract", "摘要", "概要"),
    "background": ("background", "背景"),
    "discussion": ("discussion", "讨论"),
    "references": ("references", "bibliography", "参考文献"),
}


@dataclass(frozen=True)
class Heading:
    """A heading with its label ("chapter", "section", "appendix", "part" or None), its
    number ("3", "1" for "3.1"; roman and Chinese numerals converted) and folded title."""

    index: int
    label: str | None
    number: tuple[str, ...]
    title: str


_LABELS = {"chapter": "chapter", "chap": "chapter", "section": "section", "sect": "section"}
_LABELS |= {"sec": "section", "§": "section", "part": "part", "appendix": "appendix"}
_CN_LABELS = {"章": "chapter", "部": "part", "篇": "part", "节": "section"}
_HEADING_PATTERNS = (
    re.compile(
        r"第\s*(?P<n>[0-9一二三四五六七八九十百零〇两]+(?:\.\d+)*)\s*(?P<cn>[章节部篇])\s*(?P<t>.*)"
    ),
    re.compile(
        r"(?P<label>chapter|chap\.?|section|sect?\.?|§|part|appendix)\s*"
        r"(?P<n>\d+(?:\.\d+)*|[IVXLC]+|[A-Z])\b[.:：]?\s*(?P<t>.*)",
        re.IGNORECASE,
    ),
    re.compile(r"(?P<n>\d{1,3}(?:\.\d{1,3})*)\.?(?:\s+(?P<t>.*)|$)"),
    re.compile(r"(?P<n>[IVXLC]+)\.\s+(?P<t>.*)"),
    re.compile(r"(?P<n>[一二三四五六七八九十]+)\s*[、.．]\s*(?P<t>.*)"),
    re.compile(r"(?P<n>[A-Z])[.:]\s+(?P<t>.*)"),
)


def fold_title(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(text.split()).strip(" .:：")


def parse_heading(index: int, text: str) -> Heading:
    text = unicodedata.normalize("NFKC", text).strip()
    for pattern in _HEADING_PATTERNS:
        match = pattern.fullmatch(text)
        if match is None:
            continue
        groups = match.groupdict()
        raw_label = (groups.get("label") or "").lower().rstrip(".")
        label = _CN_LABELS.get(groups.get("cn") or "") or _LABELS.get(raw_label)
        parts = tuple(numeral(p) for p in match.group("n").split("."))
        return Heading(index, label, parts, fold_title(match.group("t") or ""))
    return Heading(index, None, (), fold_title(text))


Part = tuple[Block, list[Block]]

_FLOAT_LABELS = {"table": r"(?:tables?|tab\.?|表)", "figure": r"(?:figures?|figs?\.?|图)"}
_FLOAT_NUMBER = r"\d+(?:[.\-]\d+)*|[A-Z]\.?\d+|[IVXLC]+\b"
_MAX_BESIDE = 3
_MAX_MENTIONS = 10


def _float_number(raw: str) -> str:
    """A caption number as a question's target: "II" -> "2", "2-1" -> "2.1"."""
    return numeral(raw) if "." not in raw and "-" not in raw else raw.replace("-", ".").upper()


class Outline:
    """The headings of one document (blocks in reading order) and the parts they head."""

    def __init__(self, blocks: Sequence[Block]) -> None:
        self.blocks = tuple(blocks)
        self.headings = [
            parse_heading(i, b.text) for i, b in enumerate(self.blocks) if b.kind == "heading"
        ]
        self._heading_at = {h.index: h for h in self.headings}
        self._extents: dict[int, range] = {}
        self.root = section_root(self.blocks)  # drift measures distances below it
        self.root_depth = len(self.root)

    # ------------------------------------------------------------------ extents

    def extent(self, index: int) -> range:
        """The positions of the part headed by ``blocks[index]``."""
        if index not in self._extents:
            self._extents[index] = self._scan(index)
        return self._extents[index]

    def _scan(self, index: int) -> range:
        origin = self._heading_at.get(index)
        key = _own_path(self.blocks[index])
        body_seen = False
        position = index + 1
        while position < len(self.blocks):
            block = self.blocks[position]
            heading = self._heading_at.get(position)
            if block.kind in FURNITURE_KINDS:
                position += 1
                continue
            if origin is not None and heading is not None and _closes(origin, heading):
                break
            if not _inside(key, block):
                if body_seen or heading is None or position > index + 1:
                    break
                key = _own_path(block)  # a label heading's title heading: one part
            body_seen = body_seen or heading is None
            position += 1
        return range(index, position)

    def part(self, index: int, stop: int | None = None) -> Part:
        span = self.extent(index)
        end = span.stop if stop is None else min(span.stop, stop)
        members = [
            self.blocks[i]
            for i in range(span.start, end)
            if self.blocks[i].kind not in FURNITURE_KINDS and self.blocks[i].text.strip()
        ]
        return self.blocks[index], members

    def depth(self, heading: Heading) -> int:
        return len(_own_path(self.blocks[heading.index]))

    # ---------------------------------------------------------------- resolving

    def numbered_part(self, kind: str, target: str) -> Part | None:
        """The part of "chapter 2" / "section 3.1" / "appendix A": the heading with that
        number, preferring the matching label, then no label, then the largest part."""
        number = tuple(target.split("."))
        preference = {kind: 0, None: 1}
        found = [h for h in self.headings if h.number == number]
        if not found:
            return None
        best = min(found, key=lambda h: (preference.get(h.label, 2), -len(self.extent(h.index))))
        return self.part(best.index)

    def named_part(self, name: str) -> Part | None:
        """The part titled like ``name`` ("introduction" finds "1 Introduction", "引言");
        else a block opening with the name ("Abstract—We ...", "摘要：...")."""
        aliases = NAMED_PARTS.get(name, (name,))
        found = [h for h in self.headings if any(_titled(h.title, a) for a in aliases)]
        if found:
            best = max(found, key=lambda h: len(self.extent(h.index)))
            return self.part(best.index)
        opening = re.compile(rf"\s*(?:{'|'.join(map(re.escape, aliases))})\s*[:：—\-.]", re.I)
        for block in self.blocks:
            if block.kind not in FURNITURE_KINDS and opening.match(block.text):
                return block, [block]
        return None

    def float_part(self, kind: str, target: str) -> Part | None:
        """The caption of "Table 2" / "Figure 3" (a caption block, else a paragraph set like
        one: "表 1.1 – ..."), the table/code/formula blocks beside it (else its nearest
        neighbour on each side), then the blocks elsewhere that mention it."""
        label = _FLOAT_LABELS[kind]
        caption = self._caption(label, target)
        if caption is None:
            return None
        index, raw = caption
        members = [*self._beside(index, -1)[::-1], self.blocks[index], *self._beside(index, +1)]
        mention = re.compile(rf"{label}\s*{re.escape(raw)}(?![\w.]\w|\w)", re.IGNORECASE)
        members += self._mentions(mention, {b.id for b in members})
        return self.blocks[index], members

    def equation_part(self, target: str) -> Part | None:
        """The block numbered "(4)" (a formula block first), the block before it, then the
        blocks that mention it ("Eq. 4", "式(4)")."""
        numbered = re.compile(rf"[(（]\s*{re.escape(target)}\s*[)）]\s*$")
        found = [i for i, b in enumerate(self.blocks) if numbered.search(b.text)]
        if not found:
            return None
        index = min(found, key=lambda i: (self.blocks[i].kind != "formula", i))
        before = self._neighbour(index, -1)
        members = [*([] if before is None else [before]), self.blocks[index]]
        mention = re.compile(
            rf"(?:\beq(?:uation|n)?s?\.?|式|公式)\s*[(（]?\s*{re.escape(target)}(?![\w.]\w|\w)",
            re.IGNORECASE,
        )
        members += self._mentions(mention, {b.id for b in members})
        return self.blocks[index], members

    def _caption(self, label: str, target: str) -> tuple[int, str] | None:
        """The position and written number of the caption numbered ``target``."""
        pattern = re.compile(rf"\s*{label}\s*(?P<n>{_FLOAT_NUMBER})(?P<sep>\s*[:：.–—\-])?", re.I)
        loose = []
        for index, block in enumerate(self.blocks):
            match = pattern.match(block.text)
            if match is None or _float_number(match.group("n")) != target:
                continue
            if block.kind == "caption":
                return index, match.group("n")
            if match.group("sep") and block.kind not in FURNITURE_KINDS | {"heading"}:
                loose.append((index, match.group("n")))
        return loose[0] if loose else None

    def _beside(self, index: int, step: int) -> list[Block]:
        """Table, code and formula blocks next to a caption, nearest first; else its one
        nearest neighbour (tables often parse as paragraphs)."""
        out: list[Block] = []
        position = index + step
        while 0 <= position < len(self.blocks) and len(out) < _MAX_BESIDE:
            block = self.blocks[position]
            position += step
            if block.kind in FURNITURE_KINDS or not block.text.strip():
                continue
            if block.kind not in ("table", "code", "formula"):
                break
            out.append(block)
        if out:
            return out
        nearest = self._neighbour(index, step)
        return [] if nearest is None or nearest.kind in ("heading", "caption") else [nearest]

    def _neighbour(self, index: int, step: int) -> Block | None:
        position = index + step
        while 0 <= position < len(self.blocks):
            block = self.blocks[position]
            if block.kind not in FURNITURE_KINDS and block.text.strip():
                return block
            position += step
        return None

    def _mentions(self, pattern: re.Pattern[str], taken: set[str]) -> list[Block]:
        out = []
        for block in self.blocks:
            if block.id in taken or block.kind in FURNITURE_KINDS or block.kind == "caption":
                continue
            if pattern.search(block.text):
                out.append(block)
                if len(out) == _MAX_MENTIONS:
                    break
        return out

    def heading_containing(self, position: int, *, outermost: bool = False) -> Heading | None:
        """The innermost (or outermost below the root) heading whose part holds ``position``."""
        best = None
        for heading in reversed(self.headings):
            if heading.index > position:
                continue
            if position not in self.extent(heading.index):
                continue
            if not outermost:
                return heading
            # Ties go to the earlier heading: a label heading before its title heading.
            if self.depth(heading) > self.root_depth:
                size = len(self.extent(heading.index))
                if best is None or size >= len(self.extent(best.index)):
                    best = heading
        return best

    def relative(self, position: int, chapter: bool, relative: str) -> Part | None:
        """The previous / next / current section or chapter of the block at ``position``."""
        current = self.heading_containing(position, outermost=chapter)
        if current is None:
            return None
        if relative == "current":
            return self.part(current.index)
        if relative == "previous":
            earlier = self._sibling(current, -1)
            return None if earlier is None else self.part(earlier.index, stop=current.index)
        later = self._sibling(current, +1)
        return None if later is None else self.part(later.index)

    def _sibling(self, current: Heading, step: int) -> Heading | None:
        """The numbered neighbour (3.2 -> 3.1 / 3.3) when there is one, else the nearest
        heading before / after the part at the same or a shallower depth."""
        if current.number and current.number[-1].isdigit():
            wanted = (*current.number[:-1], str(int(current.number[-1]) + step))
            for heading in self.headings:
                if heading.number == wanted and (heading.index - current.index) * step > 0:
                    return heading
        depth = self.depth(current)
        end = self.extent(current.index).stop
        candidates = (
            reversed([h for h in self.headings if h.index < current.index])
            if step < 0
            else (h for h in self.headings if h.index >= end)
        )
        for heading in candidates:
            if self.root_depth < self.depth(heading) <= depth:
                return heading
        return None


def _own_path(block: Block) -> tuple[str, ...]:
    """The section path of the part a heading opens: its path, plus its own title when
    the parser did not put it there."""
    path = block.section_path
    if block.kind == "heading" and (not path or fold_title(path[-1]) != fold_title(block.text)):
        return (*path, block.text)
    return path


def _inside(key: tuple[str, ...], block: Block) -> bool:
    return block.section_path[: len(key)] == key


def _closes(origin: Heading, heading: Heading) -> bool:
    """Whether ``heading`` ends ``origin``'s part by its label or numbering alone: a
    chapter ends anything but a part (or its own chapter); a numbered heading ends a part
    numbered in the same scheme when it is not inside it ("3.1" ends "2.13")."""
    inside = bool(origin.number) and heading.number[: len(origin.number)] == origin.number
    if heading.label == "chapter" and heading.number:
        return origin.label != "part" and not (origin.label == "chapter" and inside)
    if not origin.number or not heading.number:
        return False
    return heading.label == origin.label and not inside


def _titled(title: str, alias: str) -> bool:
    if title == alias or title.startswith(alias + " "):
        return True
    return not alias.isascii() and title.startswith(alias)
