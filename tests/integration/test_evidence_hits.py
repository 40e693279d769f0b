"""The evidence a question without an anchor gathers names a hit for every passage the
answerer reads, top-up chunks included (issue 32): the learned answerer's passage model
weighs each passage by its hits, and skipped its choice when one had none."""

from __future__ import annotations

from pathlib import Path

from tests.integration.test_follow_ups import run_json

from askalong.asking.evidence import gather
from askalong.asking.evidence_search import ANSWER_CHUNKS
from askalong.asking.question import AskedQuestion
from askalong.config import Settings
from askalong.library import opened_library
from askalong.question.reading import read_question
from askalong.retrieve.policy import RetrievalPolicy
from askalong.retrieve.search import Searcher
from askalong.types import Access

TOPICS = (
    ("Easy sudoku puzzles", "Easy sudoku puzzles give thirty or more starting digits."),
    ("Harder sudoku puzzles", "Harder puzzles give fewer digits and need the X-wing."),
    ("Crosswords", "A crossword fills its grid with words from clues, across and down."),
    ("Kakuro", "Kakuro puzzles ask for digits that add up to each run's clue."),
    ("Hiking trails", "The harder trails climb eight hundred metres above the valley."),
    ("Ridge routes", "The ridge routes need a rope and an early start in summer."),
    ("Chess problems", "A chess problem asks for mate in a given number of moves."),
    ("Logic grids", "Logic grid puzzles match people to houses from a list of facts."),
    ("Jigsaw puzzles", "Jigsaw puzzles of a thousand pieces take a weekend to finish."),
    ("Starting fires", "Starting a camp fire needs dry kindling and a windbreak."),
)
# A document of short sections, several sharing the question's words.
GUIDE = "# Weekend guide\n\n" + "\n\n".join(
    f"## {title}\n\n{text} " + " ".join([text] * 3) for title, text in TOPICS
)
QUESTION = "How many starting digits do easy sudoku puzzles give?"


def test_every_passage_read_has_its_hits_in_the_evidence(
    settings: Settings, tmp_path: Path
) -> None:
    path = tmp_path / "guide.md"
    path.write_text(GUIDE, encoding="utf-8")
    run_json("add", str(path))
    asked = AskedQuestion(QUESTION, read_question(QUESTION), "ask", None, (), ())
    with opened_library() as library:
        # a strict cut: the keyword list's first chunk alone (1 / (60 + 1) = 0.0164)
        policy = RetrievalPolicy(keyword_only_threshold=0.0162)
        searcher = Searcher(library.store, library.searcher.routes, policy)
        first = searcher.search(QUESTION, Access.local(), k_max=ANSWER_CHUNKS)
        evidence = gather(library.store, searcher, asked, Access.local())
    hit_chunks = {hit.chunk_id for hit in evidence.hits}
    retrieved = [u for u in evidence.units if u.origin == "retrieved"]
    assert len(retrieved) > len(first.hits)  # the keyword tail topped the search up
    for unit in retrieved:
        assert hit_chunks & set(unit.chunk_ids), unit.text
    ranked = [hit.keyword_rank for hit in evidence.hits[len(first.hits) :]]
    assert all(rank is not None for rank in ranked) and ranked == sorted(ranked)
