"""The triage benchmark's own code on its cases (issue 16): every cited quote is in a
chunk of its real document, and the offline triage labels at least 85 % as built."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmark_module import benchmark_module

pytestmark = pytest.mark.slow  # ingests ten documents (about 15 s)


def test_triage_accuracy_on_the_built_cases(tmp_path: Path, evaldata: Path) -> None:
    triage = benchmark_module("triage")
    cases = triage.load_cases()
    assert len(cases) >= 40 and {c["cause"] for c in cases} == {
        "retrieval_miss", "retrieval_fault", "generation_fault",
    }  # fmt: skip
    outcomes = triage.run(tmp_path / "home", cases, evaldata)
    right = sum(o.cause == o.label for o in outcomes)
    assert right / len(outcomes) >= 0.85
