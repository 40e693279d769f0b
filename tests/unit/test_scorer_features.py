"""The learned scorer's features (issue 32): general facts about a (question, sentence)
pair, the same at training and at run time."""

from __future__ import annotations

import itertools

import numpy as np

from askalong.answer.scorer.features import (
    ANSWERABLE,
    COLUMNS,
    EMBEDDED,
    LEXICAL,
    Sentence,
    answerable_features,
    covered_share,
    sentence_features,
)
from askalong.answer.scorer.refusal_row import (
    ASKS,
    REFUSAL,
    UNSEARCHED,
    evidence_gaps,
    refusal_features,
    unsaid_information,
    unseen_terms,
)
from askalong.providers.local.e5.information import word_information


def column(rows: np.ndarray, name: str) -> np.ndarray:
    return rows[:, COLUMNS.index(name)]


def passage(k: int, *texts: str) -> list[Sentence]:
    return [Sentence(k, i, t) for i, t in enumerate(texts)]


SENTENCES = [
    *passage(
        0,
        "The encoder is trained on citation triples.",
        "Training uses a triplet margin loss.",
        "The encoder is evaluated on seven tasks.",
    ),
    *passage(1, "The encoder has twelve layers."),
]


def test_a_rare_question_term_weighs_more_than_a_common_one() -> None:
    rows = sentence_features("Which loss trains the encoder?", SENTENCES)
    coverage = column(rows, "coverage")
    # "loss" is in one sentence, "encoder" in three: the sentence with "loss" covers more
    assert coverage[1] > coverage[0] > 0
    assert coverage.max() <= 1.0
    assert column(rows, "coverage_gap")[1] == 0.0


def test_neighbours_are_taken_within_a_passage_only() -> None:
    rows = sentence_features("Which loss trains the encoder?", SENTENCES)
    coverage = column(rows, "coverage")
    assert column(rows, "coverage_before")[1] == coverage[0]
    assert column(rows, "coverage_after")[1] == coverage[2]
    assert column(rows, "coverage_after")[2] == 0.0  # the last sentence of its passage
    assert column(rows, "coverage_before")[3] == 0.0  # the first of the next passage
    assert list(column(rows, "passage_rank")) == [1.0, 1.0, 1.0, 0.5]


def test_chinese_sentences_share_character_pairs_where_the_words_are_cut_differently() -> None:
    sentences = passage(0, "陸特和漢斯雷頓開創了梵語的學術研究。", "後來威廉發現印歐語系。")
    rows = sentence_features("誰開創了梵語研究？", sentences)
    assert column(rows, "pair_coverage")[0] > column(rows, "pair_coverage")[1]
    assert column(rows, "chinese")[0] == 1.0


def test_without_vectors_the_embedded_columns_are_zero_and_with_them_the_cosines() -> None:
    rows = sentence_features("Which loss?", SENTENCES)
    assert rows.shape == (4, len(LEXICAL) + len(EMBEDDED))
    assert not rows[:, len(LEXICAL) :].any()
    vectors = np.eye(4, dtype=np.float32)
    question = np.array([0.0, 1.0, 0.0, 0.0], dtype=np.float32)
    rows = sentence_features("Which loss?", SENTENCES, question, vectors)
    assert list(column(rows, "cosine")) == [0.0, 1.0, 0.0, 0.0]
    assert column(rows, "cosine_before")[2] == 1.0
    assert column(rows, "cosine_rank")[1] == 1.0


def test_the_answerable_summary_reads_the_best_scored_sentence() -> None:
    rows = sentence_features("Which loss trains the encoder?", SENTENCES)
    summary = answerable_features(rows, np.array([0.0, 2.0, -1.0, 0.5]))
    assert summary.shape == (len(ANSWERABLE),)
    assert summary[ANSWERABLE.index("margin")] == 1.5
    assert summary[ANSWERABLE.index("top_coverage")] == column(rows, "coverage")[1]
    assert not answerable_features(rows[:0], np.zeros(0)).any()  # no candidate: all zero


def test_what_of_the_question_no_evidence_holds_is_measured_in_words_and_chinese_pairs() -> None:
    """A format the reader names that the evidence never mentions counts; the words the
    evidence holds do not (``refusal_row.UNSEEN``)."""
    evidence = ["jq reads a stream of JSON texts.", "The --raw-input option reads lines."]
    share, words, longest = unseen_terms("Can jq read YAML files?", evidence)
    assert 0.0 < share < 1.0 and words == 2 / 3  # yaml, file
    assert longest == 4 / 12
    assert unseen_terms("Does jq read JSON?", evidence) == (0.0, 0.0, 0.0)
    chinese = unseen_terms("怎么连接无线网络", ["安装程序会配置网络接口。"])
    assert 0.0 < chinese[0] < 1.0  # 无线 missing, 网络 held
    assert unseen_terms("?", evidence) == (0.0, 0.0, 0.0)


def test_the_covered_share_does_not_depend_on_the_order_the_weights_come_in() -> None:
    # The weights follow the question's set order, which changes with the hash seed; a
    # last-bit difference broke ties between sentences and changed an answer run to run.
    weights = {"a": 0.86, "b": 0.78, "c": 0.48, "d": 0.33, "e": 0.56}
    shares = {
        covered_share({k: weights[k] for k in order}, frozenset("abcd"))
        for order in itertools.permutations(weights)
    }
    assert len(shares) == 1


def test_a_word_weighs_what_the_model_s_unigram_pieces_say_of_how_rarely_it_is_written() -> None:
    """``word_information``: common words little, a product name or a rare surname much."""
    assert 0.0 < word_information("the") < word_information("email")
    assert word_information("email") < word_information("wayland") < word_information("benjamini")
    assert word_information("") == 0.0


def test_what_the_question_says_that_the_evidence_never_does_is_weighed_by_its_rarity() -> None:
    """``refusal_row.UNSAID``: a named thing missing weighs more than a common word missing;
    nothing missing is all zero; a Chinese question's segmented words count too."""
    evidence = ["Stow runs on any system with Perl.", "It links files from a package tree."]
    named = unsaid_information("Does stow run on Wayland?", evidence)
    common = unsaid_information("Does stow run on large systems?", evidence)
    assert named[3] == common[3] == 1.0  # one word missing in each
    assert named[0] > common[0] and named[1] > common[1] and named[2] > common[2]
    assert unsaid_information("Does stow link files?", evidence) == (0.0, 0.0, 0.0, 0.0)
    chinese = unsaid_information("能在 Wayland 底下使用吗", ["程序在 X11 下运行。"])
    assert chinese[3] >= 2 and 0.0 < chinese[1] < 1.0
    assert unsaid_information("?", evidence) == (0.0, 0.0, 0.0, 0.0)
    both = evidence_gaps("Does stow run on Wayland?", evidence)
    assert both == (*unseen_terms("Does stow run on Wayland?", evidence), *named)


def test_the_refusal_row_says_what_the_question_asks_for_in_one_column() -> None:
    """``refusal_row.ASKS``: the question's answer type, one-hot, at the row's end."""
    row = refusal_features(
        np.zeros(len(ANSWERABLE)), 0.5, np.array([1.0, 0.25]), UNSEARCHED, False, False,
        (0.0,) * 7, "yes_no",
    )  # fmt: skip
    assert len(row) == len(REFUSAL)
    asks = row[[REFUSAL.index(c) for c in ASKS]]
    assert asks.sum() == 1.0 and row[REFUSAL.index("asks_yes_no")] == 1.0
    assert row[REFUSAL.index("rank_margin")] == 0.75
