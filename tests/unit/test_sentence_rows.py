"""The candidates as the learned scorer's features see them (``sentence_rows``): a code
block reads with the piece right above it, its lead-in or its heading."""

from __future__ import annotations

from tests.unit.test_answer_choice import unit_of

from askalong.answer.extractive.candidates import Candidate, candidates
from askalong.answer.extractive.sentence_rows import as_sentences
from askalong.answer.scorer.features import COLUMNS, sentence_features
from askalong.parse.flow import markdown

DOC = """# Packages

## Listing files

To see every file an installed package put on the system, run

```bash
dpkg --listfiles foo
```

Other tools:

- apt show foo
- apt-cache policy foo

## Installing

```bash
apt-get install foo
```
"""
QUESTION = "How do I see every file an installed package put on the system?"


def _found() -> list[Candidate]:
    doc = markdown.parse(DOC.encode(), source="packages.md")
    return candidates([unit_of([(b.kind, b.text) for b in doc.blocks])])


def test_a_code_block_is_one_passage_with_the_piece_above_it() -> None:
    found = _found()
    sentences = as_sentences(found)
    at = {c.text.strip(): s for c, s in zip(found, sentences, strict=True)}
    lead = at["To see every file an installed package put on the system, run"]
    code = at["dpkg --listfiles foo"]
    assert (code.passage, code.index) == (lead.passage, lead.index + 1)
    install = at["apt-get install foo"]
    assert (install.passage, install.index) == (at["Installing"].passage, 1)  # its heading's
    items = [at["apt show foo"], at["apt-cache policy foo"]]
    assert len({s.passage for s in items}) == 2  # list items stand alone
    assert lead.passage not in {s.passage for s in items}


def test_the_command_under_its_lead_in_holds_the_question_in_its_window() -> None:
    found = _found()
    rows = sentence_features(QUESTION, as_sentences(found))
    k = [c.text.strip() for c in found].index("dpkg --listfiles foo")
    own, window = rows[k, COLUMNS.index("coverage")], rows[k, COLUMNS.index("coverage_window")]
    assert own < 0.1 < window  # read alone, its window was its own words only
