"""The keyword index: BM25 on real English and Chinese text, the permission and document
filters inside the query, replacement, deletion, persistence and hostile queries. Who sees
what is the shared permission matrix's (``test_permissions.py``)."""

from __future__ import annotations

import itertools
import json
import math
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import pytest
import tantivy
from keyword_routes import ROUTES, KeywordRoutes, Opener
from pg_cluster import pg_pool

from askalong.errors import StoreError
from askalong.index.keyword import MAX_QUERY_TERMS, KeywordIndex, search_grams, search_tokens
from askalong.index.pg_keyword import PostgresKeywordRoute
from askalong.types import Access, Chunk, Document, Hit, Visibility
from conftest import slow_on_postgres


def make_document(
    doc_id: str,
    *,
    owner: str = "local",
    visibility: Visibility = "private",
    org_tags: tuple[str, ...] = (),
) -> Document:
    return Document(
        id=doc_id,
        content_hash=doc_id,
        title=doc_id,
        source=f"{doc_id}.txt",
        format="text",
        language="und",
        page_count=0,
        size_bytes=0,
        created="2024-01-01T00:00:00Z",
        owner=owner,
        visibility=visibility,
        org_tags=org_tags,
    )


def make_chunks(doc_id: str, *texts: str) -> list[Chunk]:
    return [
        Chunk(id=f"{doc_id}:{n}", document_id=doc_id, order=n, spans=(), text=text)
        for n, text in enumerate(texts)
    ]


def index_texts(index: KeywordRoutes, doc_id: str, *texts: str, **document: object) -> None:
    index.add(make_document(doc_id, **document), make_chunks(doc_id, *texts))  # type: ignore[arg-type]


def chunk_ids(hits: list[Hit]) -> list[str]:
    return [hit.chunk_id for hit in hits]


# ----------------------------------------------------------------------------- real text


@dataclass(frozen=True)
class Question:
    text: str
    chunk_id: str


def load_squad(path: Path, index: KeywordRoutes, articles: int) -> list[Question]:
    """Index each article as a document, one chunk per paragraph; return its questions."""
    data = json.loads(path.read_text(encoding="utf-8"))["data"][:articles]
    questions, entries = [], []
    for a, article in enumerate(data):
        doc_id = f"{path.stem}-{a}"
        texts = [paragraph["context"] for paragraph in article["paragraphs"]]
        entries.append((make_document(doc_id, visibility="public"), make_chunks(doc_id, *texts)))
        for p, paragraph in enumerate(article["paragraphs"]):
            questions += [Question(qa["question"], f"{doc_id}:{p}") for qa in paragraph["qas"]]
    index.add_many(entries)
    return questions


@pytest.fixture(scope="module", params=[slow_on_postgres(name) for name in ROUTES])
def squad(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, evaldata: Path
) -> Iterator[tuple[KeywordRoutes, dict[str, list[Question]]]]:
    with ExitStack() as stack:
        index: KeywordRoutes
        if request.param == "embedded":
            index = KeywordIndex(tmp_path_factory.mktemp("squad"))
        else:
            index = PostgresKeywordRoute(
                stack.enter_context(pg_pool(request.getfixturevalue("pg_url")))
            )
        qa = evaldata / "qa"
        sets = {
            "xquad.en": load_squad(qa / "xquad" / "xquad.en.json", index, 48),
            "xquad.zh": load_squad(qa / "xquad" / "xquad.zh.json", index, 48),
            "cmrc2018": load_squad(qa / "cmrc2018" / "cmrc2018_dev.json", index, 150),
        }
        yield index, sets


@pytest.mark.slow  # ~1,000 questions over two backends: make test, not make check
@pytest.mark.parametrize(
    ("name", "min_top1", "min_top5"),
    [("xquad.en", 0.88, 0.96), ("xquad.zh", 0.88, 0.96), ("cmrc2018", 0.9, 0.97)],
)
def test_question_finds_its_paragraph(
    squad: tuple[KeywordRoutes, dict[str, list[Question]]],
    name: str,
    min_top1: float,
    min_top5: float,
) -> None:
    index, sets = squad
    questions = sets[name]
    ranks = []
    for question in questions:
        found = chunk_ids(index.search(question.text, Access(user="anyone"), limit=5))
        ranks.append(found.index(question.chunk_id) + 1 if question.chunk_id in found else 0)
    top1 = sum(rank == 1 for rank in ranks) / len(ranks)
    top5 = sum(rank >= 1 for rank in ranks) / len(ranks)
    assert len(questions) > 300
    assert top1 >= min_top1, f"{name}: top-1 {top1:.3f}"
    assert top5 >= min_top5, f"{name}: top-5 {top5:.3f}"


def test_easy_questions_rank_their_paragraph_first(
    squad: tuple[KeywordRoutes, dict[str, list[Question]]],
) -> None:
    index, sets = squad
    easy = {
        "xquad.en": "How many career sacks did Jared Allen have?",
        "xquad.zh": "贾里德在职业生涯中有多少次擒杀？",
        "cmrc2018": "《战国无双3》是由哪两个公司合作开发的？",
    }
    for name, text in easy.items():
        (asked,) = [question for question in sets[name] if question.text == text]
        hits = index.search(text, Access.local(), limit=3)
        assert hits[0].chunk_id == asked.chunk_id, text
        assert hits[0].keyword_rank == 1 and hits[0].mode == "keyword"
        assert hits[0].keyword_score == hits[0].score > hits[1].score


def test_long_query_is_ranked(
    squad: tuple[KeywordRoutes, dict[str, list[Question]]],
) -> None:
    index, sets = squad
    text = " ".join(q.text for q in sets["xquad.en"])[:10_000]
    assert len(set(search_tokens(text))) > MAX_QUERY_TERMS
    hits = index.search(text, Access.local(), limit=150)
    assert hits and [hit.keyword_rank for hit in hits] == list(range(1, len(hits) + 1))
    assert all(a.score >= b.score for a, b in itertools.pairwise(hits))


def test_long_query_keeps_its_rarest_terms(open_route: Opener) -> None:
    index = open_route()
    common = [f"common{i}" for i in range(2 * MAX_QUERY_TERMS)]
    index_texts(index, "a", " ".join(common))
    index_texts(index, "b", " ".join(common))
    index_texts(index, "c", "a unicorn")
    # The one discriminating term comes last, after more than the cap of common ones.
    # Keeping the first terms would lose it and never find "c".
    hits = index.search(" ".join([*common, "unicorn"]), Access.local())
    assert {hit.document_id for hit in hits} == {"a", "b", "c"}


# ----------------------------------------------------------------------------- BM25 oracle


def reference_bm25(corpus: dict[str, str], query: str) -> dict:
    """The sum of both fields' BM25: the word field, and the grams field that only text
    with Chinese has (a document without it counts in N and in the average length)."""
    scores: dict[str, float] = {}
    for tokens in (search_tokens, search_grams):
        for name, score in field_bm25(corpus, query, tokens).items():
            scores[name] = scores.get(name, 0.0) + score
    return {name: score for name, score in scores.items() if score > 0}


def field_bm25(
    corpus: dict[str, str],
    query: str,
    tokens: Callable[[str], list[str]],
    k1: float = 1.2,
    b: float = 0.75,
) -> dict[str, float]:
    """BM25 as Lucene/tantivy define it: idf = ln(1 + (N - n + 0.5) / (n + 0.5)),
    tf part = f (k1 + 1) / (f + k1 (1 - b + b dl / avgdl)), summed over distinct terms."""
    docs = {name: Counter(tokens(text)) for name, text in corpus.items()}
    lengths = {name: sum(counts.values()) for name, counts in docs.items()}
    avgdl = sum(lengths.values()) / len(docs)
    scores = {}
    for name, counts in docs.items():
        score = 0.0
        for term in set(tokens(query)):
            n = sum(term in other for other in docs.values())
            f = counts[term]
            if f:
                idf = math.log(1 + (len(docs) - n + 0.5) / (n + 0.5))
                norm = k1 * (1 - b + b * lengths[name] / avgdl)
                score += idf * f * (k1 + 1) / (f + norm)
        scores[name] = score
    return scores


def test_bm25_matches_a_reference_implementation(open_route: Opener) -> None:
    corpus = {
        "d0": "The cat sat on the mat with another cat.",
        "d1": "Dogs chase cats; a cat runs up a tree.",
        "d2": "A quiet tree stands over the river bank.",
        "d3": "Rivers flood banks when rain falls for days and days.",
        "d4": "猫坐在垫子上，狗在追猫。",
        "d5": "河岸边有一棵安静的树。",
    }
    index = open_route()
    for name, text in corpus.items():
        index_texts(index, name, text)
    queries = ("cat tree", "river bank rain", "猫 树", "dogs chasing cats on a river bank")
    for query in (*queries, "安静的树在河边", "狗追 cat"):
        expected = reference_bm25(corpus, query)
        hits = index.search(query, Access.local())
        got = {hit.document_id: hit.keyword_score for hit in hits}
        assert got.keys() == expected.keys(), query
        for name, score in expected.items():
            assert got[name] == pytest.approx(score, rel=1e-4), (query, name)
        assert chunk_ids(hits) == [f"{n}:0" for n in sorted(expected, key=lambda n: -expected[n])]


def test_chinese_scores_on_both_fields(open_route: Opener) -> None:
    index = open_route()
    corpus = {"zh": "河岸边有一棵安静的树。", "en": "A quiet tree by the river."}
    for name, text in corpus.items():
        index_texts(index, name, text)
    [hit] = index.search("安静的树", Access.local())
    # The word field alone would give less: the grams field adds its own BM25.
    words_only = field_bm25(corpus, "安静的树", search_tokens)
    assert hit.document_id == "zh" and hit.keyword_score is not None
    assert hit.keyword_score > words_only["zh"] > 0


def test_traditional_and_simplified_chinese_find_each_other(open_route: Opener) -> None:
    index = open_route()
    index_texts(index, "hant", "國立臺灣大學資訊工程學系成立於一九七七年。")
    index_texts(index, "hans", "上海交通大学电子信息学院设有计算机系。")
    index_texts(index, "other", "长江是亚洲第一长河。")
    assert search_tokens("資訊工程學系") == search_tokens("资讯工程学系") == ["资讯", "工程学系"]
    # A question meets a passage in the other script as it meets one in its own.
    hant = index.search("資訊工程學系成立於哪一年", Access.local())
    hans = index.search("资讯工程学系成立于哪一年", Access.local())
    assert hant[0].document_id == "hant"
    assert [(h.document_id, pytest.approx(h.keyword_score)) for h in hant] == [
        (h.document_id, h.keyword_score) for h in hans
    ]


def test_an_index_of_an_older_schema_is_emptied(tmp_path: Path) -> None:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("text", tokenizer_name="whitespace", index_option="freq")
    old = tantivy.Index(builder.build(), path=str(tmp_path))
    writer = old.writer()
    writer.add_document(tantivy.Document(text="zebra"))
    writer.commit()
    writer.wait_merging_threads()
    del old, writer
    index = KeywordIndex(tmp_path)
    assert index.document_ids() == set()
    index_texts(index, "a", "zebra")
    assert visible(index, Access.local()) == {"a"}


# ----------------------------------------------------------------------------- filters


@pytest.fixture
def shared_index(open_route: Opener) -> KeywordRoutes:
    index = open_route()
    text = "Zebra migration crosses the river."
    index_texts(index, "alice-private", text, owner="alice")
    index_texts(index, "bob-private", text, owner="bob")
    index_texts(index, "bob-org", text, owner="bob", visibility="org", org_tags=("lab", "ops"))
    index_texts(index, "carol-public", text, owner="carol", visibility="public")
    return index


def visible(index: KeywordRoutes, access: Access) -> set[str]:
    return {hit.document_id for hit in index.search("zebra river", access)}


def test_permission_filter_is_inside_the_query(open_route: Opener) -> None:
    index = open_route()
    index_texts(index, "hidden", "zebra zebra zebra stripes", owner="bob")
    index_texts(index, "open", "a zebra among many other animals in a large park", owner="x",
                visibility="public")  # fmt: skip
    assert index.search("zebra", Access.local(), limit=1)[0].document_id == "hidden"
    only = index.search("zebra", Access(user="alice"), limit=1)
    assert [(hit.document_id, hit.keyword_rank) for hit in only] == [("open", 1)]


def test_filters_do_not_change_bm25(shared_index: KeywordRoutes) -> None:
    everything = {h.chunk_id: h.score for h in shared_index.search("zebra", Access.local())}
    filtered = shared_index.search("zebra", Access(user="dave", orgs=("lab",)))
    assert filtered and all(hit.score == everything[hit.chunk_id] for hit in filtered)


def test_document_filter(shared_index: KeywordRoutes) -> None:
    access = Access.local()
    only = shared_index.search("zebra", access, documents={"bob-org", "carol-public"})
    assert {hit.document_id for hit in only} == {"bob-org", "carol-public"}
    assert shared_index.search("zebra", access, documents=[]) == []
    both = shared_index.search(
        "zebra", Access(user="alice"), documents=["bob-org", "alice-private"]
    )
    assert {hit.document_id for hit in both} == {"alice-private"}
    one = shared_index.search("zebra", access, documents=["bob-org"], limit=1)
    assert chunk_ids(one) == ["bob-org:0"]


# ----------------------------------------------------------------------------- lifecycle


def test_re_add_replaces_the_document(open_route: Opener) -> None:
    index = open_route()
    index_texts(index, "d", "old words about apples", "more apples")
    index_texts(index, "d", "new words about pears")
    assert index.search("apples", Access.local()) == []
    assert chunk_ids(index.search("pears", Access.local())) == ["d:0"]
    index_texts(index, "d", "new words about pears")
    assert len(index.search("words", Access.local())) == 1


def test_re_add_updates_permissions(open_route: Opener) -> None:
    index = open_route()
    index_texts(index, "d", "plans", owner="bob")
    assert index.search("plans", Access(user="alice")) == []
    index_texts(index, "d", "plans", owner="bob", visibility="public")
    assert chunk_ids(index.search("plans", Access(user="alice"))) == ["d:0"]


def test_delete(open_route: Opener) -> None:
    index = open_route()
    index_texts(index, "a", "shared term alpha")
    index_texts(index, "b", "shared term beta")
    index.delete("a")
    index.delete("never-indexed")
    assert index.document_ids() == {"b"}
    # Deleted entries are not merged away yet: neither listing may count them.
    assert index.document_ids(among={"a", "b", "never-indexed"}) == {"b"}
    assert {hit.document_id for hit in index.search("shared", Access.local())} == {"b"}


def test_persistence_after_reopening(open_route: Opener) -> None:
    index = open_route()
    index_texts(index, "a", "persistent lighthouse keeper")
    index_texts(index, "b", "temporary tent")
    index.delete("b")
    reopened = open_route()
    assert reopened.document_ids() == {"a"}
    assert chunk_ids(reopened.search("lighthouse", Access.local())) == ["a:0"]
    index_texts(reopened, "c", "another lighthouse")
    # The first instance sees what the second one committed.
    assert {hit.document_id for hit in index.search("lighthouse", Access.local())} == {"a", "c"}


def test_document_ids_includes_documents_without_searchable_text(open_route: Opener) -> None:
    index = open_route()
    assert index.document_ids() == set()
    index_texts(index, "punctuation", "。，！ ... ---")
    assert index.document_ids() == {"punctuation"}
    assert index.document_ids(Access.local(), among=["punctuation"]) == {"punctuation"}


# ----------------------------------------------------------------------------- hostile queries


def test_stop_words_only_query_returns_nothing(shared_index: KeywordRoutes) -> None:
    for query in ("the of and", "的 了 是", "。，？！...", ""):
        assert shared_index.search(query, Access.local()) == []


def test_query_syntax_is_plain_text(shared_index: KeywordRoutes) -> None:
    for query in ("title:x AND (", "*", '"', "zebra OR", "owner:bob", "a:[* TO *]", "\\", "^2~"):
        shared_index.search(query, Access(user="alice"))
    hits = shared_index.search('zebra AND ( owner:bob "', Access(user="alice"))
    assert {hit.document_id for hit in hits} == {"alice-private", "carol-public"}


def test_ten_thousand_character_query(shared_index: KeywordRoutes) -> None:
    query = ("zebra " + "lorem ipsum dolor " * 50 + "x" * 500 + " ") * 10
    query = query[:10_000]
    hits = shared_index.search(query, Access.local())
    assert {hit.document_id for hit in hits} >= {"carol-public"}
    huge_word = "z" * 10_000
    assert shared_index.search(huge_word, Access.local()) == []


def test_a_damaged_index_is_a_store_error_on_use(tmp_path: Path) -> None:
    KeywordIndex(tmp_path).add(make_document("a"), make_chunks("a", "text"))
    (tmp_path / "meta.json").write_text("not json", encoding="utf-8")
    damaged = KeywordIndex(tmp_path)  # opening alone does not raise: listing must still work
    with pytest.raises(StoreError, match=r"cannot open the keyword index.*doctor --repair"):
        damaged.search("text", Access.local())
    with pytest.raises(StoreError, match="cannot open the keyword index"):
        damaged.add(make_document("b"), make_chunks("b", "more"))


def test_a_writer_in_another_instance_is_waited_for(tmp_path: Path) -> None:
    first, second = KeywordIndex(tmp_path), KeywordIndex(tmp_path)
    blocker = tantivy.Index(tantivy.Index.open(str(tmp_path)).schema, path=str(tmp_path))
    holder = blocker.writer(heap_size=15_000_000, num_threads=1)
    releaser = threading.Timer(0.3, holder.wait_merging_threads)  # releases the lock
    releaser.start()
    index_texts(first, "a", "waited")
    releaser.join()
    assert chunk_ids(second.search("waited", Access.local())) == ["a:0"]
