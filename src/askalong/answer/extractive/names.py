"""The names a question gives (``question/given_names``) that its evidence never uses
(pure).

A plausible question the document does not cover most often names something from
outside it: a product, a tool, a standard, a version ("How does it compare with
**Matplotlib**?", "Can **TIMP** be downloaded from **CRAN**?", "ctex 能在 **Overleaf**
上编译吗？"). A reader asking about what the document does cover names the document's
own things, which retrieval (BM25 weighs a rare name highly) brings into the evidence.
So a name in the question that no evidence sentence holds is decisive where a missing
common word ("change", "grow": paraphrase) is not.

Found is case-insensitive, as typed (a substring of the evidence) or by stem, or one letter off a
word of the evidence (a misspelling in the question).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from askalong.question.given_names import LATIN_WORD
from askalong.text.tokens import key_terms

_DEMONYM = ("ish", "ian", "an", "n", "ese", "i")


def missing_names(
    runs: Sequence[tuple[str, ...]], evidence: str, terms: Collection[str]
) -> frozenset[str]:
    """The names of a question (its ``runs``, ``QuestionReading.name_runs``) that
    ``evidence`` (with its key ``terms``) never uses: not as typed (ignoring case), not by
    stem, not as the place a demonym names ("British" / "Britain", "Indian" / "India"); a
    run of capitalised words ("Middle East", "Graham Twigg") counts as found when one of
    its words is."""
    lowered = evidence.casefold()
    words = set(LATIN_WORD.findall(lowered))
    missing = set()
    for run in runs:
        if not any(_found(name, lowered, words, terms) for name in run):
            missing.add(" ".join(run))
    return frozenset(missing)


def _found(name: str, lowered: str, words: set[str], terms: Collection[str]) -> bool:
    stems = key_terms(name)
    folded = name.casefold()
    if folded in lowered or (stems and stems <= set(terms)) or folded in lowered.replace(" ", ""):
        return True  # as typed, by stem, or written apart ("Superbowl" / "Super Bowl")
    if len(name) >= 3 and name.isupper() and name.isalpha() and name in _initials(lowered):
        return True  # an acronym the evidence spells out ("UMC": United Methodist Church)
    for suffix in _DEMONYM:
        stem = folded[: -len(suffix)]
        if folded.endswith(suffix) and len(stem) >= 4 and any(w.startswith(stem) for w in words):
            return True
    return _misspelt_twin(folded, words)


def _misspelt_twin(folded: str, words: set[str]) -> bool:
    """A long name one letter off (two for nine letters or more) from an evidence word:
    the question misspelt it ("Beriods" / "Periods"), it is not a name from elsewhere."""
    if len(folded) < 6 or not folded.isalpha():
        return False
    allowed = 2 if len(folded) >= 9 else 1
    return any(abs(len(w) - len(folded)) <= allowed and _within(folded, w, allowed) for w in words)


def _within(a: str, b: str, limit: int) -> bool:
    """Whether the edit distance of ``a`` and ``b`` is at most ``limit`` (banded)."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
        if min(current) > limit:
            return False
        previous = current
    return previous[-1] <= limit


def _initials(lowered: str) -> set[str]:
    """The initials of every run of two to five words of the (case-folded) evidence."""
    tokens = LATIN_WORD.findall(lowered)
    return {
        "".join(t[0] for t in tokens[i : i + n]).upper()
        for n in range(2, 6)
        for i in range(len(tokens) - n + 1)
    }
