"""Cross-references in a question: which other part of the document it names.

``cross_references`` finds the references ("chapter 2", "Chapter II", "section 3.1",
"§3.1", "Table 2", "Fig. 3", "Eq. (4)", "appendix A", "第二章", "第3.1节", "表2", "图3",
"上一节", "next section", "the introduction", "摘要" ...) and resolves each to the blocks
of that part with ``outline.Outline``. ``crossref_units`` then takes,
from each part, the blocks that best match the question's other key terms ("the
definition of X in the introduction" -> the introduction's blocks that mention X).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from askalong.context.anchor import locate_anchor
from askalong.context.outline import NAMED_PARTS, Outline
from askalong.context.units import (
    UNIT_CHARS,
    ContextUnit,
    Piece,
    joined_length,
    places_of,
    trimmed,
)
from askalong.question.reading import QuestionReading
from askalong.text.numerals import numeral
from askalong.text.tokens import key_terms
from askalong.types import CHUNK_JOINER, Anchor, Block, BlockSpan

RefKind = Literal["chapter", "section", "table", "figure", "equation", "appendix", "named"]
Relative = Literal["previous", "next", "current"]


@dataclass(frozen=True)
class CrossRef:
    """One reference in a question and the part of the document it names.

    ``target`` is the normalised number ("2", "3.1", "A") or part name ("introduction");
    ``relative`` marks "上一节"/"next chapter"/"this section" (target empty).
    ``heading_id`` is the heading, caption or numbered formula that names the part;
    ``block_ids`` are the part's blocks: a section's blocks in reading order (heading
    first), or a caption/formula, its neighbouring blocks, then the blocks that mention
    it. Both are empty when the reference could not be resolved.
    """

    kind: RefKind
    phrase: str
    target: str
    relative: Relative | None = None
    heading_id: str | None = None
    block_ids: tuple[str, ...] = ()

    @property
    def resolved(self) -> bool:
        return bool(self.block_ids)


_NUM = r"(?:\d+(?:\.\d+)*)"
_ROMAN = r"(?:[IVXLC]+|[ivxlc]+)\b"
_CN = r"[0-9一二三四五六七八九十百零〇两]+"
_FLAGS = re.IGNORECASE


def _rx(pattern: str, flags: int = _FLAGS) -> re.Pattern[str]:
    return re.compile(pattern, flags)


# (kind, pattern): group "n" is the number; Chinese numerals and roman numerals convert.
_NUMBERED: tuple[tuple[RefKind, re.Pattern[str]], ...] = (
    ("chapter", _rx(rf"\b(?:chapter|chap\.|ch\.)\s*(?P<n>{_NUM}\b|{_ROMAN})")),
    ("chapter", _rx(rf"第\s*(?P<n>{_CN})\s*[章部篇]")),
    ("section", _rx(rf"(?:\bsections?|\bsecs?\.|§)\s*(?P<n>{_NUM})")),
    ("section", _rx(rf"第\s*(?P<n>{_NUM}|{_CN})\s*小?节")),
    ("table", _rx(rf"\b(?:tables?|tab\.)\s*(?P<n>{_NUM}\b|[A-Z]\.?\d+\b|{_ROMAN})")),
    ("table", _rx(rf"(?<![代列发报图])表\s*(?P<n>{_NUM})")),
    ("figure", _rx(rf"\b(?:figures?|figs?\.?)\s*(?P<n>{_NUM}\b|[A-Z]\.?\d+\b|{_ROMAN})")),
    ("figure", _rx(rf"(?<![地试意企构视草])图\s*(?P<n>{_NUM})")),
    ("equation", _rx(rf"\b(?:equations?|eqns?\.?|eqs?\.)\s*\(?(?P<n>{_NUM})\)?")),
    ("equation", _rx(rf"(?:公式|方程|式)\s*[(（]\s*(?P<n>{_NUM})\s*[)）]")),
    ("appendix", _rx(r"\bappendix\s+(?P<n>[A-Z]\b|\d+\b)")),
    ("appendix", _rx(r"附录\s*(?P<n>[A-Z]|\d+)")),
)

_RELATIVE: tuple[tuple[RefKind, Relative, re.Pattern[str]], ...] = (
    ("section", "previous", _rx(r"上一?小?节|前一小?节|\b(?:previous|preceding|prior) section\b")),
    ("section", "next", _rx(r"下一?小?节|后一小?节|\b(?:next|following) section\b")),
    ("section", "current", _rx(r"本小?节|这一?小?节|\bth(?:is|e current) section\b")),
    ("chapter", "previous", _rx(r"上一?章|前一章|\b(?:previous|preceding|prior) chapter\b")),
    ("chapter", "next", _rx(r"下一?章|后一章|\b(?:next|following) chapter\b")),
    ("chapter", "current", _rx(r"本章|这一?章|\bth(?:is|e current) chapter\b")),
)

_ENGLISH_NAMES = "|".join(
    re.escape(alias) for aliases in NAMED_PARTS.values() for alias in aliases if alias.isascii()
)
_NAMED_EN = _rx(
    rf"\b(?:the|in|of|from|see)\s+(?:(?:paper|document|article)(?:'s)?\s+)?(?P<name>{_ENGLISH_NAMES})\b"
    rf"|\b(?P<name2>{_ENGLISH_NAMES})\s+(?:section|chapter|part)\b"
)
_NAMED_ZH = _rx("引言|绪论|前言|导言|结论|结语|结束语|相关工作|相关研究|摘要|参考文献")


def cross_references(
    question: str, blocks: Sequence[Block], *, anchor: Anchor | None = None
) -> list[CrossRef]:
    """The references ``question`` makes to parts of the document, each resolved to the
    part's blocks (relative ones need the ``anchor``; unresolvable ones come back with no
    blocks). ``blocks`` are one document's blocks in reading order."""
    position = None if anchor is None else locate_anchor(blocks, anchor).index
    return outline_references(question, Outline(blocks), position=position)


def outline_references(
    question: str, outline: Outline, *, position: int | None = None
) -> list[CrossRef]:
    """``cross_references`` in a document's ``outline``, the anchor block at ``position``
    (for an outline and an anchor the caller has already)."""
    refs: list[CrossRef] = []
    for ref in detect_references(question):
        if all(
            (r.kind, r.target, r.relative) != (ref.kind, ref.target, ref.relative) for r in refs
        ):
            refs.append(_resolve(ref, outline, position))
    return refs


def detect_references(question: str) -> list[CrossRef]:
    """The references written in ``question``, unresolved, in the order they appear."""
    found: list[tuple[int, CrossRef]] = []
    for kind, pattern in _NUMBERED:
        for match in pattern.finditer(question):
            target = numeral(match.group("n"))
            found.append((match.start(), CrossRef(kind, match.group().strip(), target)))
    for kind, relative, pattern in _RELATIVE:
        for match in pattern.finditer(question):
            found.append((match.start(), CrossRef(kind, match.group(), "", relative)))
    found.extend(_named(question))
    found.sort(key=lambda pair: pair[0])
    return [ref for _, ref in found]


def _named(question: str) -> Iterator[tuple[int, CrossRef]]:
    for match in _NAMED_EN.finditer(question):
        name = (match.group("name") or match.group("name2")).lower()
        yield match.start(), CrossRef("named", match.group(), _part_name(name))
    for match in _NAMED_ZH.finditer(question):
        yield match.start(), CrossRef("named", match.group(), _part_name(match.group()))


def _part_name(alias: str) -> str:
    for name, aliases in NAMED_PARTS.items():
        if alias in aliases:
            return name
    return alias


def _resolve(ref: CrossRef, outline: Outline, position: int | None) -> CrossRef:
    if ref.relative is not None:
        if position is None:
            return ref
        part = outline.relative(position, ref.kind == "chapter", ref.relative)
    elif ref.kind in ("table", "figure"):
        part = outline.float_part(ref.kind, ref.target)
    elif ref.kind == "equation":
        part = outline.equation_part(ref.target)
    elif ref.kind == "named":
        part = outline.named_part(ref.target)
    else:
        part = outline.numbered_part(ref.kind, ref.target)
    if part is None:
        return ref
    head, members = part
    return replace(ref, heading_id=head.id, block_ids=tuple(b.id for b in members))


# ------------------------------------------------------------------------------- units


def crossref_units(
    question: QuestionReading,
    refs: Sequence[CrossRef],
    blocks: Sequence[Block],
    *,
    limit_per_ref: int = 3,
    unit_chars: int = UNIT_CHARS,
    document_id: str = "",
) -> list[ContextUnit]:
    """One unit per resolved reference: the part's heading (or caption) and its
    ``limit_per_ref`` blocks that share the most key-term weight with the question (the
    words of the references themselves do not count; see ``_best_blocks``); with no
    shared term, the part's first blocks. The heading comes first, the chosen blocks follow
    in reading order, within ``unit_chars``; origin "crossref", score the best block's
    weighted share of the question's terms."""
    by_id = {block.id: block for block in blocks}
    terms = _question_terms(question, refs)
    units = []
    for ref in refs:
        if ref.resolved and ref.heading_id is not None:
            head = by_id[ref.heading_id]
            body = [by_id[i] for i in ref.block_ids if i != ref.heading_id]
            best, score = _best_blocks(body, terms, limit_per_ref)
            units.append(_unit(head, best, score, unit_chars, document_id))
    return units


def _question_terms(question: QuestionReading, refs: Sequence[CrossRef]) -> set[str]:
    """The question's key terms without the references' own words; single characters
    ("里", "中") only when nothing longer is left, as they are mostly particles."""
    terms = set(question.terms - key_terms(" ".join(ref.phrase for ref in refs)))
    longer = {term for term in terms if len(term) > 1}
    return longer or terms


def _best_blocks(body: list[Block], terms: set[str], limit: int) -> tuple[list[Block], float]:
    """The ``limit`` blocks sharing the most question-term weight, and the best share.

    A term weighs ``log(1 + n / df)`` over the part's ``n`` blocks, so a word the whole
    part uses ("输入", "model") counts less than the one the question is about."""
    block_terms = [terms & key_terms(block.text) for block in body]
    frequency = Counter(term for shared in block_terms for term in shared)
    weight = {t: math.log(1 + len(body) / max(frequency[t], 1)) for t in terms}
    total = math.fsum(weight.values())
    scored = [
        (-math.fsum(weight[t] for t in shared) / total if total else 0.0, position)
        for position, shared in enumerate(block_terms)
    ]
    best = sorted(item for item in scored if item[0] < 0)[:limit]
    if not best:
        return body[:limit], 0.0
    return [body[position] for _, position in best], -best[0][0]


def _unit(
    head: Block, best: list[Block], score: float, unit_chars: int, document_id: str
) -> ContextUnit:
    ordered = [head, *sorted(best, key=lambda b: b.order)]
    pieces: list[Piece] = []
    members: list[Block] = []
    for block in ordered:
        room = unit_chars - joined_length(pieces) - (len(CHUNK_JOINER) if pieces else 0)
        piece = _clipped(block, room)
        if piece is None:
            break
        pieces.append(piece)
        members.append(block)
    pages = [b.page for b in members if b.page is not None]
    spans = tuple(p.span for p in pieces)
    return ContextUnit(
        document_id=document_id,
        chunk_ids=(),
        text=CHUNK_JOINER.join(p.text for p in pieces),
        spans=spans,
        cited_spans=spans,
        section_path=head.section_path,
        page_start=min(pages) if pages else None,
        page_end=max(pages) if pages else None,
        origin="crossref",
        score=score,
        places=places_of(members),
    )


def _clipped(block: Block, room: int) -> Piece | None:
    """The block's text, cut at the last space before ``room`` characters if longer."""
    text = block.text
    whole = Piece(BlockSpan(block.id, 0, len(text)), text)
    piece = trimmed(whole, 0, len(text))
    if piece is None or len(piece.text) <= room:
        return piece
    if room <= 0:
        return None
    end = piece.span.start + room
    cut = text.rfind(" ", piece.span.start, end + 1)
    return trimmed(whole, piece.span.start, cut if cut > piece.span.start else end)
