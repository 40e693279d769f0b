"""The bundled embedder's caches (its weights, ONNX graphs, the reader encoder's, the engine
chosen), made once per test process and linked into the homes of tests that only use them.

Why: a fresh home builds them at its first question (~4 CPU s, 134 MB written: ten seconds
and more on a busy machine), and a dozen test modules each opened one. Tests of the caches
themselves (tests/integration/test_embedders.py) still build their own. The large files are
hard links, which is safe because the product writes every cache file under a temporary name
and renames it into place (``e5/weights.py``, ``e5/onnx.py``, ``files/atomic.py``); the small
JSON and SQLite files are copied.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from askalong.config import load_settings
from askalong.providers.local.embedder import default_embedder

COPIED = (".json", ".sqlite3")


def build_model_caches(home: Path) -> Path:
    """``home/cache`` after the bundled embedder and its reader encoder embedded once."""
    embedder = default_embedder(load_settings(home=home, embedder="local"))
    for built in (embedder, embedder.reader()):
        if built is not None:
            built.embed_passages(["a passage to build the caches with"])
            built.embed_query("a question to build the caches with")
    return home / "cache"


def seeded(home: Path, caches: Path) -> Path:
    """``home`` with the built ``caches`` in its cache folder; returns ``home``."""
    shutil.copytree(caches, home / "cache", copy_function=_link_or_copy, dirs_exist_ok=True)
    return home


def _link_or_copy(source: str, target: str) -> None:
    if source.endswith(COPIED):
        shutil.copy2(source, target)
    else:
        os.link(source, target)
