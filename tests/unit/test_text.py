"""Sentence splitting, language detection, size units and the search tokeniser."""

from __future__ import annotations

import itertools
import json
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from askalong.text.scripts import answer_language, detect_language
from askalong.text.sentences import split_sentences
from askalong.text.simplified import simplified
from askalong.text.size import measure, size_units
from askalong.text.tokens import gram_tokens, key_terms, tokenize


def sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in split_sentences(text)]


# --------------------------------------------------------------------------- sentences


def test_english_sentences_with_abbreviations() -> None:
    text = (
        "Dense retrieval (Karpukhin et al. 2020) works well. It helps e.g. open QA, i.e. "
        "reading. Dr. Smith and Mr. J. Smith moved to the U.S. Today they agree. "
        "See Fig. 3 and Eq. 2 vs. Tab. 1 for approx. numbers. Done!"
    )
    assert sentences(text) == [
        "Dense retrieval (Karpukhin et al. 2020) works well. ",
        "It helps e.g. open QA, i.e. reading. ",
        "Dr. Smith and Mr. J. Smith moved to the U.S. Today they agree. ",
        "See Fig. 3 and Eq. 2 vs. Tab. 1 for approx. numbers. ",
        "Done!",
    ]


def test_decimals_ellipses_and_questions() -> None:
    text = "Pi is 3.14 or so... the rest follows. Is it? Yes! 2024 was good. The end"
    assert sentences(text) == [
        "Pi is 3.14 or so... the rest follows. ",
        "Is it? ",
        "Yes! ",
        "2024 was good. ",
        "The end",
    ]


def test_lower_case_after_period_continues() -> None:
    assert sentences("Version 2. see the notes. Then stop.") == [
        "Version 2. see the notes. ",
        "Then stop.",
    ]


def test_chinese_sentences_keep_closing_quotes() -> None:
    text = "他说：“今天天气很好。”然后走了！你呢？好……我们走吧；「再见。」最后"
    assert sentences(text) == [
        "他说：“今天天气很好。”",
        "然后走了！",
        "你呢？",
        "好……",
        "我们走吧；",
        "「再见。」",
        "最后",
    ]


def test_mixed_chinese_and_english() -> None:
    text = "We use BERT. 这是中文句子。Another one here. 中文用半角标点!结束"
    assert sentences(text) == [
        "We use BERT. ",
        "这是中文句子。",
        "Another one here. ",
        "中文用半角标点!",
        "结束",
    ]


def test_blank_line_and_list_numbers() -> None:
    text = "1. Introduction\n\nThis is text.  Another one.\n"
    assert sentences(text) == ["1. Introduction\n\n", "This is text.  ", "Another one.\n"]


def test_a_list_number_after_an_answers_citation_marks_opens_its_sentence() -> None:
    # an answer quoting numbered clauses: its shape never leaves a dangling "2."
    text = "1. Copies may be made. [1] 2. Changes must be marked. [2]"
    assert sentences(text) == ["1. Copies may be made. ", "[1] 2. Changes must be marked. ", "[2]"]
    assert sentences("至複本。 [1] 2. 修改須標明。") == ["至複本。 ", "[1] 2. 修改須標明。"]


def test_quote_after_english_period_starts_sentence() -> None:
    assert sentences('He left. "Why?" she asked.') == ["He left. ", '"Why?" she asked.']


def test_empty_and_whitespace_text() -> None:
    assert split_sentences("") == []
    assert split_sentences("   \n") == [(0, 4)]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab C1. !?。！…”\n中文e.g")), max_size=80))
def test_sentence_spans_cover_text_exactly(text: str) -> None:
    spans = split_sentences(text)
    assert "".join(text[s:e] for s, e in spans) == text
    assert all(s < e for s, e in spans)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))


def test_real_paragraphs_split_into_plausible_sentences(evaldata: Path) -> None:
    """XQuAD paragraphs: spans cover each paragraph and sentences have sane lengths."""
    for lang, terminator in (("en", "."), ("zh", "。")):
        data = json.loads((evaldata / f"qa/xquad/xquad.{lang}.json").read_text("utf-8"))
        paragraphs = [p["context"] for a in data["data"] for p in a["paragraphs"]]
        counts = []
        for text in paragraphs:
            spans = split_sentences(text)
            assert "".join(text[s:e] for s, e in spans) == text
            counts.append(len(spans))
            # a sentence never ends on a bare English abbreviation
            ends = [text[s:e].rstrip() for s, e in spans[:-1]]
            assert not any(end.endswith((" e.g.", " Dr.", " et al.")) for end in ends)
        mean = sum(counts) / len(counts)
        expected = sum(p.count(terminator) for p in paragraphs) / len(paragraphs)
        # most terminators end a sentence; abbreviations and decimals do not
        assert 0.6 * expected <= mean <= 1.1 * expected + 1, (lang, mean, expected)


# ---------------------------------------------------------------------------- language


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("我们提出了一种新的检索方法，实验表明效果显著。", "zh"),
        ("我们使用BERT模型进行检索，效果很好，比传统方法提高了很多。", "zh"),
        ("The quick brown fox jumps over the lazy dog.", "en"),
        ("Café naïve résumé", "en"),
        ("本文介绍 retrieval augmented generation 与 dense passage retrieval 方法", "mixed"),
        ("", "und"),
        ("12345 67 !!!", "und"),
        ("Привет, как дела? Всё хорошо.", "und"),
    ],
)
def test_detect_language(text: str, language: str) -> None:
    assert detect_language(text) == language


def test_detect_language_on_real_data(evaldata: Path) -> None:
    for lang in ("en", "zh"):
        data = json.loads((evaldata / f"qa/xquad/xquad.{lang}.json").read_text("utf-8"))
        contexts = [p["context"] for a in data["data"] for p in a["paragraphs"]]
        hits = sum(detect_language(c) == lang for c in contexts)
        assert hits / len(contexts) >= 0.95, (lang, hits, len(contexts))


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("SELECT DISTINCT 有什么作用？还有，SPECTER 里的 hard negatives 是什么？", "zh"),
        ("什么是 MVCC？", "zh"),
        ("What does 随问 mean?", "en"),
        ("How does VACUUM reclaim storage?", "en"),
        ("", "en"),
    ],
)
def test_a_question_is_answered_in_the_language_most_of_it_is_in(
    question: str, language: str
) -> None:
    assert answer_language(question) == language


def test_detect_language_samples_only_the_start() -> None:
    assert detect_language("English words here. " * 2000 + "中文" * 50_000) == "en"


# -------------------------------------------------------------------------- size units


def test_size_units() -> None:
    assert size_units("我们提出了一种新的检索方法。") == 13  # punctuation counts zero
    assert size_units("hello world") == 4  # ceil(3.4)
    assert size_units("one two three four five six seven eight nine ten") == 17
    assert size_units("BERT模型 v2.0") == 2 + 6  # 3 words (BERT, v2, 0) -> ceil(5.1)
    assert size_units("ひらがな 한국어") == 7
    assert size_units("  ,,, —— ") == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=6))
def test_sizes_add_up_across_whitespace(parts: list[str]) -> None:
    total = measure("\n".join(parts))
    summed = sum((measure(p) for p in parts), measure(""))
    assert total == summed


# ---------------------------------------------------------------------------- tokenize


def test_tokenize_chinese_into_words() -> None:
    tokens = tokenize("我们提出了一种新的检索方法")
    assert "检索" in tokens and "方法" in tokens and "提出" in tokens
    assert "的" not in tokens and "了" not in tokens
    assert all(len(t) <= 4 for t in tokens)


def test_the_simplified_image_keeps_length_and_simplified_text() -> None:
    assert simplified("臺灣大學位於臺北") == "台湾大学位于台北"
    # The segmenter's dictionary is Simplified: the image is what it can cut.
    assert tokenize("資訊工程學系") == ["資", "訊", "工程", "學", "系"]
    assert tokenize(simplified("資訊工程學系")) == ["资讯", "工程学系"]
    # Characters Simplified text writes too stay as they are: "乾隆" is no "干隆".
    assert simplified("乾隆皇帝") == "乾隆皇帝"
    text = "长江是亚洲第一长河，BM25 检索。"
    assert simplified(text) == text


def test_tokenize_english_stems_and_drops_stop_words() -> None:
    tokens = tokenize("The runner is running; she runs!")
    assert tokens.count("run") == 2
    assert "the" not in tokens and "is" not in tokens and ";" not in tokens
    assert tokenize("Retrieval") == tokenize("retrieval")


def test_tokenize_normalises_full_width_forms() -> None:
    assert tokenize("ＢＥＲＴ　Ｍｏｄｅｌｓ１２３") == tokenize("BERT Models123")
    assert tokenize("ＡＢＣ") == ["abc"]


def test_tokenize_mixed_text_keeps_order() -> None:
    tokens = tokenize("使用BM25检索documents，2019年")
    assert tokens == ["使用", "bm25", "检索", "document", "2019", "年"]


def test_tokenize_is_deterministic_across_threads() -> None:
    text = "Indexing documents with jieba 分词 and stemming for BM25 检索系统"
    expected = tokenize(text)
    results: list[list[str]] = []

    def work() -> None:
        results.extend(tokenize(text) for _ in range(50))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 200 and all(r == expected for r in results)


def test_key_terms() -> None:
    terms = key_terms("The model is a transformer (BERT) 模型的 x 2 effects of 检索")
    assert {"model", "transform", "bert", "模型", "检索", "effect"} <= terms
    assert not {"x", "2", "the", "a", "的"} & terms


def test_gram_tokens_are_han_characters_and_bigrams() -> None:
    grams = gram_tokens("长江是亚洲第一长河")
    assert grams[:3] == ["长", "江", "亚"]  # "是" is a stop word
    assert {"长江", "亚洲", "长河", "第一"} <= set(grams)
    assert "是" not in grams and "江是" in grams  # only exact stop words go
    # rjieba keeps "第一长河"-style compounds whole; the grams still match a part.
    assert "一长" in grams


def test_gram_tokens_keep_other_words_and_skip_text_without_han() -> None:
    assert gram_tokens("The rivers of China") == []
    grams = gram_tokens("1949年 Running 北京")
    assert {"1949", "run", "年", "北", "京", "北京"} <= set(grams)
    assert gram_tokens("ＡＢＣ 北") == ["abc", "北"]  # NFKC first, as tokenize does


def test_superscript_markers_do_not_glue_onto_words() -> None:
    from askalong.text.tokens import tokenize

    assert tokenize("SCIDOCS³ is new") == tokenize("SCIDOCS 3 is new")
    assert "scidoc" in tokenize("SCIDOCS³")
