"""`askalong search --json` prints the one hit form, the same JSON as ``GET /api/search``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from api_client import api_client
from click.testing import CliRunner

from askalong.cli import main
from askalong.config import Settings

PAPER = "pdf/en_2col/N18-3011.pdf"
HIT_KEYS = {
    "rank", "chunk_id", "document_id", "document_title", "score", "mode", "keyword_score",
    "keyword_rank", "vector_score", "vector_rank", "page_start", "page_end", "section_path",
    "text", "spans",
}  # fmt: skip


def run_json(*args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_search_json_is_the_api_search_json(settings: Settings, evaldata: Path) -> None:
    doc_id = run_json("add", str(evaldata / PAPER))["results"][0]["document"]["id"]
    printed = run_json("search", "entity linking", "--doc", doc_id)
    assert printed["routes"] == ["keyword"] and printed["hits"]
    assert [hit["rank"] for hit in printed["hits"]] == list(range(1, len(printed["hits"]) + 1))
    for hit in printed["hits"]:
        assert set(hit) == HIT_KEYS and hit["keyword_rank"] is not None
    blocks = {b["id"]: b["text"] for b in run_json("show", doc_id, "--blocks")["blocks"]}
    first = printed["hits"][0]
    for span in first["spans"]:
        assert blocks[span["block_id"]][span["start"] : span["end"]] in first["text"]
    with api_client(settings) as client:
        served = client.get("/api/search", params={"q": "entity linking", "doc": doc_id}).json()
    assert served == printed
