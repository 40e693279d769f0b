"""Whether the direct answer reads on from its best sentence (issue 32): the learned
answerer shows the best sentence with a second one (its better-scored neighbour, a close
runner-up, or nothing when the two overrun the shape); often, on "how" questions above
all, what answers is what the best sentence leads into: the next sentence ("This can be
done by hand … The quilt fork command simplifies this: …"), a lead-in and the code block
under it. The alternative is the *read-on window*: the best sentence, the sentence read
after it in its passage and, when that one announces what follows, that too (the window
fits the answer's shape or is not offered).

The choice between the two is the ``read_on`` head's (``Scorer.reads_on``): a logistic
model over ``READ_ON``, facts about the text and the question rather than cue words (how
the best sentence and the next one end, the next block's kind, where the sentence the
window drops stands, the rank head's scores, lengths, the share of the question's terms
each side holds, whether the question asks how or why), fitted on the DEV recordings'
questions where the two answers differ on the gold phrase (``training/read_on.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from askalong.answer.extractive.candidates import Candidate
from askalong.answer.scorer.features import READ_ON
from askalong.answer.shape import share_of_limit
from askalong.question.reading import QuestionReading
from askalong.text.announce import announces
from askalong.text.sentences import SENTENCE_ENDS
from askalong.text.tokens import terms_of

UNRANKED_GAP = -10.0  # a sentence the rank head did not score: far behind the best


def read_on_row(
    question: QuestionReading,
    ranks: dict[tuple[int, int, int], float],
    direct: Sequence[Candidate],
    window: Sequence[Candidate],
) -> np.ndarray:
    """The ``READ_ON`` row of choosing ``window`` (the best sentence first, then what it
    leads into) over ``direct`` (the best sentence and maybe another); ``ranks``: the rank
    head's scores by a candidate's place."""
    best, added = window[0], list(window[1:])
    others = [c for c in direct if c != best and c not in window]
    other = others[0] if others else None
    top = ranks.get(_at(best), 0.0)
    asked = terms_of(question.text)
    row = (
        announces(best.text),
        _open(best),
        announces(added[0].text),
        _open(added[0]),
        added[0].kind == "list_item",
        added[0].kind == "code",
        added[0].block_id == best.block_id,
        len(window),
        other is not None and _at(other) < _at(best) and other.unit == best.unit,
        other is not None and not (_at(other) < _at(best) and other.unit == best.unit),
        all(c in window for c in direct),
        question.form.answer_type == "method",
        question.form.answer_type == "reason",
        ranks.get(_at(added[0]), top + UNRANKED_GAP) - top,
        _at(added[0]) not in ranks,
        (ranks.get(_at(other), top + UNRANKED_GAP) - top) if other else 0.0,
        share_of_limit(best.text),
        share_of_limit(" ".join(c.text for c in added)),
        share_of_limit(other.text) if other else 0.0,
        _share(asked, " ".join(c.text for c in added)),
        _share(asked, other.text) if other else 0.0,
    )
    return np.asarray(row, dtype=np.float64)


__all__ = ["READ_ON", "read_on_row"]


def _at(c: Candidate) -> tuple[int, int, int]:
    return (c.unit, c.piece, c.index)


def _open(c: Candidate) -> bool:
    return c.kind != "code" and not c.text.rstrip().endswith(SENTENCE_ENDS)


def _share(asked: set[str], text: str) -> float:
    """The share of the question's terms ``text`` holds."""
    return len(asked & terms_of(text)) / len(asked) if asked else 0.0
