"""The one place that wires the product's ``Asker`` from a ``Library``: the library's store
and searcher, its answerer and claim judge as the settings say. The CLI (``ask``,
``eval qa``), the server and the benchmarks ask through it.

The ``Asker`` itself receives what it uses (store, searcher, answerer, embedder, judge) and
never sees the library; this module is where a library's parts are handed to it.
"""

from __future__ import annotations

from askalong.answer.choose import make_answerer, make_judge
from askalong.asking.asker import Asker
from askalong.library import Library


def make_asker(library: Library) -> Asker:
    """The asker of ``library``: ``ASKALONG_ANSWERER`` writes (the offline extractive
    answerer by default, with the library's embedder, which also helps verify), and
    with a model answerer the claim judge checks, unless ``ASKALONG_LLM_JUDGE`` is off."""
    settings = library.settings
    embedder = library.indexes.embedder
    answerer = make_answerer(settings, embedder)
    return Asker(
        library.store, library.searcher, answerer, embedder=embedder, judge=make_judge(settings)
    )
