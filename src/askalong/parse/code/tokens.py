"""Syntax highlighting of a source file's blocks (pure): Pygments tokens as code-point
spans of a block's text, each with one of a few kinds the reader colours.

The reader draws a block's text as it is stored and lays the kinds over it, so the
spans are offsets into that text (Python's code points, the API's unit), never rendered
markup: a span's text is only ever the block's own characters. Each block is lexed on its
own (a block is a whole definition or a run of whole statements, so a string or comment
never crosses into the next); the lexer is chosen from the file's name.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_for_filename
from pygments.lexers.special import TextLexer
from pygments.token import _TokenType
from pygments.util import ClassNotFound

# The kinds, in the order a token type is tested (the first that it falls under names it);
# the reader's CSS gives each a colour, light and dark (`--code-<kind>`).
TOKEN_KINDS: tuple[tuple[str, str], ...] = (
    ("comment", "Comment"),
    ("string", "Literal.String"),
    ("number", "Literal.Number"),
    ("keyword", "Keyword"),
    ("decorator", "Name.Decorator"),
    ("function", "Name.Function"),
    ("class", "Name.Class"),
    ("builtin", "Name.Builtin"),
    ("operator", "Operator"),
)
KIND_NAMES: tuple[str, ...] = tuple(kind for kind, _ in TOKEN_KINDS)


@dataclass(frozen=True)
class TokenSpan:
    """``text[start:end]`` (code points) is of ``kind``, one of ``KIND_NAMES``."""

    start: int
    end: int
    kind: str


def block_tokens(file_name: str, text: str) -> tuple[TokenSpan, ...]:
    """The coloured spans of ``text`` (a block of the file ``file_name``), in order, with
    adjacent spans of one kind joined; plain text and whitespace are left out."""
    spans: list[TokenSpan] = []
    for start, token, value in _lexer(_ending(file_name)).get_tokens_unprocessed(text):
        kind = _kind(token)
        if not kind or not value.strip():
            continue
        end = start + len(value)
        last = spans[-1] if spans else None
        if last is not None and last.kind == kind and last.end == start:
            spans[-1] = TokenSpan(last.start, end, kind)
        else:
            spans.append(TokenSpan(start, end, kind))
    return tuple(spans)


def _ending(file_name: str) -> str:
    """What picks the lexer: the name's last part (a path's folders say nothing)."""
    return file_name.replace("\\", "/").rsplit("/", 1)[-1] or "file.txt"


@functools.lru_cache(maxsize=128)
def _lexer(name: str) -> Lexer:
    # As given: no newline added or stripped, tabs kept, so offsets are the text's own.
    options = {"stripnl": False, "stripall": False, "ensurenl": False, "tabsize": 0}
    try:
        return get_lexer_for_filename(name, **options)
    except ClassNotFound:
        return TextLexer(**options)


@functools.lru_cache(maxsize=1024)
def _kind(token: _TokenType) -> str:
    for kind, name in TOKEN_KINDS:
        parent: _TokenType = token
        while parent is not None:
            if str(parent) == f"Token.{name}":
                return kind
            parent = parent.parent
    return ""
