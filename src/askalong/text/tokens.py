"""The search tokeniser, shared by indexing, queries, answer scoring and claim checks (pure).

- ``tokenize`` / ``key_terms``: rjieba words for Chinese runs, Snowball stems for the rest.
  rjieba's dictionary is Simplified, so a Traditional run mostly comes out as characters.
  The keyword index tokenises the text's Simplified image instead (``index/keyword_schema``,
  ``text/simplified``); the answerer's terms stay as they are here, since its learned
  scorer was trained on them (cut on the image, DRCD DEV evidence hit fell 0.973 -> 0.940:
  ``benchmarks/results/hant-segmentation-DEV-2026-12-06.md``).
- ``gram_tokens``: the keyword index's second field for Chinese: Han characters and
  character bigrams instead of rjieba words (a segmentation error then costs one field,
  not the match).
- ``terms_of``: key terms plus Chinese character pairs (``character_pairs``), for matching a
  question to a sentence.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from typing import Any

import Stemmer

from askalong.text.scripts import HAN, HAN_RE

_TOKEN_RE = re.compile(f"(?P<han>[{HAN}]+)|[^\\W_{HAN}]+")


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


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


def han_words(han: str) -> list[str]:
    """The words of a run of Han characters as the segmenter cuts them (its dictionary
    only, no guessing: an unknown word stays single characters)."""
    return list(_segmenter().cut(han, hmm=False))


@functools.cache
def _segmenter() -> Any:
    """rjieba, imported at the first Han text: it loads its dictionary as it is imported
    (~0.35 CPU-s), which a process that meets no Chinese (an English ``ask``) never pays."""
    import rjieba

    return rjieba


def tokenize(text: str) -> list[str]:
    """Search tokens in text order: NFKC, rjieba words for Han runs, lower-cased and
    stemmed words elsewhere; stop words and punctuation dropped."""
    normal = search_normal(text)
    stem = _stemmer(threading.get_ident()).stemWord
    tokens: list[str] = []
    for match in _TOKEN_RE.finditer(normal):
        han = match.group("han")
        if han:
            tokens.extend(w for w in han_words(han) if w not in CHINESE_STOP_WORDS)
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
    if not HAN_RE.search(normal):
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


_HAN_RUN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
BIGRAM = "\u2194"  # marks a character pair, so it never equals a segmenter token


def terms_of(text: str) -> set[str]:
    """Key terms, plus the character pairs of Chinese runs: the segmenter may cut a
    question and its answer sentence differently ("拔除插头测试" / "插头 测试")."""
    return key_terms(text) | character_pairs(text)


def character_pairs(text: str) -> set[str]:
    """The character pairs of the Chinese runs of ``text``, marked with ``BIGRAM``."""
    pairs: set[str] = set()
    for run in _HAN_RUN.findall(text):
        found = (run[i : i + 2] for i in range(len(run) - 1))
        pairs.update(BIGRAM + pair for pair in found if pair not in CHINESE_STOP_WORDS)
    return pairs
