"""A script under ``benchmarks/`` loaded as a module, so a test can run a real sample of
the benchmark's own code (the scripts are not a package)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@cache
def benchmark_module(name: str) -> ModuleType:
    """``benchmarks/<name>.py``, loaded once per test session."""
    if str(BENCHMARKS) not in sys.path:  # a script imports its sibling modules by name, as
        sys.path.append(str(BENCHMARKS))  # run it finds them beside it (appended: no shadowing)
    spec = importlib.util.spec_from_file_location(f"{name}_benchmark", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def dev_outcomes(home: Path, items: Sequence[Any]) -> list[Any]:
    """A dev set's items asked as ``benchmarks/answers.py`` asks them (its library under
    ``home``, vectors for the files only), after checking every gold phrase is in its
    document: the outcomes, in order."""
    answers = benchmark_module("answers")
    library, ids = answers.open_corpus(
        home, [d for i in items for d in i.documents], vectors="files"
    )
    with library:
        assert answers.check(library, ids, items) == []  # every gold phrase is in its document
        return list(answers.ask_all(library, ids, items))
