"""Explain / Example / Compare on the learned scorer (issue 32): the shipped model's best
sentence for the selection's key terms answers, never the selection or a repeat of it;
the rules scorer keeps the rule path."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from model_caches import seeded

from askalong.answer.base import Draft, DraftRequest
from askalong.answer.extractive.answerer import ExtractiveAnswerer
from askalong.answer.extractive.intent_learned import intent_candidates
from askalong.answer.scorer.model import shipped_scorer
from askalong.answer.shape import shaped
from askalong.context.material import Selection
from askalong.context.units import ContextUnit, places_of
from askalong.providers.base import Embedder
from askalong.question.reading import read_question
from askalong.settings import SentenceScorerName, Settings
from askalong.types import CHUNK_JOINER, Block, BlockSpan, Intent

SECTION = ("Guide", "Links")
LINKS = [
    "Files live in directories, and a directory maps names to inodes.",
    "An inode records the owner, the size and the blocks of a file.",
    "A hard link is a second name for the same inode.",
    "Both names are equal: neither is the original.",
    "Removing one name leaves the file reachable through the other.",
    "Quotas limit how many blocks each user may fill.",
    "A symbolic link, unlike a hard link, stores the path of its target and breaks when "
    "the target is deleted.",
    "Backups copy every directory once a night.",
    "In short, a hard link is a second name for the same inode.",
]
PAGING = [
    "系统启动后会挂载所有本地磁盘分区。",
    "每个进程都有自己独立的虚拟地址空间。",
    "内存紧张时，内核按 LRU 策略回收页面。",
    "调度器按照优先级为进程分配处理器时间。",
    "LRU 即最近最少使用：最长时间没有被访问的页面最先被回收。",
    "日志轮转每周压缩一次旧的日志文件。",
    "网络接口的配置保存在单独的文件里。",
]


@pytest.fixture(scope="module")
def embedder(tmp_path_factory: pytest.TempPathFactory, model_caches: Path) -> Embedder:
    """The bundled embedder, as the product answers with it."""
    from askalong.providers.local.embedder import default_embedder

    return default_embedder(Settings(home=seeded(tmp_path_factory.mktemp("intents"), model_caches)))


def units_of(texts: Sequence[str], selected: str) -> list[ContextUnit]:
    """The anchor unit (the selected block and its neighbours), then one retrieved unit
    per other block, as evidence gathering hands them over."""
    blocks = [Block(f"b{k}", "paragraph", t, k, SECTION, page=1) for k, t in enumerate(texts)]
    at = list(texts).index(selected)
    near = blocks[max(at - 1, 0) : at + 2]
    spans = tuple(BlockSpan(b.id, 0, len(b.text)) for b in near)
    cited = (BlockSpan(blocks[at].id, 0, len(selected)),)
    text = CHUNK_JOINER.join(b.text for b in near)
    anchor = ContextUnit("doc", (), text, spans, cited, SECTION, 1, 1, "anchor", None)
    units = [ContextUnit(**{**anchor.__dict__, "places": places_of(near)})]
    for block in blocks:
        if block not in near:
            span = (BlockSpan(block.id, 0, len(block.text)),)
            unit = ContextUnit("doc", (), block.text, span, span, SECTION, 1, 1, "retrieved", 0.5)
            units.append(ContextUnit(**{**unit.__dict__, "places": places_of([block])}))
    return units


def draft(
    intent: Intent,
    question: str,
    units: Sequence[ContextUnit],
    embedder: Embedder,
    scorer: SentenceScorerName = "learned",
) -> Draft:
    answerer = ExtractiveAnswerer(embedder, scorer=scorer)
    return answerer.draft(DraftRequest(read_question(question), intent, tuple(units)))


def direct_spans(answer: Draft) -> list[BlockSpan]:
    """The spans of the quotes the direct answer cites."""
    cited = [q for q in answer.quotes if f"[{q.number}]" in answer.answer]
    return [BlockSpan(q.block_id, q.start, q.end) for q in cited]


def test_an_explain_never_answers_with_the_selection_or_its_repeat(embedder: Embedder) -> None:
    selected = LINKS[2]
    answer = draft("explain", "Explain this.", units_of(LINKS, selected), embedder)
    assert answer.status == "answered"
    # the summary's repeat of the selection holds every key term: the scorer's favourite
    assert "second name for the same inode" not in answer.answer, answer.answer
    assert BlockSpan("b2", 0, len(selected)) not in direct_spans(answer)
    assert direct_spans(answer), answer.answer


def test_a_compare_shows_the_contrast_sentence_beside_it(embedder: Embedder) -> None:
    """The contrast written right after the selection is in the direct answer, quoted
    beside the selection, and not spent as the scorer's best sentence (which is taken
    among the others: ``intent_learned._may_stand``)."""
    texts = [*LINKS[:2], LINKS[2], LINKS[6], *LINKS[3:6], *LINKS[7:]]
    units = units_of(texts, LINKS[2])
    answer = draft("compare", "How does this differ from related ideas?", units, embedder)
    direct = shaped(answer.answer).direct
    assert "Around the selection: A symbolic link, unlike a hard link" in direct, direct
    assert not direct.startswith("A symbolic link"), direct


def test_a_chinese_explain_answers_from_the_neighbour_on_its_term(embedder: Embedder) -> None:
    texts = [*PAGING[:3], PAGING[4], PAGING[3], *PAGING[5:]]
    answer = draft("explain", "解释这段内容。", units_of(texts, PAGING[2]), embedder)
    assert answer.answer.startswith("LRU 即最近最少使用"), answer.answer
    assert PAGING[2] not in answer.answer


def test_the_shipped_intent_heads_weigh_nearness_and_what_a_sentence_names() -> None:
    """Readers' Explain / Example / Compare answers sit beside their selection far more
    often than the term's best match elsewhere (DEV selections, each set left out: the rank
    head's best sentence held the gold 8 / 17 / 17 times, the intent heads' 38 / 34 / 19):
    at an equal rank score the neighbour comes first, and of two neighbours the one
    naming the selection's terms."""
    scorer = shipped_scorer()

    def row(near: float, own: float, names: float) -> list[float]:
        return [1.0, near, 1.0, 0.0, own, names, near * names]  # PLACE's order

    places = np.array([row(1.0, 1.0, 0.0), row(0.2, 0.0, 0.0), row(1.0, 1.0, 1.0)])
    for intent in ("explain", "example", "compare"):
        neighbour, far, naming = scorer.intent_scores(intent, np.zeros(3), places, True)
        assert neighbour > far and naming > neighbour, intent
    lexical = scorer.intent_scores("explain", np.arange(3.0), places, False)
    assert list(lexical) == [0.0, 1.0, 2.0]  # no head without vectors: the rank order


def test_the_rules_scorer_keeps_the_rule_path(embedder: Embedder) -> None:
    """ "LRU 即…" is no definition the rules' cues know: they say the document does not
    define it, where the learned scorer answers with it."""
    units = units_of(PAGING, PAGING[2])
    ruled = draft("explain", "解释这段内容。", units, embedder, scorer="rules")
    assert ruled.answer.startswith("文档在所选内容之外没有定义“LRU”"), ruled.answer


def test_a_compare_looks_past_the_words_it_quotes_beside_the_selection() -> None:
    """A Compare's answer quotes the sentence after the selection anyway: its best sentence
    is taken among the others, the contrast the reader asked for (each DEV set left out,
    Compare 67 -> 72 of 129); an Explain may still lead with that neighbour."""
    units = units_of(LINKS, LINKS[2])
    selection = Selection(LINKS[2], (BlockSpan("b2", 0, len(LINKS[2])),))
    for intent, kept in (("compare", False), ("explain", True)):
        scored = intent_candidates(intent, "Compare this.", selection, units)
        assert scored is not None
        texts = [c.text for c in scored[0]]
        assert (LINKS[3] in texts) is kept and LINKS[6] in texts, (intent, texts)
