"""The string literals of a JavaScript file, and whether one reads as English words a
person would see: the scan behind tests/unit/test_ui_strings.py. A small tokeniser, enough
for the reader's own scripts: comments and regular-expression literals are skipped, and a
template literal's text pieces are literals, its ``${...}`` expressions code."""

from __future__ import annotations

import re
from dataclasses import dataclass

KEY_NAMES = r"\b(?:Enter|Escape|Esc|Tab|Shift|Ctrl|Alt|ArrowDown|ArrowUp|ArrowLeft|ArrowRight)\b"
# Code words a literal may be that look like words: HTTP headers, error type names.
CODE_WORDS = re.compile(r"^(?:Content-Type|Accept|[A-Z][A-Za-z]*Error)$")
# "a, button": a list of element names, for closest() or querySelector().
SELECTORS = re.compile(r"[a-z]+(?:, [a-z]+)+")
FUNCTION_WORDS = frozenset(
    {"the", "a", "an", "of", "to", "is", "are", "in", "this", "these", "for", "with"}
    | {"from", "and", "not", "no", "your", "you", "it", "its", "was", "by", "on"}
    | {"document", "documents", "passage", "passages", "selection", "page", "pages"}
)
REGEX_AFTER = "(,=:[!&|?{};"  # a "/" after one of these starts a regular expression


@dataclass
class _Scan:
    source: str
    at: int = 0
    line: int = 1
    last: str = ""  # the last significant character: a "/" after it divides or starts a regex

    def skip_comment(self) -> bool:
        if self.source.startswith("//", self.at):
            end = self.source.find("\n", self.at)
            self.at = len(self.source) if end < 0 else end
            return True
        if self.source.startswith("/*", self.at):
            end = self.source.index("*/", self.at)
            self.line += self.source.count("\n", self.at, end)
            self.at = end + 2
            return True
        return False

    def skip_regex(self) -> bool:
        before = self.source[: self.at].rstrip()
        if self.source[self.at] != "/" or not (
            not self.last or self.last in REGEX_AFTER or before.endswith("return")
        ):
            return False
        j = self.at + 1
        while self.source[j] != "/" or self.source[j - 1] == "\\":
            j += 1
        self.at, self.last = j + 1, "/"
        return True

    def string(self, quote: str) -> tuple[str, bool]:
        """The text from just after the opening quote (or a template's ``}``) to the
        closing one, or to a ``${`` (then True: a template expression opens)."""
        j, text = self.at + 1, []
        while self.source[j] != quote:
            if self.source[j] == "\\":
                text.append(self.source[j : j + 2])
                j += 2
                continue
            if quote == "`" and self.source.startswith("${", j):
                self.at = j + 2
                return "".join(text), True
            self.line += self.source[j] == "\n"
            text.append(self.source[j])
            j += 1
        self.at, self.last = j + 1, "x"
        return "".join(text), False


def literals(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string literal and template text piece in a script."""
    scan, found = _Scan(source), []
    braces: list[int] = []  # per open template expression, the braces open inside it
    while scan.at < len(source):
        ch = source[scan.at]
        if scan.skip_comment() or scan.skip_regex():
            continue
        closes_expression = ch == "}" and braces and braces[-1] == 0
        if ch in "\"'`" or closes_expression:
            if closes_expression:
                braces.pop()
            line = scan.line
            text, opened = scan.string("`" if closes_expression else ch)
            found.append((line, text))
            if opened:
                braces.append(0)
            continue
        if braces and ch in "{}":
            braces[-1] += 1 if ch == "{" else -1
        scan.line += ch == "\n"
        scan.last = scan.last if ch.isspace() else ch
        scan.at += 1
    return found


def looks_english(text: str) -> bool:
    """Words a person would read: a capitalised word ("Copy", "Show the passage"), or
    several words with an English function word among them ("the whole document")."""
    rest = re.sub(KEY_NAMES, "", text)
    if CODE_WORDS.match(text.strip()) or SELECTORS.fullmatch(text):
        return False
    if not re.search(r"[A-Za-z]{2}", rest):
        return False
    if re.search(r"(?:^|[\s“(])[A-Z][a-z]+\b", rest):
        return True
    words = [w.strip(",.;:!?“”()").lower() for w in rest.split()]
    return len(words) > 1 and any(w in FUNCTION_WORDS for w in words)
