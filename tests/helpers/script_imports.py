"""Whether scripts (``benchmarks/``, ``training/``: not a package) still import, each as run
alone: ``python script_imports.py PATH...`` prints a JSON object of the scripts that fail,
path -> the error. Run it in a fresh interpreter (``tests/unit/test_script_imports.py``).

Two checks a script must pass:

- loaded alone, with its own folder, ``src``, ``benchmarks`` and ``training`` on the path
  (how the READMEs run them): each script starts from a clean slate, its siblings and
  ``tests/`` helpers unloaded and the path restored, so one that only imports after another
  put ``tests/helpers`` on the path fails;
- every name a ``from M import name`` asks of a module of this repository (``askalong`` or
  a sibling script or test helper), at any depth (the imports inside functions, which
  loading does not run, and those after a dev-only package such as JAX), exists in ``M``.

A script whose only failure is a missing dev-only package (``DEV_ONLY``: JAX, kept out of
the package's environment) passes the first check; the second still reads it.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHECKER = Path(__file__).resolve()
SCRIPT_PATHS = (REPO / "src", REPO / "benchmarks", REPO / "training")
NAME_PATHS = (*SCRIPT_PATHS, REPO / "tests", REPO / "tests" / "helpers")
SCRIPT_FOLDERS = ("benchmarks", "training", "tests")
DEV_ONLY = frozenset({"jax", "optax"})  # training/README: a separate environment


def repository_scripts() -> list[Path]:
    """Every script of ``benchmarks/`` (and its ``kb/``) and ``training/``; never a file of
    the sets' folders (``benchmarks/unseen*/``: documents, some held out)."""
    folders = (REPO / "benchmarks", REPO / "benchmarks" / "kb", REPO / "training")
    return sorted(p for folder in folders for p in folder.glob("*.py"))


def load_failure(script: Path) -> str | None:
    """Why ``script`` fails to load alone, or None."""
    before, path = set(sys.modules), list(sys.path)
    sys.path[:0] = [str(script.parent), *map(str, SCRIPT_PATHS)]
    try:
        spec = importlib.util.spec_from_file_location(script.stem, script)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[script.stem] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    except ModuleNotFoundError as error:
        return None if error.name in DEV_ONLY else repr(error)
    except Exception as error:
        return repr(error)
    finally:
        sys.path[:] = path
        for name in set(sys.modules) - before:
            if _ours(sys.modules[name]):
                del sys.modules[name]
    return None


def _ours(module: object) -> bool:
    """A module loaded from this repository's scripts or tests (``askalong`` stays)."""
    file = getattr(module, "__file__", None)
    return file is not None and any(Path(file).is_relative_to(REPO / f) for f in SCRIPT_FOLDERS)


def missing_names(script: Path) -> list[str]:
    """``M.name`` for each ``from M import name`` of ``script`` that ``M`` lacks (``M`` a
    module of this repository)."""
    path = list(sys.path)
    sys.path[:0] = [str(script.parent), *map(str, NAME_PATHS)]
    try:
        return [
            f"{module}.{name}"
            for module, name in _from_imports(script)
            if _repository_module(module) and not _has(module, name)
        ]
    finally:
        sys.path[:] = path


def _from_imports(script: Path) -> Iterator[tuple[str, str]]:
    for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield from ((node.module, alias.name) for alias in node.names)


def _repository_module(module: str) -> bool:
    top = module.split(".")[0]
    if top == "askalong":
        return True
    return any((folder / f"{top}.py").exists() or (folder / top).is_dir() for folder in NAME_PATHS)


def _has(module: str, name: str) -> bool:
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as error:
        return error.name in DEV_ONLY
    except Exception:  # a module that fails to load lacks every name
        return False
    if name == "*" or hasattr(loaded, name):
        return True
    is_package = hasattr(loaded, "__path__")  # a submodule not loaded yet is no attribute
    return is_package and importlib.util.find_spec(f"{module}.{name}") is not None


def failures(scripts: list[Path]) -> dict[str, str]:
    """Each failing script (as given) and why."""
    found = {str(s): why for s in scripts if (why := load_failure(s))}
    for script in scripts:
        missing = missing_names(script)
        if missing:
            found[str(script)] = f"{found.get(str(script), '')} missing: {', '.join(missing)}"
    return found


if __name__ == "__main__":
    sys.path.remove(str(Path(__file__).parent))  # run as a script: tests/helpers stays off
    print(json.dumps(failures([Path(a) for a in sys.argv[1:]])))
