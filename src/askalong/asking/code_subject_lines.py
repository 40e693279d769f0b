"""The lines of a code answer's subject quoted beside those chosen by the question's words
(``code_answers``): the whole definition when it is short, its definition statement when
that gives a parameter a default value, and a longer one's first lines of its doc comment
in the room those leave (quoted first, they took a fifth of the room from the lines that
answer: ``benchmarks/results/code-room-DEV-2026-12-07.md``).
"""

from __future__ import annotations

from askalong.asking.code_company import doc_comment
from askalong.asking.code_lines import CodeLine
from askalong.asking.code_sentences import statement
from askalong.text.patterns import lazy

SHORT_BODY = 6  # a definition of so few lines (a class's own, members aside) is quoted whole
DOC_LINES = 2  # of a longer subject's doc comment, in the room left
WHOLE_KEPT = 1 + DOC_LINES  # of a short subject quoted whole, when room is short
_DEFAULT_GIVEN = lazy(r"\(.*\w\s*(?::[^=,()]+)?=[^=]")  # ``(x=1``, ``(a, b: int = 2``


def signature(own: list[CodeLine]) -> list[CodeLine]:
    """The subject's definition statement (its parameters over lines), when it gives a
    parameter a default value (``override: bool = False``); else none."""
    head = [ln for ln in own if ln.unit == own[0].unit] if own else []
    first = next((i for i, ln in enumerate(head) if not ln.comment), None)
    if first is None:
        return []
    lines = [head[i] for i in statement(head, first)]
    return lines if _DEFAULT_GIVEN.search(" ".join(ln.text for ln in lines)) else []


def doc_lines(own: list[CodeLine]) -> list[CodeLine]:
    """What the definition's author says it does: the first ``DOC_LINES`` lines of its
    doc comment (``code_company.doc_comment``)."""
    head = [ln for ln in own if ln.unit == own[0].unit] if own else []
    if not any(not ln.comment for ln in head):  # a comment alone (a file's licence)
        return head[:DOC_LINES]
    return doc_comment(head)[:DOC_LINES]


def whole_if_short(own: list[CodeLine]) -> list[CodeLine]:
    """The definition's own lines (a class's, its members aside), its definition line
    first, then its doc comment's first ``DOC_LINES``, when it has ``SHORT_BODY`` lines of
    code or fewer (a long doc comment does not make a function long); else none."""
    head = [ln for ln in own if ln.unit == own[0].unit] if own else []
    code = [ln for ln in head if not ln.comment]
    if not code:  # a comment alone (a file's licence): whole when short
        return head if len(head) <= SHORT_BODY else []
    if len(code) > SHORT_BODY:
        return []
    doc = [ln for ln in head if ln.comment][:DOC_LINES]
    return [code[0], *doc, *code[1:]]
