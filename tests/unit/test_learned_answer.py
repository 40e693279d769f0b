"""The offline answerer on the learned scorer (issue 32): the shipped weights choose the
sentence that holds the answer and refuse evidence that does not answer, with no cue
phrase or word list; ``ASKALONG_SENTENCE_SCORER`` picks it or the previous rules."""

from __future__ import annotations

from dataclasses import replace
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from model_caches import seeded
from tests.unit.test_answer_choice import unit_of

from askalong.answer.base import DraftRequest, HistoryTurn
from askalong.answer.choose import _extractive
from askalong.answer.extractive import learned
from askalong.answer.extractive.answerer import ExtractiveAnswerer
from askalong.answer.extractive.candidates import candidates
from askalong.answer.extractive.learned import learned_answer, weighed
from askalong.answer.extractive.sentence_rows import MAX_CANDIDATES, entry_rows, rank_rows
from askalong.answer.scorer.features import COLUMNS, ENTRY
from askalong.answer.scorer.model import (
    RANK_COLUMNS,
    RANK_INPUTS,
    WEIGHTS_FILE,
    Scorer,
    network,
    shipped_scorer,
)
from askalong.answer.scorer.refusal_row import REFUSAL, UNSEARCHED
from askalong.config import load_settings
from askalong.context.units import ContextUnit, places_of
from askalong.errors import ConfigError
from askalong.providers.base import Embedder, EmbedKind
from askalong.providers.local.e5.reader import reader_layers
from askalong.question.reading import read_question
from askalong.settings import Settings
from askalong.types import Block, BlockSpan

PAPER = (
    "SPECTER is a model for document-level representation of scientific papers. "
    "It is trained on citation triples drawn from the Semantic Scholar corpus. "
    "The training objective is a triplet margin loss over cited and uncited papers. "
    "At test time the model embeds a paper's title and abstract only.",
    "The evaluation suite, SciDocs, holds seven document-level tasks. "
    "They include citation prediction, user activity and recommendation. "
    "SPECTER outperforms the strongest baseline on every task.",
)
RIVER = (
    "長江是亞洲第一長河，全長約六千三百公里。"
    "它發源於青藏高原的唐古拉山脈，流經十一個省級行政區。"
    "長江在上海注入東海。",
    "長江流域的年平均降水量約為一千一百毫米。流域內有眾多湖泊，例如洞庭湖和鄱陽湖。",
)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory, model_caches: Path) -> Path:
    """One home for the module, holding the model's caches and engine choice."""
    return seeded(tmp_path_factory.mktemp("scorer"), model_caches)


@pytest.fixture(scope="module")
def embedder(home: Path) -> Embedder:
    """The bundled embedder, as the product answers with it."""
    from askalong.providers.local.embedder import default_embedder

    return default_embedder(Settings(home=home))


def ask(question: str, paragraphs: tuple[str, ...], embedder: Embedder | None = None) -> str:
    units = [unit_of([("paragraph", p)], k) for k, p in enumerate(paragraphs)]
    result = learned_answer(read_question(question), units, embedder=embedder)
    return result.answer if result.status == "answered" else "NOT COVERED"


def test_the_weights_ship_inside_the_package() -> None:
    assert resources.files("askalong.answer.scorer").joinpath(WEIGHTS_FILE).is_file()
    scorer = shipped_scorer()
    assert set(scorer.sentence) == {"embedded", "lexical"}
    assert 0.0 < scorer.threshold("zh", embedded=True) < 1.0


@pytest.mark.slow  # scores a dev sample: make test, not make check
def test_the_sentence_holding_the_answer_is_chosen_in_english_and_chinese(
    embedder: Embedder,
) -> None:
    assert "triplet margin loss" in ask("What loss is SPECTER trained with?", PAPER, embedder)
    assert "seven" in ask("How many tasks are in SciDocs?", PAPER, embedder)
    assert "東海" in ask("長江在哪裡注入大海？", RIVER, embedder)
    # The sentence head alone (no refusal): the answerable head of the weights trained
    # with cross-lingual groups refuses this one (p below the zh threshold).
    never_refusing = replace(
        shipped_scorer(), thresholds={"embedded": {"en": 0.0}, "lexical": {"en": 0.0}}
    )
    units = [unit_of([("paragraph", p)], k) for k, p in enumerate(RIVER)]
    found = learned_answer(
        read_question("長江發源於哪裡？"), units, embedder=embedder, scorer=never_refusing
    )
    assert "唐古拉山脈" in found.answer


def test_without_an_embedder_the_lexical_variant_answers() -> None:
    assert "triplet margin loss" in ask("What loss is SPECTER trained with?", PAPER)
    assert "東海" in ask("長江在哪裡注入大海？", RIVER)


def test_a_question_the_evidence_does_not_answer_is_refused(embedder: Embedder) -> None:
    assert ask("What is the boiling point of liquid nitrogen?", PAPER, embedder) == "NOT COVERED"
    assert ask("量子計算機使用哪種冷卻方式？", RIVER, embedder) == "NOT COVERED"
    assert ask("What is the boiling point of liquid nitrogen?", PAPER) == "NOT COVERED"


def test_a_follow_up_may_answer_with_a_sentence_its_previous_answer_quoted() -> None:
    # readers ask after the condition or the second half of what they were just shown
    units = tuple(unit_of([("paragraph", p)], k) for k, p in enumerate(PAPER))
    question = read_question("What loss is SPECTER trained with?")
    first = learned_answer(question, units)
    thread = (HistoryTurn(question.text, first.answer),)
    again = ExtractiveAnswerer(None, scorer="learned").draft(
        DraftRequest(question, "ask", units, history=thread)
    )
    assert first.status == again.status == "answered"
    assert first.quotes[0].text in again.answer


def test_the_setting_picks_the_scorer_and_names_the_choices_when_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert load_settings().sentence_scorer == "auto"
    assert ExtractiveAnswerer(Fixed()).scorer == "learned"  # auto: learned with vectors
    assert ExtractiveAnswerer(None).scorer == "rules"  # its lexical variant is weaker
    assert ExtractiveAnswerer(None, scorer="learned").scorer == "learned"
    bundled = _extractive(load_settings(embedder="local"), Fixed())
    other = _extractive(load_settings(embedder="openai", embed_model="m"), Fixed())
    assert (bundled.scorer, other.scorer) == ("learned", "rules")  # fitted on e5's cosines
    monkeypatch.setenv("ASKALONG_SENTENCE_SCORER", "learned")
    assert load_settings().sentence_scorer == "learned"
    assert ExtractiveAnswerer(scorer="learned").scorer == "learned"
    monkeypatch.setenv("ASKALONG_SENTENCE_SCORER", "magic")
    with pytest.raises(ConfigError, match="learned"):
        load_settings()


class Counting(Embedder):
    """The real embedder, counting the passages it is asked to embed."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(name=inner.name, dimension=inner.dimension)
        self.inner = inner
        self.passages = 0

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        self.passages += len(texts) if kind == "passage" else 0
        return self.inner._embed(texts, kind)


def test_a_long_context_embeds_only_the_most_covered_sentences(embedder: Embedder) -> None:
    filler = tuple(f"Section {k} lists the rooms of floor {k} of the museum." for k in range(40))
    counting = Counting(embedder)
    answer = ask("What loss is SPECTER trained with?", (*filler, *PAPER), counting)
    assert "triplet margin loss" in answer
    assert counting.passages == MAX_CANDIDATES < len(filler)


def test_a_question_in_the_other_language_is_answered_not_refused(embedder: Embedder) -> None:
    """A Chinese question over an English paper (and the reverse) shares no term with it:
    the scorer answers from meaning, under its own cross-lingual threshold."""
    assert "seven" in ask("SciDocs 有多少个任务？", PAPER, embedder)
    assert "唐古拉山脈" in ask("Where does the Yangtze originate?", RIVER, embedder)


SPOOL = (
    "spool_interval sets how often the print daemon flushes its queue to disk. "
    "Shorter intervals lose less work after a crash but write more often. "
    "The default is 30 seconds. "
    "The value can be changed at run time with the reload command.",
    "queue_limit caps how many jobs may wait in the queue at once. "
    "When the limit is reached, new jobs are rejected with an error. "
    "It defaults to 500 jobs.",
)


def test_a_question_asking_a_default_gets_the_sentence_holding_it(embedder: Embedder) -> None:
    """The definition names the setting too; the value is what was asked (issue 32)."""
    assert "30 seconds" in ask("What is the default of spool_interval?", SPOOL, embedder)
    assert "how often" in ask("What is spool_interval?", SPOOL, embedder)


def test_the_cross_lingual_threshold_is_used_only_across_languages() -> None:
    scorer = shipped_scorer()
    assert scorer.threshold("zh", True, across=True) < scorer.threshold("zh", True)
    assert scorer.threshold("en", False, across=True) == scorer.threshold("en", False)


class Ranked(Scorer):
    """The shipped scorer with sentence scores set by the test: the first sentence far
    ahead of the others (its neighbour holds a tiny share of its softmax weight)."""

    def sentence_scores(self, rows: np.ndarray, embedded: bool) -> np.ndarray:
        return -8.0 * np.arange(len(rows), dtype=np.float32)

    def threshold(self, language: str, embedded: bool, across: bool = False) -> float:
        return 0.0


def test_the_direct_answer_takes_the_best_sentences_neighbour_when_both_fit() -> None:
    """The scorer often ranks first the sentence beside the one that answers: the direct
    answer is the best sentence and its better-scored neighbour, however far behind."""
    shipped = shipped_scorer()
    ranked = Ranked(shipped.sentence, shipped.answerable, shipped.thresholds)
    units = [unit_of([("paragraph", PAPER[0])], 0)]
    found = learned_answer(read_question("What is SPECTER?"), units, scorer=ranked)
    assert "document-level representation" in found.answer
    assert "citation triples" in found.answer  # the neighbour, 8 logits behind
    assert "triplet margin loss" not in found.answer  # two sentences at most


def test_a_sentence_announcing_what_follows_brings_it_from_the_next_block() -> None:
    """ "… renames it to:" answers with the name in the code block under it: the colon
    ends no sentence, so the block's line is part of the same statement."""
    shipped = shipped_scorer()
    ranked = Ranked(shipped.sentence, shipped.answerable, shipped.thresholds)
    blocks = [
        ("paragraph", "The final API renames the statelessResident option to:"),
        ("code", "nationalWithoutHouseholdRegistration"),
        ("paragraph", "Other options keep their names."),
    ]
    found = learned_answer(
        read_question("What is statelessResident called now?"),
        [unit_of(blocks, 0)],
        scorer=ranked,
    )
    assert found.answer.startswith("The final API renames")
    assert "nationalWithoutHouseholdRegistration" in found.answer
    assert "keep their names" not in found.answer  # far behind, and no neighbour of its piece
    long_block = ("code", "\n".join(["option option option"] * 30))  # overruns the shape
    opened = learned_answer(
        read_question("What is statelessResident called now?"),
        [unit_of([blocks[0], long_block], 0)],
        scorer=ranked,
    )
    # quoted whole, shown by its first line: the lead-in alone would tell nothing
    assert opened.answer.startswith("The final API renames the statelessResident option to: [1]")
    assert "[1] option option option … [2]" in opened.answer, opened.answer
    assert opened.quotes[1].text == long_block[1]


def test_a_lead_in_left_unfinished_above_a_code_block_brings_the_code() -> None:
    shipped = shipped_scorer()
    ranked = Ranked(shipped.sentence, shipped.answerable, shipped.thresholds)
    blocks = [
        ("paragraph", "To stop irssi from reconnecting to a server, use"),
        ("code", "/RMRECONNS - stop all server reconnections"),
        ("paragraph", "Servers are listed with their tags."),
    ]
    question = read_question("How do I stop irssi reconnecting?")
    found = learned_answer(question, [unit_of(blocks, 0)], scorer=ranked)
    assert "/RMRECONNS" in found.answer
    finished = [("paragraph", "Reconnections are tried every five minutes."), blocks[1]]
    plain = learned_answer(question, [unit_of(finished, 0)], scorer=ranked)
    assert "/RMRECONNS" not in plain.answer  # a finished sentence announces nothing


def test_a_section_number_left_apart_from_its_title_never_answers() -> None:
    # a plain-text FAQ's "2.13. Does chrony support PTP?": the splitter keeps "2.13." apart
    shipped = shipped_scorer()
    ranked = Ranked(shipped.sentence, shipped.answerable, shipped.thresholds)
    blocks = [("paragraph", "2.13."), ("paragraph", "The commandkey directive was removed in 2.2.")]
    found = learned_answer(read_question("commandkey gone?"), [unit_of(blocks, 0)], scorer=ranked)
    assert found.answer.startswith("The commandkey directive was removed")


def _rank_head(column: str, weight: float) -> dict:
    """A linear rank head reading one column of ``RANK_COLUMNS`` (unscaled)."""
    return {
        "columns": [column],
        "mean": [0.0],
        "scale": [1.0],
        "layers": [{"w": [[weight]], "b": [0.0]}],
    }


def test_the_shipped_rank_head_reads_trees_over_general_columns() -> None:
    """Fitted on readers' questions (``training/rank_trees.py``): the rank score is the
    boosted trees' score times a temperature, and the trees split on the general columns
    (``RANK_COLUMNS``: the features, the sentence head's score, the entry and the reader
    cosine), never a document's words."""
    scorer = shipped_scorer()
    rank, trees = scorer.rank["embedded"], scorer.rank_trees["embedded"]
    assert rank.columns == (RANK_INPUTS.index("trees"),) and rank.layers[0][0][0, 0] > 0
    split = {RANK_COLUMNS[f] for f in trees.feature if f >= 0}
    assert {"sentence_score", "reader_cosine", "title_coverage", "cosine"} <= split


def _entry_unit(title: str, sentence: str, k: int) -> ContextUnit:
    """One retrieved paragraph under the section ``title``."""
    block = Block(f"b{k}", "paragraph", sentence, 0, ("Settings", title), page=1)
    spans = (BlockSpan(block.id, 0, len(sentence)),)
    unit = ContextUnit(
        "doc", (), sentence, spans, spans, block.section_path, 1, 1, "retrieved", 1.0
    )
    return ContextUnit(**{**unit.__dict__, "places": places_of([block])})


def test_the_rank_head_reads_where_a_sentence_stands_in_its_entry() -> None:
    """``entry_rows``: the sentence opening the entry the question names scores 1, the
    entry's title holds the question's terms, a sentence elsewhere neither."""
    units = [
        _entry_unit("work_mem", "Sets the base maximum memory used by a query.", 0),
        _entry_unit("Logging", "Logs are rotated daily.", 1),
    ]
    found = candidates(units)
    rows = entry_rows(read_question("What is work_mem?"), found)
    share, title = ENTRY.index("entry_share"), ENTRY.index("title_coverage")
    assert rows.shape == (2, len(ENTRY))
    assert rows[0, title] > rows[1, title] == 0.0
    assert rows[0, share] >= rows[1, share]


def test_the_rank_head_orders_the_choice_and_the_sentence_head_the_refusal() -> None:
    shipped = shipped_scorer()
    rows = np.zeros((3, len(COLUMNS)), dtype=np.float32)
    rows[1, COLUMNS.index("digit")] = 1.0
    scores = np.array([3.0, 2.0, 1.0], dtype=np.float32)
    entries = np.zeros((3, len(ENTRY) + 1), dtype=np.float32)  # and the reader cosine
    digits = replace(shipped, rank={"embedded": network(_rank_head("digit", 5.0), RANK_COLUMNS)})
    assert np.argmax(digits.rank_scores(rows, scores, entries, embedded=True)) == 1
    assert digits.rank_scores(rows, scores, entries, embedded=False) is scores  # no lexical head
    entries[2, ENTRY.index("title_coverage")] = 1.0
    titled = replace(
        shipped, rank={"embedded": network(_rank_head("title_coverage", 5.0), RANK_COLUMNS)}
    )
    assert np.argmax(titled.rank_scores(rows, scores, entries, embedded=True)) == 2
    answerable = replace(
        shipped, refusal={}, rank={}
    )  # the sentence head orders, the answerable decides
    last_first = replace(
        answerable, rank={"embedded": network(_rank_head("position", 9.0), RANK_COLUMNS)}
    )
    units = [unit_of([("paragraph", PAPER[0])], 0)]
    question = read_question("What is SPECTER?")
    embedder = Fixed()
    chosen = learned_answer(question, units, embedder=embedder, scorer=last_first)
    plain = learned_answer(question, units, embedder=embedder, scorer=answerable)
    assert "abstract only" in chosen.answer and "abstract only" not in plain.answer
    assert chosen.score == plain.score  # the answerable head reads the sentence head alone


def test_the_shipped_refusal_head_is_a_linear_model_with_its_threshold() -> None:
    """Fitted on readers' and public questions (``training/refusal.py``), both variants."""
    for variant in ("embedded", "lexical"):
        head, threshold = shipped_scorer().refusal[variant]
        assert head.layers[0][0].shape == (len(REFUSAL), 1) and 0.0 < threshold < 1.0


def test_the_refusal_head_decides_not_covered_where_it_ships() -> None:
    """Over the same evidence, the refusal head's verdict alone moves the answer."""
    shipped = shipped_scorer()
    head = network(_rank_head("top_coverage", 1.0), REFUSAL)
    units = [unit_of([("paragraph", PAPER[0])], 0)]
    question = read_question("What loss is SPECTER trained with?")

    def answered(threshold: float) -> bool:
        scorer = replace(shipped, refusal={"embedded": (head, threshold)})
        return learned_answer(question, units, embedder=Fixed(), scorer=scorer).status == "answered"

    assert answered(0.01) and not answered(0.999)
    found = weighed(question, units, shipped, Fixed())
    assert found.row is not None and found.row.shape == (len(REFUSAL),)
    assert tuple(found.row[REFUSAL.index("passage_answerable") :][:4]) == UNSEARCHED  # no hits


class Fixed(Embedder):
    """Every text the same unit vector: the cosines tie, the other columns decide."""

    def __init__(self) -> None:
        super().__init__(name="fixed", dimension=4)

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        return np.tile(np.array([1.0, 0.0, 0.0, 0.0], dtype=np.float32), (len(texts), 1))


ENTRIES = (
    "wal_buffers (integer)\nThe amount of shared memory used for WAL data not yet written "
    "to disk. The default setting of -1 selects a size equal to 1/32nd (about 3%) of "
    "shared_buffers, but not less than 64kB.",
    "shared_buffers (integer)\nSets the amount of memory the database server uses for shared "
    "memory buffers. The default is typically 128 megabytes (128MB), but might be less if "
    "your kernel settings will not support it.",
)


def test_a_value_asked_comes_from_the_entry_the_question_names(
    embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A setting's default is stated in its own entry; another entry's sentence naming it
    and a default is not its default (issue 32, team questions): the rank head finds it
    by its columns (the entry's, the reader cosine), and the entry-first order keeps it."""
    question = "What does shared_buffers default to?"
    assert "128 megabytes" in ask(question, ENTRIES, embedder)
    monkeypatch.setattr(learned, "_entry_first", lambda question, found, order: order)
    assert "128 megabytes" in ask(question, ENTRIES, embedder)  # the rank head alone


def test_the_rank_rows_hold_the_reader_cosine_with_vectors_only(embedder: Embedder) -> None:
    """``rank_rows``: the entry columns, then the reader encoder's question-sentence cosine
    (the bundled embedder's ``reader``; 0 without vectors, or with an embedder that has no
    reader); a sentence that answers the question is nearer to it than one on another topic."""
    units = [unit_of([("paragraph", ENTRIES[1] + " Rivers flow into the sea.")], 0)]
    question = read_question("What does shared_buffers default to?")
    _, found, _ = learned.chosen(question, units, ())
    embedded = rank_rows(question, found, embedder)
    assert embedded.shape == (len(found), len(ENTRY) + 1)
    reader = embedded[:, -1]
    default = next(k for k, c in enumerate(found) if "128 megabytes" in c.text)
    river = next(k for k, c in enumerate(found) if "Rivers" in c.text)
    assert reader[default] > reader[river]
    assert not rank_rows(question, found, None)[:, -1].any()
    assert not rank_rows(question, found, Fixed())[:, -1].any()


def test_the_answerer_the_settings_make_reads_the_reader_encoder(
    home: Path, embedder: Embedder
) -> None:
    """The product's own route (the configured embedder behind its budget, the answerer
    the settings ask for) hands the learned answer the reader encoder: a wrapper that
    dropped it would leave the rank head without its strongest column."""
    from askalong.answer.choose import make_answerer
    from askalong.providers.choose import make_embedder

    settings = Settings(home=home)  # the caches ``embedder`` made
    answerer = make_answerer(settings, make_embedder(settings))
    assert isinstance(answerer, ExtractiveAnswerer) and answerer.embedder is not None
    reader = answerer.embedder.reader()
    assert reader is not None and reader.vector_space.endswith(reader_layers().name)
    assert answerer.embedder.reader() is reader  # one reader and one cache per answerer
