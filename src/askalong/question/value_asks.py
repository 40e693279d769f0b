"""The attributes a question asks of a thing it names (pure): "what is the default of
work_mem?", "the maximum size of a field". A sentence of the thing's entry that states
the attribute answers it; the entry's definition does not
(``answer/extractive/scoring``)."""

from __future__ import annotations

from collections.abc import Collection

from askalong.text.tokens import key_terms

VALUE_WORDS = frozenset(
    key_terms("default defaults maximum minimum range unit units limit size allowed valid")
)


def asked_attributes(terms: Collection[str]) -> frozenset[str]:
    """The attribute words among a question's ``terms`` ("default", "maximum")."""
    return frozenset(terms) & VALUE_WORDS
