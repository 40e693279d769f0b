"""Offline answers to questions over code evidence, written from the code itself.

A graph question (``question/code_asks.py``) is answered from the call graph: where
``X`` is defined (its definition line quoted), what calls it (each caller's name, place
and call line, written in the answer and quoted); "what does X call" is the call tree
(``call_paths.py``). Any other question over code evidence is answered with the code's
own lines: the anchor's selected lines (with the comment over them) first, or a short
subject whole, then the lines BM25 scores best for the question's terms
(``code_lines.ranked``: identifier parts are words, a rare term decides), merged with the
reader encoder's order by meaning where the embedder has one (``code_meaning``), then a
longer subject's doc comment in the room they leave, then the code lines right after
the chosen ones (the answer reads on as the code does). Code evidence is judged by the
identifiers the question names being in it, never by prose words ("function",
"defined", "mutual exclusion" are not in code, and need not be): a named identifier in
no line is the only refusal here, and not where the question names the definition it is
answered from ("how does StreamWrapper.isatty treat PyCharm": that definition's lines
are the answer); a question naming nothing the code holds enough of is refused before
(``evidence_code_named``). Every line of such an answer is a quote of itself, so its
claim holds by construction (``call_paths.tree_checked``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import islice

from askalong.answer.base import NOT_COVERED, Draft, unit_quote
from askalong.asking.code_company import (
    around_selection,
    assigned_above,
    code_after,
    commented_code,
    declaring,
    documented,
    governing,
    headed,
    opened,
    said_above,
    selected,
)
from askalong.asking.code_excerpt import Quoted, excerpt
from askalong.asking.code_finding import CodeFinding, unit_of_place
from askalong.asking.code_headings import HEADINGS, code_wording, headings
from askalong.asking.code_lines import (
    LITERAL,
    Asked,
    CodeLine,
    code_lines,
    joined_terms,
    line_terms,
    ranked,
)
from askalong.asking.code_meaning import fused_order
from askalong.asking.code_routes import CODE_ANSWER_ROUTES, GRAPH_ROUTE, LINES_ROUTE
from askalong.asking.code_subject import file_names
from askalong.asking.code_subject_lines import WHOLE_KEPT, doc_lines, signature, whole_if_short
from askalong.context.code import line_span
from askalong.context.code_places import Place
from askalong.context.units import ContextUnit
from askalong.providers.base import Embedder
from askalong.question.reading import QuestionReading
from askalong.question.value_asks import asked_attributes
from askalong.types import BlockSpan

ROUTES = CODE_ANSWER_ROUTES
MAX_LINES = 10  # an answer's quoted lines, definition lines among them: read at a glance
OUTLINE_DOC = 3  # doc lines under a definition's first line, told by itself
OUTLINE_MEMBERS = 8
OTHERS_WEIGHT = 0.6  # a line outside the subject, against one of its own
VALUE_WEIGHT = 1.5  # a line stating a value, for a question asking one
READ_ON = 2  # code lines after each chosen one offered for the room left (1: fewer, 3: level)
FROM_THE_CODE = "read from the code: the claim is the quoted line itself"


def graph_draft(
    finding: CodeFinding, units: Sequence[ContextUnit], question: QuestionReading
) -> Draft:
    """Where the named identifier is defined, or what calls it, one quoted line each."""
    text = headings(question)
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
            span = _call_span(site.line, caller)
            call = _block_text(unit, span).strip()  # the call itself: its arguments show how
            calls.append((f"{_where(caller, site.line)}  {call}", unit, span))
        cited = calls or cited
        intro = text["callers"] if calls else text["no_callers"]
    return _draft(intro.format(name=name), cited, GRAPH_ROUTE)


def lines_draft(
    question: QuestionReading,
    units: Sequence[ContextUnit],
    *,
    name: str,
    anchored: bool,
    embedder: Embedder | None = None,
) -> Draft:
    """The code's own lines for a question over code: refused only when an identifier it
    names is in none of them; ``embedder``'s reader encoder, when it has one, orders the
    lines by meaning too (``code_meaning``)."""
    words = code_wording(question)
    text = HEADINGS[words]
    files = file_names(question.code.identifiers)  # where to look, not what to find
    missing = [n for n in question.code.identifiers if n not in files and not _named_in(n, units)]
    if missing and not _names_subject(question.code.identifiers, name):
        note = text["missing"].format(names=", ".join(missing))
        return Draft("not_covered", NOT_COVERED[words], (), explanation=note)
    picked = _picked(question, units, anchored=anchored, subject=name, embedder=embedder)
    if not picked:
        return Draft("not_covered", NOT_COVERED[words], ())
    quoted = excerpt(picked, list(code_lines(units)), units, room=MAX_LINES)
    cited = [(_indented(q), units[q.cited.unit], q.cited.span) for q in quoted]
    intro = text["lines"].format(name=name) if name else text["lines_any"]
    return _draft(intro, cited, LINES_ROUTE)


def _picked(
    question: QuestionReading,
    units: Sequence[ContextUnit],
    *,
    anchored: bool,
    subject: str,
    embedder: Embedder | None,
) -> list[CodeLine]:
    """Anchored: the selection's lines with the line that governs them (the ``if`` /
    ``case`` above) and the lines right after (its ``except`` / ``catch``); a selection
    of doc comment alone asked of itself alone (Explain this), then the code of the
    definition it documents. Then the lines
    holding the question's rarest terms (``code_lines.ranked``), a block's opening line
    with its first, the subject's name aside (every line of it names it). Unanchored, a
    short subject is quoted whole, its definition line first; a subject no line answers
    by its definition, its doc lines and its members' first lines; a longer subject's
    doc comment last, in the room left."""
    lines = list(code_lines(units))
    chosen = around_selection(lines, units[0]) if anchored else []
    wanted = line_terms(question.text) | joined_terms(question.text)
    if anchored:  # what the selection names: its definitions, its siblings, its uses
        wanted |= line_terms(units[0].cited_text())
    if anchored and question.about_selection and _doc_selected(lines, units[0]):
        # a comment selected and asked of itself alone (Explain / Example): the code it
        # documents says how, before other definitions' lines holding its words; inside a
        # body, the statement it stands over, with its definition's code only when that
        # fits the answer whole (a long function's first lines explain nothing of it)
        under = commented_code(lines, units[0])
        code = _documented_code(lines, units)
        fits = len(code) <= MAX_LINES or not under
        _add(chosen, [*under, *(ln for ln in code if fits and ln not in under)][:MAX_LINES])
    own: list[CodeLine] = []
    whole: list[CodeLine] = []
    if not anchored and subject:
        wanted -= _only_in_name(question.text, subject)
        inside = tuple(subject.split("."))
        own = [ln for ln in lines if units[ln.unit].section_path[: len(inside)] == inside]
        whole = whole_if_short(own)
        chosen = [*whole]
    valued = bool(asked_attributes(question.terms))
    if valued:  # a function's defaults are its parameters'
        _add(chosen, signature(own))
    # the lines in order until the room is full (``excerpt``): each brings one line at
    # least; cut at the tenth, the room was left part empty where the best ten were
    # comment lines joined into fewer quotes (humanize-14, sp-10: DEV)
    asked = Asked(wanted, valued, question.text)
    worded = _worded(lines, asked, own)
    order = _best_lines(lines, asked, worded, own, embedder)
    best = order[:MAX_LINES]
    mine = {ln.span for ln in own}
    unasked = bool(own) and not any(line.span in mine for line in worded[:MAX_LINES])
    if unasked and _names_subject(question.code.identifiers, subject):
        # the definition the question names, none of its lines holding its words
        # ("ESC[A, what count does extract_params use?"): its own code is the answer,
        # read from the top, before any other definition's lines
        _add(chosen, _body(own))
    owner = tuple(subject.split("."))[:-1]
    outside = [ln for ln in lines if units[ln.unit].section_path in ((), owner)]
    for line in order:
        said = (*governing(lines, line), *said_above(lines, line), *assigned_above(lines, line))
        said = (*said, line)
        # the intro names the subject; a selection's reader sees where its lines are
        told = documented(lines, line) if not (anchored or line.span in mine) else []
        around = (*told, *said, *opened(lines, line), *headed(lines, line))
        around = (*around, *declaring(outside, line))
        if valued:  # another definition's defaults are its parameters' too
            around = (*signature([ln for ln in lines if ln.unit == line.unit]), *around)
        _add(chosen, around)
    if unasked:
        # none of its lines holds the question's words (a Chinese question): its outline
        _add(chosen, _outline(own))
    if not whole:
        # a longer subject's doc comment in the room the best lines leave: first, it
        # spent two of the ten lines on prose the question did not ask
        _add(chosen, doc_lines(own))
    if not anchored:
        # the room the lines holding the question's words leave (few hold them: a
        # class's method names) reads on from them, as the code does; a selection has
        # the lines after it already, and its function's top explains nothing of it
        _add(chosen, _read_on(lines, chosen))
    if chosen or not (anchored or subject):  # asked of the files alone: no shared word, no answer
        rest = chosen[len(whole) :]
        return _with_room(whole, rest, mine, {line.span for line in best})
    first = [ln for ln in lines if ln.unit == 0]
    return [next((ln for ln in first if not ln.comment), *first[:1])]


def _read_on(lines: list[CodeLine], chosen: list[CodeLine]) -> list[CodeLine]:
    """The code lines right after each chosen line in its unit, ``READ_ON`` at most: the
    first after each (best first), then the second after each (``def
    preserve_comment(self, line_no, key, comment, beginline):`` -> ``self.saved_comments
    [line_no] = (key, comment, beginline)``: "where does it store the comments?")."""
    at = {line.span: index for index, line in enumerate(lines)}
    after = [list(islice(code_after(lines, at[line.span]), READ_ON)) for line in chosen]
    return [code[step] for step in range(READ_ON) for code in after if len(code) > step]


def _indented(quoted: Quoted) -> str:
    """A quote's text, indented under its definition's line as the code is."""
    return ("  " if quoted.under else "") + quoted.cited.text


def _only_in_name(question: str, subject: str) -> frozenset[str]:
    """The subject's name's terms the question writes only inside that name: every line
    of a definition is about it, so they choose no line ("why does ordinal(111) end in
    th"); a term it also writes as a word of its own is asked ("drop_table with a missing
    table": ``table``; "which executor does ExecutorEventEmitter use": ``executor``). A
    name the question writes in words of its own ("the URL-safe serializer") is all name."""
    name = subject.rsplit(".", 1)[-1]
    written = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])", re.IGNORECASE)
    own = line_terms(subject) | joined_terms(subject)
    if not written.search(question):  # named in words ("the URL-safe serializer")
        return own
    rest = written.sub(" ", question)
    return own - line_terms(rest) - joined_terms(rest)


def _with_room(
    whole: list[CodeLine], rest: list[CodeLine], mine: set[BlockSpan], best: set[BlockSpan]
) -> list[CodeLine]:
    """A short subject quoted whole, then the lines holding the question's words: when
    the subject's own such lines (``mine``: a unit named in its doc comment's list,
    under a six-line function) find no room, its last lines give way to them (its
    definition line and doc comment stay) but for those among the ``best`` themselves
    (``WRITE_CACHE_SIZE = 1000`` for "how often does it write?"); other definitions'
    lines never push it out."""
    own = [ln for ln in rest if ln.span in mine]
    keep = max(MAX_LINES - len(own), WHOLE_KEPT)
    return [*whole[:keep], *(ln for ln in whole[keep:] if ln.span in best), *rest]


def _worded(lines: list[CodeLine], asked: Asked, own: list[CodeLine]) -> list[CodeLine]:
    """The lines holding the question's terms, best first: BM25 times their ``_prior``."""
    return [
        line for _, line in ranked(lines, asked.wanted, _prior(lines, own, valued=asked.valued))
    ]


def _best_lines(
    lines: list[CodeLine],
    asked: Asked,
    worded: list[CodeLine],
    own: list[CodeLine],
    embedder: Embedder | None,
) -> list[CodeLine]:
    """The lines best first: the ``worded`` order fused with the reader encoder's order by
    meaning where the embedder has one (``code_meaning``), else ``worded`` (a learned
    linear ranker of the same lines, fitted by ``training/code_lines.py``, did not beat
    the words' order: 125-134 of 212 DEV items, left one set out, against 136)."""
    return fused_order(asked.text, lines, worded, own, embedder)


def _prior(lines: list[CodeLine], own: list[CodeLine], *, valued: bool) -> list[float]:
    """Each line's weight: the subject's own lines over others'; for a question asking a
    value ("the default initial interval"), a line stating one (a number, a string)."""
    mine = {ln.span for ln in own}
    return [
        (1.0 if not own or ln.span in mine else OTHERS_WEIGHT)
        * (VALUE_WEIGHT if valued and LITERAL.search(ln.text) else 1.0)
        for ln in lines
    ]


def _add(chosen: list[CodeLine], lines: Sequence[CodeLine]) -> None:
    """``lines`` added to ``chosen`` but for those whose text it already holds (one
    overload's ``trylast: bool = ...,`` says what the next one's does)."""
    for line in lines:
        if not any(line.text.strip() == c.text.strip() for c in chosen):
            chosen.append(line)


def _doc_selected(lines: list[CodeLine], anchor: ContextUnit) -> bool:
    """Whether the selection is comment alone (a doc comment, a docstring)."""
    chosen = selected(lines, anchor)
    return bool(chosen) and all(ln.comment for ln in chosen)


def _documented_code(lines: list[CodeLine], units: Sequence[ContextUnit]) -> list[CodeLine]:
    """The code lines of the anchor's definition, its members' and nested functions'
    with them (a class's ``__call__``), in order."""
    inside = units[0].section_path
    own = [
        ln
        for ln in lines
        if not ln.comment
        and (ln.unit == 0 or (inside and units[ln.unit].section_path[: len(inside)] == inside))
    ]
    return own


def _body(own: list[CodeLine]) -> list[CodeLine]:
    """A definition's own lines in file order (its members aside), up to ``MAX_LINES``."""
    return [ln for ln in own if ln.unit == own[0].unit][:MAX_LINES]


def _outline(own: list[CodeLine]) -> list[CodeLine]:
    """A definition told by itself: its first line and the doc lines under it, then
    each member's first line (a class's methods)."""
    head = [ln for ln in own if ln.unit == own[0].unit]
    doc = [ln for ln in head[1 : OUTLINE_DOC + 1] if ln.comment]
    members: dict[int, CodeLine] = {}
    for line in own:
        if line.unit != own[0].unit and not line.comment:
            members.setdefault(line.unit, line)
    return [head[0], *doc, *list(members.values())[:OUTLINE_MEMBERS]]


def _definition_line(lines: list[CodeLine]) -> CodeLine | None:
    return next((ln for ln in lines if not ln.comment), None)


def _names_subject(identifiers: Sequence[str], subject: str) -> bool:
    """Whether the question names the definition its evidence is about (``isatty`` of
    ``StreamWrapper.isatty``): then it is answered from that definition's code, whatever
    else it names that the code does not (``PyCharm``, Lua's ``__index``)."""
    last = subject.rsplit(".", 1)[-1]
    return bool(subject) and any(n.rsplit(".", 1)[-1] == last for n in identifiers)


def _named_in(name: str, units: Sequence[ContextUnit]) -> bool:
    """Whether the units write ``name`` (its last part); a name ending in one ``_`` is a
    family written with a wildcard (``DEBUG_*``): any name it begins (``DEBUG_COLORS``),
    as a dunder (``__init__``) is not."""
    last = name.rsplit(".", 1)[-1]
    family = last.endswith("_") and not last.endswith("__")
    word = re.compile(rf"(?<![\w]){re.escape(last)}" + ("" if family else r"(?![\w])"))
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
    return f"{'.'.join(place.qualname)}  {place.file.where}:{at}"


def _name(finding: CodeFinding) -> str:
    question = finding.question
    if question.name:
        return ".".join(p for p in (question.qualifier, question.name) if p)
    return ".".join(finding.targets[0].qualname)
