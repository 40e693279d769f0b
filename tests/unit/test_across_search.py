"""Search across languages (issue 32): a question in the other language than the
documents it names is taken as asked across (``AskedQuestion.across``) and fused with the
keyword route's share for that case (``RetrievalPolicy.zscore_keyword_share_across``)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tests.unit.test_retrieve import keyword_hits, vector_hits

from askalong.asking.question import AskedQuestion
from askalong.errors import ConfigError
from askalong.question.reading import read_question
from askalong.retrieve.policy import RetrievalPolicy
from askalong.retrieve.ranking import fuse, fused_ranking
from askalong.types import Document


def document(language: str) -> Document:
    return Document(
        id=f"doc-{language}", content_hash="h", title="t", source="s", format="markdown",
        language=language, page_count=1, size_bytes=1, created="2026-01-01T00:00:00+00:00",
    )  # fmt: skip


def asked(question: str, *languages: str) -> AskedQuestion:
    documents = tuple(replace(document(lang), id=f"d{i}") for i, lang in enumerate(languages))
    return AskedQuestion(question, read_question(question), "ask", None, documents)


def test_a_question_in_the_other_language_than_its_documents_is_asked_across() -> None:
    assert asked("这个路由器的默认密码是什么？", "en").across
    assert asked("What does the manual say about the default password?", "zh", "zh").across
    assert not asked("这个路由器的默认密码是什么？", "zh").across
    assert not asked("What is the default password?", "en").across
    # one document in the question's own language, a mixed one, or none named: not across
    assert not asked("这个路由器的默认密码是什么？", "en", "zh").across
    assert not asked("这个路由器的默认密码是什么？", "mixed").across
    assert not asked("这个路由器的默认密码是什么？").across


def test_across_the_keyword_route_gets_the_across_share() -> None:
    policy = RetrievalPolicy(zscore_keyword_share_zh=0.5, zscore_keyword_share_across=0.1)
    assert policy.keyword_share("zh", across=True) == 0.1
    assert policy.keyword_share("en", across=True) == 0.1
    assert policy.keyword_share("zh") == 0.5
    with pytest.raises(ConfigError, match="zscore_keyword_share_across"):
        RetrievalPolicy(zscore_keyword_share_across=1.5)


def test_across_the_vector_routes_favourite_leads_the_fusion() -> None:
    # "a" holds the question's one borrowed Latin term ("X200") many times; "b" is what
    # the question means. Same-language Chinese fusion (share 0.5) puts "a" first.
    policy = RetrievalPolicy(weak_vector_shift=0.0)
    keyword = keyword_hits(*"acdb", scores=[9.0, 3.0, 2.5, 2.0])
    vector = vector_hits(*"bcad", scores=[0.86, 0.80, 0.79, 0.78])
    same = fused_ranking(keyword, vector, policy, language="zh")
    across = fused_ranking(keyword, vector, policy, language="zh", across=True)
    assert same[0].chunk_id == "a"
    assert across[0].chunk_id == "b"
    cut = fuse(keyword, vector, policy, k_max=1, language="zh", across=True)
    assert [hit.chunk_id for hit in cut] == ["b"]
