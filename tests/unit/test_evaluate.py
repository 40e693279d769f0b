"""Retrieval evaluation: the real collections load with their published counts, the
metrics match hand-worked values and trec_eval, and the runner scores a fake search."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Collection, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
import pytrec_eval

from askalong.errors import CorruptDocument, InputError, Unreadable
from askalong.evaluate import (
    CorpusDocument,
    EvalQuery,
    RetrievalCorpus,
    RetrievalReport,
    Unit,
    document_units,
    evaluate_retrieval,
    hit_at_k,
    load_dataset,
    mean,
    mrr_at_k,
    ndcg_at_k,
    recall_at_k,
    report_json,
    to_markdown_rows,
)
from askalong.evaluate.datasets import parse_sentence_list

# ----------------------------------------------------------------------------- datasets


@pytest.fixture(scope="module")
def scifact(evaldata: Path) -> RetrievalCorpus:
    return load_dataset(evaldata / "retrieval" / "scifact")


@pytest.fixture(scope="module")
def xquad_en(evaldata: Path) -> RetrievalCorpus:
    return load_dataset(evaldata / "qa" / "xquad" / "xquad.en.json")


@pytest.fixture(scope="module")
def xquad_zh(evaldata: Path) -> RetrievalCorpus:
    return load_dataset(evaldata / "qa" / "xquad" / "xquad.zh.json")


def test_scifact_has_the_beir_test_counts(scifact: RetrievalCorpus) -> None:
    assert scifact.name == "scifact"
    assert scifact.granularity == "document"
    assert scifact.language == "en"
    assert len(scifact.documents) == 5183
    assert len({doc.key for doc in scifact.documents}) == 5183
    assert len(scifact.queries) == 300
    assert len({query.id for query in scifact.queries}) == 300
    assert scifact.judgement_count == 339
    keys = {doc.key for doc in scifact.documents}
    assert all(
        unit.document in keys and unit.paragraph is None
        for q in scifact.queries
        for unit in q.relevant
    )


def test_scifact_abstract_sentences_are_joined_with_spaces(scifact: RetrievalCorpus) -> None:
    doc = next(doc for doc in scifact.documents if doc.key == "4983")
    assert doc.title.startswith("Microstructural development of human newborn cerebral")
    assert len(doc.paragraphs) == 1
    assert doc.paragraphs[0].startswith("Alterations of the architecture of cerebral white")
    # NumPy printed the sentences without commas: they must not be glued together.
    assert "functional disabilities. A line scan diffusion-weighted" in doc.paragraphs[0]
    assert all(len(d.paragraphs) == 1 and d.paragraphs[0] for d in scifact.documents)


def test_scifact_claims_keep_all_cited_documents(scifact: RetrievalCorpus) -> None:
    by_id = {query.id: query for query in scifact.queries}
    assert by_id["1"].text == "0-dimensional biomaterials show inductive properties."
    assert by_id["1"].relevant == {Unit("31715818")}
    assert max(len(query.relevant) for query in scifact.queries) > 1


def test_sentence_list_parsing_evaluates_only_literals() -> None:
    assert parse_sentence_list("['It\\'s one.'\n 'Two \"quoted\".']", source="t") == [
        "It's one.",
        'Two "quoted".',
    ]
    assert parse_sentence_list("['a', 'b']", source="t") == ["a", "b"]
    for hostile in ("[__import__('os').getcwd()]", "[b'bytes']", "[f'{1+1}']", "['open"):
        with pytest.raises(CorruptDocument):
            parse_sentence_list(hostile, source="t")


def test_xquad_en_and_zh_are_parallel(xquad_en: RetrievalCorpus, xquad_zh: RetrievalCorpus) -> None:
    for corpus, language in ((xquad_en, "en"), (xquad_zh, "zh")):
        assert corpus.granularity == "paragraph"
        assert corpus.language == language
        assert len(corpus.documents) == 48
        assert corpus.paragraph_count == 240
        assert len(corpus.queries) == 1190
    assert [d.key for d in xquad_en.documents] == [d.key for d in xquad_zh.documents]
    assert [len(d.paragraphs) for d in xquad_en.documents] == [
        len(d.paragraphs) for d in xquad_zh.documents
    ]
    assert [(q.id, q.relevant) for q in xquad_en.queries] == [
        (q.id, q.relevant) for q in xquad_zh.queries
    ]
    assert xquad_en.queries[0].text != xquad_zh.queries[0].text


def test_squad_gold_answers_are_kept_at_their_offsets(xquad_en: RetrievalCorpus) -> None:
    paragraphs = {
        (d.key, i): text for d in xquad_en.documents for i, text in enumerate(d.paragraphs)
    }
    for query in xquad_en.queries:
        (unit,) = query.relevant
        assert unit.paragraph is not None
        context = paragraphs[unit.document, unit.paragraph]
        assert query.answers
        for answer in query.answers:
            assert context[answer.start : answer.start + len(answer.text)] == answer.text


def test_cmrc2018_dev_counts(evaldata: Path) -> None:
    corpus = load_dataset(evaldata / "qa" / "cmrc2018" / "cmrc2018_dev.json")
    assert (corpus.name, corpus.language) == ("cmrc2018_dev", "zh")
    assert corpus.paragraph_count == 848
    assert len(corpus.queries) == 3219
    # CMRC repeats some titles: the document keys must still be unique.
    assert len({doc.key for doc in corpus.documents}) == len(corpus.documents)
    assert max(len(query.answers) for query in corpus.queries) == 3


def test_drcd_dev_counts(evaldata: Path) -> None:
    corpus = load_dataset(evaldata / "qa" / "drcd" / "DRCD_dev.json")
    assert (corpus.name, corpus.language) == ("DRCD_dev", "zh")
    assert len(corpus.documents) == 383
    assert corpus.paragraph_count == 1000
    assert len(corpus.queries) == 3524
    assert len({query.id for query in corpus.queries}) == 3524


def _write_json(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_squad_skips_impossible_questions_and_keys_repeated_titles(tmp_path: Path) -> None:
    def article(question_id: str, **extra: object) -> dict[str, object]:
        qa = {"id": question_id, "question": "Who?", "answers": [], **extra}
        return {"title": "Same", "paragraphs": [{"context": "Ada wrote it.", "qas": [qa]}]}

    answered = {"answers": [{"text": "Ada", "answer_start": 0}]}
    data = {
        "version": "v2.0",
        "data": [
            article("a", **answered),
            article("b", **answered, is_impossible=True),
            article("c"),  # no answer: nothing to retrieve
        ],
    }
    corpus = load_dataset(_write_json(tmp_path / "tiny.json", data))
    assert [query.id for query in corpus.queries] == ["a"]
    assert len({doc.key for doc in corpus.documents}) == 3
    assert corpus.queries[0].relevant == {Unit(corpus.documents[0].key, 0)}


@pytest.mark.parametrize(
    "content",
    [json.dumps({"questions": []}), json.dumps({"data": [{"title": "t"}]}), "not json at all"],
)
def test_unknown_file_layout_is_an_input_error(tmp_path: Path, content: str) -> None:
    path = tmp_path / "mystery.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_dataset(path)
    assert caught.value.source == str(path)
    assert "SQuAD" in caught.value.message and "SciFact" in caught.value.message


def test_unknown_folder_and_missing_path(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"corpus_train\.csv"):
        load_dataset(tmp_path)
    with pytest.raises(Unreadable):
        load_dataset(tmp_path / "nowhere.json")


def test_malformed_squad_entry_is_corrupt(tmp_path: Path) -> None:
    paragraph = {"context": "x", "qas": [{"id": "q", "question": "?", "answers": [{"text": "x"}]}]}
    path = _write_json(tmp_path / "bad.json", {"data": [{"title": "t", "paragraphs": [paragraph]}]})
    with pytest.raises(CorruptDocument) as caught:
        load_dataset(path)
    assert caught.value.source == str(path)


# ----------------------------------------------------------------------------- metrics

LOG2_3 = math.log2(3)


@pytest.mark.parametrize(
    ("ranked", "relevant", "expected"),
    [
        # DCG = 1 + 1/log2(4) = 1.5; IDCG = 1 + 1/log2(3) = 1.6309; 1.5 / 1.6309 = 0.91972
        (["a", "x", "b", "y"], {"a", "b"}, 0.919721),
        # DCG = 1/log2(4) = 0.5; IDCG = 1
        (["x", "y", "a"], {"a"}, 0.5),
        # DCG = 1/log2(3) = 0.63093; IDCG = 1 + 0.63093 + 0.5 = 2.13093 -> 0.29608
        (["x", "a"], {"a", "b", "c"}, 0.296082),
        # the relevant id at rank 11 is past the cut
        ([*"xxxxxxxxxx", "a"], {"a"}, 0.0),
        # 12 relevant ids: the ideal list holds only k = 10 of them
        ([f"r{i}" for i in range(10)], {f"r{i}" for i in range(12)}, 1.0),
        # a repeated id gains once: DCG = 1 + 1/log2(4), as in the first case
        (["a", "a", "b"], {"a", "b"}, 0.919721),
        ([], {"a"}, 0.0),
        (["a"], set(), 0.0),
    ],
)
def test_ndcg_at_10_by_hand(ranked: list[str], relevant: set[str], expected: float) -> None:
    assert ndcg_at_k(ranked, relevant, 10) == pytest.approx(expected, abs=1e-6)


def test_ndcg_closed_forms() -> None:
    assert ndcg_at_k(["x", "a", "b"], {"a", "b"}) == pytest.approx(
        (1 / LOG2_3 + 1 / 2) / (1 + 1 / LOG2_3)
    )
    assert ndcg_at_k(["x", "a"], {"a"}, k=1) == 0.0


def test_recall_mrr_hit_by_hand() -> None:
    ranked = ["a", "x", "b", "y"]
    relevant = {"a", "b", "c"}
    assert recall_at_k(ranked, relevant, 1) == pytest.approx(1 / 3)
    assert recall_at_k(ranked, relevant, 2) == pytest.approx(1 / 3)
    assert recall_at_k(ranked, relevant, 3) == pytest.approx(2 / 3)
    assert recall_at_k(["a", "a"], relevant, 2) == pytest.approx(1 / 3)
    assert mrr_at_k(["x", "y", "a"], {"a"}, 10) == pytest.approx(1 / 3)
    assert mrr_at_k(["x", "y", "a"], {"a"}, 2) == 0.0
    assert hit_at_k(["x", "b"], {"a", "b"}, 2) == 1.0
    assert hit_at_k(["x", "b"], {"a", "b"}, 1) == 0.0
    assert mean([1.0, 0.0, 0.5]) == 0.5
    with pytest.raises(ValueError):
        mean([])


def test_metrics_agree_with_trec_eval() -> None:
    """Oracle: pytrec_eval (trec_eval's own C code) on 200 random rankings."""
    rng = random.Random(7)
    docs = [f"d{i}" for i in range(40)]
    qrels: dict[str, dict[str, int]] = {}
    runs: dict[str, dict[str, float]] = {}
    ours: dict[str, tuple[float, float, float, float]] = {}
    for n in range(200):
        qid = f"q{n}"
        relevant = set(rng.sample(docs, rng.randint(1, 12)))
        ranked = rng.sample(docs, rng.randint(1, 25))
        qrels[qid] = {doc: 1 for doc in relevant}
        runs[qid] = {doc: float(100 - rank) for rank, doc in enumerate(ranked)}
        first = mrr_at_k(ranked, relevant, len(ranked))
        ours[qid] = (
            ndcg_at_k(ranked, relevant, 10),
            recall_at_k(ranked, relevant, 5),
            recall_at_k(ranked, relevant, 10),
            first,
        )
    measures = {"ndcg_cut.10", "recall.5", "recall.10", "recip_rank"}
    theirs = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(runs)
    for qid, values in ours.items():
        t = theirs[qid]
        expected = (t["ndcg_cut_10"], t["recall_5"], t["recall_10"], t["recip_rank"])
        assert values == pytest.approx(expected, abs=1e-9), qid


# ----------------------------------------------------------------------------- runner


def test_gold_first_for_half_the_queries_gives_recall1_one_half(xquad_en: RetrievalCorpus) -> None:
    # XQuAD repeats a few question texts; the id prefix lets the fake search tell them apart.
    corpus = replace(
        xquad_en, queries=tuple(replace(q, text=f"{q.id} {q.text}") for q in xquad_en.queries)
    )
    queries = corpus.queries
    gold = {query.text: query.relevant for query in queries}
    answered = {query.text for query in queries[::2]}
    done: list[int] = []

    def search(text: str) -> list[frozenset[Unit]]:
        # Per rank, the set of units the item covers: here the gold paragraph itself.
        return [gold[text]] if text in answered else []

    report = evaluate_retrieval(
        corpus, search, unit_of=lambda units: units, mode="fake", progress=done.append
    )
    assert report.queries == 1190
    assert report.recall1 == 0.5
    assert report.recall10 == 0.5
    assert report.mrr10 == 0.5
    assert report.ndcg10 == 0.5
    assert done == list(range(1, 1191))
    assert len(report.misses) == 595
    assert set(report.misses) == {q.id for q in queries[1::2]}
    assert report.dataset == "xquad.en" and report.mode == "fake"
    assert report.queries_per_second > 0


def _paragraph_corpus() -> RetrievalCorpus:
    doc = CorpusDocument("art", "Article", tuple(f"paragraph {i}" for i in range(6)))
    query = EvalQuery("q1", "where?", frozenset({Unit("art", 3)}))
    return RetrievalCorpus("tiny", "en", "paragraph", (doc,), (query,))


def test_a_chunk_covering_the_gold_paragraph_counts() -> None:
    chunks = {
        "c01": {Unit("art", 0), Unit("art", 1)},
        "c234": {Unit("art", 2), Unit("art", 3), Unit("art", 4)},
        "whole": {Unit("art")},
    }

    def unit_of(chunk_id: str) -> Collection[Unit]:
        return chunks[chunk_id]

    report = evaluate_retrieval(_paragraph_corpus(), lambda _: ["c01", "c234"], unit_of=unit_of)
    assert (report.recall1, report.recall5, report.mrr10) == (0.0, 1.0, 0.5)
    assert report.ndcg10 == pytest.approx(1 / LOG2_3)
    # A whole-document item finds no paragraph.
    whole = evaluate_retrieval(_paragraph_corpus(), lambda _: ["whole"], unit_of=unit_of)
    assert whole.recall10 == 0.0 and whole.misses == ("q1",)


def test_document_level_pools_chunks_of_one_document() -> None:
    documents = tuple(CorpusDocument(key, key, ("text",)) for key in ("d1", "d2", "d3"))
    queries = (
        EvalQuery("q1", "one", frozenset({Unit("d2")})),
        EvalQuery("q2", "two", frozenset({Unit("d1"), Unit("d3")})),
        EvalQuery("unjudged", "three", frozenset()),
    )
    corpus = RetrievalCorpus("docs", "en", "document", documents, queries)
    rankings = {"one": ["d1#a", "d1#b", "d2#a"], "two": ["d3#a", "d2#a", "d3#b"], "three": []}

    def search(text: str) -> Sequence[str]:
        return rankings[text]

    report = evaluate_retrieval(corpus, search, unit_of=lambda chunk: document_units(chunk[:2]))
    # q1: documents ranked d1, d2 -> d2 at rank 2 (not 3); q2: d3 found, d1 not.
    assert report.queries == 2
    assert report.mrr10 == pytest.approx((1 / 2 + 1) / 2)
    assert report.recall1 == pytest.approx((0 + 1 / 2) / 2)
    assert report.recall10 == pytest.approx((1 + 1 / 2) / 2)
    assert report.ndcg10 == pytest.approx((1 / LOG2_3 + 1 / (1 + 1 / LOG2_3)) / 2)


def test_no_judged_query_gives_no_metrics() -> None:
    corpus = RetrievalCorpus("empty", "en", "document", (), ())
    report = evaluate_retrieval(corpus, lambda _: [], unit_of=document_units)
    assert report.queries == 0
    assert report.ndcg10 is None and report.recall1 is None and report.mrr10 is None


def test_markdown_table_groups_modes_by_dataset() -> None:
    def report(dataset: str, mode: str, value: float | None) -> RetrievalReport:
        return RetrievalReport(dataset, mode, 10, value, value, value, value, value, 12.345)

    table = to_markdown_rows(
        [
            report("scifact", "keyword", 0.6543),
            report("xquad.zh", "keyword", None),
            report("scifact", "hybrid", 0.7),
        ]
    )
    lines = table.strip().splitlines()
    assert lines[0] == "| dataset | mode | queries | nDCG@10 | R@1 | R@5 | R@10 | MRR@10 | q/s |"
    assert lines[1].startswith("| --- | --- | ---: |")
    assert [line.split(" | ")[:2] for line in lines[2:]] == [
        ["| scifact", "keyword"],
        ["| scifact", "hybrid"],
        ["| xquad.zh", "keyword"],
    ]
    assert "| 0.654 |" in lines[2] and lines[2].endswith("| 12.3 |")
    assert "| — |" in lines[4]


def test_report_json_has_the_documented_keys_without_the_misses() -> None:
    """``eval retrieval --json`` (README): the metrics in order; triage stays out."""
    report = RetrievalReport("scifact", "hybrid", 10, 0.7, 0.5, 0.8, 0.9, 0.6, 12.3, ("q1",))
    assert list(report_json(report)) == [
        "dataset", "mode", "queries", "ndcg10", "recall1", "recall5", "recall10", "mrr10",
        "queries_per_second",
    ]  # fmt: skip
    assert report_json(report)["ndcg10"] == 0.7
