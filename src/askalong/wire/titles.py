"""A document's title as the wire shows it: never a path of the machine that added it.

A title can be a path: a PDF whose metadata title is the file it was made from
(``/home/me/thesis/main``), a note whose first heading is one, a name with no stem. On the
wire such a title is its last part, so no card, chip or export shows where the server (or
the uploader's machine) keeps its files.
"""

from __future__ import annotations

import re

_ROOTED = re.compile(r"^(?:[A-Za-z]:[\\/]|\\\\|/|~[\\/])")
_SEPARATORS = re.compile(r"[\\/]+")


def shown_title(title: str) -> str:
    """``title``, or its last part when it is an absolute path (``/a/b``, ``C:\\a``,
    ``\\\\host\\share``, ``~/a``) of at least two parts."""
    flat = title.strip()
    if not _ROOTED.match(flat):
        return title
    parts = [p for p in _SEPARATORS.split(flat) if p and p != "~" and not p.endswith(":")]
    return parts[-1] if len(parts) >= 2 else title
