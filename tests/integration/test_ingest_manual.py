"""The long-document case: the whole PostgreSQL 15 manual (1174 files) goes in."""

from __future__ import annotations

from pathlib import Path

import pytest

from askalong.config import Settings
from askalong.ingest.inputs import expand_inputs
from askalong.ingest.pipeline import Ingestor
from askalong.store.backends import open_store
from askalong.types import Access

MANUAL = Path("manuals/postgresql-15-html")


@pytest.mark.slow
def test_whole_manual_ingests_with_sections(settings: Settings, evaldata: Path) -> None:
    expanded = expand_inputs([str(evaldata / MANUAL)])
    items = [item for item in expanded if isinstance(item, str)]
    assert items == expanded  # nothing skipped: no links out, every folder readable
    assert len(items) >= 1160  # the HTML pages; the stylesheet and images are not documents
    with open_store(settings) as store, Ingestor(settings, store) as ingestor:
        outcomes = [ingestor.add(item, Access.local()) for item in items]
        failed = [o.error for o in outcomes if o.status == "failed"]
        assert failed == []
        documents = {Path(d.source).name: d for d in store.list_documents(Access.local())}
        assert len(documents) == len(items)
        select = store.blocks(documents["sql-select.html"].id)
        chunks = store.chunks(documents["sql-select.html"].id)
    headings = [b.text for b in select if b.kind == "heading"]
    assert "SELECT" in headings and "Description" in headings
    assert any(c.section_path[-1:] == ("Description",) for c in chunks)
    assert all(not c.text.startswith(("Prev", "Next")) for c in chunks)
