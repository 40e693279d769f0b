"""Citations in a passage and their entries in the document's bibliography (pure).

``citations(text)`` finds numeric citations ("[12]", "[1][2]", "[3, 5]", "[2–4]") and
author-year ones ("(Smith et al., 2019)", "(Beltagy et al., 2019; Devlin et al., 2019)",
"Devlin et al. (2019)"). ``is_entry(citation, text)`` says whether a bibliography block
starts that citation's entry: "[12] …" / "12. …", or the first author's surname near the
start with the year in the block or the one after (a PDF's entry is often cut into lines,
the names in one block and "2019. Title" in the next).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from askalong.context.outline import NAMED_PARTS

_NUMERIC = re.compile(r"\[\s*(\d{1,3}(?:\s*[,，–\-]\s*\d{1,3})*)\s*\]")
_PARENTHESISED = re.compile(r"\(([^()]{3,200}?\b(?:19|20)\d\d[a-z]?)\)")
_SURNAME = r"[A-Z][A-Za-z'’\-]+"
_NARRATIVE = re.compile(
    rf"\b({_SURNAME})(?:\s+(?:et al\.|and\s+{_SURNAME}))?\s*\(((?:19|20)\d\d)[a-z]?\)"
)
_ONE = re.compile(r"([A-Z][A-Za-z'’\-]+)[^;]*?\b((?:19|20)\d\d)[a-z]?\s*$")
_YEAR = re.compile(r"\b(?:19|20)\d\d[a-z]?\b")
_ENTRY_HEAD = 60  # the first author is named within this many characters of an entry
REFERENCE_TITLES = frozenset(NAMED_PARTS["references"])


@dataclass(frozen=True)
class Citation:
    """One cited work: ``number`` for "[12]", else ``surname`` and ``year``; ``label`` is
    how the passage wrote it ("[12]", "Beltagy et al., 2019")."""

    label: str
    number: int | None = None
    surname: str = ""
    year: str = ""


def citations(text: str) -> list[Citation]:
    """The works ``text`` cites, in order, each once."""
    found: list[Citation] = []
    for match in _NUMERIC.finditer(text):
        found.extend(Citation(f"[{n}]", number=n) for n in _numbers(match.group(1)))
    for match in _PARENTHESISED.finditer(text):
        for part in match.group(1).split(";"):
            one = _ONE.search(part.strip())
            if one is not None:
                found.append(Citation(part.strip(), surname=one.group(1), year=one.group(2)))
    for match in _NARRATIVE.finditer(text):
        found.append(Citation(match.group(0), surname=match.group(1), year=match.group(2)))
    unique: dict[tuple[int | None, str, str], Citation] = {}
    for citation in found:
        unique.setdefault((citation.number, citation.surname, citation.year), citation)
    return list(unique.values())


def _numbers(raw: str) -> list[int]:
    """ "1, 3" -> [1, 3]; "2–4" -> [2, 3, 4] (a short range only)."""
    out: list[int] = []
    for part in re.split(r"\s*[,，]\s*", raw):
        ends = [int(n) for n in re.split(r"\s*[–\-]\s*", part) if n]
        if len(ends) == 2 and 0 < ends[1] - ends[0] <= 10:
            out.extend(range(ends[0], ends[1] + 1))
        else:
            out.extend(ends)
    return out


@functools.lru_cache(maxsize=1024)
def in_references(section_path: tuple[str, ...]) -> bool:
    """Whether a block with ``section_path`` sits in the references / 参考文献 part."""
    return any(_title(part) in REFERENCE_TITLES for part in section_path)


def _title(heading: str) -> str:
    return re.sub(r"^[\d.\s]+", "", heading).strip(" .:：").casefold()


def is_entry(citation: Citation, text: str, following: str = "") -> bool:
    """Whether ``text`` (a bibliography block; ``following`` the next one) starts the
    entry of ``citation``."""
    head = text.lstrip()
    if citation.number is not None:
        return re.match(rf"[\[(]?{citation.number}[\].)]\s", head) is not None
    if not re.search(rf"\b{re.escape(citation.surname)}\b", head[:_ENTRY_HEAD]):
        return False
    years = _YEAR.findall(head) or _YEAR.findall(following[:_ENTRY_HEAD])
    return any(year.startswith(citation.year) for year in years[:1])


def runs_on(text: str) -> bool:
    """Whether a bibliography block's entry runs on into the next block: it ends on a
    hyphen or a comma, or without a final full stop."""
    end = text.rstrip()
    return not end.endswith((".", "。")) or end.endswith(("-", ","))
