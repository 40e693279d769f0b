"""Evidence for a question without an anchor that names an identifier the code asked of
defines ("what calls _wake_up_first?", "how does Lock.acquire work?"), or, when only code
is asked, a plain word naming a definition: that definition whole, its class, callees
and callers, within ``CODE_BUDGET``, not prose search. A graph question is answered
from the call graph (``evidence_code_anchor.graph_based``). Any other question is not
this strategy's (``None``: it is searched).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from askalong.asking.code_evidence import (
    graph_evidence,
    member_units,
    subject_place,
    whole_unit,
)
from askalong.asking.code_finding import named_places
from askalong.asking.code_reading import only_code, repository_asked
from askalong.asking.code_subject import (
    COVERAGE_FLOOR,
    NEXT_BLOCKS,
    all_places,
    best_subject,
    file_names,
    in_files,
)
from askalong.asking.evidence_base import Evidence, titles_of
from askalong.asking.evidence_code_anchor import graph_based
from askalong.asking.evidence_search import thread_context
from askalong.asking.question import AskedQuestion
from askalong.asking.searched import searched_words
from askalong.context.assemble import assemble_context
from askalong.context.code import CODE_BUDGET, code_units
from askalong.context.code_constants import constant_units
from askalong.context.code_graph import Repository
from askalong.context.code_places import Place
from askalong.question.code_asks import CodeQuestion
from askalong.store.base import Store
from askalong.types import Access


@dataclass(frozen=True)
class NamedCodeEvidence:
    """The strategy for a question naming code, without an anchor."""

    store: Store

    def gather(self, asked: AskedQuestion, access: Access) -> Evidence | None:
        question = asked.question.code
        if not question.name or file_names([_written(question)]):  # ``func.py``: a file
            if not only_code(self.store, asked.documents, access):
                return None
            repository = repository_asked(self.store, asked.documents, access, question.words)
            return self._unnamed(access, asked, repository)
        repository = repository_asked(self.store, asked.documents, access, [question.name])
        graph = graph_evidence(repository, question, None, language=asked.question.language)
        if graph is not None:
            return graph_based(self.store, access, asked, graph, graph.units[0])
        named = named_places(repository, question)
        best = best_subject(named, asked.question.text) if len(named) > 1 else None
        place = best.place if best else subject_place(repository, question, None)
        if place is None:  # a name no definition has (a parameter, ``save_order``)
            code = only_code(self.store, asked.documents, access)
            return self._unnamed(access, asked, repository) if code else None
        ranked = best_subject(all_places(repository), asked.question.text)
        others = [] if ranked is None else [ranked.place, *ranked.next_best]
        return self._about(access, asked, repository, place, [p for p in others if p != place])

    def _unnamed(
        self, access: Access, asked: AskedQuestion, repository: Repository
    ) -> Evidence | None:
        """A question naming no definition, over code alone: about the block holding its
        terms best; refused (no units) when that block holds too little of it."""
        if not repository.files:
            return None
        before = thread_context(asked).split("\n", 1)[0]  # a follow-up: its thread's question
        places = in_files(all_places(repository), file_names(asked.question.code.identifiers))
        best = best_subject(places, f"{asked.question.text}\n{before}")
        if best is None or best.coverage < COVERAGE_FLOOR:
            searched = (searched_words("definitions", asked.question.language),)
            return Evidence((), {}, frozenset(), (), searched, ())
        return self._about(access, asked, repository, best.place, best.next_best)

    def _about(
        self,
        access: Access,
        asked: AskedQuestion,
        repository: Repository,
        place: Place,
        others: Sequence[Place],
    ) -> Evidence:
        """The definition whole, its members, the constants it reads, the other blocks
        holding the question's words best (``others``, a few), then its class, callees and
        callers."""
        unit = whole_unit(place)
        best = [whole_unit(p) for p in others[:NEXT_BLOCKS]]
        members = member_units(repository, place)
        around = [*members, *constant_units(place), *best, *code_units(repository, place)]
        terms = asked.question.terms
        context = assemble_context(terms, unit, around, [], budget=CODE_BUDGET)
        name = ".".join(place.qualname) or place.file.where
        return Evidence(
            units=tuple(context),
            titles=titles_of(self.store, access, asked, context),
            anchor_terms=frozenset(),
            hits=(),
            searched=(searched_words("definition", asked.question.language, name=name),),
            notes=(),
            code_subject=name,
        )


def _written(question: CodeQuestion) -> str:
    """The identifier as the question writes it (``Lock.acquire``, ``func.py``)."""
    return ".".join(p for p in (question.qualifier, question.name) if p)
