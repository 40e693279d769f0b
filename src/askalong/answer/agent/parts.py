"""A question's independent parts (pure): where the asker joined two questions with
``。；;``, "and also", "还有", "以及", "顺便" or a question mark. Each part is searched and
answered on its own; a question with no such join is one part."""

from __future__ import annotations

import re

# "以及" joins two nouns as often as two questions: it splits only where a question mark
# or a clause already ended the first part, or when both sides are long enough to stand.
_JOINS = re.compile(
    r"[。；;?？]+|\s*,?\s*\band also\b\s*|[，,]?\s*(?:还有|顺便(?:问一下|问问|说一下)?)\s*",
    re.IGNORECASE,
)
_ALSO_CHINESE = re.compile(r"[，,]?\s*以及\s*")
MIN_PART_CHARS = 4  # a shorter remainder ("ok?") is not a question of its own
MAX_PARTS = 6


def question_parts(text: str) -> tuple[str, ...]:
    """The parts of ``text`` in order, each stripped and keeping its question mark; the
    whole text when it has one part."""
    pieces = [p for chunk in _joined_pieces(text) for p in _split_also(chunk)]
    parts = [_tidy(p) for p in pieces if len(_tidy(p).rstrip("?？")) >= MIN_PART_CHARS]
    if len(parts) <= 1:
        return (text.strip(),)
    if len(parts) > MAX_PARTS:  # the rest is asked as one last part
        parts = [*parts[: MAX_PARTS - 1], " ".join(parts[MAX_PARTS - 1 :])]
    return tuple(parts)


def _joined_pieces(text: str) -> list[str]:
    """``text`` cut at each join; a question mark stays with the part it ends."""
    pieces, start = [], 0
    for match in _JOINS.finditer(text):
        mark = next((c for c in match.group() if c in "?？"), "")
        pieces.append(text[start : match.start()] + mark)
        start = match.end()
    pieces.append(text[start:])
    return pieces


def _split_also(chunk: str) -> list[str]:
    sides = _ALSO_CHINESE.split(chunk)
    if len(sides) == 2 and all(len(s.strip()) > MIN_PART_CHARS for s in sides):
        return sides
    return [chunk]


_OPENING_JOIN = re.compile(r"^(?:and|also|然后|另外)\s*", re.IGNORECASE)


def _tidy(part: str) -> str:
    return _OPENING_JOIN.sub("", part.strip(" \t\n,，、:：")).strip()
