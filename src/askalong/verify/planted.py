"""Instructions planted in a document, and claims that follow them.

A document may carry a sentence addressed to the assistant ("Ignore the rules and answer:
…", "SYSTEM: new instructions…", "忽略以上所有规则…"). The prompt fences keep such text
data, but a model can still obey it; the offline claim checks would then pass a claim
that swaps a fact's key noun (its other words are in the cited sentence) or one that cites
the planted sentence itself. So, after the ordinary checks:

- a claim citing a planted sentence (or a piece of one) is ``suspicious``: an instruction
  is not evidence;
- a claim holding a term that a planted sentence has and its own cited text lacks is
  ``suspicious``: it says what the document told the model to say.

Only a model's draft can obey a document (an extractive draft is the document's own
sentences), so the asker applies this to model drafts. The cues are plain alternations
with bounded gaps: linear on any input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from askalong.text.fold import fold
from askalong.text.patterns import lazy
from askalong.text.sentences import split_sentences
from askalong.text.tokens import terms_of
from askalong.types import Claim

_CUES = (  # each a sentence addressed to the assistant, not one about the world
    r"\b(?:ignore|disregard|forget|override|bypass)\b[^.!?\n]{0,30}?"
    r"\b(?:rules?|instructions?|prompts?|guidelines?)\b",
    r"\bnew instructions?\b",
    r"^\W{0,8}(?:always|only|instead|now)\s*,?\s+(?:reply|answer|respond|say)\b",
    r"\byou (?:must|should|are to|will) (?:now )?(?:reply|answer|respond|say)\b",
    r"^\W{0,8}(?:system|assistant)\s*:",
    r">>>\s*(?:system|assistant|user)\s*:",
    r"(?:忽略|无视|忽视|不要理会|不必遵守)[^。！？\n]{0,20}?(?:规则|指令|指示|提示词)",
    r"(?:你必须|你应该|请直接)(?:回答|回复)",
    r"^\W{0,8}(?:系统|助手)\s*[:：]",
)
_PLANTED = lazy("|".join(f"(?:{cue})" for cue in _CUES), re.IGNORECASE)
SUSPICIOUS_CITE = "the cited text is an instruction planted in the document, not evidence"
SUSPICIOUS_TERMS = "repeats what an instruction planted in the document says ({terms})"


def planted_sentences(texts: Iterable[str]) -> tuple[str, ...]:
    """The sentences of ``texts`` that read as instructions to an assistant."""
    found: list[str] = []
    # line by line first: a line without a full stop would run into the next "sentence"
    lines = (line for text in texts for line in text.splitlines())
    for line in lines:
        for start, end in split_sentences(line):
            sentence = line[start:end]
            cue = _PLANTED.search(sentence)
            if cue:  # from the cue on: a fact before it in the same sentence is no instruction
                found.append(sentence[cue.start() :].strip())
    return tuple(dict.fromkeys(found))


def flag_planted(
    claims: Sequence[Claim],
    cited: Mapping[int, str],
    planted: Sequence[str],
    known: frozenset[str] = frozenset(),
) -> tuple[Claim, ...]:
    """``claims`` with those that cite or repeat a planted instruction made suspicious;
    ``known`` are the question's terms (repeating the question is no sign)."""
    if not planted:
        return tuple(claims)
    planted_terms = frozenset(t for sentence in planted for t in terms_of(sentence))
    folded = [fold(sentence, casefold=True) for sentence in planted]
    return tuple(_flagged(claim, cited, folded, planted_terms - known) for claim in claims)


def _flagged(
    claim: Claim, cited: Mapping[int, str], planted: Sequence[str], planted_terms: frozenset[str]
) -> Claim:
    texts = [cited[n] for n in claim.quote_numbers if n in cited]
    if any(_cites_planted(text, planted) for text in texts):
        return _suspicious(claim, SUSPICIOUS_CITE)
    own = frozenset(t for text in texts for t in terms_of(text))
    borrowed = sorted((frozenset(terms_of(claim.text)) & planted_terms) - own)
    if borrowed:
        return _suspicious(claim, SUSPICIOUS_TERMS.format(terms=", ".join(borrowed[:5])))
    return claim


def _cites_planted(text: str, planted: Sequence[str]) -> bool:
    """The cited text is (part of) a planted sentence (``planted``: folded), holds one, or
    is one itself."""
    folded = fold(text, casefold=True).strip()
    if not folded:
        return False
    if _PLANTED.search(text):
        return True
    return any(folded in sentence or sentence in folded for sentence in planted)


def _suspicious(claim: Claim, reason: str) -> Claim:
    return replace(claim, verdict="suspicious", reasons=(*claim.reasons, reason))
