"""Hostile files (issue 11): none hangs ``add``, exhausts memory, or blocks the server's
other writes while it is being parsed."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_client import api_client
from click.testing import CliRunner
from fastapi.testclient import TestClient
from samples import zip_bomb_docx

from askalong.cli import main
from askalong.config import Settings, load_settings
from askalong.library import Library
from askalong.parse.guard import ParserGuard

STUB = {"text": "stub_parsers"}


@pytest.mark.timeout(60)
def test_add_of_the_281_byte_comment_file_returns_promptly(
    settings: Settings, tmp_path: Path
) -> None:
    hostile = tmp_path / "r.txt"
    hostile.write_bytes(b"<!---->" * 40 + b"x")
    assert hostile.stat().st_size == 281
    # The timeout mark stops the exponential backtracking this file once caused.
    result = CliRunner().invoke(main, ["add", str(hostile)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "r.txt" in result.output


def test_add_of_a_zip_bomb_docx_is_a_clean_error(settings: Settings, tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.docx"
    bomb.write_bytes(zip_bomb_docx(200))
    result = CliRunner().invoke(main, ["add", str(bomb)], catch_exceptions=False)
    assert result.exit_code == 1
    assert "bomb.docx: too large to parse: word/document.xml inflates" in result.output
    assert "Traceback" not in result.output


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        ingestor = client.app.state.askalong.library.ingestor  # type: ignore[attr-defined]
        ingestor.guard.close()
        ingestor.guard = ParserGuard(timeout=30, modules=STUB)
        yield client


def test_a_slow_parse_does_not_hold_the_write_lock(client: TestClient) -> None:
    first = client.post("/api/documents", files={"file": ("a.txt", b"first document")})
    assert first.status_code == 201, first.text
    uploaded: list[int] = []
    guard = client.app.state.askalong.library.ingestor.guard  # type: ignore[attr-defined]
    parsing = threading.Event()
    read = guard.read

    def signalled_read(*args: Any, **kwargs: Any) -> Any:
        parsing.set()  # the upload is in the parser: waited for, not guessed by a sleep
        return read(*args, **kwargs)

    guard.read = signalled_read
    slow = threading.Thread(
        target=lambda: uploaded.append(
            client.post("/api/documents", files={"file": ("s.txt", b"slow 6")}).status_code
        )
    )
    slow.start()
    assert parsing.wait(30)
    started = time.monotonic()
    deleted = client.delete(f"/api/documents/{first.json()['document']['id']}")
    waited = time.monotonic() - started
    slow.join()
    assert deleted.status_code == 204
    # A delete behind the parse would wait its 6 s; 3 s leaves room for a loaded machine.
    assert waited < 3, f"the delete waited {waited:.1f} s for the parse"
    assert uploaded == [201]


def test_the_parser_memory_limit_is_a_setting(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert settings.parse_memory_mb == 2048
    monkeypatch.setenv("ASKALONG_PARSE_MEMORY_MB", "512")
    with Library(load_settings()) as library:
        assert library.ingestor.guard.memory_mb == 512
