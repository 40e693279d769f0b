"""The names a question gives (pure): a Latin word of two or more characters written as
one, with a capital letter anywhere but at the start of the question ("Firefox",
"SciBERT", "MySQL"), or with a digit ("GPT-3", "decimal128", "IPv6"); in a Chinese
question, any Latin word ("dropout", "Excel"), since the Latin words there are the
names. A plausible question the document does not cover most often names something from
outside it, so the refusal holds each name to the evidence
(``answer/extractive/names.missing_names``); a run of capitalised words ("Middle East")
is one name, found when one of its words is.
"""

from __future__ import annotations

import re

# a Latin word with inner dots, dashes, pluses ("C++", "GPT-3", "node.js"), no trailing dot
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[.+#-][A-Za-z0-9+#]+)*\+*")
_POSSESSIVE = re.compile(r"['’]s$")
_HAN = re.compile("[\u4e00-\u9fff]")
# words written capitalised in questions that are not names of anything
_NOT_NAMES = frozenset({"I", "OK", "Ok", "Who", "What", "Which", "When", "Where", "How", "Why"})
_CAPITALISED_RUN = re.compile(r"[A-Z][\w-]*(?:\s+(?:of\s+|the\s+)?[A-Z][\w-]*)+")


def name_runs(text: str) -> tuple[tuple[str, ...], ...]:
    """The names ``text`` gives, grouped by the runs of capitalised words they stand in
    ("Middle East"), each run led by its names."""
    return tuple(_runs(text, question_names(text)))


def question_names(text: str) -> tuple[str, ...]:
    """The names ``text`` gives, in order, each once."""
    chinese = _HAN.search(text) is not None
    out: list[str] = []
    for match in LATIN_WORD.finditer(text):
        word = _POSSESSIVE.sub("", match.group(0))
        if len(word) < 2 or word in _NOT_NAMES or word in out:
            continue
        initial = not text[: match.start()].strip(" \t\"'“‘(")
        if chinese or _written_as_name(word, initial=initial):
            out.append(word)
    return tuple(out)


def _written_as_name(word: str, *, initial: bool) -> bool:
    capitals = sum(c.isupper() for c in word)
    if any(c.isdigit() for c in word):
        return True
    return capitals >= 2 or (capitals == 1 and not (initial and word[0].isupper()))


def _runs(text: str, names: tuple[str, ...]) -> list[tuple[str, ...]]:
    """``names`` grouped by the runs of capitalised words they stand in ("Middle East")."""
    runs: list[tuple[str, ...]] = []
    for run in _CAPITALISED_RUN.finditer(text):
        inside = tuple(n for n in names if n in run.group(0).split())
        if inside:
            runs.append(inside + tuple(w for w in run.group(0).split() if w not in inside))
    grouped = {n for run in runs for n in run}
    return runs + [(n,) for n in names if n not in grouped]
