"""The shipped KB evaluation set (benchmarks/kb): at least 150 items over the seven
categories, every asker a corpus user, every gold document a corpus document, private
questions asked by one who may see the document and one who may not, no RGB text kept,
and (slow) every gold snippet verbatim in a chunk of its document as the real parsers
and chunker make it."""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

from askalong.config import Settings
from askalong.evaluate.kb_corpus import KbCorpus, load_kb_corpus, materialised
from askalong.evaluate.kb_items import CATEGORIES, KbItem, load_items
from askalong.evaluate.kb_run import may_see
from askalong.ingest.pipeline import settings_chunks
from askalong.parse.guard import read_bytes
from askalong.text.fold import fold, fold_excerpt

KB = Path(__file__).resolve().parents[2] / "benchmarks" / "kb"


@pytest.fixture(scope="module")
def shipped(evaldata: Path) -> tuple[KbCorpus, tuple[KbItem, ...]]:
    return load_kb_corpus(KB / "corpus.json", evaldata), load_items(KB / "items.jsonl")


def test_the_set_covers_the_seven_categories(shipped: tuple[KbCorpus, tuple[KbItem, ...]]) -> None:
    corpus, items = shipped
    assert len(items) >= 150
    counts = collections.Counter(i.category for i in items)
    assert all(counts[c] >= 10 for c in CATEGORIES if c != "from_feedback"), counts
    keys = {d.key for d in corpus.documents}
    users = {u.name for u in corpus.users}
    for item in items:
        assert item.asker is None or item.asker in users, item.id
        assert all(g.document in keys for g in item.gold_evidence), item.id
        assert not any(g.document.startswith("rag/rgb/") for g in item.gold_evidence), item.id
        assert (item.expected == "refuse") == (
            item.category == "no_answer" or _hidden(corpus, item)
        )
        assert item.gold_evidence or item.expected == "refuse", item.id


def _hidden(corpus: KbCorpus, item: KbItem) -> bool:
    documents = {d.key: d for d in corpus.documents}
    golds = [documents[g.document] for g in item.gold_evidence]
    return bool(golds) and not any(may_see(corpus, d, item.asker) for d in golds)


def test_private_questions_come_in_pairs(shipped: tuple[KbCorpus, tuple[KbItem, ...]]) -> None:
    _, items = shipped
    private = [i for i in items if i.category == "private"]
    by_question = collections.defaultdict(set)
    for item in private:
        by_question[item.question].add(item.expected)
    assert all(found == {"answer", "refuse"} for found in by_question.values())


@pytest.mark.slow
def test_every_gold_snippet_is_verbatim_in_a_chunk(
    shipped: tuple[KbCorpus, tuple[KbItem, ...]],
    evaldata: Path,
    settings: Settings,
    tmp_path: Path,
) -> None:
    corpus, items = shipped
    documents = {d.key: d for d in corpus.documents}
    wanted = collections.defaultdict(set)
    for item in items:
        for gold in item.gold_evidence:
            wanted[gold.document].add(gold.text)
    missing = []
    for key, snippets in sorted(wanted.items()):
        path = materialised(documents[key], evaldata, tmp_path)
        parsed = read_bytes(path.read_bytes(), None, source=key)
        chunks = [
            fold(c.text) for c in settings_chunks(settings, "d", parsed.blocks, parsed.format)
        ]
        missing += [(key, s) for s in snippets if not any(fold_excerpt(s) in c for c in chunks)]
    assert not missing
