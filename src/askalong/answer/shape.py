"""The direct answer's length, for a reader (pure): at most ``MAX_SENTENCES`` sentences and
``MAX_WORDS`` English words / ``MAX_CJK`` Chinese characters (a mixed answer spends both
budgets in proportion). What is past the limit is not lost: it opens the explanation.

The answer's sentences come best first (an extractive answer leads with its best sentence, a
model is asked for the direct answer first), so the first ones that fit are kept, never cut
mid-sentence. One sentence alone over the limit is cut at its last clause boundary that fits
(",", ";", ":", "，", "；", "：", "、"), else at its last word (or CJK character) that fits, and
ends with "…" and the citation markers it carried: the passage shown under the answer
(``answer.passage``) holds the whole sentence. A sentence spanning lines (code, a listing) is
never cut: half a command is worse than a long one. While an answer streams, its pieces stop
where the shaped answer will (``StreamLimit``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from askalong.answer.base import Draft, sentence_pieces
from askalong.text.size import ATOM_RE, measure
from askalong.verify.claims import CITATION_MARKER

MAX_SENTENCES = 2
MAX_WORDS = 80
MAX_CJK = 150
ELLIPSIS = "…"
_CLAUSE_END = re.compile(r"[,;:，；：、]")


@dataclass(frozen=True)
class ShapedAnswer:
    """``direct``: the answer as shown; ``rest``: its sentences past the limit, verbatim."""

    direct: str
    rest: str = ""


def shaped(answer: str) -> ShapedAnswer:
    """``answer`` within the limits: its first sentences that fit, the rest apart."""
    pieces = sentence_pieces(answer)
    if not pieces:
        return ShapedAnswer(answer)
    kept = 1
    while kept < min(len(pieces), MAX_SENTENCES) and fits("".join(pieces[: kept + 1])):
        kept += 1
    first = "".join(pieces[:kept])
    if kept == 1 and not fits(first) and "\n" not in first.strip():
        first = cut_sentence(first)
    return ShapedAnswer(first.rstrip(), "".join(pieces[kept:]).strip())


def shaped_draft(draft: Draft, language: str) -> Draft:
    """``draft`` with its answer within the limits; the sentences past them open its
    explanation (Chinese runs on, other languages take a space)."""
    shape = shaped(draft.answer)
    explanation = ("" if language == "zh" else " ").join(
        part for part in (shape.rest, draft.explanation) if part
    )
    return replace(draft, answer=shape.direct, explanation=explanation)


class StreamLimit:
    """Passes the pieces of a streamed answer while the text so far is its own shape, then
    none: a reader never sees a sentence grow that the shaped answer leaves out."""

    def __init__(self) -> None:
        self.text = ""
        self.closed = False

    def admits(self, piece: str) -> bool:
        text = self.text + piece
        if self.closed or shaped(text).direct != text.rstrip():
            self.closed = True
            return False
        self.text = text
        return True


def share_of_limit(text: str) -> float:
    """How much of the length budget ``text`` (citation markers aside) spends: 1.0 is full."""
    size = measure(CITATION_MARKER.sub(" ", text))
    return size.words / MAX_WORDS + size.cjk / MAX_CJK


def fits(text: str) -> bool:
    return share_of_limit(text) <= 1.0


def first_line(block: str) -> str:
    """A block too long for the direct answer, shown by its first line (it is quoted
    whole): a lead-in's table or listing is named, not cut mid-row."""
    lines = block.strip().splitlines()
    return lines[0].rstrip() + (f" {ELLIPSIS}" if len(lines) > 1 else "")


def cut_sentence(sentence: str) -> str:
    """One over-long sentence cut where it still fits (see the module's docstring)."""
    markers = " ".join(m.group(0) for m in CITATION_MARKER.finditer(sentence))
    bare = CITATION_MARKER.sub("", sentence).rstrip()
    end = _last_fitting(bare, [m.start() for m in _CLAUSE_END.finditer(bare)])
    if end is None:
        end = _last_fitting(bare, [m.end() for m in ATOM_RE.finditer(bare)])
    cut = bare[: end or len(bare)].rstrip(" ,;:，；：、") + ELLIPSIS
    return f"{cut} {markers}" if markers else cut


def _last_fitting(text: str, ends: list[int]) -> int | None:
    """The last of ``ends`` (ascending offsets) at which ``text`` cut still fits, when the
    cut keeps at least half the budget (a clause boundary in the first words says little)."""
    last = None
    for end in ends:  # a longer cut never fits better: stop at the first that does not fit
        if not fits(text[:end]):
            break
        last = end
    return last if last is not None and share_of_limit(text[:last]) >= 0.5 else None
