"""How a document defines a term, gives an example of it or contrasts it (pure).

``definition_strength(sentence, term)`` says whether a sentence is the document's own
definition of ``term``: 2 for an explicit one ("X refers to", "we call our model X",
"we define X as", "where d is … and m is …", "Natural Language Processing (NLP)",
"X: Long Form", "X 是指 / 称为 / 定义为", "所谓 X", "其中 X 为"), 1 for a plain
"X is a / an / the …" or an apposition ("X, a novel collection of …"), 0 otherwise.
``example_cue`` and ``contrast_cue`` find the cue phrases the issue names.

These cues are stricter than ``answer.extractive.cues``: those only break ties between
sentences already about the question, while these pick sentences out of a whole document
by a term alone, so "like", "but" or a bare "如" (如果, 如何, 如图) would bring in noise.
"""

from __future__ import annotations

import functools
import re

_I = re.IGNORECASE
_BEFORE = (
    r"(?<![A-Za-z0-9_\-])"  # ASCII edges: a superscript after a name ("SCIDOCS³") is no part of it
)
_AFTER = r"(?:e?s)?(?![A-Za-z0-9_\-])"
_PAREN = r"(?:\s*[(（][^()（）]{1,80}[)）])?"  # "SciBERT (Beltagy et al., 2019) which is"
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"

_EN_STRONG = (
    r"{t}{p}\W{{0,3}}(?:,\s*)?(?:which\s+|that\s+)?(?:refers?\s+to|(?:is|are)\s+defined\s+as"
    r"|denotes?|stands\s+for|means|(?:is|are)\s+called|(?:is|are)\s+known\s+as|represents?)\b",
    r"\b(?:call|calls|called|term|termed|name|named|dub|dubbed|known\s+as|referred\s+to\s+as)"
    r"\s+(?:(?:this|it|our|the|a|an|them)\s+)?(?:[\w-]+\s+){{0,3}}?[\"“‘']?{t}[\"”’']?"
    r"(?=\s*(?:[,.;:(]|$)|,?\s+(?:which|that|and|for|to|as|in)\b)",
    r"\bdefines?\s+(?:the\s+|a\s+|an\s+)?(?:[\w-]+\s+){{0,2}}?{t}\s+(?:as|to\s+be)\b",
    r"(?:^|\b(?:where|and|here|with)\s*,?\s+){t}\s+(?:is|are|denotes?|represents?|stands\s+for"
    r"|refers\s+to|is\s+the)\b",
)
_EN_WEAK = (
    r"{t}{p}\W{{0,3}}(?:,\s*)?(?:which\s+|that\s+)?(?:is|are|was|were)\s+(?:a|an|the|one|used"
    r"|designed|based)\b",
    r"{t}\W{{0,3}}\s*,\s+(?:a|an)\s+\w",
)
_ZH_STRONG = (
    r"{t}{p}\s*(?:是指|指的是|是一种|是一类|是一个|定义为|被定义为|称为|称作|叫做|叫作|即为|意为|"
    r"意思是|表示的是)",
    r"(?:称为|称作|叫做|叫作|简称|所谓的?|定义为|称之为)\s*[“\"「『]?{t}",
    r"(?:其中|这里|此处)\s*[，,]?\s*{t}\s*(?:为|是|表示|代表|指)",
    r"{t}\s*[（(]\s*[A-Za-z][\w\s\-]{{1,50}}[)）]",
)
_ZH_WEAK = (r"{t}{p}\s*是(?![否不])",)  # "直径为 1mm" is a value, not a definition

EXAMPLE_CUE = re.compile(
    r"\b(?:e\.g\.|for example|for instance|such as|an example of|as an example|to illustrate)"
    r"|例如|比如|譬如|诸如|举例|例子|以.{1,8}为例|如[：:]",
    _I,
)
CONTRAST_CUE = re.compile(
    r"\b(?:unlike|in contrast|by contrast|whereas|compared (?:with|to)|rather than|instead of"
    r"|differs? from|different from|as opposed to|on the other hand)\b"
    r"|与.{1,12}不同|不同于|相比|相较|相对于|区别|差异|而非|而不是",
    _I,
)


def is_acronym(term: str) -> bool:
    """ "NLP", "MeSH", "SciBERT", "BM25": two or more capitals among letters and digits."""
    return term.isascii() and sum(c.isupper() for c in term) >= 2 and term.isalnum()


def definition_strength(sentence: str, term: str) -> int:
    """2: ``sentence`` explicitly defines ``term``; 1: it says what ``term`` is; 0: neither."""
    strong, weak = _patterns(term)
    if any(p.search(sentence) for p in strong) or _expands(sentence, term):
        return 2
    return 1 if any(p.search(sentence) for p in weak) else 0


def example_cue(sentence: str) -> bool:
    return EXAMPLE_CUE.search(sentence) is not None


def contrast_cue(sentence: str) -> bool:
    return CONTRAST_CUE.search(sentence) is not None


def mentions(sentence: str, term: str) -> bool:
    """Whether ``sentence`` names ``term`` (a whole word for Latin terms)."""
    return _mention(term).search(sentence) is not None


@functools.lru_cache(maxsize=512)
def _mention(term: str) -> re.Pattern[str]:
    if _is_han(term):
        return re.compile(re.escape(term))
    flags = 0 if is_acronym(term) else _I
    return re.compile(f"{_BEFORE}{re.escape(term)}{_AFTER}", flags)


@functools.lru_cache(maxsize=512)
def _patterns(term: str) -> tuple[tuple[re.Pattern[str], ...], tuple[re.Pattern[str], ...]]:
    """The compiled strong and weak patterns for ``term`` (one letter symbols, as in
    "where d is", only by the "where / and X is" form)."""
    if _is_han(term):
        t = re.escape(term)
        return _compiled(_ZH_STRONG, t, 0), _compiled(_ZH_WEAK, t, 0)
    t = f"{_BEFORE}{re.escape(term)}{_AFTER}"
    flags = 0 if is_acronym(term) or len(term) == 1 else _I
    if len(term) == 1:
        return _compiled(_EN_STRONG[3:], t, flags), ()
    return _compiled(_EN_STRONG, t, flags), _compiled(_EN_WEAK, t, flags)


def _compiled(patterns: tuple[str, ...], t: str, flags: int) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p.format(t=t, p=_PAREN), flags) for p in patterns)


def _expands(sentence: str, term: str) -> bool:
    """An acronym spelled out: "Natural Language Processing (NLP)" (the words before the
    parenthesis start with its first letter), "SPECTER: Scientific Paper Embeddings …",
    "长短期记忆网络（LSTM）"."""
    if not is_acronym(term):
        return False
    t = re.escape(term)
    gloss = re.search(rf"^\W*\d*\s*{t}\s*[:：]\s*[A-Z{_HAN}]", sentence)
    if gloss:
        return True
    for match in re.finditer(
        rf"([A-Za-z][\w\-]*(?:\s+[\w\-]+){{0,7}})\s*[(（]\s*{t}s?\s*[)）;,]", sentence
    ):
        initials = {word[0].lower() for word in match.group(1).split()}
        if term[0].lower() in initials and len(match.group(1).split()) >= 2:
            return True
    return re.search(rf"[{_HAN}]{{2,}}\s*[（(]\s*{t}\s*[)）]", sentence) is not None


def _is_han(term: str) -> bool:
    return re.search(f"[{_HAN}]", term) is not None
