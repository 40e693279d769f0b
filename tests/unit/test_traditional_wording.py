"""A reader who writes Traditional characters is answered in them (issue 32): every
sentence the product itself writes (the labels around the quotes, a refusal and its note,
what was searched, the chat's notice, a code answer's headings) has a Traditional text
written by hand beside its Simplified one (``text/wording``), chosen by the question's
script, or for a quick intent's fixed prompt by its selection's. Simplified readers are
told what they were told before."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from askalong.agent.chat_agent import ChatRequest
from askalong.agent.offline import OFFLINE_NOTE
from askalong.agent.stats_reply import stats_sentence
from askalong.agent.wiring import make_chat_agent
from askalong.answer.base import NOT_COVERED
from askalong.answer.extractive import intents
from askalong.answer.extractive.answerable import NOT_FOUND_NOTES
from askalong.answer.extractive.answerer import ExtractiveAnswerer
from askalong.answer.extractive.learned import NOTHING_ANSWERS
from askalong.asking import call_paths, code_answers, question, searched
from askalong.asking.asker import Asker, Question
from askalong.config import Settings
from askalong.ingest.inputs import Upload
from askalong.library import Library
from askalong.text.simplified import simplified
from askalong.text.wording import TRADITIONAL, wording_of, writes_traditional
from askalong.types import Access, Anchor, Answer, Document, Intent

LOCAL = Access.local()
TIDES = {  # the same note in each script
    "zh-Hant": "# 潮汐\n\n潮汐是由月球的引力拉動海洋所造成的，這個現象每天發生兩次。"
    "太陽的引力較小，當兩者對齊時便形成大潮。這說明了潮汐與天體的位置有關。\n",
    "zh": "# 潮汐\n\n潮汐是由月球的引力拉动海洋所造成的，这个现象每天发生两次。"
    "太阳的引力较小，当两者对齐时便形成大潮。这说明了潮汐与天体的位置有关。\n",
}
UNCOVERED = {"zh-Hant": "火山爆發的原因是什麼？", "zh": "火山爆发的原因是什么？"}
COUNTS = {"zh-Hant": "知識庫裡有多少份文件？", "zh": "知识库里有多少文档？"}
# The characters of the Simplified labels that Traditional text writes otherwise (选 择 说
# 这 档 …; not 回 出 查, which the conversion table lists only for variants such as 迴 齣)
SIMPLIFIED_ONLY = frozenset(
    "与个为举义于仅从仓关内别参号后块处头对层并库应开径数无条标树档检没献码离线经绑给识词语说调较过这"
    "选择释键问题么们"
)
LABEL_TABLES: dict[str, Mapping[Any, Any]] = {
    "NOT_COVERED": NOT_COVERED,
    "NOTHING_ANSWERS": NOTHING_ANSWERS,
    "NOT_FOUND_NOTES": NOT_FOUND_NOTES,
    "NOTHING_FOUND": intents.NOTHING_FOUND,
    "NEAREST": intents.NEAREST,
    "AROUND": intents.AROUND,
    "GOES_ON": intents.GOES_ON,
    "BEGINS": intents.BEGINS,
    "FOUND": intents.FOUND,
    "KIND_NAMES": intents.KIND_NAMES,
    "QUOTED_TERM": intents.QUOTED_TERM,
    "THIS_PASSAGE": intents.THIS_PASSAGE,
    "OUTSIDE": call_paths.OUTSIDE,
    "INTRO": call_paths.INTRO,
    "EXPLANATION": call_paths.EXPLANATION,
    "HEADINGS": code_answers.HEADINGS,
    "PHRASES": searched.PHRASES,
    "ROUTE_NAMES": searched.ROUTE_NAMES,
    "NO_ROUTE": searched.NO_ROUTE,
    "OFFLINE_NOTE": OFFLINE_NOTE,
    "INTENT_TITLES": question.INTENT_TITLES,
    "TITLE_FORMS": question.TITLE_FORMS,
}


def by_wording(table: Mapping[Any, Any]) -> dict[str, list[str]]:
    """A label table's texts per wording, in one order: keyed by wording ("zh"), by
    (what, wording), or by what and then wording."""
    out: dict[str, list[str]] = {}
    for key, value in sorted(table.items(), key=lambda kv: repr(kv[0])):
        if isinstance(key, tuple):
            out.setdefault(key[1], []).append(value)
        elif key in ("en", "zh", TRADITIONAL) and isinstance(value, str):
            out.setdefault(key, []).append(value)
        elif key in ("en", "zh", TRADITIONAL):
            out.setdefault(key, []).extend(v for _, v in sorted(value.items()))
        else:
            for words, text in by_wording(value).items():
                out.setdefault(words, []).extend(text)
    return out


def placeholders(text: str) -> list[str]:
    return re.findall(r"\{\w*\}", text)


def test_the_simplified_only_characters_are_simplified_images() -> None:
    hanzi = (chr(c) for c in range(0x4E00, 0xA000))
    images = {simplified(han) for han in hanzi if simplified(han) != han}
    assert images >= SIMPLIFIED_ONLY and not any(map(writes_traditional, SIMPLIFIED_ONLY))


@pytest.mark.parametrize("name", LABEL_TABLES)
def test_every_chinese_label_has_its_traditional_text_written_in_traditional(name: str) -> None:
    texts = by_wording(LABEL_TABLES[name])
    hans, hant = texts.get("zh", []), texts.get(TRADITIONAL, [])
    assert hans and len(hant) == len(hans), name
    for simple, traditional in zip(hans, hant, strict=True):
        assert placeholders(simple) == placeholders(traditional), (name, traditional)
        assert not SIMPLIFIED_ONLY & set(traditional), (name, traditional)
        assert not writes_traditional(simple), (name, simple)


def test_the_counts_are_said_in_the_reader_s_script() -> None:
    assert stats_sentence(2, 9, TRADITIONAL) == "你可以查看的知識庫共有 2 份文件、9 個文字區塊。"
    assert stats_sentence(2, 9, "zh") == "你可以查看的知识库共有 2 个文档、9 个文本块。"


def test_a_chinese_reader_s_wording_follows_their_script() -> None:
    assert wording_of("zh", writes_traditional("這個說明是什麼？")) == TRADITIONAL
    assert wording_of("zh", writes_traditional("这个说明是什么？")) == "zh"
    assert wording_of("en", writes_traditional("What is 這個?")) == "en"


@pytest.fixture
def library(settings: Settings) -> Iterator[Library]:
    with Library(settings) as library:
        yield library


def added(library: Library, words: str) -> Document:
    name = f"tides-{words}.md"
    outcome = library.ingestor.add_upload(Upload(TIDES[words].encode(), name, name), LOCAL)
    assert outcome.document is not None
    return outcome.document


def labels(answer: Answer) -> str:
    """What the answer says besides the document's own words: its labels."""
    text = answer.answer
    for quote in answer.quotes:
        text = text.replace(f"{quote.text} [{quote.number}]", "").replace(quote.text, "")
    return text


def assert_in_script(said: str, words: str) -> None:
    assert said, "nothing said"
    if words == TRADITIONAL:
        assert writes_traditional(said) and not SIMPLIFIED_ONLY & set(said), said
    else:
        assert not writes_traditional(said), said


@pytest.mark.parametrize("words", [TRADITIONAL, "zh"])
@pytest.mark.parametrize("intent", ["explain", "example", "compare"])
def test_a_quick_intent_on_a_selection_is_labelled_in_its_script(
    library: Library, words: str, intent: Intent
) -> None:
    """The fixed prompt ("解释这段内容。") says nothing of the reader's script: the
    selection does. A Traditional note's selection gets 所選內容前後：, a Simplified
    one's 所选内容前后： as before."""
    document = added(library, words)
    block = next(b for b in library.store.blocks(document.id) if "潮汐是" in b.text)
    start = block.text.index("月球")
    asker = Asker(library.store, library.searcher, ExtractiveAnswerer())
    anchor = Anchor(document.id, block.id, start, start + 12)
    answer = asker.ask(Question(intent=intent, anchor=anchor), LOCAL)
    assert answer.status == "answered" and answer.quotes
    assert labels(answer).startswith(intents.AROUND[words]), answer.answer
    assert_in_script(labels(answer), words)
    assert_in_script(answer.searched[-1], words)  # "檢索方式：關鍵字"


@pytest.mark.parametrize("words", [TRADITIONAL, "zh"])
def test_an_uncovered_question_is_refused_in_its_script(library: Library, words: str) -> None:
    """Read along (at an anchor) and over the knowledge base (its documents named), the
    refusal, its note and what was searched are in the question's script."""
    document = added(library, words)
    block = library.store.blocks(document.id)[-1]
    asker = Asker(library.store, library.searcher, ExtractiveAnswerer())
    asked = UNCOVERED[words]
    at_anchor = Question(asked, anchor=Anchor(document.id, block.id, 0, 10))
    for answer in (
        asker.ask(at_anchor, LOCAL),
        asker.ask(Question(asked, documents=(document,)), LOCAL),
    ):
        assert (answer.status, answer.answer) == ("not_covered", NOT_COVERED[words])
        assert_in_script(answer.explanation, words)  # "在所給文件中沒有找到：火山爆發。"
        assert_in_script(answer.searched[-1], words)


@pytest.mark.parametrize("words", [TRADITIONAL, "zh"])
def test_the_chat_answers_in_the_question_s_script(library: Library, words: str) -> None:
    """The knowledge-base chat, offline: its notice, a refusal and the counts."""
    added(library, words)
    agent = make_chat_agent(library)
    refused = agent.ask(ChatRequest(UNCOVERED[words], LOCAL))
    assert (refused.status, refused.answer) == ("not_covered", NOT_COVERED[words])
    assert refused.notes == (OFFLINE_NOTE[words],)
    counted = agent.ask(ChatRequest(COUNTS[words], LOCAL))
    assert counted.answer == stats_sentence(1, 1, words)
