"""``make run``: add a sample document, then start the reader on it.

The sample is a real paper from ``../shared/evaldata`` when that folder is there,
otherwise a small bilingual Markdown document written on the fly.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from askalong.cli import main as cli
from askalong.config import load_settings
from askalong.ingest.pipeline import document_id

SAMPLE_PAPER = Path("pdf/en_2col/2020.acl-main.207.pdf")

GENERATED_SAMPLE = """# AskAlong sample

## What it does

AskAlong answers questions about what you are reading, from what you are reading.
Every quote it shows is verbatim in the document.

## 随问是什么

随问根据你正在阅读的文档回答问题。它展示的每一句引文都逐字出自原文。
"""


def sample_path() -> Path:
    evaldata = Path(os.environ.get("ASKALONG_EVALDATA", "../shared/evaldata"))
    if (evaldata / SAMPLE_PAPER).is_file():
        return evaldata / SAMPLE_PAPER
    path = load_settings().home / "samples" / "askalong-sample.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(GENERATED_SAMPLE, encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> None:
    """Add the sample, then serve the reader opened on it (``make run PORT=8080``)."""
    port = (argv if argv is not None else sys.argv[1:])[:1] or ["8000"]
    path = sample_path()
    doc_id = document_id(hashlib.sha256(path.read_bytes()).hexdigest())
    cli.main(["add", str(path)], standalone_mode=False)
    cli.main(["serve", "--port", port[0], "--doc", doc_id], standalone_mode=False)


if __name__ == "__main__":
    main()
