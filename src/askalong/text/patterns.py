"""Regular expressions compiled at their first use instead of at import.

A plain question imports ~175 module-level patterns and uses about half: compiling them all
cost ~35 CPU ms of every ``askalong ask`` (issue 28). ``lazy(source, flags)`` stands where
``re.compile(source, flags)`` stood in a module's globals; the pattern compiles the first
time one of its methods is called and is kept for the process (the ``re`` module's own
cache holds 512 and evicts). Code that needs the ``re.Pattern`` itself (to hand it on)
takes ``.compiled``. Patterns every question uses gain nothing from this and stay
``re.compile``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

Replacement = str | Callable[[re.Match[str]], str]


class LazyPattern:
    """``re.compile(pattern, flags)``, made on first use; the methods are the pattern's."""

    __slots__ = ("_compiled", "_flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        # Two threads may both compile the first time: the same pattern, one kept.
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self._flags)
        return self._compiled

    @property
    def flags(self) -> int:
        return self.compiled.flags

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self.compiled.findall(string, pos, endpos)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled.split(string, maxsplit)

    def sub(self, repl: Replacement, string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)

    def subn(self, repl: Replacement, string: str, count: int = 0) -> tuple[str, int]:
        return self.compiled.subn(repl, string, count)


def lazy(pattern: str, flags: int = 0) -> LazyPattern:
    """A pattern compiled at its first use (see the module's docstring)."""
    return LazyPattern(pattern, flags)
