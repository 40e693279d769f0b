"""The "Compare with…" suggestions (``context/compare_targets.py``) on real papers: names
near the selection that it does not hold itself, then the other sections' titles, nearest
first; never the selection's own words."""

from __future__ import annotations

from pathlib import Path

from samples import parsed_pdf_blocks

from askalong.context.anchor import locate_anchor
from askalong.context.compare_targets import MAX_TARGETS, compare_targets
from askalong.types import Anchor

SPECTER = Path("pdf", "en_2col", "2020.acl-main.207.pdf")


def targets(evaldata: Path, selection: str | None, paper: Path = SPECTER) -> list[str]:
    blocks = parsed_pdf_blocks(evaldata / paper)
    located = None
    if selection is not None:
        located = locate_anchor(blocks, Anchor("paper", None, None, None, selection))
    return compare_targets(blocks, located)


def test_a_selection_is_offered_names_near_it_then_other_headings(evaldata: Path) -> None:
    found = targets(evaldata, "We used citations to build triplets for our loss function")
    assert 0 < len(found) <= MAX_TARGETS and found[0] == "SCIDOCS"  # named beside it
    assert "Related Work" in found  # the section just before
    assert not any("Future Work" in t for t in found)  # its own section is no target
    assert not {"citations", "triplets"} & {t.lower() for t in found}


def test_without_a_selection_the_headings_are_offered(evaldata: Path) -> None:
    found = targets(evaldata, None)
    assert "Selecting Negative Distractors" in found or len(found) == MAX_TARGETS
    assert all(not t[:1].isdigit() for t in found)  # "2.4 …" shows as its title


def test_a_chinese_paper_offers_chinese_targets(evaldata: Path) -> None:
    paper = Path("pdf", "zh", "elegantpaper-cn.pdf")
    blocks = parsed_pdf_blocks(evaldata / paper)
    body = next(b for b in blocks if b.kind == "paragraph" and len(b.text) > 60)
    found = compare_targets(blocks, locate_anchor(blocks, Anchor("paper", body.id)))
    assert found and any(not t.isascii() for t in found)
