"""The KB evaluation's scores on hand-computed cases: the ranking of cited chunks against
gold evidence, refusals, leaks (a leak-free private item scores 0, a deliberately leaking
result 1), the per-category means and the items file's errors."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from askalong.errors import InputError
from askalong.evaluate.kb_items import GoldEvidence, KbItem, load_items
from askalong.evaluate.kb_metrics import CitedChunk, Outcome, ranking_scores, score_item
from askalong.evaluate.kb_report import report_json, summarise, to_markdown

DOC_A, DOC_B = "manuals/a.html", "papers/b.pdf"


def _item(*evidence: tuple[str, str], expected: str = "answer", asker: str | None = None) -> KbItem:
    return KbItem(
        id="i1",
        question="q?",
        category="summary" if len(evidence) > 1 else "single_fact",
        expected=expected,  # type: ignore[arg-type]
        gold_evidence=tuple(GoldEvidence(d, t) for d, t in evidence),
        asker=asker,
    )


def _chunk(cid: str, text: str, document: str = DOC_A) -> CitedChunk:
    return CitedChunk(cid, document, text)


def test_one_gold_found_second_scores_half_mrr() -> None:
    item = _item((DOC_A, "The default is 128MB"))
    cited = [_chunk("c1", "Something else."), _chunk("c2", "Note: the default  is 128MB, or less.")]
    recall, mrr, ndcg = ranking_scores(item, cited)
    assert recall == 1.0
    assert mrr == 0.5
    assert ndcg == pytest.approx(1 / math.log2(3))


def test_two_golds_one_found_first() -> None:
    item = _item((DOC_A, "alpha fact"), (DOC_B, "beta fact"))
    cited = [_chunk("c1", "alpha fact here"), _chunk("c2", "beta fact", DOC_A)]  # wrong doc
    recall, mrr, ndcg = ranking_scores(item, cited)
    assert recall == 0.5
    assert mrr == 1.0
    assert ndcg == pytest.approx(1 / (1 + 1 / math.log2(3)))


def test_a_chunk_repeated_counts_once_and_a_gold_chunk_id_is_relevant() -> None:
    item = KbItem("i", "q?", "single_fact", "answer", gold_chunk_ids=("c9",))
    cited = [_chunk("c1", "x"), _chunk("c1", "x"), _chunk("c9", "anything")]
    recall, mrr, _ = ranking_scores(item, cited)
    assert (recall, mrr) == (1.0, 0.5)  # c9 is second once the repeat is dropped


def test_nothing_beyond_the_fifth_counts() -> None:
    item = _item((DOC_A, "gold"))
    cited = [_chunk(f"c{i}", "no") for i in range(5)] + [_chunk("c5", "gold")]
    assert ranking_scores(item, cited) == (0.0, 0.0, 0.0)


def test_refusal_scores_and_no_ranking_for_refuse_items() -> None:
    item = _item(expected="refuse")
    refused = score_item(item, Outcome("i1", True, "not covered", ()), {})
    answered = score_item(item, Outcome("i1", False, "an answer", ()), {})
    assert refused.correct_refusal and not answered.correct_refusal
    assert refused.recall is None and refused.mrr is None


def test_private_item_refused_without_a_trace_has_no_leak() -> None:
    item = _item((DOC_B, "the secret figure is 49%"), expected="refuse", asker="bob")
    visible = {DOC_A: True, DOC_B: False}
    outcome = Outcome("i1", True, "The documents do not cover this.", ())
    assert score_item(item, outcome, visible).leaks == 0


def test_a_cited_hidden_chunk_is_one_leak() -> None:
    item = _item((DOC_B, "the secret figure is 49%"), expected="refuse", asker="bob")
    visible = {DOC_A: True, DOC_B: False}
    leaking = Outcome(
        "i1",
        False,
        "It is 49% [1].",
        (_chunk("c1", "public text"), _chunk("c7", "the secret figure is 49%", DOC_B)),
    )
    score = score_item(item, leaking, visible)
    assert (score.leaks, score.leaked) == (1, (DOC_B,))


def test_a_hidden_snippet_written_in_the_answer_is_a_leak() -> None:
    item = _item((DOC_B, "the secret figure is 49%"), expected="refuse", asker="bob")
    outcome = Outcome("i1", False, "The Secret figure is 49% (quoted).", ())
    assert score_item(item, outcome, {DOC_B: False}).leaks == 1


def test_category_means_skip_what_does_not_apply() -> None:
    found = score_item(_item((DOC_A, "gold")), Outcome("a", False, "x", (_chunk("c", "gold"),)), {})
    missed = score_item(_item((DOC_A, "gold")), Outcome("b", True, "", ()), {})
    rows = {r.category: r for r in summarise([found, missed])}
    assert rows["single_fact"].recall == 0.5 and rows["single_fact"].refusal_accuracy == 0.5
    assert rows["single_fact"].citation_precision is None
    assert "| single_fact | 2 | 0.000 | 0.500 |" in to_markdown(list(rows.values()))


def test_the_right_chunk_with_the_wrong_sentence_is_no_answer_hit() -> None:
    item = _item((DOC_A, "The default is typically 128 megabytes"))
    chunk = _chunk(
        "c1", "wal_buffers is 1/32nd of shared_buffers. The default is typically 128 megabytes."
    )
    wrong = score_item(
        item, Outcome("i1", False, "It is 1/32nd of shared_buffers. [1]", (chunk,)), {}
    )
    right = score_item(
        item, Outcome("i1", False, "The default is typically 128 megabytes. [1]", (chunk,)), {}
    )
    assert (wrong.recall, wrong.answer_hit) == (1.0, 0.0)
    assert (right.recall, right.answer_hit) == (1.0, 1.0)


def test_the_answer_hit_reads_the_direct_answer_across_markers_and_never_a_refusal() -> None:
    item = _item((DOC_A, "alpha fact. Beta fact"), (DOC_B, "gamma fact"))
    across = Outcome("i1", False, "Alpha fact. [1] Beta fact. [2]", ())
    assert score_item(item, across, {}).answer_hit == 0.5  # one of two gold snippets
    refused = Outcome("i1", True, "alpha fact. beta fact. gamma fact", ())
    assert score_item(item, refused, {}).answer_hit == 0.0
    only_ids = KbItem("i", "q?", "single_fact", "answer", gold_chunk_ids=("c9",))
    assert score_item(only_ids, across, {}).answer_hit is None  # no text to hold


def test_a_part_question_repeated_in_the_answer_is_not_the_answer() -> None:
    item = _item((DOC_A, "gamma fact"))
    parts = "1. Is gamma fact true?\nNo idea. [1]\n\n2. And beta?\nBeta holds. [2]"
    outcome = Outcome("i1", False, parts, (), direct="No idea. [1]\n\nBeta holds. [2]")
    assert score_item(item, outcome, {}).answer_hit == 0.0
    assert score_item(item, Outcome("i1", False, parts, ()), {}).answer_hit == 1.0


def test_the_report_gives_the_answer_hit_beside_the_cited_chunk_hit() -> None:
    found = score_item(
        _item((DOC_A, "gold")), Outcome("a", False, "gold [1]", (_chunk("c", "gold"),)), {}
    )
    quoted = score_item(
        _item((DOC_A, "gold")), Outcome("b", False, "other [1]", (_chunk("c", "gold"),)), {}
    )
    rows = summarise([found, quoted])
    assert "| answer hit | Recall@5 |" in to_markdown(rows)
    assert "| single_fact | 2 | 0.500 | 1.000 |" in to_markdown(rows)
    report = report_json(rows, [found, quoted])
    assert report["categories"][0]["answer_hit"] == 0.5
    assert [i["answer_hit"] for i in report["items"]] == [1.0, 0.0]


def test_a_bad_item_line_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "items.jsonl"
    good = '{"id": "a", "question": "q?", "category": "single_fact", "expected": "answer"}'
    path.write_text(good + "\n" + good.replace('"a"', '"b"').replace("single_fact", "trivia"))
    with pytest.raises(InputError, match="category 'trivia'") as caught:
        load_items(path)
    assert caught.value.source == f"{path}:2"
