"""Heavy libraries load when they are used, not when a module that may use them is imported
(issue 28: ``askalong ask`` paid ~0.35 CPU-s for rjieba's dictionary on English questions and
~0.25 for httpx with no server, reranker or URL in sight)."""

from __future__ import annotations

import json
import subprocess
import sys


def loaded_after(code: str, watched: tuple[str, ...] = ("rjieba", "httpx")) -> list[str]:
    """Which of ``watched`` are imported once ``code`` has run in a fresh process."""
    listing = f"print(json.dumps([m for m in {watched!r} if m in sys.modules]))"
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


def test_the_ask_path_loads_no_ingestion() -> None:
    # A question never parses or ingests: the library loaded its ingestor's modules (PDF
    # reader, guarded parser process, fetcher with asyncio) up front, ~0.1 CPU-s a call.
    watched = ("askalong.ingest.pipeline", "askalong.ingest.pages", "pypdfium2", "asyncio")
    watched += ("askalong.maintain.conflict_scan",)
    assert loaded_after("import askalong.cli.ask_here, askalong.library", watched) == []


def test_the_server_app_loads_no_segmenter() -> None:
    # The feedback triage segmented its Chinese complaint words at import: every
    # ``serve`` held rjieba's dictionary (~33 MB resident) from its start.
    assert loaded_after("import askalong.server.app") == []


def test_printing_an_answer_loads_no_code_graph() -> None:
    # ``askalong ask`` prints through ``askalong.wire``, whose code forms imported the
    # call graph and pygments for their annotations (~20 CPU ms of every ask, the one
    # answered by a running server included).
    watched = ("askalong.context.code_graph", "askalong.parse.code.tokens", "pygments")
    assert loaded_after("import askalong.cli.ask, askalong.wire", watched) == []


def test_a_plain_question_loads_no_reading_along() -> None:
    # Explanations, cross-references and outlines serve an anchor or a quick intent
    # (~30 CPU ms): the evidence chooser and the extractive answerer load them then.
    watched = ("askalong.context.explain", "askalong.context.crossref")
    watched += ("askalong.context.anchor_scope", "askalong.asking.evidence_reading")
    code = "import askalong.cli.ask_here, askalong.answer.extractive.answerer"
    assert loaded_after(code, watched) == []


def test_an_ask_with_no_server_loads_no_http_client() -> None:
    # http.client (with ssl and email, ~15 CPU ms) serves only a server found running.
    watched = ("http.client", "ssl")
    code = (
        "import tempfile\n"
        "from pathlib import Path\n"
        "from askalong.cli.resident import AskOptions, ask_resident\n"
        "options = AskOptions('why?', (), None, None, None, None, None)\n"
        "assert ask_resident(Path(tempfile.mkdtemp()), options) is None\n"
    )
    assert loaded_after(code, watched) == []


def test_a_store_and_the_onnx_engine_load_neither_argon2_nor_the_numpy_encoder() -> None:
    # argon2's cffi bindings serve passwords only; the numpy encoder, the numpy engine only.
    watched = ("argon2", "askalong.providers.local.e5.encoder")
    code = "import askalong.store.backends, askalong.providers.local.e5.model"
    assert loaded_after(code, watched) == []


def test_a_plain_question_loads_no_code_drafting() -> None:
    # A call tree's draft and the code's own lines are written for code questions only:
    # the asker knows their routes by name (asking/code_routes.py).
    watched = ("askalong.asking.call_paths", "askalong.asking.code_answers")
    assert loaded_after("import askalong.cli.ask_here", watched) == []
