"""Heavy libraries load when they are used, not when a module that may use them is imported
(issue 28: ``askalong ask`` paid ~0.35 CPU-s for rjieba's dictionary on English questions and
~0.25 for httpx with no server, reranker or URL in sight)."""

from __future__ import annotations

import json
import subprocess
import sys


def loaded_after(code: str) -> list[str]:
    """Which of rjieba and httpx are imported once ``code`` has run in a fresh process."""
    listing = "print(json.dumps([m for m in ('rjieba', 'httpx') if m in sys.modules]))"
    probe = f"{code}\nimport json, sys\n{listing}"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    listed: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return listed


def test_an_english_search_path_loads_neither() -> None:
    code = (
        "import askalong.retrieve.search, askalong.cli.resident, askalong.ingest.fetch\n"
        "import askalong.context.key_terms\n"
        "from askalong.text.tokens import tokenize\n"
        "assert tokenize('The literature graph contains papers')\n"
    )
    assert loaded_after(code) == []


def test_chinese_text_still_loads_the_segmenter() -> None:
    code = (
        "from askalong.text.tokens import tokenize\n"
        "assert '长江' in tokenize('长江是亚洲第一长河')\n"
    )
    assert loaded_after(code) == ["rjieba"]
