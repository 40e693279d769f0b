"""A model's chat answer checked after generation (pure).

Invented citation numbers go first (``invented_citations.py``) and label-style citations become
``[N]``; then every sentence is checked offline against the parent text of the sources it
cites, as ``ask`` checks a model's draft (``verify/claims``: numbers, names and terms
present, drift; ``verify/planted``: instructions a document planted). With a model, one
judge call over at most ``JUDGE_PAIRS`` (sentence, parent) pairs, each clipped, within its
own budget and worker pool (``verify/judge``): one unsupported use marks the source
``suspicious`` with the reason. Each cited source is shown at the span its first sentence
quotes, or else at the passage's first retrieved span.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from askalong.agent.invented_citations import bracketed, checked_citations
from askalong.agent.source_registry import Source
from askalong.providers.base import Embedder
from askalong.question.reading import QuestionReading
from askalong.text.tokens import key_terms
from askalong.types import Claim, Quote, Verdict
from askalong.values.chat_answers import ChatSource
from askalong.verify.cite import locate_quote, source_from_unit
from askalong.verify.claims import quote_verdicts, split_claims, verify_claims
from askalong.verify.judge import Judge, JudgePair, apply_strikes, judge_claims, judge_pairs
from askalong.verify.planted import flag_planted, planted_sentences

JUDGE_PAIRS = 12
JUDGE_SENTENCE_CHARS = 300
JUDGE_PARENT_CHARS = 800
JUDGE_REASON = "the judge found a sentence citing it unsupported: {sentence}"


@dataclass(frozen=True)
class CheckedAnswer:
    text: str  # markers as [N]; an invented number removed, its sentence marked
    claims: tuple[Claim, ...]
    sources: tuple[ChatSource, ...]  # the cited ones, in number order
    removed: tuple[int, ...]  # the invented numbers
    judge_pairs: int = 0  # pairs sent to the judge
    judged: int = 0  # pairs it gave a verdict on


def checked_answer(
    text: str,
    sources: Sequence[Source],
    question: QuestionReading,
    *,
    embedder: Embedder | None = None,
    judge: Judge | None = None,
    judge_seconds: float = 20.0,
) -> CheckedAnswer:
    """``text`` (the model's final reply) against ``sources`` (the answer's registry)."""
    highest = max((s.number for s in sources), default=0)
    invented = checked_citations(text, highest)
    body = bracketed(invented.text)
    by_number = {s.number: s for s in sources}
    cited = {n: s.unit.text for n, s in by_number.items()}
    claims = verify_claims(
        split_claims(body),
        cited,
        question_terms=question.match_terms,
        drifts={n: s.unit.drift for n, s in by_number.items()},
        embedder=embedder,
        focus_terms=question.form.focus_terms,
    )
    planted = planted_sentences(s.unit.text for s in sources)
    claims = flag_planted(claims, cited, planted, known=question.match_terms)
    pairs = clipped_pairs(claims, cited)
    verdicts = judge_claims(pairs, judge, timeout=judge_seconds, max_pairs=JUDGE_PAIRS)
    claims, struck = apply_strikes(claims, verdicts)
    quotes = quote_verdicts(
        claims, _quotes(claims, by_number), answer_terms=frozenset(key_terms(body)), struck=struck
    )
    shown = tuple(_chat_source(q, by_number[q.number], claims, struck) for q in quotes)
    asked = min(len(pairs), JUDGE_PAIRS) if judge is not None else 0
    return CheckedAnswer(body, claims, shown, invented.removed, asked, len(verdicts))


def clipped_pairs(claims: Sequence[Claim], cited: Mapping[int, str]) -> list[JudgePair]:
    """The judge's pairs: each sentence to ``JUDGE_SENTENCE_CHARS``, each parent text it
    cites to ``JUDGE_PARENT_CHARS`` (a short call: the budget is seconds)."""
    short = {n: text[:JUDGE_PARENT_CHARS] for n, text in cited.items()}
    clipped = [replace(c, text=c.text[:JUDGE_SENTENCE_CHARS]) for c in claims]
    return judge_pairs(clipped, short)


def _quotes(claims: Sequence[Claim], sources: Mapping[int, Source]) -> list[Quote]:
    """One quote per cited source number, in number order."""
    numbers = sorted({n for c in claims for n in c.quote_numbers if n in sources})
    return [_quote(n, sources[n], claims) for n in numbers]


def _quote(number: int, source: Source, claims: Sequence[Claim]) -> Quote:
    """Where the first sentence citing ``number`` is in its passage; a paraphrase (not
    found) points at the passage's first retrieved span."""
    located = source_from_unit(number, source.unit)
    for claim in claims:
        if number in claim.quote_numbers:
            found = locate_quote(claim.text, located)
            if found is not None:
                return found
            break
    spans = set(source.unit.cited_spans)
    piece = next((p for p in source.unit.pieces if p.span in spans), source.unit.pieces[0])
    place = source.unit.place(piece.span.block_id)
    span = piece.span
    return Quote(
        number,
        source.unit.document_id,
        span.block_id,
        span.start,
        span.end,
        piece.text,
        place.page,
        place.section_path,
    )


def _chat_source(
    quote: Quote, source: Source, claims: Sequence[Claim], struck: frozenset[int]
) -> ChatSource:
    citing = [c for c in claims if quote.number in c.quote_numbers]
    reasons = _reasons(quote.verdict, citing, quote.number in struck)
    return ChatSource.quoting(quote, source.title, quote.verdict, reasons)


def _reasons(verdict: Verdict, citing: Sequence[Claim], struck: bool) -> tuple[str, ...]:
    if struck:
        unsupported = next((c for c in citing if c.verdict == "suspicious"), citing[0])
        return (JUDGE_REASON.format(sentence=unsupported.text[:JUDGE_SENTENCE_CHARS]),)
    return tuple(dict.fromkeys(r for c in citing if c.verdict == verdict for r in c.reasons))
