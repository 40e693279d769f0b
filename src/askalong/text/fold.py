"""The one fold for matching text to a block: what the reader selects, what a model quotes.

Both sides of a match are folded the same way, so a selection located in the reader and
a quote checked as verbatim agree on what "the same text" means. The rules, in order:

1. Per character, so that each folded character knows the source offset it came from:
   a. soft hyphens and zero-width characters (U+00AD, U+200B-U+200D, U+FEFF) go;
   b. NFKC: full-width letters, digits and punctuation, ligatures and compatibility forms
      become their plain forms ("ＡＢ，" -> "AB,", "ﬁ" -> "fi", "‑" -> "‐", "－" -> "-",
      "｢" -> "「");
   c. quote marks are made straight: ‘ ’ ‚ ‛ -> ' and “ ” „ ‟ 「 」 『 』 -> ";
   d. case is folded (``casefold=False`` keeps it: the quote check tries the case as
      written first);
   e. whitespace goes, NBSP and the ideographic space included, so line breaks, collapsed
      or added spaces and spaces between CJK characters never matter ("中 文" = "中文").
2. On the folded text: a hyphen (- ‐ ‑ －; NFKC has made the last two one of the first
   two) right after a letter or digit goes. "exam-ple", "exam- ple", "exam-\\nple" and
   "example" fold alike, and since whitespace went first "well - known" folds like
   "well-known". A hyphen after anything else stays: "(-x)" folds to "(-x)".

Text cut out of a block (a selection, a quote) is folded with ``fold_excerpt``: a hyphen
opening it may be the second half of a word hyphen the block drops ("NAACL-HLT" folds to
"naaclhlt"), so it cannot be required.

``fold_with_offsets`` maps each folded character back to its source offset (monotonic),
so a match in folded text becomes ``text[start:end]``, the exact source text.
"""

from __future__ import annotations

import re
import unicodedata

_HYPHENS = "-\u2010\u2011\uff0d"
_WORD_HYPHEN = re.compile(f"(?<=[^\\W_])[{_HYPHENS}]")
_QUOTES = {"‘": "'", "’": "'", "‚": "'", "‛": "'", "“": '"', "”": '"', "„": '"', "‟": '"'}
_QUOTES.update({"「": '"', "」": '"', "『": '"', "』": '"'})
_DROPPED = frozenset("\u00ad\u200b\u200c\u200d\ufeff")


def _fold_char(char: str, casefold: bool) -> str:
    """Rule 1 for one character."""
    if char in _DROPPED:
        return ""
    # Quotes are mapped after NFKC, which turns "｢" and "﹁" into "「".
    folded = "".join(_QUOTES.get(c, c) for c in unicodedata.normalize("NFKC", char))
    if casefold:
        folded = folded.casefold()
    return "".join(c for c in folded if not c.isspace())


class _FoldTable(dict[int, str]):
    """``str.translate`` table computing each character's folded form on first use."""

    def __init__(self, *, casefold: bool) -> None:
        super().__init__()
        self._casefold = casefold

    def __missing__(self, code: int) -> str:
        folded = _fold_char(chr(code), self._casefold)
        self[code] = folded
        return folded


# Memos, not state: a character folds the same everywhere, so one table per case rule
# serves every caller (a 300-page document folds in milliseconds). Two threads filling in
# the same character write the same value.
_TABLES = {True: _FoldTable(casefold=True), False: _FoldTable(casefold=False)}


def fold(text: str, *, casefold: bool = True) -> str:
    """``text`` folded for matching (see the module docstring)."""
    return _WORD_HYPHEN.sub("", text.translate(_TABLES[casefold]))


def fold_excerpt(text: str, *, casefold: bool = True) -> str:
    """``text``, cut out of a longer text, folded for finding it there: hyphens opening it
    are dropped too."""
    return fold(text, casefold=casefold).lstrip(_HYPHENS)


def fold_with_offsets(text: str, *, casefold: bool = True) -> tuple[str, list[int]]:
    """``fold(text)`` and, for each folded character, its offset in ``text``."""
    table = _TABLES[casefold]
    chars: list[str] = []
    offsets: list[int] = []
    for offset, char in enumerate(text):
        folded = table[ord(char)]
        chars.append(folded)
        offsets.extend([offset] * len(folded))
    joined = "".join(chars)
    dropped = {m.start() for m in _WORD_HYPHEN.finditer(joined)}
    if not dropped:
        return joined, offsets
    kept = [i for i in range(len(joined)) if i not in dropped]
    return "".join(joined[i] for i in kept), [offsets[i] for i in kept]
