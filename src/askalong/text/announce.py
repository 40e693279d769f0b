"""Whether a text announces what comes after it (pure): one test for the answerer's
sentences ("This looks like:", "Tesla stated:", "结果如下：") and the reader's selections.

A lead-in ends with a colon or with "as follows" / "the following" / 以下 / 如下 (then
punctuation at most): what it introduces — a list, a code block, a table, a quotation —
comes right after it. A selection may also announce by counting ("two sets of negative
examples", "三个方面", "First, …"): ``counts_ahead``; what delivers a count is the
continuation's business (``context.continuation``), not a sentence's.
"""

from __future__ import annotations

import re

_LEAD_IN_END = re.compile(r"(?:[:：]|\bas follows|\bthe following|以下|如下)\W*$", re.IGNORECASE)
_COUNTED = re.compile(
    r"\b(?:two|three|four|five|six|seven|several|\d+)\s+(?:[\w-]+\s+){0,2}?[a-z]+s\b"
    r"|\b(?:first|firstly|i\))\W"
    r"|[两二三四五六七八九几\d]\s*(?:个|种|类|条|项|点|方面)|第一|首先|[(（]1[)）]",
    re.IGNORECASE,
)


def announces(text: str) -> bool:
    """Whether ``text`` ends as a lead-in to what follows it."""
    return _LEAD_IN_END.search(text.rstrip()) is not None


def counts_ahead(text: str) -> bool:
    """Whether ``text`` opens a count that the text after it goes on with."""
    return _COUNTED.search(text) is not None


__all__ = ["announces", "counts_ahead"]
