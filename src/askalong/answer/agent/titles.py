"""Passages without their title lines (pure): a page's first paragraph that only repeats
its title ("四月是你的谎言结局是悲剧吗_百度知道", a paper's title above its abstract) words
the question as the asker would and so outscores every sentence that answers it, yet says
nothing. The offline agent answers from the passages with those lines left out; a passage
that is nothing but its title is left out whole."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from askalong.context.units import ContextUnit
from askalong.types import CHUNK_JOINER

_SPACE = re.compile(r"\s+")


def without_title(unit: ContextUnit, title: str) -> ContextUnit | None:
    """``unit`` without the pieces that are its document's ``title`` (spaces aside);
    ``None`` when nothing else is left."""
    heading = _folded(title)
    if not heading:
        return unit
    kept = [p for p in unit.pieces if _folded(p.text) != heading]
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


def _folded(text: str) -> str:
    return _SPACE.sub("", text).casefold()
