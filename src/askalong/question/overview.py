"""Whether a question asks what several passages say (pure): a summary ("Summarise …",
"总结…"), or a list of the ways, kinds or steps ("what are the ways …", "有哪些…").

The extractive answerer gives a summary one sentence from each passage that bears on it,
and the offline agent answers an overview from each passage on its own.
"""

from __future__ import annotations

import re

_SUMMARY = re.compile(
    r"\b(?:summari[sz]e|summary|overview|outline)\b|总结|概括|归纳|综述|概述", re.IGNORECASE
)
# A summary also asked as "what are the ways …" / "有哪些…": a list of what several passages say
_LISTING = re.compile(r"\bwhat are the (?:ways|kinds|types|steps|main)\b|有哪些|哪几种", re.I)


def asks_summary(question: str) -> bool:
    """Whether ``question`` asks for a summary of what the passages say."""
    return _SUMMARY.search(question) is not None


def asks_overview(question: str) -> bool:
    """Whether ``question`` asks for what several passages say (a summary, a list of ways)."""
    return asks_summary(question) or _LISTING.search(question) is not None
