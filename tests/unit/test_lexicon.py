"""The bilingual lexicon (``text/lexicon``): CC-CEDICT's glosses tie a Chinese word to the
English words that translate it and back, Traditional text read as Simplified is."""

from __future__ import annotations

from askalong.text.lexicon import (
    chinese_of,
    dictionary_words,
    english_of,
    rendered_terms,
    renderings,
)


def test_a_chinese_run_is_cut_into_the_longest_headwords() -> None:
    assert dictionary_words("回滚日志损坏") == ["回滚", "日志", "损坏"]


def test_traditional_text_reads_as_its_simplified_form() -> None:
    simplified, traditional = english_of("回滚日志损坏"), english_of("回滾日誌損壞")
    assert simplified == traditional
    assert any({"journal", "log"} <= r for r in traditional)
    assert "损坏" in rendered_terms("資料庫損壞了") and "损坏" in rendered_terms("数据库损坏了")


def test_an_english_word_renders_as_the_headwords_that_gloss_it() -> None:
    database = next(r for r in chinese_of("the databases") if "数据库" in r)
    assert "数据库" in database and not english_of("the databases")


def test_stop_words_and_unknown_words_render_as_nothing() -> None:
    assert english_of("的了是") == set() and chinese_of("the of and") == set()
    assert renderings("日志", "zh") == english_of("日志")
    assert renderings("journal", "en") == chinese_of("journal")


def test_an_english_sentence_holds_the_stems_a_chinese_word_renders_as() -> None:
    journal = next(iter(english_of("日志")))
    assert not journal.isdisjoint(rendered_terms("The rollback journal is hot."))
