"""The direct answer of the offline answerer answers why / how / cross-section questions
(issue 12 item 1): the sentence after the one naming the focus joins it when it gives the
cause or the means; the best sentence takes its better-scored neighbour after it when the
two fit the answer's shape (issue 32); a question whose focus is split over two sections
gets a sentence from each; a sentence announcing what follows ("…:") is never the answer.
And a follow-up leans on its thread only when it needs to (item 5)."""

from __future__ import annotations

from collections.abc import Sequence

from askalong.answer.extractive.cues import answer_fit, states_answer
from askalong.answer.extractive.direct import with_neighbour
from askalong.answer.extractive.select import ExtractiveResult, answer_extractively
from askalong.context.units import ContextUnit, places_of
from askalong.question.form import question_form
from askalong.question.reading import read_question
from askalong.types import CHUNK_JOINER, Block, BlockSpan

# The rest of a paper's context: what makes the question's words rare or common.
OTHER = (
    "Each paper is represented by its title and abstract.",
    "The model is evaluated on seven document-level tasks.",
    "Results are reported as the mean over five runs.",
    "The code and the data are released under an open licence.",
)


def unit_of(paragraphs: Sequence[str], k: int, section: str = "S") -> ContextUnit:
    """One retrieved unit of paragraphs under ``section``."""
    made = [
        Block(f"b{k}-{i}", "paragraph", text, i, (section,), page=1)
        for i, text in enumerate(paragraphs)
    ]
    text = CHUNK_JOINER.join(b.text for b in made)
    spans = tuple(BlockSpan(b.id, 0, len(b.text)) for b in made)
    unit = ContextUnit("doc", (), text, spans, spans, (section,), 1, 1, "retrieved", 1.0)
    return ContextUnit(**{**unit.__dict__, "places": places_of(made)})


def ask(question: str, *sections: tuple[str, Sequence[str]]) -> ExtractiveResult:
    units = [unit_of(paragraphs, k, name) for k, (name, paragraphs) in enumerate(sections)]
    units.append(unit_of(OTHER, len(units), "Other"))
    return answer_extractively(read_question(question), units)


def test_the_cause_in_the_next_sentence_joins_the_direct_answer() -> None:
    result = ask(
        "Why are nested loops hard for a tracing compiler?",
        (
            "Nested loops",
            [
                "Nested loops are hard for a tracing compiler. "
                "This is because the inner one becomes hot first."
            ],
        ),
    )
    assert result.status == "answered"
    assert "This is because the inner one becomes hot first" in result.answer


def test_the_means_in_the_next_sentence_joins_a_how_answer() -> None:
    result = ask(
        "How does the interpreter stop calling the monitor for a blacklisted loop?",
        (
            "Blacklisting",
            [
                "Once a loop is blacklisted, the interpreter must stop calling the monitor "
                "for that loop. We do this by patching the bytecode: the loop header "
                "instruction becomes a plain no-op."
            ],
        ),
    )
    assert "by patching the bytecode" in result.answer


def test_the_sentence_stating_the_cause_leads_the_answer() -> None:
    # its neighbour may follow it (``with_neighbour``), never come first
    result = ask(
        "Why are nested loops hard for a tracing compiler?",
        (
            "Nested loops",
            [
                "The evaluation used nine benchmark programs. Nested loops are hard for a "
                "tracing compiler because the inner loop becomes hot first."
            ],
        ),
    )
    assert result.answer.startswith("Nested loops are hard for a tracing compiler because")
    assert result.quotes[0].text.startswith("Nested loops are hard")


def test_the_best_sentence_takes_its_neighbour_when_the_two_fit() -> None:
    # the sentence naming the focus is often beside the one that answers it
    result = ask(
        "Where does the indexer keep its cache?",
        (
            "Cache",
            [
                "The indexer keeps a cache of parsed files. It lies under the home folder, "
                "in a directory named parsed. Old entries are removed weekly."
            ],
        ),
    )
    assert result.answer.startswith("The indexer keeps a cache of parsed files. [1]")
    assert "in a directory named parsed. [2]" in result.answer
    assert "removed weekly" not in result.answer


def test_with_neighbour_puts_the_best_first_then_the_better_scored_neighbour() -> None:
    texts = {"before": "Words before.", "best": "The best one.", "after": "Words after."}
    scores = {"before": 0.2, "best": 1.0, "after": 0.5}
    pair = with_neighbour("best", ["before", "after"], scores.__getitem__, texts.__getitem__)
    assert pair == ["best", "after"]
    texts["after"] = "word " * 80  # the two together are over 80 English words
    assert with_neighbour("best", ["after"], scores.__getitem__, texts.__getitem__) == ["best"]
    assert with_neighbour("best", [], scores.__getitem__, texts.__getitem__) == ["best"]


def test_a_neighbour_that_does_not_fit_the_shape_stays_out() -> None:
    padding = " ".join(["one more clause about the layout of the files"] * 6)
    result = ask(
        "Where does the indexer keep its cache?",
        (
            "Cache",
            [
                f"The indexer keeps a cache of parsed files, {padding}. It lies under the "
                f"home folder, {padding}."
            ],
        ),
    )
    assert result.answer.startswith("The indexer keeps a cache") and "[2]" not in result.answer


def test_a_focus_split_over_two_sections_gets_a_sentence_from_each() -> None:
    result = ask(
        "Which corpus is the retriever trained on, and which optimizer is used?",
        ("Data", ["The retriever is trained on a corpus of 2M scientific abstracts."]),
        ("Training", ["We use the Adam optimizer with a learning rate of 2e-5."]),
    )
    assert "2M scientific abstracts" in result.answer and "Adam optimizer" in result.answer
    assert [q.section_path for q in result.quotes[:2]] == [("Data",), ("Training",)]


def test_a_sentence_announcing_what_follows_is_not_the_answer() -> None:
    result = ask(
        "Which margin does the triplet loss use in training?",
        (
            "Model",
            [
                "We then train the model with the following triplet margin loss:",
                "L = max(d(q, p) - d(q, n) + m, 0)",
            ],
        ),
        ("Training", ["Based on initial experiments, we use a margin m = 1 in the triplet loss."]),
    )
    assert result.answer.startswith("Based on initial experiments, we use a margin m = 1")
    assert "the following triplet margin loss" not in result.answer  # nor as a second part


def test_strong_cues_outweigh_weak_ones() -> None:
    why, how = question_form("Why is it slow?"), question_form("How is the index built?")
    assert answer_fit(why, "It is slow because every page is read twice.", set(), frozenset()) == 1
    assert answer_fit(why, "This helps the reader.", set(), frozenset()) == 0.5
    assert answer_fit(how, "The index is built by merging sorted runs.", set(), frozenset()) == 1
    assert answer_fit(how, "The index is large, with many entries.", set(), frozenset()) == 0.5
    # what is only proposed is not how it is done
    hedged = "As future work, the index could be built by merging runs."
    assert answer_fit(how, hedged, set(), frozenset()) == 0.5
    assert states_answer(how, "We first sort the runs, then merge them.")
    assert not states_answer(question_form("What is the index?"), "It is built by merging.")
