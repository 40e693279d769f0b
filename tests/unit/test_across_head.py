"""The across head (issue 32): a question over evidence in the other language can be
ordered by its own head, fitted on readers' cross-lingual questions
(``training/across_rank.py``), reading what ties the two languages (the names they write
alike, the question's words translated by the bilingual lexicon, the cosines); a question
in the evidence's language never reads it, and without one the rank head orders both."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from model_caches import seeded
from tests.unit.test_answer_choice import unit_of
from tests.unit.test_learned_answer import Fixed

from askalong.answer.extractive.across_rows import across_features
from askalong.answer.extractive.candidates import candidates
from askalong.answer.extractive.learned import learned_answer, weighed
from askalong.answer.extractive.sentence_rows import candidate_rows, rank_rows
from askalong.answer.scorer.features import ACROSS
from askalong.answer.scorer.model import ACROSS_COLUMNS, network, shipped_scorer
from askalong.providers.base import Embedder
from askalong.question.reading import read_question
from askalong.settings import Settings
from askalong.text.lexicon import lexicon

LOCKING = (
    "SQLite uses POSIX advisory locks to coordinate access to the database file. "
    "Those locks are known to be broken on many NFS implementations. "
    "A database on a network filesystem may therefore be corrupted by concurrent writers. "
    "Keep the file on a local disk when several processes write to it.",
    "The rollback journal is hot when it exists, has a non-zero header, and no process "
    "holds a RESERVED lock on the database. "
    "A hot journal is rolled back before the database is read again.",
)


def _across_head(column: str, weight: float) -> dict:
    """A linear across head: the rank score plus ``weight`` times one ``ACROSS`` column."""
    return {
        "columns": ["rank_score", column],
        "mean": [0.0, 0.0],
        "scale": [1.0, 1.0],
        "layers": [{"w": [[1.0], [weight]], "b": [0.0]}],
    }


def _units(paragraphs: tuple[str, ...]) -> list:
    return [unit_of([("paragraph", p)], k) for k, p in enumerate(paragraphs)]


def test_the_anchor_columns_count_the_latin_names_a_chinese_question_borrows() -> None:
    question = read_question("数据库放在 NFS 上会损坏吗？")
    found = candidates(_units(LOCKING))
    rows = across_features(question, found)
    share, window = ACROSS.index("anchor_share"), ACROSS.index("anchor_window")
    own, prose = ACROSS.index("own_language"), ACROSS.index("prose")
    assert rows.shape == (len(found), len(ACROSS))
    nfs = next(k for k, c in enumerate(found) if "NFS" in c.text)
    hot = next(k for k, c in enumerate(found) if "hot when" in c.text)
    assert rows[nfs, share] > rows[hot, share] == 0.0
    assert rows[nfs + 1, window] > rows[nfs + 1, share]  # its neighbour names NFS
    assert not rows[:, own].any() and rows[:, prose].all()


def test_a_bibliography_line_is_no_prose_and_a_line_in_the_questions_language_is_its_own() -> None:
    question = read_question("这个方法是谁提出的？")
    found = candidates(
        _units(("Smith J. et al. Proc. of the ACM, vol. 3, pp. 325-349.", "这个方法由张三提出。"))
    )
    rows = across_features(question, found)
    assert rows[0, ACROSS.index("prose")] == 0.0
    assert rows[1, ACROSS.index("own_language")] == 1.0 > rows[0, ACROSS.index("own_language")]


def test_the_across_head_orders_the_choice_only_across_languages() -> None:
    """A head that rewards the borrowed names picks the NFS sentence for the Chinese
    question; the English question over the same text keeps the rank head's order."""
    anchored = replace(
        shipped_scorer(),
        across={"embedded": network(_across_head("anchor_share", 50.0), ACROSS_COLUMNS)},
    )
    units, embedder = _units(LOCKING), Fixed()
    chinese = read_question("数据库放在 NFS 上会损坏吗？")
    w = weighed(chinese, units, anchored, embedder)
    assert w.across and "NFS" in w.found[int(np.argmax(w.ranks))].text
    english = read_question("Is a database on a network filesystem safe?")
    mine, shipped = (
        weighed(english, units, anchored, embedder),
        weighed(english, units, shipped_scorer(), embedder),
    )
    assert not mine.across and np.array_equal(mine.ranks, shipped.ranks)


def test_without_an_across_head_the_rank_head_orders() -> None:
    units, embedder = _units(LOCKING), Fixed()
    chinese = read_question("数据库放在 NFS 上会损坏吗？")
    bare = replace(shipped_scorer(), across={})
    found = candidates(units)
    rows = candidate_rows(chinese.text, found, embedder)
    scores = bare.sentence_scores(rows, embedded=True)
    ranks = bare.rank_scores(rows, scores, rank_rows(chinese, found, embedder), embedded=True)
    plain = weighed(chinese, units, bare, embedder)
    assert plain.across and np.allclose(plain.ranks, ranks)


@pytest.fixture(scope="module")
def embedder(tmp_path_factory: pytest.TempPathFactory, model_caches: Path) -> Embedder:
    from askalong.providers.local.embedder import default_embedder

    return default_embedder(Settings(home=seeded(tmp_path_factory.mktemp("across"), model_caches)))


def test_the_shipped_heads_answer_a_chinese_question_over_english_text(
    embedder: Embedder,
) -> None:
    """With the shipped heads (the across head reading the lexicon's columns) and the
    bundled embedder, the sentence that answers wins."""
    result = learned_answer(
        read_question("回滚日志在什么情况下算是“热”的？"), _units(LOCKING), embedder=embedder
    )
    assert result.status == "answered" and "non-zero header" in result.answer


def test_the_lexicon_ties_a_chinese_question_to_the_english_sentence_that_names_no_term() -> None:
    """The question borrows no Latin name, so the anchor columns read nothing; its words
    translated (数据库 database, 网络 network, 文件 file) are held most by the sentence that
    answers, and a head that rewards them ranks it first."""
    question = read_question("数据库放在网络文件系统上会损坏吗？")
    units = _units(LOCKING)
    found = candidates(units)
    rows = across_features(question, found)
    answer = next(k for k, c in enumerate(found) if "network filesystem" in c.text)
    assert not rows[:, ACROSS.index("anchor_share")].any()
    assert int(np.argmax(rows[:, ACROSS.index("translated_share")])) == answer
    translated = replace(
        shipped_scorer(),
        across={"embedded": network(_across_head("translated_share", 50.0), ACROSS_COLUMNS)},
    )
    w = weighed(question, units, translated, Fixed())
    assert w.across and int(np.argmax(w.ranks)) == answer


def test_the_shipped_across_head_reads_the_lexicon_loaded_only_across_languages() -> None:
    head = shipped_scorer().across["embedded"]
    assert ACROSS_COLUMNS.index("translated_window") in head.columns
    units, scorer = _units(LOCKING), shipped_scorer()
    lexicon.cache_clear()
    weighed(read_question("Is a database on a network filesystem safe?"), units, scorer, Fixed())
    assert lexicon.cache_info().currsize == 0
    weighed(read_question("网络文件系统上的数据库安全吗？"), units, scorer, Fixed())
    assert lexicon.cache_info().currsize == 1
