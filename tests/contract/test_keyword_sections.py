"""The keyword route's sections: titles searched as their own field, a document's own
index and glossary pages pointing at sections, sibling chunks lifting their section."""

from __future__ import annotations

from dataclasses import replace

import pytest
from keyword_routes import KeywordRoutes, Opener
from tests.contract.test_keyword_index import make_document

from askalong.types import Access, Chunk, Hit


def add(
    index: KeywordRoutes, doc_id: str, title: str, *sections: tuple[tuple[str, ...], str]
) -> None:
    document = replace(make_document(doc_id), title=title)
    chunks = [
        Chunk(f"{doc_id}:{n}", doc_id, n, (), text, section_path=path)
        for n, (path, text) in enumerate(sections)
    ]
    index.add(document, chunks)


@pytest.fixture
def manual(open_route: Opener) -> KeywordRoutes:
    index = open_route()
    add(index, "iso", "13.2. Transaction Isolation",
        ((), "The standard defines four levels; read committed is the default."))  # fmt: skip
    add(index, "wal", "30.3. Write-Ahead Logging",
        ((), "Each transaction writes its changes to the log before the data files."))  # fmt: skip
    add(index, "agg", "9.21. Aggregate Functions",
        ((), "count, sum and avg compute one result from many rows."))  # fmt: skip
    add(index, "idx", "Index",
        (("Index", "D"), "deadlock, Deadlocks\ndirty read, Transaction Isolation"),
        (("Index", "S"), "savepoints, SAVEPOINT"))  # fmt: skip
    add(index, "glo", "Appendix M. Glossary",
        ((), "Aggregate function (routine)\nA function that combines many input values."
             "\nFor more information, see Section 9.21."))  # fmt: skip
    return index


def documents(hits: list[Hit]) -> list[str]:
    return [hit.document_id for hit in hits]


def test_a_section_title_is_searched(manual: KeywordRoutes) -> None:
    # "isolation" is only in the title of the page that is about it.
    assert documents(manual.search("transaction isolation", Access.local()))[0] == "iso"
    manual.sections = False
    assert "iso" not in documents(manual.search("transaction isolation", Access.local()))


def test_the_index_page_points_at_its_section(manual: KeywordRoutes) -> None:
    found = documents(manual.search("what is a dirty read?", Access.local()))
    # The entry "dirty read, Transaction Isolation" leads to a page without those words;
    # the index page itself is no answer.
    assert found == ["iso"]
    manual.sections = False
    assert documents(manual.search("what is a dirty read?", Access.local()))[0] == "idx"


def test_a_glossary_points_by_section_number(manual: KeywordRoutes) -> None:
    found = documents(manual.search("aggregate function", Access.local()))
    assert set(found) == {"agg", "glo"}  # a glossary definition is itself an answer


def test_sibling_chunks_lift_their_section(open_route: Opener) -> None:
    index = open_route()
    add(index, "a", "Vacuum",
        (("Space",), "Dead rows leave space behind."),
        (("Space",), "Reclaiming space from dead rows is routine work."),
        (("Space",), "The space of dead rows is reused later."))  # fmt: skip
    add(index, "b", "Storage", (("Pages",), "Dead rows and free space: dead rows, dead rows."))
    index.sections = False
    plain = index.search("dead rows space", Access.local())
    index.sections = True
    lifted = index.search("dead rows space", Access.local())
    assert documents(plain)[0] == "b"
    assert documents(lifted)[0] == "a"
