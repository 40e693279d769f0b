"""OCR of image-only pages: text quality against ground truth, and geometry.

Two real scans, a few pages in all: the English two-column ``linn_2col_scan.pdf`` (one
page, with a ground-truth text) and page 1 of the Chinese book scan, cut out into its
own PDF. The word-gap and error-rate helpers are checked on small made-up cases.
"""

from __future__ import annotations

import itertools
import re
from functools import cache
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from benchmark_module import benchmark_module

from askalong.parse.ocr.quality import edit_distance, error_rates
from askalong.parse.ocr.words import ink_gaps, restore_spaces
from askalong.parse.pdf.parser import parse
from askalong.types import ParsedDocument


def _layout() -> ModuleType:
    return benchmark_module("layout")


@cache
def _linn(evaldata: Path) -> ParsedDocument:
    path = evaldata / "pdf" / "scanned" / "linn_2col_scan.pdf"
    return parse(path.read_bytes(), source=path.name)


@cache
def _zh_page(evaldata: Path) -> ParsedDocument:
    data = _layout().one_page(evaldata / "pdf" / "scanned" / "mineru_small_ocr_zh.pdf", 0)
    return parse(data, source="zh_page1.pdf")


# --- helpers on made-up input --------------------------------------------------------


def test_edit_distance_matches_the_textbook_cases() -> None:
    assert edit_distance("kitten", "sitting") == 3
    assert edit_distance("", "abc") == 3
    assert edit_distance("flaw", "lawn") == 2
    assert edit_distance(["a", "b"], ["a", "b"]) == 0
    long_one = "ab" * 300
    assert edit_distance(long_one, long_one[1:]) == 1


def test_error_rates_with_and_without_white_space() -> None:
    rates = error_rates("Operationis similar", "Operation is similar")
    assert rates.cer == pytest.approx(1 / 20)  # one space missing
    assert rates.cer_no_space == 0.0
    assert rates.wer == pytest.approx(2 / 3)


def test_ink_gaps_and_spaces_restored() -> None:
    # Three "letters" of 4 px with 1 px gaps, then an 8 px gap, then two more letters.
    line = np.full((20, 40), 255, dtype=np.uint8)
    for left in (0, 5, 10, 23, 28):
        line[4:16, left : left + 4] = 0
    gaps = ink_gaps(line)
    assert gaps == [(14.0, 23.0)]
    cells = [(0, 4), (5, 9), (10, 14), (23, 27), (28, 32)]
    assert restore_spaces("theis", cells, gaps) == "the is"
    assert restore_spaces("我们的书", cells[:4], gaps) == "我们的书"  # no spaces in Chinese
    assert restore_spaces("the is", cells, gaps) == "the is"  # lengths differ: untouched


# --- real scans -------------------------------------------------------------------


def test_linn_scan_character_error_rate(evaldata: Path) -> None:
    parsed = _linn(evaldata)
    reference = (evaldata / "pdf" / "scanned" / "linn_2col_scan.gt.txt").read_text()
    rates = error_rates(_layout().page_text(parsed), reference)
    # Measured 0.031 with spaces, 0.023 without, WER 0.154 (benchmarks/results/layout-*).
    assert rates.cer <= 0.04, rates
    assert rates.cer_no_space <= 0.035, rates
    assert rates.wer <= 0.2, rates
    text = " ".join(block.text for block in parsed.blocks)
    assert "Operation is similar to multi-track tape recorder" in text
    assert parsed.ocr_pages == (1,) and "read by OCR" in parsed.notices[0]


def test_chinese_scan_page_has_known_characters(evaldata: Path) -> None:
    parsed = _zh_page(evaldata)
    text = "".join(block.text for block in parsed.blocks)
    for phrase in ("物的有用性使物成为使用价值", "交换价值首先表现为量的关系", "商品和货币"):
        assert phrase in text
    body = "".join(b.text for b in parsed.blocks if b.kind == "paragraph")
    assert not re.search(r"[\u4e00-\u9fff] [\u4e00-\u9fff]", body)


def test_ocr_blocks_have_exact_geometry(evaldata: Path) -> None:
    for parsed in (_linn(evaldata), _zh_page(evaldata)):
        assert parsed.blocks
        width, height = parsed.page_sizes[0]
        for block in parsed.blocks:
            assert block.id == f"b{block.order}" and block.page == 1
            assert block.boxes[0].start == 0 and block.boxes[-1].end == len(block.text)
            for prev, box in itertools.pairwise(block.boxes):
                assert box.start in (prev.end, prev.end + 1)
            for box in block.boxes:
                assert 0 <= box.x0 < box.x1 <= width and 0 <= box.top < box.bottom <= height
                assert isinstance(box.x0, float)


def test_selection_on_a_scan_maps_to_its_line(evaldata: Path) -> None:
    parsed = _linn(evaldata)
    block = next(b for b in parsed.blocks if "To record a sequence" in b.text)
    start = block.text.index("To record a sequence")
    line = next(box for box in block.boxes if box.start <= start < box.end)
    # The phrase opens the left column's "Recording a Sequence" section: left half, mid page.
    assert line.x1 < parsed.page_sizes[0][0] / 2 + 20
    assert 250 < line.top < 450


def test_with_ocr_off_scans_say_so_not_that_ocr_is_missing(evaldata: Path) -> None:
    path = evaldata / "pdf" / "scanned" / "linn_2col_scan.pdf"
    parsed = parse(path.read_bytes(), source=path.name, ocr=False)
    assert parsed.blocks == () and parsed.ocr_pages == (1,)
    assert parsed.notices == (
        "1 of 1 pages is a scanned image left unread (OCR was off for this file)",
    )


def test_ocr_budget_leaves_pages_for_later(evaldata: Path) -> None:
    path = evaldata / "pdf" / "scanned" / "linn_2col_scan.pdf"
    parsed = parse(path.read_bytes(), source=path.name, ocr_budget=0.0)
    assert parsed.blocks == () and parsed.unread_pages == (1,)  # the reader offers to read it
    assert "1 of 1 pages is a scanned image" in parsed.notices[0]
