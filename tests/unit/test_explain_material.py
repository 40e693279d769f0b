"""Explaining a selection from its document (pure): the definition rules, citations and
their entries, the material found, and the offline Explain / Example / Compare answer
composed from it (never the selection)."""

from __future__ import annotations

import sys

import pytest

from askalong.answer.extractive.intents import answer_intent
from askalong.context.citations import Citation, citations, is_entry
from askalong.context.definitions import definition_strength
from askalong.context.explain import selection_terms
from askalong.context.units import ContextUnit, places_of
from askalong.question.reading import read_question
from askalong.types import CHUNK_JOINER, Block, BlockSpan, Intent


@pytest.mark.parametrize(
    ("sentence", "term", "strength"),
    [
        ("We call our model SPECTER, which learns embeddings.", "SPECTER", 2),
        ("We call our model SPECTER, which learns embeddings.", "model", 0),
        ("Natural Language Processing (NLP) tools have become critical.", "NLP", 2),
        ("2 SPECTER: Scientific Paper Embeddings using Transformers", "SPECTER", 2),
        ("where d is a distance function and m is the loss margin", "m", 2),
        ("where d is a distance function and m is the loss margin", "d", 2),
        ("The margin m = 1 was chosen empirically.", "m", 0),
        ("Perplexity refers to the exponentiated average loss.", "Perplexity", 2),
        ("We define recall as the share of gold items found.", "recall", 2),
        ("SciBERT (Beltagy et al., 2019) which is an adaptation of BERT.", "SciBERT", 1),
        ("we release SCIDOCS³ , a novel collection of data sets", "SCIDOCS", 1),
        ("Most research on named entity recognition tasks report results.", "results", 0),
        ("锥度系数是指喷孔出口与入口直径之比。", "锥度系数", 2),
        ("这种现象称为空化。", "空化", 2),
        ("长短期记忆网络（LSTM）被广泛使用。", "LSTM", 2),
        ("其中 d 为距离函数。", "距离", 0),
        ("喷孔直径为 1mm。", "直径", 0),
        ("空化是喷嘴内部流动的重要特征。", "空化", 1),
    ],
)
def test_definition_strength(sentence: str, term: str, strength: int) -> None:
    assert definition_strength(sentence, term) == strength


def test_citations_numeric_author_year_and_narrative() -> None:
    found = citations(
        "as shown before [1][2] and in [4–6] (Beltagy et al., 2019; Devlin et al., 2019); "
        "Howard and Ruder (2018) agree"
    )
    numbers = [c.number for c in found if c.number is not None]
    names = [(c.surname, c.year) for c in found if c.number is None]
    assert numbers == [1, 2, 4, 5, 6]
    assert names == [("Beltagy", "2019"), ("Devlin", "2019"), ("Howard", "2018")]


def test_a_bibliography_entry_is_recognised_across_its_lines() -> None:
    beltagy = Citation("Beltagy et al., 2019", surname="Beltagy", year="2019")
    assert is_entry(beltagy, "Iz Beltagy, Kyle Lo, and Arman Cohan. 2019. SciB-")
    assert is_entry(beltagy, "Iz Beltagy, Kyle Lo,", "and Arman Cohan. 2019. SciBERT.")
    assert not is_entry(beltagy, "Iz Beltagy, Kyle Lo, and Arman Cohan. 2020. Longformer.")
    assert not is_entry(beltagy, "Waleed Ammar, Dirk Groeneveld, Chandra Bha- gavatula, Iz Beltagy")
    assert is_entry(Citation("[2]", number=2), "[2] KIM J Y, LEE S Y. Dependence of")
    assert not is_entry(Citation("[2]", number=2), "[12] KIM J Y, LEE S Y. Dependence of")


# ---------------------------------------------------------------------- the answer

SECTION = ("Paper", "2 Model")
PAPER = [
    ("p", "Here we introduce a new evaluation suite, which we call SCIDOCS.", SECTION),
    ("p", "It covers seven tasks, from classification to recommendation.", SECTION),
    ("p", "SCIDOCS covers seven tasks. This makes it broad (Cohan et al., 2020).", SECTION),
    ("caption", "Table 2: Ablations of the model on each task.", SECTION),
    ("p", "For example, the co-view task ranks papers that users viewed together.", SECTION),
    ("p", "Unlike SciBERT, SCIDOCS measures whole documents.", SECTION),
    ("p", "Arman Cohan, Sergey Feldman. 2020. SPECTER: document embeddings.", ("References",)),
]


def paper_units(selected: str) -> list[ContextUnit]:
    """The anchor unit (the block holding ``selected`` and its neighbours) and one unit per
    other block, as evidence gathering would hand them over."""
    blocks = [
        Block(f"b{k}", "caption" if kind == "caption" else "paragraph", text, k, path, page=1)
        for k, (kind, text, path) in enumerate(PAPER)
    ]
    at = next(k for k, b in enumerate(blocks) if selected in b.text)
    near = blocks[max(at - 1, 0) : at + 2]
    start = blocks[at].text.index(selected)
    spans = tuple(BlockSpan(b.id, 0, len(b.text)) for b in near)
    anchor = ContextUnit(
        "doc",
        (),
        CHUNK_JOINER.join(b.text for b in near),
        spans,
        (BlockSpan(blocks[at].id, start, start + len(selected)),),
        SECTION,
        1,
        1,
        "anchor",
        None,
        places=places_of(near),
    )
    rest = [b for b in blocks if b not in near]
    return [anchor, *(_unit(b) for b in rest)]


def _unit(block: Block) -> ContextUnit:
    span = (BlockSpan(block.id, 0, len(block.text)),)
    unit = ContextUnit("doc", (), block.text, span, span, block.section_path, 1, 1, "crossref", 1)
    return ContextUnit(**{**unit.__dict__, "places": places_of([block])})


def ask(selected: str, intent: Intent, question: str = "") -> tuple[str, list[str]]:
    units = paper_units(selected)
    result = answer_intent(read_question(question or "Explain this."), units, intent)
    assert result is not None
    return result.answer, [q.text for q in result.quotes]


@pytest.mark.parametrize(
    ("selected", "intent", "question", "expected"),
    [
        ("SCIDOCS covers seven tasks.", "explain", "", "which we call SCIDOCS"),
        ("This makes it broad (Cohan et al., 2020).", "explain", "", "SCIDOCS covers seven"),
        ("This makes it broad (Cohan et al., 2020).", "explain", "", "Arman Cohan, Sergey"),
        ("For example, the co-view task", "example", "Give an example of this.", "For example"),
        ("SCIDOCS covers seven tasks.", "example", "Give an example of this.", "For example"),
        ("SCIDOCS covers seven tasks.", "compare", "How is this different from SciBERT?", "Unlike"),
    ],
)
def test_the_answer_explains_from_the_document_and_never_echoes(
    selected: str, intent: Intent, question: str, expected: str
) -> None:
    answer, quotes = ask(selected, intent, question)
    if selected.startswith("For example"):  # its own example is no answer: another one is
        assert selected not in answer
        return
    assert expected in answer, answer
    assert selected not in answer and all(q not in selected for q in quotes)


def test_nothing_found_quotes_the_nearest_context_and_claims_no_absence_unsearched() -> None:
    # the caption has no key term to look up: no "draws no contrast for the terms of this
    # passage", the context around it (where the example asked for sits)
    answer, quotes = ask("Table 2: Ablations of the model on each task.", "compare")
    assert answer.startswith("Around the selection: For example, the co-view task"), answer
    assert quotes and all("Table 2" not in q for q in quotes)


@pytest.mark.parametrize("intent", ["example", "compare"])
def test_a_selection_without_a_key_term_claims_no_absence(intent: Intent) -> None:
    # nothing was looked up: "gives no example of the terms of this passage" would claim
    # what no search showed; the words beside the selection answer alone
    answer, quotes = ask("This makes it broad", intent)
    assert answer.startswith("The selected sentence goes on:"), answer
    assert "no example" not in answer and "no contrast" not in answer and quotes


def test_without_a_selection_the_usual_answerer_answers() -> None:
    units = paper_units("SCIDOCS covers seven tasks.")[1:]
    assert answer_intent(read_question("Explain SCIDOCS"), units, "explain") is None
    assert answer_intent(read_question("What is SCIDOCS?"), paper_units("SCIDOCS"), "ask") is None


@pytest.mark.parametrize(
    ("selected", "first", "not_before"),
    [
        (
            "Unlike method-based tracing, we record traces at loop granularity.",
            "granularity",
            "Unlike",
        ),
        ("Note that creating a metacluster needs tables.", "metacluster", "creating"),
        ("We built ScienceParse from RNNs.", "ScienceParse", "built"),
    ],
)
def test_key_terms_are_the_selections_nouns_not_its_signposts(
    selected: str, first: str, not_before: str
) -> None:
    terms = list(selection_terms(selected, []))  # no passages: the word's form decides
    assert first in terms
    assert not_before not in terms or terms.index(first) < terms.index(not_before), terms


def test_words_before_a_selection_inside_its_sentence_are_said_to_open_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a lowercase word after a full stop does not start a sentence, so the selection sits
    # inside one: the words before it are its opening, never what it "goes on" with
    block = (
        "p",
        "The iterators package has the isplit function, which works like the split "
        "function. split returns a list of every group at once. isplit makes one group "
        "at a time, as they are needed.",
        SECTION,
    )
    monkeypatch.setattr(sys.modules[__name__], "PAPER", [*PAPER, block])
    answer, _ = ask("split returns a list of every group at once.", "compare")
    assert "goes on: The iterators package" not in answer, answer
    assert "The selected sentence begins: The iterators package has the isplit" in answer, answer
