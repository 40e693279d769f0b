"""A script under ``benchmarks/`` loaded as a module, so a test can run a real sample of
the benchmark's own code (the scripts are not a package)."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

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
