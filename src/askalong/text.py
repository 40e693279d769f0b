"""Text primitives for Chinese and English (pure functions, no I/O).

- ``split_sentences``: sentence spans that cover the text exactly, in order.
- ``detect_language``: "zh", "en", "mixed" or "und" from a cheap character count.
- ``measure`` / ``size_units``: the chunk-size measure, one unit per CJK character and
  1.7 per other word, so 512 units is about 512 Chinese characters or 300 English words.
- ``tokenize`` / ``key_terms``: the search tokeniser (rjieba for Chinese runs, Snowball
  stems for the rest), shared by indexing, queries and drift checks.
- ``gram_tokens``: the keyword index's second field for Chinese: Han characters and
  character bigrams instead of rjieba words (a segmentation error then costs one field,
  not the match).
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from dataclasses import dataclass

import rjieba
import Stemmer

# Han, kana and hangul: the characters that count one size unit each.
_HAN = "\u3005-\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_CJK = _HAN + "\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\uac00-\ud7af"

_CJK_RE = re.compile(f"[{_CJK}]")
# A "word" is a run of letters/digits outside CJK ("_" separates words, as in size_units).
_WORD_RE = re.compile(f"[^\\W_{_CJK}]+")
# Atoms are the places where an over-long sentence may be cut: a CJK character or a word.
ATOM_RE = re.compile(f"[{_CJK}]|[^\\W_{_CJK}]+")
_LATIN_RE = re.compile("[A-Za-z\u00c0-\u024f]")
_ALPHA_RE = re.compile(r"[^\W\d_]")

_SAMPLE_CHARS = 20_000
_WORD_UNITS_X10 = 17  # 1.7 units per word, kept as an integer to avoid float rounding


@dataclass(frozen=True)
class TextSize:
    """CJK characters and other words in a text; ``units`` is the chunk-size measure.

    Sizes add up exactly when texts are joined at whitespace or punctuation (a word
    is never glued to another), which lets the chunker budget without re-measuring.
    """

    cjk: int = 0
    words: int = 0

    @property
    def units(self) -> int:
        return self.cjk + (self.words * _WORD_UNITS_X10 + 9) // 10

    def __add__(self, other: TextSize) -> TextSize:
        return TextSize(self.cjk + other.cjk, self.words + other.words)


def measure(text: str, start: int = 0, end: int | None = None) -> TextSize:
    """The size of ``text[start:end]`` (CJK punctuation and other symbols count zero)."""
    stop = len(text) if end is None else end
    return TextSize(
        len(_CJK_RE.findall(text, start, stop)), len(_WORD_RE.findall(text, start, stop))
    )


def size_units(text: str) -> int:
    """1 per CJK character plus ceil(1.7 per other word)."""
    return measure(text).units


def is_cjk(char: str) -> bool:
    return bool(char) and _CJK_RE.match(char) is not None


# ----------------------------------------------------------------------------- sentences

_CJK_TERMINATORS = frozenset("。！？；…")
_OPENERS = frozenset("\"'“‘「『（([《【")
_BOUNDARY_RE = re.compile(
    r"(?P<punct>[.!?。！？；…]+)[\"'”’」』）)\]》】]*(?P<space>\s*)|(?P<blank>\n[^\S\n]*\n\s*)"
)


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_ABBREVIATIONS = _word_set(
    "e.g i.e etc dr mr mrs ms prof fig figs eq eqs no nos vs al u.s sec secs tab cf approx "
    "st jr sr ref refs vol ch pp resp"
)
_WORD_BEFORE_DOT_RE = re.compile(r"[A-Za-z][A-Za-z.]*\Z")
_INITIALS_RE = re.compile(r"[A-Za-z](?:\.[A-Za-z])*")
# "1." / "iv." / "(a)." at the start of a text or line is a list number, not a sentence.
_ENUMERATOR_RE = re.compile(r"\(?(?:\d{1,3}|[ivxIVX]{1,4}|[A-Za-z])\)?")


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans ``(start, end)`` that cover ``text`` exactly, in order.

    Trailing whitespace belongs to the sentence before it. A blank line always ends a
    sentence (lists, code and headings often have no final punctuation).
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _BOUNDARY_RE.finditer(text):
        if _is_boundary(text, match, start):
            spans.append((start, match.end()))
            start = match.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


def _is_boundary(text: str, match: re.Match[str], start: int) -> bool:
    space = match.group("space")
    if space is None or match.end() == len(text) or space.count("\n") > 1:
        return True  # a blank line, or the end of the text
    punct = match.group("punct")
    following = text[match.end()]
    if _CJK_TERMINATORS.intersection(punct):
        # "…" inside an English sentence: the next word in lower case continues it.
        return not (following.islower() and set(punct) <= {"…"})
    if not space:  # no space: only Chinese written with ASCII punctuation
        preceding = text[match.start() - 1] if match.start() > 0 else ""
        return is_cjk(following) and (is_cjk(preceding) or punct[-1] in "!?")
    starts_sentence = following.isupper() or following.isdigit() or is_cjk(following)
    if not starts_sentence and following not in _OPENERS:
        return False
    return punct != "." or not _is_abbreviation(text, match.start(), start)


def _is_abbreviation(text: str, dot: int, sentence_start: int) -> bool:
    """Whether the "." at ``dot`` closes an abbreviation, an initial or a list number."""
    if dot - sentence_start < 12 and _ENUMERATOR_RE.fullmatch(text[sentence_start:dot].strip()):
        return True
    word = _WORD_BEFORE_DOT_RE.search(text[max(0, dot - 12) : dot])
    if word is None:
        return False
    token = word.group()
    return token.lower() in _ABBREVIATIONS or _INITIALS_RE.fullmatch(token) is not None


# ------------------------------------------------------------------------------ language


def detect_language(text: str) -> str:
    """ "zh" when CJK dominates, "en" for Latin script, "mixed" when both are substantial,
    "und" for empty text or other scripts. Looks at the first 20k characters only."""
    sample = text[:_SAMPLE_CHARS]
    cjk = len(_CJK_RE.findall(sample))
    latin = other = 0
    for word in _WORD_RE.findall(sample):
        if _LATIN_RE.search(word):
            latin += 1
        elif _ALPHA_RE.search(word):
            other += 1
    # Weigh words as size units, so one Chinese character is worth ~0.6 English words.
    latin_units = latin * _WORD_UNITS_X10 / 10
    total = cjk + latin_units
    if total == 0 or other * _WORD_UNITS_X10 / 10 > total:
        return "und"
    share = cjk / total
    if share >= 0.7:
        return "zh"
    return "en" if share <= 0.3 else "mixed"


# ----------------------------------------------------------------------------- tokenising

_TOKEN_RE = re.compile(f"(?P<han>[{_HAN}]+)|[^\\W_{_HAN}]+")
_HAN_RE = re.compile(f"[{_HAN}]")
ENGLISH_STOP_WORDS = _word_set(
    "a an and are as at be been being but by can could did do does for from had has have "
    "he her his how i if in into is it its me my no not of on or our she should so such "
    "than that the their them then there these they this those to was we were what when "
    "where which who whom why will with would you your"
)
CHINESE_STOP_WORDS = _word_set(
    "的 了 是 在 和 与 及 或 也 都 就 而 被 把 这 那 之 其 着 地 得 于 对 为 以 等 吗 呢 吧 啊 "
    "个 一个 这个 那个 这些 那些 什么 怎么 如何 哪些 为什么 并 且 则 即 从 但 还 又"
)


@functools.lru_cache(maxsize=64)
def _stemmer(thread_id: int) -> Stemmer.Stemmer:
    # One stemmer per thread: PyStemmer objects must not be shared between threads.
    return Stemmer.Stemmer("english")


# Footnote markers and exponents are superscripts after the word ("SCIDOCS³", "ds²"):
# split them off before NFKC would glue them on as plain digits ("scidocs3").
_SUPERSCRIPTS = re.compile(r"(?<=\w)([⁰¹²³⁴⁵⁶⁷⁸⁹]+)")


def search_normal(text: str) -> str:
    """The text as the tokenisers read it: superscripts split off, then NFKC."""
    return unicodedata.normalize("NFKC", _SUPERSCRIPTS.sub(r" \1", text))


def tokenize(text: str) -> list[str]:
    """Search tokens in text order: NFKC, rjieba words for Han runs, lower-cased and
    stemmed words elsewhere; stop words and punctuation dropped."""
    normal = search_normal(text)
    stem = _stemmer(threading.get_ident()).stemWord
    tokens: list[str] = []
    for match in _TOKEN_RE.finditer(normal):
        han = match.group("han")
        if han:
            tokens.extend(w for w in rjieba.cut(han, hmm=False) if w not in CHINESE_STOP_WORDS)
            continue
        word = match.group().lower()
        if word not in ENGLISH_STOP_WORDS:
            tokens.append(stem(word))
    return tokens


def gram_tokens(text: str) -> list[str]:
    """Han runs as their characters and character bigrams, other words as in ``tokenize``;
    stop words dropped. Empty when ``text`` has no Han character: the field is for Chinese.

    Measured on XQuAD zh (paragraph chunks, BM25 R@1): rjieba words alone 0.925, plus this
    field 0.937; ``cut_for_search`` sub-words or the HMM gained nothing (0.924, 0.923).
    """
    normal = search_normal(text)
    if not _HAN_RE.search(normal):
        return []
    stem = _stemmer(threading.get_ident()).stemWord
    tokens: list[str] = []
    for match in _TOKEN_RE.finditer(normal):
        han = match.group("han")
        if han:
            grams = [*han, *(han[i : i + 2] for i in range(len(han) - 1))]
            tokens.extend(g for g in grams if g not in CHINESE_STOP_WORDS)
            continue
        word = match.group().lower()
        if word not in ENGLISH_STOP_WORDS:
            tokens.append(stem(word))
    return tokens


def key_terms(text: str) -> set[str]:
    """The content words of ``text``: its tokens without single Latin letters or digits."""
    return {t for t in tokenize(text) if not (len(t) == 1 and t.isascii())}
