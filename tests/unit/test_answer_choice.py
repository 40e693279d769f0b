"""The offline answerer picks the sentence that answers, not the one that restates the
question; headings and captions never answer; a question whose focus the evidence does
not hold is refused, saying what was not found (issue 12, items 1 and 3)."""

from __future__ import annotations

from collections.abc import Sequence

from askalong.answer.extractive.select import ExtractiveResult, answer_extractively
from askalong.context.units import ContextUnit, places_of
from askalong.question.reading import read_question
from askalong.types import CHUNK_JOINER, Block, BlockKind, BlockSpan
from askalong.verify.claims import split_claims, verify_claims


def unit_of(blocks: Sequence[tuple[BlockKind, str]], k: int = 0) -> ContextUnit:
    """One retrieved unit over consecutive blocks (a chunk under its heading)."""
    made = [
        Block(f"b{k}-{i}", kind, text, i, ("S",), page=1) for i, (kind, text) in enumerate(blocks)
    ]
    text = CHUNK_JOINER.join(b.text for b in made)
    spans = tuple(BlockSpan(b.id, 0, len(b.text)) for b in made)
    unit = ContextUnit("doc", (), text, spans, spans, ("S",), 1, 1, "retrieved", 1.0)
    return ContextUnit(**{**unit.__dict__, "places": places_of(made)})


# The rest of a paper's context: what makes the question's words rare or common.
OTHER = (
    "Each paper is represented by its title and abstract.",
    "The model is evaluated on seven document-level tasks.",
    "Results are reported as the mean over five runs.",
    "The code and the data are released under an open licence.",
)


def ask(question: str, *paragraphs: str) -> ExtractiveResult:
    units = [unit_of([("paragraph", p)], k) for k, p in enumerate((*paragraphs, *OTHER))]
    return answer_extractively(read_question(question), units)


def test_the_sentence_that_adds_the_answer_beats_the_restatement() -> None:
    result = ask(
        "What loss is used to train the encoder?",
        "The loss used to train the encoder is described below.",
        "We train the encoder with a triplet margin loss over cited and uncited papers.",
    )
    assert result.answer.startswith("We train the encoder with a triplet margin loss")


def test_why_prefers_the_cause_and_how_many_the_number() -> None:
    why = ask(
        "Why are hard negatives added to the training triples?",
        "Hard negatives are added to the training triples.",
        "Hard negatives are added to the triples because random ones are too easy to tell apart.",
    )
    assert "because" in why.answer
    count = ask(
        "How many query papers are in the training data?",
        "The training data holds query papers with their citations.",
        "The training data holds about 146K query papers.",
    )
    assert "146K" in count.answer


def test_a_heading_is_never_the_direct_answer_the_text_under_it_is() -> None:
    unit = unit_of(
        [("heading", "4 Conclusion"), ("paragraph", "Citations make better document vectors.")]
    )
    result = answer_extractively(read_question("What is the conclusion?"), [unit])
    assert result.status == "answered"
    assert result.answer.startswith("Citations make better document vectors.")
    caption = unit_of(
        [("caption", "Table 1: Loss functions compared."), ("paragraph", "We ran it.")]
    )
    assert not ask_units("Which loss functions are compared?", caption).answer.startswith("Table 1")


def ask_units(question: str, *units: ContextUnit) -> ExtractiveResult:
    return answer_extractively(read_question(question), list(units))


def test_a_question_whose_focus_is_absent_is_refused_naming_what_was_missing() -> None:
    manual = (
        "The compiler will check every method call and handle each exception.",
        "Use the borrow of a lock only inside a try block, and check its state.",
    )
    result = ask("How does the borrow checker handle Rust lifetimes?", *manual)
    assert result.status == "not_covered"
    assert "Rust" in result.explanation and "lifetimes" in result.explanation
    zh = ask(
        "Kubernetes 集群里的容器怎么自动扩容？",
        "HashMap 扩容时会重建哈希表。",
        "集合初始化时指定大小。",
    )
    assert zh.status == "not_covered"
    assert zh.explanation.startswith("在所给文档中没有找到") and "Kubernetes" in zh.explanation
    # the same manual still answers what it covers
    assert ask("When is the lock state checked?", *manual).status == "answered"


def test_a_quote_that_misses_the_focus_is_not_supported() -> None:
    claims = split_claims("We call our model SPECTER. [1]")
    cited = {1: "We call our model SPECTER."}
    focus = read_question("What loss is used to train SPECTER?").form.focus_terms
    plain = verify_claims(claims, cited)
    asked = verify_claims(claims, cited, focus_terms=focus)
    assert plain[0].verdict == "supported"
    assert asked[0].verdict == "weak"
    assert "loss" in asked[0].reasons[-1]
    holds = verify_claims(
        split_claims("We train SPECTER with a triplet loss. [1]"),
        {1: "We train SPECTER with a triplet loss."},
        focus_terms=focus,
    )
    assert holds[0].verdict == "supported"


def test_the_sentence_stating_what_the_named_command_does_beats_an_aside_about_it() -> None:
    # the manual's real sentences (functions-conditional.html, sql-listen.html)
    result = ask(
        "What value does COALESCE give back?",
        "Like a CASE expression, COALESCE only evaluates the arguments that are needed to "
        "determine the result; that is, arguments to the right of the first non-null "
        "argument are not evaluated.",
        "The COALESCE function returns the first of its arguments that is not null.",
    )
    assert result.answer.startswith("The COALESCE function returns the first")
    setting = ask(
        "What is the work_mem setting for?",
        "maintenance_work_mem — Build time for a GIN index is very sensitive to the "
        "maintenance_work_mem setting; it doesn't pay to skimp on work memory.",
        "work_mem (integer) — Sets the base maximum amount of memory to be used by a query "
        "operation (such as a sort or hash table) before writing to temporary disk files.",
    )
    assert setting.answer.startswith("work_mem (integer) — Sets the base maximum")


def test_a_code_example_answers_how_but_not_what_happens() -> None:
    example = "CREATE TABLE test2 (b varchar(5));\nINSERT INTO test2 VALUES ('too long');"
    units = [unit_of([("code", example)]), *(unit_of([("paragraph", p)], 1) for p in OTHER)]
    what = answer_extractively(
        read_question("What happens when a varchar(5) value is too long?"), units
    )
    assert example not in what.answer
    how = answer_extractively(
        read_question("How do I create a table with a varchar column?"), units
    )
    assert how.answer.startswith("CREATE TABLE test2")


def test_a_follow_up_leaning_on_its_thread_prefers_what_the_previous_answer_named() -> None:
    units = [
        unit_of([("paragraph", p)], k)
        for k, p in enumerate(
            (
                "Our benchmark measures three dimensions of a response.",
                "MAUVE measures the similarity between two text distributions.",
                "Citation recall measures whether the output is supported by its citations.",
                *OTHER,
            )
        )
    ]
    result = answer_extractively(
        read_question("What does it measure?"),
        units,
        previous_question="Which metric is used for fluency?",
        previous_answer="We use MAUVE to evaluate the fluency of the output. [1]",
    )
    assert result.answer.startswith("MAUVE measures the similarity")
