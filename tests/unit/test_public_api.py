"""The public API is a deliberate ``__all__``: sorted, complete, resolvable, and cheap to import.

Modelled on httpx's ``test_exported_members``: every public name of the package is in
``__all__`` and nothing else is.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from types import ModuleType

import askalong
from askalong import errors, types


def test_all_is_sorted_without_repeats() -> None:
    assert askalong.__all__ == sorted(set(askalong.__all__))


def test_every_exported_name_resolves() -> None:
    missing = [name for name in askalong.__all__ if not hasattr(askalong, name)]
    assert not missing


def test_every_public_name_is_exported() -> None:
    # Submodules become attributes of the package once imported; they are not names of it.
    public = {
        name
        for name, value in vars(askalong).items()
        if not name.startswith("_") and not isinstance(value, ModuleType)
    }
    assert public == set(askalong.__all__)


def test_every_value_type_and_error_is_exported() -> None:
    """A new dataclass in ``types`` or a new error joins the API, or the curation says why not."""
    defined = {
        name
        for module in (types, errors)
        for name, value in vars(module).items()
        if inspect.isclass(value) and value.__module__ == module.__name__
    }
    assert defined <= set(askalong.__all__), defined - set(askalong.__all__)


def test_the_imports_the_docstring_shows_work() -> None:
    """The working objects stay out of ``__all__``; the docstring says where they are."""
    shown = re.findall(
        r"^ +from (askalong[\w.]*) import ([\w, ]+?)\s+#", askalong.__doc__ or "", re.M
    )
    assert len(shown) >= 3
    for module, names in shown:
        for name in names.split(", "):
            assert hasattr(importlib.import_module(module), name), f"{module}.{name}"


def test_the_version_is_the_installed_one() -> None:
    assert askalong.__version__ == version("askalong")


def test_importing_askalong_loads_only_the_standard_library() -> None:
    """Every ``askalong.*`` import runs the package first: it must not start an engine."""
    script = (
        "import sys; before = set(sys.modules); import askalong; "
        "print(*sorted(set(sys.modules) - before))"
    )
    source = Path(askalong.__file__).parents[1]
    loaded = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "PYTHONPATH": str(source)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert "askalong" in loaded
    tops = {name.split(".")[0] for name in loaded}
    assert tops - {"askalong"} <= sys.stdlib_module_names, tops - sys.stdlib_module_names
