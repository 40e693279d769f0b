"""Plain-text help files (Vim's and those written like them): their conventions (pure).

The first line names the file as a tag (``*usr_05.txt*  For Vim version 9.0``). A section
starts on a line that ends in tags (``*05.1*  The vimrc file    *vimrc-intro*``,
``1. Introduction    *autocmd-intro*``); a line ending in `` ~`` is a small heading;
``|name|`` links to a tag and ``*name*`` defines one. The markup is stripped from the text,
rows of ``=`` or ``-`` only separate sections.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_HEADER = re.compile(r"^\*[\w.+-]+\.txt\*\s")
_TAG = r"\*[^*\s|]+\*"
# "*05.1*\tThe vimrc file\t\t*vimrc-intro*" or "1. Introduction\t\t*autocmd-intro*".
_TAGGED = re.compile(rf"^(?:\*(\d+(?:\.\d+)*)\*\s+)?(\S.*?)\s+(?:{_TAG}\s*)+$")
_NUMBER_TAG = re.compile(r"^\*(\d+(?:\.\d+)*)\*\s+(\S.*)$")
_TAGS_ONLY = re.compile(rf"^\s*(?:{_TAG}\s*)+$")
_TRAILING_TAGS = re.compile(rf"(?:\s+{_TAG})+\s*$")
_LINK = re.compile(r"\|([^|\s]+)\|")
_TILDE = re.compile(r"\s+~$")
_SEPARATOR = re.compile(r"^(?:={10,}|-{10,})\s*$")
_MAX_HEADING = 80
_MAX_TITLE_WORDS = 10
_TITLE_LINES = 4  # the header, a credit line, the title: a help file's opening
_NUMBERED = re.compile(r"^\d+(?:\.\d+)*\.?\s")


def is_help_file(text: str) -> bool:
    return bool(_HEADER.match(text))


def separator(line: str) -> bool:
    return bool(_SEPARATOR.match(line.strip()))


def tags_only(line: str) -> bool:
    """A line that only defines tags: an anchor, no text."""
    return bool(_TAGS_ONLY.match(line))


def prepared(line: str) -> str:
    """A raw line before paragraphs are cut: separators and tag-only lines blank, an
    indented line (an example) without its ``~`` mark."""
    if separator(line) or tags_only(line):
        return ""
    example = line[:1].isspace() or line.startswith("<")  # "<" ends an example block
    return _TILDE.sub("", line.rstrip()) if example else line


def heading(line: str) -> tuple[str, int] | None:
    """A section title and its level (1 numbered, 2 otherwise, 3 a ``~`` line), or None."""
    stripped = line.rstrip()
    match = _TAGGED.match(stripped) or _NUMBER_TAG.match(stripped)
    if match:
        number, title = match.group(1), clean(match.group(2))
        if not _title_like(title):
            return None
        if number:
            return f"{number} {title}", 1
        return title, 1 if _NUMBERED.match(title) else 2
    if _TILDE.search(stripped) and len(stripped) <= _MAX_HEADING:
        return clean(stripped), 3
    return None


def _title_like(text: str) -> bool:
    """A title opens with a capital or a number and does not end as a sentence does (a
    sentence may end in an error tag: 'Here {event} cannot be "*".  *E1155*')."""
    text = text.strip()
    short = 0 < len(text) <= _MAX_HEADING and len(text.split()) <= _MAX_TITLE_WORDS
    return short and (text[0].isupper() or text[0].isdigit()) and text[-1] not in ".,;:!?"


def clean(line: str) -> str:
    """A line without its markup: trailing tags, ``|link|`` bars, a trailing ``~``."""
    line = _TRAILING_TAGS.sub("", line.rstrip())
    line = _TILDE.sub("", line)
    return _LINK.sub(r"\1", line)


def title(first_lines: Sequence[str]) -> str:
    """A help file's title: the first line under its header that is neither the header
    nor a credit opening in capitals ("VIM USER MANUAL - by ..."), else the file's tag."""
    header = _HEADER.match(first_lines[0]) if first_lines else None
    for line in first_lines[1:_TITLE_LINES]:
        text = clean(line).strip()
        if text and not _credit(text) and len(text) <= _MAX_HEADING:
            return text
    return header.group(0).strip().strip("*") if header else ""


def _credit(text: str) -> bool:
    """ "VIM USER MANUAL - by Bram Moolenaar": it opens with words in capitals."""
    words = text.split()[:2]
    return len(words) == 2 and all(word.isupper() and len(word) > 1 for word in words)
