"""What a check finds and what a repair did: plain values, stable names.

``kind`` is one of ``KINDS``; ``subject`` names what is wrong (a document id, a path
under ``ASKALONG_HOME``, or an index); ``repairable`` says whether ``doctor --repair``
can fix it without the user (a missing original cannot be made again). Their JSON form
(``doctor --json``, README "Doctor") is ``wire.doctor``'s, with every other JSON form.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FindingKind = Literal[
    "keyword_unreadable",
    "keyword_missing",
    "keyword_orphan",
    "vectors_unreadable",
    "vectors_missing",
    "vectors_stale",
    "vectors_orphan",
    "vectors_dead",
    "file_missing",
    "file_orphan",
    "temp_stray",
]

# What each kind means, for the README and the plain-text report.
KINDS: dict[FindingKind, str] = {
    "keyword_unreadable": "the keyword index cannot be opened or read",
    "keyword_missing": "a stored document is not in the keyword index",
    "keyword_orphan": "keyword entries of a document the store no longer has",
    "vectors_unreadable": "the vector index cannot be opened",
    "vectors_missing": "a stored document has no vectors",
    "vectors_stale": "a document's vectors were computed from other text than its chunks",
    "vectors_orphan": "vectors of a document the store no longer has",
    "vectors_dead": "dead vector rows (space not reclaimed yet)",
    "file_missing": "a document's original file is missing",
    "file_orphan": "an original file no document refers to",
    "temp_stray": "a temporary file a crash left behind",
}


@dataclass(frozen=True)
class Finding:
    kind: FindingKind
    subject: str
    detail: str
    repairable: bool


@dataclass(frozen=True)
class Repair:
    kind: FindingKind
    subject: str
    action: str  # what was done, in words
