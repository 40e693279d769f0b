"""Claim verification: each sentence of an answer against the text it cites.

``split_claims`` cuts an answer into sentences and reads their citation markers
(``[1]``, ``[2,3]``, ``(source#1: file | p. 3)``); a marker belongs to the sentence whose
last character comes before it. ``verify_claims`` then checks each claim offline:

1. a claim citing nothing is ``unverified``;
2. every specific in the claim — numbers, percentages, years, English multi-word names
   and acronyms, Latin tokens, quoted terms and 《titles》 in Chinese — must occur in the
   cited text (folded as quotes are): one missing -> ``suspicious``;
3. key-term coverage of the claim by the cited text, mixed with the embedding
   similarity when an embedder is given: high -> ``supported``, else ``weak``;
4. a cited source that drifted (no term shared with the question, or from a far-away
   part of the document) lowers the verdict one level;
5. "supported" means the quote supports an answer to *this* question: cited text that
   holds under half of the question's focus terms (``QuestionForm.focus_terms``: "loss"
   and "train" in "What loss is used to train SPECTER?", not "We call our model
   SPECTER") is at most ``weak``. Focus terms the text's script cannot hold (a Chinese
   question over an English paper) are not checked.

These checks catch hallucinated specifics, not entailment: "X causes Y" cited to "X does
not cause Y" passes them. With a model, ``judge.py`` asks it whether each claim is supported.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from askalong.context.units import Drift
from askalong.providers.base import Embedder
from askalong.question.form import focus_found
from askalong.text.fold import fold
from askalong.text.sentences import split_sentences
from askalong.text.tokens import terms_of
from askalong.types import Claim, Quote, Verdict

SUPPORTED_COVERAGE = 0.5  # share of the claim's key terms the cited text must hold
FOCUS_SHARE = 0.5  # share of the question's (checkable) focus terms it must hold
SIMILARITY_LOW, SIMILARITY_HIGH = 0.78, 0.92  # cosine mapped to 0..1
SIMILARITY_WEIGHT = 0.4  # its share of the support score when an embedder is given
WEAK_SHARE = 0.25  # an uncited quote holding this share of the answer's terms is "weak"
_RANK: Mapping[Verdict, int] = {"supported": 0, "weak": 1, "unverified": 2, "suspicious": 3}


@dataclass(frozen=True)
class ClaimDraft:
    """A sentence of an answer, its citation markers removed, and the numbers it cites."""

    text: str
    quote_numbers: tuple[int, ...]


# ----------------------------------------------------------------------------- claims

CITATION_MARKER = re.compile(
    r"\[\s*(?P<list>\d+(?:\s*[,，、;]\s*\d+)*)\s*\]"
    r"|[(（]\s*source\s*#\s*(?P<source>\d+)[^)）]*[)）]",
    re.IGNORECASE,
)


def split_claims(answer_text: str) -> list[ClaimDraft]:
    """The answer's sentences with the citation numbers each one carries."""
    clean, markers = _strip_markers(answer_text)
    drafts: list[ClaimDraft] = []
    for start, end in split_sentences(clean):
        text = _TIGHT.sub("", clean[start:end]).strip()
        numbers = [n for at, found in markers if start <= at < end for n in found]
        if text:
            drafts.append(ClaimDraft(text, tuple(dict.fromkeys(numbers))))
    return drafts


def _strip_markers(text: str) -> tuple[str, list[tuple[int, tuple[int, ...]]]]:
    """The text without markers, and each marker's numbers at the offset (in the clean
    text) of the last non-space character before it."""
    parts: list[str] = []
    markers: list[tuple[int, tuple[int, ...]]] = []
    cursor = 0
    for match in CITATION_MARKER.finditer(text):
        parts.append(text[cursor : match.start()])
        anchor = len("".join(parts).rstrip()) - 1
        found = match.group("list") or match.group("source")
        markers.append((max(anchor, 0), tuple(int(n) for n in re.findall(r"\d+", found))))
        cursor = match.end()
    parts.append(text[cursor:])
    return "".join(parts), markers


# The space a removed marker left; a run is tried from its start only (linear, not k²).
_TIGHT = re.compile(r"(?<![^\S\n])[^\S\n]+(?=[.,;:!?。，；：！？])")


# ----------------------------------------------------------------------------- checks

_NUMBER = re.compile(r"(?<![A-Za-z\d.])\d+(?:[.,]\d+)*%?(?![A-Za-z])")  # not the 2 of "Th2"
# Words of at most 40 characters and possessive gaps: a failed start costs a bounded scan
# ("A-A-A-…" and long space runs were quadratic).
_EN_NAME = re.compile(
    r"\b[A-Z][\w'’-]{0,40}+"
    r"(?:\s++(?:(?:of|de|du|da|la|le|van|von|der|the|and|&)\s*+)?[A-Z][\w'’-]{0,40}+)+"
)
_ACRONYM = re.compile(r"(?<!\()\b[A-Z][A-Z0-9]{1,}\b(?!\))")  # "(ABC)" is an alias
_ROMAN = re.compile(r"[IVXLC]+")
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9.+_-]*[A-Za-z0-9]")
_ZH_QUOTED = re.compile(r"“([^”]{1,40})”|「([^」]{1,40})」|『([^』]{1,40})』|《([^》]{1,40})》")
_HAN = re.compile("[\u4e00-\u9fff]")


def specifics(claim: str) -> list[str]:
    """The numbers, dates, names and quoted terms a claim states (in order, no repeats)."""
    found = [m.group().rstrip(".,") for m in _NUMBER.finditer(claim)]
    names = (m.group() for m in _EN_NAME.finditer(claim) if not _sentence_start(claim, m))
    found += [re.sub(r"^(?:The|A|An)\s+", "", name) for name in names]
    found += [a for a in _ACRONYM.findall(claim) if not _ROMAN.fullmatch(a)]
    if _HAN.search(claim):
        found += _LATIN.findall(claim)
        found += [next(g for g in m.groups() if g) for m in _ZH_QUOTED.finditer(claim)]
    return list(dict.fromkeys(f for f in found if f))


def _sentence_start(claim: str, match: re.Match[str]) -> bool:
    """A two-word "name" at the start of a sentence is often just a capital first word."""
    return match.start() == len(claim) - len(claim.lstrip()) and len(match.group().split()) < 3


def missing_specifics(claim: str, cited: str) -> list[str]:
    """The claim's specifics that the cited text does not contain (folded; digits
    compared without thousands separators)."""
    haystack = fold(cited, casefold=True)
    bare = haystack.replace(",", "")
    missing = []
    for item in specifics(claim):
        needle = fold(item, casefold=True)
        if needle not in haystack and needle.replace(",", "") not in bare:
            missing.append(item)
    return missing


def coverage(claim: str, cited: str, known: frozenset[str] = frozenset()) -> float:
    """Share of the claim's key terms found in the cited text; a term from the question or
    the anchor (``known``) that is missing counts half: restating the question is cheap."""
    terms = terms_of(claim)
    if not terms:
        return 1.0
    have = terms_of(cited)
    score = sum(1.0 if t in have else (0.5 if t in known else 0.0) for t in terms)
    return score / len(terms)


def lowered(verdict: Verdict) -> Verdict:
    """One level down: supported -> weak -> suspicious (unverified stays)."""
    return {"supported": "weak", "weak": "suspicious"}.get(verdict, verdict)  # type: ignore[return-value]


def drifted(drift: Drift | None) -> bool:
    return drift is not None and (drift.weak or drift.distance in ("elsewhere", "other_document"))


def verify_claims(
    claims: Sequence[ClaimDraft],
    cited: Mapping[int, str],
    *,
    question_terms: frozenset[str] = frozenset(),
    anchor_terms: frozenset[str] = frozenset(),
    drifts: Mapping[int, Drift | None] | None = None,
    embedder: Embedder | None = None,
    focus_terms: frozenset[str] = frozenset(),
) -> tuple[Claim, ...]:
    """Each claim checked against the texts it cites (``cited``: number -> text, a quote's
    or a whole source's). ``question_terms`` are the question's (``terms_of``, as
    analysed once), ``focus_terms`` its focus, ``drifts`` the cited sources' drift signals."""
    known = question_terms | anchor_terms
    similarity = _similarities(claims, cited, embedder)
    checked = (
        _verify(claim, cited, known, drifts or {}, similarity[k]) for k, claim in enumerate(claims)
    )
    return tuple(_on_focus(claim, cited, focus_terms) for claim in checked)


def _on_focus(claim: Claim, cited: Mapping[int, str], focus: frozenset[str]) -> Claim:
    """A supported claim whose cited text misses the question's focus becomes weak."""
    if claim.verdict != "supported" or not focus:
        return claim
    text = "\n".join(cited[n] for n in claim.quote_numbers if n in cited)
    found, checkable = focus_found(focus, terms_of(text), text)
    if not checkable or len(found) / len(checkable) >= FOCUS_SHARE:
        return claim
    missing = ", ".join(sorted(checkable - found))
    reason = f"the cited text does not mention what the question asks about ({missing})"
    return replace(claim, verdict="weak", reasons=(*claim.reasons, reason))


def _verify(
    claim: ClaimDraft,
    cited: Mapping[int, str],
    known: frozenset[str],
    drifts: Mapping[int, Drift | None],
    similarity: float | None,
) -> Claim:
    if not claim.quote_numbers:
        return Claim(claim.text, (), "unverified", ("cites no source",))
    absent = [n for n in claim.quote_numbers if n not in cited]
    if len(absent) == len(claim.quote_numbers):
        reasons = tuple(f"source {n} does not exist" for n in absent)
        return Claim(claim.text, claim.quote_numbers, "suspicious", reasons)
    text = "\n".join(cited[n] for n in claim.quote_numbers if n in cited)
    verdict, reasons = _support(claim.text, text, known, similarity)
    if any(drifted(drifts.get(n)) for n in claim.quote_numbers):
        verdict, reasons = lowered(verdict), (*reasons, "the cited source drifted")
    return Claim(claim.text, claim.quote_numbers, verdict, reasons)


def _support(
    claim: str, text: str, known: frozenset[str], similarity: float | None
) -> tuple[Verdict, tuple[str, ...]]:
    missing = missing_specifics(claim, text)
    if missing:
        return "suspicious", tuple(f"{item} not in the cited text" for item in missing)
    score = coverage(claim, text, known)
    if similarity is not None:
        score = (1 - SIMILARITY_WEIGHT) * score + SIMILARITY_WEIGHT * similarity
    if score >= SUPPORTED_COVERAGE:
        return "supported", ()
    return "weak", (f"the cited text covers {score:.0%} of the claim",)


def support_score(claim: str, text: str, similarity: float | None = None) -> float:
    """The offline support score (0..1) the verdict is cut from; 0 when a specific is
    missing. Exposed for benchmarks."""
    if missing_specifics(claim, text):
        return 0.0
    score = coverage(claim, text)
    if similarity is None:
        return score
    return (1 - SIMILARITY_WEIGHT) * score + SIMILARITY_WEIGHT * similarity


def _similarities(
    claims: Sequence[ClaimDraft], cited: Mapping[int, str], embedder: Embedder | None
) -> list[float | None]:
    """Claim-to-cited-text cosine, rescaled to 0..1, in two embedding batches. A claim
    that is, folded, a verbatim part of what it cites (the extractive answerer's are)
    scores 1 without embedding: that saves most of the verify time."""
    texts = ["\n".join(cited[n] for n in c.quote_numbers if n in cited) for c in claims]
    if embedder is None or not claims:
        return [None] * len(claims)
    out: list[float | None] = [
        1.0 if _verbatim(c.text, t) else None for c, t in zip(claims, texts, strict=True)
    ]
    rest = [k for k, value in enumerate(out) if value is None]
    if rest:
        scores = similarity_scores(
            embedder, [claims[k].text for k in rest], [texts[k] for k in rest]
        )
        for k, score in zip(rest, scores, strict=True):
            out[k] = score
    return out


def _verbatim(claim: str, text: str) -> bool:
    folded = fold(claim, casefold=True)
    return bool(folded) and folded in fold(text, casefold=True)


def similarity_scores(
    embedder: Embedder, claims: Sequence[str], texts: Sequence[str]
) -> list[float]:
    """Pairwise claim/text cosines rescaled from the embedder's typical range to 0..1."""
    left = embedder.embed_passages(list(claims))
    right = embedder.embed_passages(list(texts))
    cosines = np.sum(left * right, axis=1)
    scaled = (cosines - SIMILARITY_LOW) / (SIMILARITY_HIGH - SIMILARITY_LOW)
    return [float(x) for x in np.clip(scaled, 0.0, 1.0)]


def quote_verdicts(
    claims: Sequence[Claim],
    quotes: Sequence[Quote],
    *,
    answer_terms: frozenset[str] = frozenset(),
    struck: frozenset[int] = frozenset(),
) -> tuple[Quote, ...]:
    """Each quote with the worst verdict of the claims citing it; a struck number (the
    judge said no) is ``suspicious``. A quote no claim cites is judged by the share of the
    direct answer's key terms (``answer_terms``) it holds (see ``uncited_verdict``)."""
    out = []
    for quote in quotes:
        verdicts = [c.verdict for c in claims if quote.number in c.quote_numbers]
        if quote.number in struck:
            verdict: Verdict = "suspicious"
        elif verdicts:
            verdict = max(verdicts, key=lambda v: _RANK[v])
        else:
            verdict = uncited_verdict(quote.text, answer_terms)
        out.append(replace(quote, verdict=verdict))
    return tuple(out)


def uncited_verdict(text: str, answer_terms: frozenset[str]) -> Verdict:
    """A quote no claim cites backs the answer only as far as it holds the answer's terms:
    ``supported`` at ``SUPPORTED_COVERAGE`` of them, ``weak`` at ``WEAK_SHARE``, else
    ``unverified`` (one shared word proves nothing)."""
    if not answer_terms:
        return "unverified"
    share = len(answer_terms & terms_of(text)) / len(answer_terms)
    if share >= SUPPORTED_COVERAGE:
        return "supported"
    return "weak" if share >= WEAK_SHARE else "unverified"
