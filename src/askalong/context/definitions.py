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

# Each rule is (before, after): what the text before an occurrence of the term must end
# with, and what the text after it must start with (None: anything). Compiled once, for
# every term alike: a pattern per term cost 40 ms to compile.
Rule = tuple[re.Pattern[str] | None, re.Pattern[str] | None]


def _rule(before: str | None, after: str | None) -> Rule:
    return (
        None if before is None else re.compile(f"(?:{before})$", _I),
        None if after is None else re.compile(after, _I),
    )


_CLAUSE_END = r"(?=\s*(?:[,.;:(]|$)|,?\s+(?:which|that|and|for|to|as|in)\b)"
_WHERE = _rule(
    r"(?:^|\b(?:where|and|here|with)\s*,?\s+)",
    r"\s+(?:is|are|denotes?|represents?|stands\s+for|refers\s+to)\b",
)
_EN_STRONG = (
    _rule(
        None,
        rf"{_PAREN}\W{{0,3}}(?:,\s*)?(?:which\s+|that\s+)?(?:refers?\s+to|(?:is|are)\s+defined"
        r"\s+as|denotes?|stands\s+for|means|(?:is|are)\s+called|(?:is|are)\s+known\s+as"
        r"|represents?)\b",
    ),
    _rule(
        r"\b(?:call|calls|called|term|termed|name|named|dub|dubbed|known\s+as|referred\s+to\s+as)"
        r"\s+(?:(?:this|it|our|the|a|an|them)\s+)?(?:[\w-]+\s+){0,3}?[\"“‘']?",
        rf"[\"”’']?{_CLAUSE_END}",
    ),
    _rule(r"\bdefines?\s+(?:the\s+|a\s+|an\s+)?(?:[\w-]+\s+){0,2}?", r"\s+(?:as|to\s+be)\b"),
    _WHERE,
)
_EN_WEAK = (
    _rule(
        None,
        rf"{_PAREN}\W{{0,3}}(?:,\s*)?(?:which\s+|that\s+)?(?:is|are|was|were)\s+(?:a|an|the|one"
        r"|used|designed|based)\b",
    ),
    _rule(None, r"[\W⁰¹²³⁴⁵⁶⁷⁸⁹]{0,3}\s*,\s+(?:a|an)\s+\w"),  # "SCIDOCS³ , a novel …"
)
_ZH_STRONG = (
    _rule(
        None,
        rf"{_PAREN}\s*(?:是指|指的是|是一种|是一类|是一个|定义为|被定义为|称为|称作|叫做|叫作|即为|"
        r"意为|意思是|表示的是)",
    ),
    _rule(r"(?:称为|称作|叫做|叫作|简称|所谓的?|定义为|称之为)\s*[“\"「『]?", None),
    _rule(r"(?:其中|这里|此处)\s*[，,]?\s*", r"\s*(?:为|是|表示|代表|指)"),
    _rule(None, r"\s*[（(]\s*[A-Za-z][\w\s\-]{1,50}[)）]"),
)
_ZH_WEAK = (_rule(None, rf"{_PAREN}\s*是(?![否不])"),)  # "直径为 1mm" is a value, no definition
_GLOSS = _rule(r"^\W*\d*\s*", rf"\s*[:：]\s*[A-Z{_HAN}]")  # "SPECTER: Scientific Paper …"
_SPELLED = re.compile(r"([A-Za-z][\w\-]*(?:\s+[\w\-]+){0,7})\s*[(（]\s*$")
_SPELLED_END = re.compile(r"s?\s*[)）;,]")
_HAN_SPELLED = _rule(rf"[{_HAN}]{{2,}}\s*[（(]\s*", r"\s*[)）]")  # "长短期记忆网络（LSTM）"

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
    """2: ``sentence`` explicitly defines ``term``; 1: it says what ``term`` is; 0: neither.
    A one letter symbol counts only in a "where d is … and m is …" clause."""
    strong, weak = _rules(term)
    best = 0
    for match in _mention(term).finditer(sentence):
        before, after = sentence[: match.start()], sentence[match.end() :]
        if _holds(strong, before, after) or _expands(term, before, after):
            return 2
        if _holds(weak, before, after):
            best = 1
    return best


def _rules(term: str) -> tuple[tuple[Rule, ...], tuple[Rule, ...]]:
    if _is_han(term):
        return _ZH_STRONG, _ZH_WEAK
    if len(term) == 1:
        return (_WHERE,), ()
    return _EN_STRONG, _EN_WEAK


def _holds(rules: tuple[Rule, ...], before: str, after: str) -> bool:
    return any(
        (b is None or b.search(before) is not None) and (a is None or a.match(after) is not None)
        for b, a in rules
    )


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
    if is_acronym(term):
        return re.compile(f"{_BEFORE}{re.escape(term)}{_AFTER}")
    return re.compile(f"{_BEFORE}{re.escape(_stem(term))}{_AFTER}", _I)


def _stem(term: str) -> str:
    """ "tasks" names "task" too: a plural term matches its singular."""
    plural = len(term) > 3 and term.endswith("s") and not term.endswith("ss")
    return term[:-1] if plural and not is_acronym(term) else term


def mention_key(term: str) -> str:
    """A lower-case string every mention of ``term`` contains: a cheap test to run before
    ``mentions`` over thousands of blocks."""
    return _stem(term).lower()


def _expands(term: str, before: str, after: str) -> bool:
    """An acronym spelled out: "Natural Language Processing (NLP)" (two or more words
    before the parenthesis, one starting with its first letter), "SPECTER: Scientific
    Paper Embeddings …", "长短期记忆网络（LSTM）"."""
    if not is_acronym(term):
        return False
    if _holds((_GLOSS, _HAN_SPELLED), before, after):
        return True
    spelled = _SPELLED.search(before)
    if spelled is None or _SPELLED_END.match(after) is None:
        return False
    words = spelled.group(1).split()
    return len(words) >= 2 and term[0].lower() in {word[0].lower() for word in words}


def _is_han(term: str) -> bool:
    return re.search(f"[{_HAN}]", term) is not None
