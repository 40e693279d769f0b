"""What a question asks of code (pure), in one place: what it asks of the call graph
("what calls X", "where is X used", "what does X call", "where is X defined", and the
Chinese 谁调用了X, X在哪里被调用, X调用了什么, X在哪里定义), which identifier it names,
and the identifiers it names at all (what code evidence is judged by, never prose words).

``X`` is an identifier (``Lock.acquire``, ``_wake_up_first()``, `` `Submit` ``); "this",
"it", "this function" or no name at all mean the function at the anchor (``name == ""``).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Literal

CodeAsk = Literal["callers", "usage", "callees", "definition", "about"]

# A name, qualified by dots or colons (``Lock.acquire``, Perl's ``Text::Diff::diff``,
# Lua's ``Map:get``).
_ID = r"`?(?P<name>[A-Za-z_](?:[\w.]|::?(?=\w))*(?:\(\))?)`?"
_HERE = (
    r"(?:(?:this|it|that|here)(?:\s+(?:function|method|class|func|code))?"
    r"|the\s+(?:function|method|func|code))"
)
_EN_NAMED: list[tuple[CodeAsk, str]] = [
    (
        "callers",
        rf"\b(?:what|who|which\s+\w+)\s+(?:calls?|invokes?|uses?)\s+(?:the\s+\w+\s+)?{_ID}",
    ),
    ("callers", rf"\bwhere\s+(?:is|are)\s+{_ID}\s+(?:called|invoked)"),
    ("callers", rf"\bcallers?\s+of\s+{_ID}"),
    ("usage", rf"\bwhere\s+(?:is|are)\s+{_ID}\s+(?:used|referenced)"),
    ("usage", rf"\b(?:usages?|references?)\s+(?:of|to)\s+{_ID}"),
    ("callees", rf"\bwhat\s+(?:\w+\s+){{0,2}}(?:does|do)\s+{_ID}\s+call\b"),
    ("callees", rf"\bcallees\s+of\s+{_ID}"),
    ("definition", rf"\bwhere\s+(?:is|are)\s+{_ID}\s+(?:defined|declared|implemented)"),
    ("definition", rf"\b(?:definition|declaration)\s+of\s+{_ID}"),
]
_ZH_NAMED: list[tuple[CodeAsk, str]] = [
    (
        "callers",
        rf"(?:谁|哪些(?:函数|方法|地方)?|什么(?:函数|方法|地方)?)\s*(?:调用了?|调)\s*{_ID}",
    ),
    ("callers", rf"{_ID}\s*(?:在哪里|在哪儿|在哪|被谁|被哪些\S*?)\s*(?:被)?调用"),
    ("callers", rf"调用\s*{_ID}\s*的"),
    ("usage", rf"{_ID}\s*(?:在哪里|在哪儿|在哪)\s*(?:被)?(?:使用|用到|引用)"),
    ("usage", rf"(?:哪里|哪些地方)\s*(?:使用|用到|引用)了?\s*{_ID}"),
    ("callees", rf"{_ID}\s*(?:调用了?|会调用)\s*(?:什么|哪些)"),
    ("definition", rf"{_ID}\s*(?:是)?(?:在哪里|在哪儿|在哪|定义在)\s*(?:被)?(?:定义|声明|哪)"),
    ("definition", rf"(?:哪里|哪个文件)\s*定义了?\s*{_ID}"),
]
_EN_HERE: list[tuple[CodeAsk, str]] = [
    ("callers", rf"\b(?:what|who|which\s+\w+)\s+(?:calls?|invokes?|uses?)\s+{_HERE}\b"),
    ("callers", rf"\bwhere\s+is\s+{_HERE}\s+(?:called|invoked)"),
    ("usage", rf"\bwhere\s+is\s+{_HERE}\s+(?:used|referenced)"),
    ("definition", rf"\bwhere\s+is\s+{_HERE}\s+(?:defined|declared)"),
    (
        "callees",
        r"\b(?:which|what)\s+(?:\w+\s+){0,2}paths?\b[^?]*\btrigger"
        rf"|\bwhat\s+(?:\w+\s+){{0,2}}(?:does|do|will|would)\s+{_HERE}\s+(?:\w+\s+)?call\b"
        r"|\bwhat\s+(?:functions|methods)\s+(?:does|do)\s+(?:this|it)\s+call"
        r"|\bcall\s*(?:tree|graph|path|chain|hierarchy)s?\b|\bcallees\b",
    ),
]
_ZH_HERE: list[tuple[CodeAsk, str]] = [
    ("callers", r"谁调用了?(?:这个|它|此)|(?:这个|它|此)\S{0,3}(?:在哪里|在哪|被谁)\S{0,2}调用"),
    ("usage", r"(?:这个|它|此)\S{0,3}在哪\S{0,2}(?:使用|用到)"),
    ("definition", r"(?:这个|它|此)\S{0,3}在哪\S{0,2}定义"),
    (
        "callees",
        r"调用了?哪些|调用了?什么|调用链|调用树|调用路径|调用关系|触发了?哪些|会触发|哪些路径",
    ),
]
# ASCII: an identifier ends where Chinese begins ("WithMaxRetries是做什么的").
_FLAGS = re.IGNORECASE | re.ASCII
_NAMED = [(kind, re.compile(p, _FLAGS)) for kind, p in (*_EN_NAMED, *_ZH_NAMED)]
_HERE_ASKS = [(kind, re.compile(p, _FLAGS)) for kind, p in (*_EN_HERE, *_ZH_HERE)]
# Words the patterns' ``X`` may catch that name nothing: "what calls the function?"
_NOT_NAMES = frozenset(
    [
        *("this", "it", "that", "here", "the", "a", "an", "them", "these", "those"),
        *("function", "method", "class", "func", "code"),
    ]
)
# Question words no definition answers to, even where one is so named.
_PROSE = frozenset(
    [
        *("what", "which", "who", "where", "when", "why", "how", "does", "the", "this"),
        *("that", "here", "function", "method", "class", "code", "call", "calls", "called"),
    ]
)
# An identifier by its shape: snake_case, camelCase / CamelCase with an inner capital,
# qualified (``os.path``, Lua's ``Map:get``, Rust's ``Duration::from_secs``), called
# (``f()``), or quoted in backticks.
_SHAPED = re.compile(
    r"`([^`\s]+)`|\b([A-Za-z_]\w*\(\))|\b([A-Za-z_]\w*(?:(?:\.|::?)[A-Za-z_]\w*)+)\b"
    r"|\b(\w*_\w*)\b|\b([a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*)\b",
    re.ASCII,
)


@dataclass(frozen=True)
class CodeQuestion:
    """What a question asks of code: ``ask`` and the identifier it names (``name``, its
    last dotted part; ``""``: the function at the anchor); ``identifiers``: every name it
    writes as an identifier (``named_identifiers``), ``words``: its plain words that may
    name a definition (question words left out)."""

    ask: CodeAsk
    name: str = ""
    qualifier: str = ""  # ``Lock`` of ``Lock.acquire``
    identifiers: tuple[str, ...] = ()
    words: tuple[str, ...] = ()

    @property
    def graph(self) -> bool:
        """Answered from the call graph (not by picking lines)."""
        return self.ask != "about"

    def defined_word(self, defined: Collection[str]) -> str:
        """The first plain word that names a definition (``parse`` in "how does parse
        reject a long version?"), for a question asked of code alone; ``""`` if none."""
        return next((w for w in self.words if w in defined), "")


def read_code_question(text: str) -> CodeQuestion:
    """What ``text`` asks of code: a graph question (callers, usage, callees, definition)
    naming ``X`` or the anchor, else ``about`` (with the identifier it names, if one)."""
    shaped = named_identifiers(text)
    found = re.findall(r"[A-Za-z_]\w{2,}", text, re.ASCII)  # a name ends where Chinese begins
    words = tuple(w for w in dict.fromkeys(found) if w.lower() not in _PROSE)
    asked = _asked(text, shaped)
    return replace(asked, identifiers=shaped, words=words)


def _asked(text: str, shaped: tuple[str, ...]) -> CodeQuestion:
    for kind, pattern in _NAMED:
        match = pattern.search(text)
        if match and match.group("name").lower() not in _NOT_NAMES:
            return _named(kind, match.group("name"))
    for kind, pattern in _HERE_ASKS:
        if pattern.search(text):
            return CodeQuestion(kind)
    return _named("about", shaped[0]) if shaped else CodeQuestion("about")


def named_identifiers(text: str) -> tuple[str, ...]:
    """The identifiers ``text`` names by their shape (``_wake_up_first``, ``Lock.acquire``,
    ``notifyWaiters``, ``f()``, anything in backticks), in order, each once, bare."""
    found = (next(g for g in m.groups() if g) for m in _SHAPED.finditer(text))
    return tuple(dict.fromkeys(_bare(name) for name in found if _bare(name)))


def _named(kind: CodeAsk, raw: str) -> CodeQuestion:
    name = _bare(raw)
    qualifier, _, last = name.rpartition(".")
    return CodeQuestion(kind, last, qualifier)


def _bare(name: str) -> str:
    """``name`` without backticks or call parentheses, qualified by dots (``Map:get``,
    ``a::b`` are ``Map.get``, ``a.b``)."""
    return re.sub(r"::?", ".", name.strip("`").removesuffix("()")).strip(".")
