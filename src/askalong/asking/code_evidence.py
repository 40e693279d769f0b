"""The evidence for a code question that the call graph answers (pure over a
``Repository``): "what does X call" is the call tree from ``X`` (or from the anchor's
function), "what calls X / where is X used / where is X defined" the definitions of ``X``
and the places that call it (``code_finding.py``). The question is read once, in
``question/code_asks.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from askalong.asking.code_finding import CodeFinding, code_finding, finding_units, named_places
from askalong.asking.searched import searched_words
from askalong.context.call_path import tree_units
from askalong.context.call_tree import DEPTH, CallNode, call_tree
from askalong.context.code import code_anchor_unit, place_unit
from askalong.context.code_graph import Repository
from askalong.context.code_places import Place
from askalong.context.units import ContextUnit
from askalong.question.code_asks import CodeQuestion


@dataclass(frozen=True)
class GraphEvidence:
    """The units a graph answer quotes, what was searched, and the tree or the finding."""

    units: tuple[ContextUnit, ...]
    searched: tuple[str, ...]
    tree: CallNode | None = None
    finding: CodeFinding | None = None


def graph_evidence(
    repository: Repository,
    question: CodeQuestion,
    anchored: Place | None,
    anchor_unit: ContextUnit | None = None,
    words: str = "en",
) -> GraphEvidence | None:
    """The graph's evidence for ``question``, about ``X`` when it names one the
        repository defines, else about ``anchored``; None when it asks no graph question or
        names nothing the repository defines. The anchor's function keeps ``anchor_unit`` (the
    selection cited) as its unit; what was searched is said in the question's ``words``."""
    if question.ask == "callees":
        root = subject_place(repository, question, anchored)
        if root is None:
            return None
        tree = call_tree(repository, root)
        own = anchor_unit if anchor_unit is not None and root == anchored else None
        units = tuple(tree_units(tree, own or whole_unit(root)))
        name = ".".join(root.qualname)
        searched = searched_words("call_tree", words, name=name, depth=DEPTH)
        return GraphEvidence(units, (searched,), tree=tree)
    if not question.graph:
        return None
    finding = code_finding(repository, question, anchored)
    if finding is None:
        return None
    names = ", ".join(".".join(p.qualname) for p in finding.targets)
    searched = searched_words("symbols", words, names=names)
    return GraphEvidence(tuple(finding_units(finding)), (searched,), finding=finding)


def whole_unit(place: Place) -> ContextUnit:
    """A definition whole, as the anchor unit of a question naming it."""
    return code_anchor_unit(place, 0, len(place.block.text))


def subject_place(
    repository: Repository, question: CodeQuestion, anchored: Place | None
) -> Place | None:
    """The function a question is about: the one it names, else the anchor's."""
    if question.name:
        named = named_places(repository, question)
        if named:
            return named[0]
    return anchored


def member_units(repository: Repository, place: Place) -> list[ContextUnit]:
    """The rest of a definition whole, its blocks after ``place``'s own: a class's members
    (its methods), a function's nested definitions and its lines after each of them."""
    qualname = place.qualname
    return [
        place_unit(Place(place.file, b), 0, len(b.text))
        for b in place.file.blocks
        if qualname and b.section_path[: len(qualname)] == qualname and b.id != place.block.id
    ]
