"""Passages without their title lines (pure): a page's first paragraph that only repeats
its title ("四月是你的谎言结局是悲剧吗_百度知道", a paper's title above its abstract) words
the question as the asker would and so outscores every sentence that answers it, yet says
nothing. So is a Chinese page's navigation (a breadcrumb trail, a list of related
searches). The offline agent answers from the passages with those lines left out; a
passage that is nothing else is left out whole."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from askalong.context.units import ContextUnit, Piece
from askalong.types import CHUNK_JOINER

_SPACE = re.compile(r"\s+")
_TRAIL = re.compile(r"\s*[>»›]\s*")
_PUNCTUATION = re.compile(r"[。，,！!？?；;：:]")
_HAN = re.compile("[\u4e00-\u9fff]")
TRAIL_STEPS = 3  # "A > B > C > D": a breadcrumb, three steps down at least
LIST_PHRASES = 6  # phrases of a related-searches list (a Chinese sentence has few spaces)


def without_title(unit: ContextUnit, title: str) -> ContextUnit | None:
    """``unit`` without the paragraphs that are its document's ``title`` (spaces aside) or
    navigation; ``None`` when nothing else is left."""
    heading = _folded(title) or None
    kept = [p for p in unit.pieces if not _bare(unit, p, heading)]
    if len(kept) == len(unit.spans):
        return unit
    if not kept:
        return None
    spans = tuple(p.span for p in kept)
    return replace(
        unit,
        text=CHUNK_JOINER.join(p.text for p in kept),
        spans=spans,
        cited_spans=tuple(s for s in unit.cited_spans if s in spans),
    )


def untitled_units(
    units: tuple[ContextUnit, ...], titles: Mapping[str, str]
) -> tuple[tuple[int, ContextUnit], ...]:
    """Each unit that keeps some text without its title line, with its index in ``units``."""
    out = []
    for index, unit in enumerate(units):
        kept = without_title(unit, titles.get(unit.document_id, ""))
        if kept is not None:
            out.append((index, kept))
    return tuple(out)


def _bare(unit: ContextUnit, piece: Piece, heading: str | None) -> bool:
    """A paragraph that is only the title or navigation; a heading stays: it never answers,
    and the answerer reads an entry's sentences under it (``shared_buffers (integer)``)."""
    if unit.place(piece.span.block_id).kind == "heading":
        return False
    return _folded(piece.text) == heading or navigation(piece.text)


def navigation(line: str) -> bool:
    """Whether ``line`` is a Chinese page's navigation, not prose: a breadcrumb trail
    ("学习啦>励志>励志大全>…") or a list of related searches ("大家还在搜 理财到期后几天到账
    交行理财…": many space-separated phrases and no sentence punctuation)."""
    if not _HAN.search(line):  # "a > b > c" in English prose or code is no trail
        return False
    if len(_TRAIL.findall(line)) >= TRAIL_STEPS:
        return True
    return len(line.split()) >= LIST_PHRASES and not _PUNCTUATION.search(line)


def _folded(text: str) -> str:
    return _SPACE.sub("", text).casefold()
