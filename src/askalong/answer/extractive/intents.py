"""Explain / Example / Compare on a selection, offline: answered from the document's own
material, never with the selection itself.

``context.explain_units.unit_material`` finds the material in the evidence (the sentence
the selection continues from, the document's definitions of its key terms, the caption
of the table or figure it points at, the bibliography entry of a work it cites; or the
example / contrast sentences about its terms). The direct answer is the first few of
those sentences verbatim, each cited; the quotes are all of them (at most
``MAX_QUOTES``). A Compare or Example with no cued material takes the evidence sentences
the plain questions' scorer ranks best for the selection's key terms (``intent_ranked``).
With no material at all the answer says so ("The document does not define
…") and quotes the nearest context: the sentences around the selection, never inside it.
Either way the direct answer ends with the document's words right beside the selection
(the rest of its sentence, the sentence after it): on the real-question set the answer to
an Explain often sits there, and a reader wants it beside any definition found elsewhere.

Under the learned scorer (``answerer``) the cue phrases step aside: only the material of
the text's structure (``STRUCTURAL``) is taken as found; otherwise the learned scorer's
best sentence for the selection's key terms (``intent_learned``) answers, followed by
the words beside the selection.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from askalong.answer.base import unit_quote
from askalong.answer.extractive.beside_selection import (
    before,
    beside,
    near_sentences,
    quoted_beside,
    running_text,
)
from askalong.answer.extractive.candidates import Candidate, candidates
from askalong.answer.extractive.direct import joined
from askalong.answer.extractive.direct_choice import hangs, introduced
from askalong.answer.extractive.intent_ranked import RANKED_INTENTS, ranked_material
from askalong.answer.extractive.select import ExtractiveResult
from askalong.answer.shape import first_line, fits
from askalong.context.explain import selection_terms, whole_words
from askalong.context.explain_units import unit_material
from askalong.context.key_terms import printable
from askalong.context.material import Material, MaterialKind, Selection
from askalong.context.units import ContextUnit, Piece
from askalong.question.reading import QuestionReading
from askalong.text.wording import language_of
from askalong.types import BlockSpan, Intent, Quote

MAX_QUOTES = 6
# What a learned ranker's sentences come after: facts of the text's structure (what a
# selection ending "…:" announces, the table / figure it names, the work it cites), not
# the cue phrases of definitions, examples and contrasts, which the scorer replaces
STRUCTURAL: frozenset[MaterialKind] = frozenset({"continuation", "reference", "citation"})
# the best sentences outside the selection for an intent on it (``intent_learned``)
Ranker = Callable[[Intent, Selection, Sequence[ContextUnit]], list[tuple[int, Material]]]
DIRECT: Mapping[Intent, int] = {"explain": 3, "example": 2, "compare": 2}

NOTHING_FOUND: Mapping[tuple[Intent, str], str] = {
    ("explain", "en"): "The document does not define {terms} beyond the selected passage.",
    ("example", "en"): "The document gives no example of {terms}.",
    ("compare", "en"): "The document draws no contrast for {terms}.",
    ("explain", "zh"): "文档在所选内容之外没有定义{terms}。",
    ("example", "zh"): "文档没有给出{terms}的例子。",
    ("compare", "zh"): "文档没有对{terms}作对比。",
    ("explain", "zh-Hant"): "文件在所選內容之外沒有定義{terms}。",
    ("example", "zh-Hant"): "文件沒有給出{terms}的例子。",
    ("compare", "zh-Hant"): "文件沒有對{terms}作比較。",
}
# The labels in an answer, keyed by the reader's wording (``QuestionReading.wording``)
NEAREST = {"en": "The nearest context:", "zh": "最相近的上下文：", "zh-Hant": "最相近的上下文："}
AROUND = {"en": "Around the selection:", "zh": "所选内容前后：", "zh-Hant": "所選內容前後："}
GOES_ON = {
    "en": "The selected sentence goes on:",
    "zh": "所选句子接着说：",
    "zh-Hant": "所選句子接著說：",
}
# a selection that starts inside its sentence: the words before it are its opening, not
# what it goes on with (a lowercase word after a full stop does not start a sentence)
BEGINS = {
    "en": "The selected sentence begins:",
    "zh": "所选句子开头是：",
    "zh-Hant": "所選句子開頭是：",
}
# said after a quoted lead-in whose announced block the evidence lacks
OUT_OF_VIEW = {
    "en": "(what it announces is not in the text at hand)",
    "zh": "（它引出的内容不在现有文本中）",
    "zh-Hant": "（它引出的內容不在現有文本中）",
}
FOUND = {"en": "From the document: ", "zh": "取自文档：", "zh-Hant": "取自文件："}
KIND_NAMES: Mapping[tuple[str, str], str] = {
    ("continuation", "en"): "the sentences that deliver what the selection announces",
    ("setup", "en"): "the sentence the selection continues from",
    ("definition", "en"): "the definition of “{label}”",
    ("reference", "en"): "{label}",
    ("citation", "en"): "the reference entry for {label}",
    ("example", "en"): "an example mentioning “{label}”",
    ("contrast", "en"): "a contrast with “{label}”",
    ("related", "en"): "the sentences nearest to “{label}”",
    ("continuation", "zh"): "所选内容之后展开它的下文",
    ("setup", "zh"): "所选内容承接的上文",
    ("definition", "zh"): "“{label}”的定义",
    ("reference", "zh"): "{label}",
    ("citation", "zh"): "{label} 的参考文献条目",
    ("example", "zh"): "提到“{label}”的例子",
    ("contrast", "zh"): "与“{label}”的对比",
    ("related", "zh"): "与“{label}”最相关的句子",
    ("continuation", "zh-Hant"): "所選內容之後展開它的下文",
    ("setup", "zh-Hant"): "所選內容承接的上文",
    ("definition", "zh-Hant"): "「{label}」的定義",
    ("reference", "zh-Hant"): "{label}",
    ("citation", "zh-Hant"): "{label} 的參考文獻條目",
    ("example", "zh-Hant"): "提到「{label}」的例子",
    ("contrast", "zh-Hant"): "與「{label}」的對比",
    ("related", "zh-Hant"): "與「{label}」最相關的句子",
}
# a Chinese list of terms: "“MAG”、“BFS”", in Taiwan usage 「MAG」、「BFS」
QUOTED_TERM = {"zh": "“{}”", "zh-Hant": "「{}」"}
THIS_PASSAGE = {"en": "the terms of this passage", "zh": "这段内容", "zh-Hant": "這段內容"}


def answer_intent(
    question: QuestionReading,
    units: Sequence[ContextUnit],
    intent: Intent,
    ranked: Ranker | None = None,
    cued: frozenset[MaterialKind] = STRUCTURAL,
) -> ExtractiveResult | None:
    """The answer to a quick intent on a selection (the first unit, origin "anchor");
    None for a plain question or one without a selection (the usual scoring answers).
    With a learned ``ranked``, only the ``cued`` kinds of material come before its
    sentences (``_ranked_first``)."""
    if intent == "ask":
        return None
    found = unit_material(intent, question.text, units)
    if found is None:
        return None
    selection, material = found
    if ranked is not None:
        material = [(i, m) for i, m in material if m.kind in cued]
    language, words = question.language, question.wording
    rest, after = beside(selection, running_text(units[0], selection))
    direct = DIRECT[intent]
    if not material and ranked is not None:
        rest, after = quoted_beside(selection, units[0])
        material = _ranked_first(intent, selection, units, ranked, (rest, after))
        direct = 1
    elif not material and intent in RANKED_INTENTS:  # no cue: the scorer's best sentences
        material = ranked_material(intent, selection, units)
        # a selection that stops inside its sentence is completed by the rest of it: that
        # takes the answer's second place from the second-best uncued sentence
        direct = 1 if rest else direct
    if not material:
        return _nothing_found(intent, selection, units, words)
    chosen, direct, opened = _carried(units, selection, material, direct)
    chosen = chosen[:MAX_QUOTES]
    quotes = tuple(_quote(n, units[i], m.piece) for n, (i, m) in enumerate(chosen, start=1))
    shown = [first_line(q.text) if q.number in opened else q.text for q in quotes[:direct]]
    answer = joined([f"{t} [{q.number}]" for t, q in zip(shown, quotes, strict=False)], language)
    taken = {_span(q) for q in quotes}
    if any(m.kind == "continuation" for _, m in chosen):
        after = []  # what follows is quoted already, as what the selection announces
    answer, quotes = _cited_beside(answer, quotes, units[0], selection, (rest, after), taken, words)
    explanation = _what_was_found([m for _, m in chosen], words)
    best = max(m.strength for _, m in chosen)
    return ExtractiveResult("answered", answer, quotes, explanation, best, language)


def _carried(
    units: Sequence[ContextUnit],
    selection: Selection,
    material: list[tuple[int, Material]],
    direct: int,
) -> tuple[list[tuple[int, Material]], int, set[int]]:
    """``material`` with, after each of its first ``direct`` sentences that announces what
    follows ("This looks like:", "Available fields:"), what it introduces, as a plain
    question's answer carries it (``direct_choice.introduced``): "This looks like:" alone
    tells a reader nothing. The two count as one in the direct answer, which shows the
    block whole when the two fit its shape, else only its first line (``opened``: the
    quote numbers, from 1, so shown); the whole block is quoted either way. A lead-in
    whose block the evidence lacks is not chosen while other material is (``_hanging``)."""
    every = candidates(units)
    out = sorted(material, key=lambda found: _hanging(every, *found))  # stable: best first
    opened, k = set(), 0
    while k < min(direct, len(out)):
        block = _introduced_by(every, selection, out, k)
        if block is not None:
            i, m = out[k]
            out = [x for x in out if x[1].piece.span != block.span]
            out.insert(k + 1, (i, replace(m, piece=block)))
            if not fits(f"{m.piece.text} {block.text}"):
                opened.add(k + 2)
            direct, k = direct + 1, k + 1
        k += 1
    return out, direct, opened


def _introduced_by(
    every: list[Candidate], selection: Selection, material: list[tuple[int, Material]], k: int
) -> Piece | None:
    """What the ``k``-th material introduces, unless it comes before it already or lies in
    the selection (quoting the selection back is an echo)."""
    lead = _candidate_at(every, *material[k])
    after = introduced(every, lead) if lead is not None else None
    if after is None:
        return None
    block = _piece(after)
    earlier = {m.piece.span for _, m in material[: k + 1]}
    return None if block.span in earlier or selection.overlaps(block.span) else block


def _hanging(every: list[Candidate], unit: int, material: Material) -> bool:
    """Whether ``material`` announces what follows and the evidence does not hold it."""
    lead = _candidate_at(every, unit, material)
    return lead is not None and hangs(every, lead)


def _candidate_at(every: list[Candidate], unit: int, material: Material) -> Candidate | None:
    """The candidate sentence of unit ``unit`` ending where ``material``'s piece ends."""
    span = material.piece.span
    return next(
        (c for c in every if (c.unit, c.block_id, c.end) == (unit, span.block_id, span.end)),
        None,
    )


def _piece(c: Candidate) -> Piece:
    return Piece(BlockSpan(c.block_id, c.start, c.end), c.text)


def _ranked_first(
    intent: Intent,
    selection: Selection,
    units: Sequence[ContextUnit],
    ranked: Ranker,
    beside: tuple[Sequence[Piece], Sequence[Piece]],
) -> list[tuple[int, Material]]:
    """The learned scorer's sentences, its best alone in the direct answer; what is quoted
    after it (``quoted_beside``) comes second however the scorer ranks it, and is not
    taken away by a further quote: on the DEV recordings the scorer's best two or three
    sentences answered 61 intents of 149, its best one and those words 81 (68 while a
    further quote could take them away):
    ``benchmarks/results/intents-learned-DEV-2026-12-06.md``."""
    near = {p.span for p in (*beside[0], *beside[1])}
    material = ranked(intent, selection, units)
    return material[:1] + [m for m in material[1:] if m[1].piece.span not in near]


def _nothing_found(
    intent: Intent, selection: Selection, units: Sequence[ContextUnit], words: str
) -> ExtractiveResult:
    """An honest "the document does not define …", with the nearest context quoted: the
    sentences just before and after the selection in the anchor unit."""
    language = language_of(words)
    anchor = units[0]
    passages = running_text(anchor, selection)
    text = whole_words(selection, passages)
    terms = [t for t in selection_terms(text, passages) if printable(t, text)][:3]
    said = NOTHING_FOUND[intent, words].format(terms=_listed(terms, words))
    rest, after = beside(selection, passages)
    near = list({p.span: p for p in [*after, *near_sentences(selection, passages)]}.values())
    if not near and not rest:
        return ExtractiveResult("not_covered", said, (), "", 0.0, language)
    # No key term, nothing was looked up: "gives no example of the terms of this passage"
    # would claim what no search showed (the sentence after was often the example asked).
    opening, label = (said, NEAREST) if terms else ("", AROUND)
    answer, quotes = _cited_beside(
        opening, (), anchor, selection, (rest, near), set(), words, label
    )
    return ExtractiveResult("answered", answer, quotes, "", 0.0, language)


def _joined(language: str, parts: Sequence[str]) -> str:
    return ("" if language == "zh" else " ").join(p for p in parts if p)


def _cited_beside(
    answer: str,
    quotes: tuple[Quote, ...],
    anchor: ContextUnit,
    selection: Selection,
    beside: tuple[Sequence[Piece], Sequence[Piece]],
    taken: set[BlockSpan],
    words: str,
    label: Mapping[str, str] = AROUND,
) -> tuple[str, tuple[Quote, ...]]:
    """``answer`` followed by the rest of the selected sentence (said to be its opening or
    its rest, not context) and the sentences after it (under ``label``), each quoted once,
    the labels in the reader's ``words``."""
    language = language_of(words)
    rest, after = beside
    opening = [p for p in rest if before(p, selection)]
    goes_on = [p for p in rest if not before(p, selection)]
    for said, pieces in ((BEGINS, opening), (GOES_ON, goes_on), (label, after)):
        quoted = taken | {_span(q) for q in quotes}
        fresh = [p for p in pieces if p.span not in quoted]
        if not fresh:
            continue
        more = tuple(_quote(len(quotes) + n, anchor, p) for n, p in enumerate(fresh, 1))
        cited = _joined(language, [f"{q.text} [{q.number}]" for q in more])
        if _out_of_view(anchor, fresh[-1]):
            cited = _joined(language, [cited, OUT_OF_VIEW[words]])
        answer = _joined(language, [answer, said[words], cited])
        quotes = (*quotes, *more)
    return answer, quotes


def _out_of_view(anchor: ContextUnit, piece: Piece) -> bool:
    """Whether ``piece`` announces what follows ("The following filters are supported:")
    and the anchor unit ends before it comes (``direct_choice.hangs``): a reader should not
    wait for a list the answer cannot show."""
    every = candidates([anchor])
    lead = _candidate_at(every, 0, Material("related", "", piece))
    return lead is not None and hangs(every, lead)


def _listed(terms: Sequence[str], words: str) -> str:
    if not terms:
        return THIS_PASSAGE[words]
    if words in QUOTED_TERM:
        return "、".join(QUOTED_TERM[words].format(t) for t in terms)
    return ", ".join(f"“{t}”" for t in terms)


def _what_was_found(material: Sequence[Material], words: str) -> str:
    """A short unquoted list of what the quotes are: "From the document: the definition
    of “MAG”; Table 2."."""
    names = dict.fromkeys(KIND_NAMES[m.kind, words].format(label=m.label) for m in material)
    chinese = language_of(words) == "zh"
    return FOUND[words] + ("；" if chinese else "; ").join(names) + ("。" if chinese else ".")


def _span(quote: Quote) -> BlockSpan:
    return BlockSpan(quote.block_id, quote.start, quote.end)


def _quote(number: int, unit: ContextUnit, piece: Piece) -> Quote:
    return unit_quote(number, unit, piece.span, piece.text)
