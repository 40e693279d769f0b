"""Scripts: which characters are Han / CJK, and the language of a text (pure).

``HAN`` and ``CJK`` are the one home of the character ranges: Han ideographs (with the
iteration marks 々〆〇), then kana and hangul, the characters that count one size unit each.
"""

from __future__ import annotations

import re

HAN = "\u3005-\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
CJK = HAN + "\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\uac00-\ud7af"

CJK_RE = re.compile(f"[{CJK}]")
HAN_RE = re.compile(f"[{HAN}]")
# A "word" is a run of letters/digits outside CJK ("_" separates words, as in size_units).
WORD_RE = re.compile(f"[^\\W_{CJK}]+")
_LATIN_RE = re.compile("[A-Za-z\u00c0-\u024f]")
_ALPHA_RE = re.compile(r"[^\W\d_]")

_SAMPLE_CHARS = 20_000
WORD_UNITS_X10 = 17  # a word outside CJK weighs 1.7 size units, as an integer (see size.py)


def is_cjk(char: str) -> bool:
    return bool(char) and CJK_RE.match(char) is not None


def detect_language(text: str) -> str:
    """ "zh" when CJK dominates, "en" for Latin script, "mixed" when both are substantial,
    "und" for empty text or other scripts. Looks at the first 20k characters only."""
    share = cjk_share(text)
    if share is None:
        return "und"
    if share >= 0.7:
        return "zh"
    return "en" if share <= 0.3 else "mixed"


def cjk_share(text: str) -> float | None:
    """CJK characters' share of the first 20k characters' size (None: empty, or mostly
    another script)."""
    sample = text[:_SAMPLE_CHARS]
    cjk = len(CJK_RE.findall(sample))
    latin = other = 0
    for word in WORD_RE.findall(sample):
        if _LATIN_RE.search(word):
            latin += 1
        elif _ALPHA_RE.search(word):
            other += 1
    # Weigh words as size units, so one Chinese character is worth ~0.6 English words.
    latin_units = latin * WORD_UNITS_X10 / 10
    total = cjk + latin_units
    if total == 0 or other * WORD_UNITS_X10 / 10 > total:
        return None
    return cjk / total


def answer_language(text: str) -> str:
    """The language to answer in: Chinese when the text is more Chinese than not (a Chinese
    question naming English terms, "SELECT DISTINCT 有什么作用？", is asked in Chinese),
    English otherwise."""
    share = cjk_share(text)
    return "zh" if share is not None and share >= 0.5 else "en"
