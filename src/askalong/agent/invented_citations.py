"""Citation numbers a model invented (pure): a marker citing a number no source has
(``[N]``, ``(source#N: …)``, ``(来源#N: …)``, N outside 1..highest) is removed, and the
sentence it closed is marked (before its stop), so a reader sees that it lost its
citation."""

from __future__ import annotations

import re
from dataclasses import dataclass

from askalong.text.sentences import split_sentences

INVENTED_MARK = " [citation removed]"
_MARKER = re.compile(
    r"\[\s*(?P<list>\d+(?:\s*[,，、]\s*\d+)*)\s*\]"
    r"|[(（]\s*(?:source|来源)\s*#\s*(?P<one>\d+)[^)）]{0,300}[)）]",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class CheckedCitations:
    text: str
    removed: tuple[int, ...]  # the invented numbers, in order of appearance


def checked_citations(text: str, highest: int) -> CheckedCitations:
    """``text`` with every invented number taken out of its marker (a marker left with
    none goes) and each sentence that lost one marked with ``INVENTED_MARK``."""
    out, removed = [], []
    for start, end in split_sentences(text):
        sentence, lost = _checked_sentence(text[start:end], highest)
        removed.extend(lost)
        if lost:
            sentence = _marked(sentence)
        out.append(sentence)
    return CheckedCitations("".join(out), tuple(removed))


_END = re.compile(r"\s*[.!?。！？]*\s*$")


def _marked(sentence: str) -> str:
    """The mark inside the sentence, before its closing punctuation, so that the claim
    it closed carries it (after the stop it would open the next sentence)."""
    end = _END.search(sentence)
    at = end.start() if end else len(sentence)
    closing = sentence[at:].strip()
    trailing = sentence[len(sentence.rstrip()) :]
    return sentence[:at] + INVENTED_MARK + closing + trailing


def _checked_sentence(sentence: str, highest: int) -> tuple[str, list[int]]:
    lost: list[int] = []

    def kept(match: re.Match[str]) -> str:
        found = match.group("list") or match.group("one")
        numbers = [int(n) for n in re.findall(r"\d+", found)]
        good = [n for n in numbers if 1 <= n <= highest]
        lost.extend(n for n in numbers if n not in good)
        if len(good) == len(numbers):
            return match.group()
        return f"[{', '.join(map(str, good))}]" if good else ""

    return _MARKER.sub(kept, sentence), lost


_LABEL = re.compile(r"[(（]\s*(?:source|来源)\s*#\s*(\d+)[^)）]{0,300}[)）]", re.IGNORECASE)


def bracketed(text: str) -> str:
    """Each label-style citation ``(source#N: file | p. X)`` / ``(来源#N: …)`` as ``[N]``,
    the one marker form an answer is shown and checked in."""
    return _LABEL.sub(lambda match: f"[{match.group(1)}]", text)
