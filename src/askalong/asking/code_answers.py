"""Offline answers to questions over code evidence, written from the code itself.

A graph question (``context/code_question.py``) is answered from the call graph: where
``X`` is defined (its definition line quoted), what calls it (each caller's call line
quoted); "what does X call" is the call tree (``call_paths.py``). Any other question over
code evidence is answered with the code's own lines: the anchor's selected lines first,
then the lines sharing most of the question's words and identifiers. Code evidence is
judged by the identifiers the question names being in it, never by prose words
("function", "defined", "mutual exclusion" are not in code, and need not be): a named
identifier in no line is the only refusal. Every line of such an answer is a quote of
itself, so its claim holds by construction (``call_paths.tree_checked``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from askalong.answer.base import NOT_COVERED, Draft, unit_quote
from askalong.asking.code_finding import CodeFinding, unit_of_place
from askalong.context.code import line_span
from askalong.context.code_graph import Place
from askalong.context.code_question import named_identifiers
from askalong.context.units import ContextUnit
from askalong.text.analysed import AnalysedText
from askalong.text.tokens import key_terms
from askalong.types import BlockSpan

GRAPH_ROUTE = "code_graph"
LINES_ROUTE = "code_lines"
ROUTES = frozenset({GRAPH_ROUTE, LINES_ROUTE})
ANCHOR_LINES = 4  # of the selection, at most
BEST_LINES = 3  # of the rest, sharing the question's words
FROM_THE_CODE = "read from the code: the claim is the quoted line itself"

_TEXT = {
    "en": {
        "defined": "{name} is defined at:",
        "callers": "{name} is called from (functions of its repository):",
        "no_callers": "No function of the repository calls {name}; it is defined at:",
        "lines": "From the code of {name}:",
        "missing": "The code searched does not name: {names}.",
    },
    "zh": {
        "defined": "{name} 定义于：",
        "callers": "调用 {name} 的地方（仅本仓库中的函数）：",
        "no_callers": "本仓库中没有函数调用 {name}；它定义于：",
        "lines": "{name} 的代码：",
        "missing": "所查代码中没有：{names}。",
    },
}
_HAN = re.compile("[\u4e00-\u9fff]")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_BARE_LINE = re.compile(r"^[\s{}()\[\];,:]*$")


@dataclass(frozen=True)
class _Line:
    unit: int
    span: BlockSpan
    text: str


def graph_draft(
    finding: CodeFinding, units: Sequence[ContextUnit], question: AnalysedText
) -> Draft:
    """Where the named identifier is defined, or what calls it, one quoted line each."""
    text = _TEXT[_lang(question)]
    name = _name(finding)
    cited: list[tuple[str, ContextUnit, BlockSpan]] = []
    for place in finding.targets:
        unit = unit_of_place(place, units)
        cited.append((_where(place, None), unit, unit.cited_spans[0]))
    intro = text["defined"]
    if finding.question.ask in ("callers", "usage"):
        calls = []
        for site, caller in finding.callers:
            unit = unit_of_place(caller, units)
            calls.append((_where(caller, site.line), unit, _call_span(site.line, caller)))
        cited = calls or cited
        intro = text["callers"] if calls else text["no_callers"]
    return _draft(intro.format(name=name), cited, GRAPH_ROUTE)


def lines_draft(
    question: AnalysedText, units: Sequence[ContextUnit], *, name: str, anchored: bool
) -> Draft:
    """The code's own lines for a question over code: refused only when an identifier it
    names is in none of them."""
    lang = _lang(question)
    text = _TEXT[lang]
    missing = [n for n in named_identifiers(question.text) if not _named_in(n, units)]
    if missing:
        note = text["missing"].format(names=", ".join(missing))
        return Draft("not_covered", NOT_COVERED[lang], (), explanation=note)
    picked = _picked(question, units, anchored=anchored)
    if not picked:
        return Draft("not_covered", NOT_COVERED[lang], ())
    cited = [(line.text.strip(), units[line.unit], line.span) for line in picked]
    return _draft(text["lines"].format(name=name), cited, LINES_ROUTE)


def _picked(question: AnalysedText, units: Sequence[ContextUnit], *, anchored: bool) -> list[_Line]:
    """The selection's lines (anchored), then the best lines sharing the question's words
    or identifiers (each line once); unanchored, the first unit's head when none does."""
    lines = list(_lines(units))
    chosen = [ln for ln in lines if ln.unit == 0 and _cited(units[0], ln.span)][:ANCHOR_LINES]
    wanted = _line_terms(question.text)
    scored = [(len(wanted & _line_terms(ln.text)), -i, ln) for i, ln in enumerate(lines)]
    best = [ln for score, _, ln in sorted(scored, reverse=True) if score > 0]
    for line in best:
        if len(chosen) >= ANCHOR_LINES + BEST_LINES or line in chosen:
            continue
        chosen.append(line)
        if len(chosen) >= (ANCHOR_LINES if anchored else 0) + BEST_LINES:
            break
    if not chosen and not anchored:
        chosen = [ln for ln in lines if ln.unit == 0][:1]
    return chosen


def _lines(units: Sequence[ContextUnit]) -> Iterator[_Line]:
    """Every line of code the units hold that says something (not a lone brace)."""
    for number, unit in enumerate(units):
        for piece in unit.pieces:
            offset = 0
            for row in piece.text.split("\n"):
                if not _BARE_LINE.match(row):
                    start = piece.span.start + offset
                    yield _Line(
                        number, BlockSpan(piece.span.block_id, start, start + len(row)), row
                    )
                offset += len(row) + 1


def _cited(unit: ContextUnit, span: BlockSpan) -> bool:
    return any(
        c.block_id == span.block_id and span.start < c.end and c.start < span.end
        for c in unit.cited_spans
    )


def _line_terms(text: str) -> frozenset[str]:
    """Words and identifier parts (``_wake_up_first`` → wake, first; ``notifyWaiters`` →
    notify, waiters), as ``key_terms`` stems them."""
    return frozenset(key_terms(_CAMEL.sub(" ", text.replace("_", " ").replace(".", " "))))


def _named_in(name: str, units: Sequence[ContextUnit]) -> bool:
    last = name.rsplit(".", 1)[-1]
    word = re.compile(rf"(?<![\w]){re.escape(last)}(?![\w])")
    return any(word.search(unit.text) for unit in units)


def _draft(intro: str, cited: Sequence[tuple[str, ContextUnit, BlockSpan]], route: str) -> Draft:
    lines, quotes = [intro], []
    for number, (label, unit, span) in enumerate(cited, start=1):
        block_text = _block_text(unit, span)
        quotes.append(unit_quote(number, unit, span, block_text))
        lines.append(f"  {label} [{number}]")
    return Draft("answered", "\n".join(lines), tuple(quotes), route=route)


def _block_text(unit: ContextUnit, span: BlockSpan) -> str:
    """The text of ``span`` (a span inside one of the unit's pieces)."""
    for piece in unit.pieces:
        own = piece.span
        if own.block_id == span.block_id and own.start <= span.start <= span.end <= own.end:
            return piece.text[span.start - own.start : span.end - own.start]
    raise ValueError(f"span {span} is not in the unit")


def _call_span(line: int, caller: Place) -> BlockSpan:
    """The call line's span (``finding_units`` holds the caller's block whole)."""
    return BlockSpan(caller.block.id, *line_span(caller.block, line))


def _where(place: Place, line: int | None) -> str:
    lines = place.block.lines or (0, 0)
    at = f"{line}" if line is not None else f"{lines[0]}-{lines[1]}"
    return f"{'.'.join(place.qualname)}  {place.file.source}:{at}"


def _name(finding: CodeFinding) -> str:
    question = finding.question
    if question.name:
        return ".".join(p for p in (question.qualifier, question.name) if p)
    return ".".join(finding.targets[0].qualname)


def _lang(question: AnalysedText) -> str:
    """Chinese when the question is, or holds any Chinese (谁调用了_wake_up_first)."""
    return "zh" if question.language == "zh" or _HAN.search(question.text) else "en"
