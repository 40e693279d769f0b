"""`askalong add / docs / show / rm` end to end, with every kind of bad input."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from samples import PAGE_BREAK_LINES, encrypted_pdf, page_break_pdf

from askalong.cli import main
from askalong.config import Settings

PAPER = Path("pdf/en_2col/N18-3011.pdf")
MARKDOWN = "# Guide\n\n## Install\n\nRun the installer.\n\n## 使用\n\n打开文件即可提问。\n"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def run_json(*args: str) -> Any:
    result = run(*args, "--json")
    return json.loads(result.stdout)


@pytest.fixture
def docs_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "guide.md").write_text(MARKDOWN, encoding="utf-8")
    (folder / "sub" / "notes.txt").write_text("First paragraph.\n\nSecond one.\n")
    (folder / ".hidden.txt").write_text("secret")
    (folder / "data.json").write_text('{"a": 1}')
    return folder


def test_add_a_folder_recursively_then_list_show_and_remove(
    settings: Settings, docs_dir: Path
) -> None:
    added = run_json("add", str(docs_dir))
    assert [r["status"] for r in added["results"]] == ["added", "added"]
    assert added["added"] == 2
    guide = next(r for r in added["results"] if r["source"].endswith("guide.md"))
    assert guide["document"]["format"] == "markdown"
    assert guide["document"]["owner"] == "local"  # the CLI adds as the local user
    assert guide["document"]["visibility"] == "private"  # ASKALONG_VISIBILITY's default
    assert guide["document"]["language"] in {"mixed", "zh", "en"}

    listed = run_json("docs")["documents"]
    assert {d["title"] for d in listed} == {"Guide", "First paragraph."}

    shown = run_json("show", guide["document"]["id"][:6])
    paths = {tuple(b["section_path"]) for b in shown["blocks"]}
    assert ("Guide", "使用") in paths
    assert any("打开文件即可提问" in c["text"] for c in shown["chunks"])

    removed = run_json("rm", guide["document"]["id"])
    assert removed["removed"]["id"] == guide["document"]["id"]
    assert len(run_json("docs")["documents"]) == 1
    assert os.listdir(settings.files_dir)  # the other document's original is still stored


def test_re_adding_the_same_content_is_a_no_op_that_says_so(
    settings: Settings, docs_dir: Path
) -> None:
    run("add", str(docs_dir / "guide.md"))
    result = run("add", str(docs_dir / "guide.md"))
    assert result.exit_code == 0
    assert "already added" in result.stdout
    assert len(run_json("docs")["documents"]) == 1


def test_a_real_pdf_with_blocks_and_chunks(settings: Settings, evaldata: Path) -> None:
    added = run_json("add", str(evaldata / PAPER))["results"][0]
    assert added["status"] == "added" and added["document"]["pages"] == 8
    shown = run_json("show", added["document"]["id"], "--blocks", "--page", "2")
    assert "chunks" not in shown
    assert shown["blocks"] and all(_has_a_line_on(b, 2) for b in shown["blocks"])
    assert all(len(b["boxes"]) >= 1 for b in shown["blocks"])
    outline = run("show", added["document"]["id"])
    assert "Introduction" in outline.stdout


def _has_a_line_on(block: dict[str, Any], page: int) -> bool:
    return any((box[6] if len(box) > 6 else block["page"]) == page for box in block["boxes"])


def test_a_page_shows_the_paragraph_run_on_from_the_page_before(
    settings: Settings, tmp_path: Path
) -> None:
    pdf = tmp_path / "manual.pdf"
    pdf.write_bytes(page_break_pdf())
    added = run_json("add", str(pdf))["results"][0]
    shown = run_json("show", added["document"]["id"], "--blocks", "--page", "2")
    texts = [b["text"] for b in shown["blocks"]]
    assert texts[0] == " ".join(PAGE_BREAK_LINES) and shown["blocks"][0]["page"] == 1
    assert "A new paragraph starts on the second page here." in texts


def _bad_inputs(folder: Path, evaldata: Path) -> dict[str, tuple[Path, str]]:
    """name -> (path, expected words in the error)."""
    real_pdf = (evaldata / PAPER).read_bytes()
    files = {
        "empty.txt": (b"", "the file is empty"),
        "truncated.pdf": (real_pdf[: len(real_pdf) // 3], ""),
        "locked.pdf": (encrypted_pdf(), "password"),
        "junk.bin": (os.urandom(4096), "binary data"),
        "image.pdf": (b"\x89PNG\r\n\x1a\n" + bytes(64), "PNG image"),
    }
    cases = {}
    for name, (data, words) in files.items():
        path = folder / name
        path.write_bytes(data)
        cases[name] = (path, words)
    huge = folder / "huge.pdf"
    with huge.open("wb") as handle:  # sparse: no 101 MB written to disk
        handle.truncate(101 * 2**20)
    cases["huge.pdf"] = (huge, "over the 100 MB limit")
    cases["missing.pdf"] = (folder / "missing.pdf", "no such file")
    cases["device"] = (Path("/dev/zero"), "not a regular file")
    return cases


def test_every_bad_input_is_one_line_naming_the_file(
    settings: Settings, tmp_path: Path, evaldata: Path, docs_dir: Path
) -> None:
    run("add", str(docs_dir / "guide.md"))
    before = run_json("docs")["documents"]
    cases = _bad_inputs(tmp_path, evaldata)
    result = run("add", *(str(path) for path, _ in cases.values()))
    assert result.exit_code == 1  # every input failed
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("failed")]
    assert len(errors) == len(cases)
    for (path, words), line in zip(cases.values(), errors, strict=True):
        assert str(path) in line and words in line, line
    assert run_json("docs")["documents"] == before  # nothing half-stored, nothing lost


def test_one_bad_input_does_not_stop_the_others(settings: Settings, docs_dir: Path) -> None:
    empty = docs_dir / "empty.md"
    empty.write_text("")
    result = run_json("add", str(empty), str(docs_dir / "guide.md"))
    assert [r["status"] for r in result["results"]] == ["failed", "added"]
    assert result["results"][0]["error"].startswith(str(empty))


def test_content_decides_the_format_and_the_misnomer_is_noted(
    settings: Settings, tmp_path: Path
) -> None:
    fake = tmp_path / "report.pdf"
    fake.write_text("<html><head><title>Login</title></head><body><p>Hello</p></body></html>")
    document = run_json("add", str(fake))["results"][0]["document"]
    assert document["format"] == "html"
    assert any("name says PDF" in notice for notice in document["notices"])


def test_odd_names_never_become_paths(settings: Settings, tmp_path: Path) -> None:
    odd = tmp_path / "a" / ".." / "..\u202eevil ﬁle 文档.txt"
    (tmp_path / "a").mkdir()
    odd.write_text("Plain text about names.")
    result = run_json("add", str(odd))["results"][0]
    assert result["status"] == "added"
    assert result["document"]["source"] == str(odd)
    stored = [p for p in settings.files_dir.rglob("*") if p.is_file()]
    assert [p.name for p in stored] == [result["document"]["id"] + p.name[16:] for p in stored]
    assert all(p.resolve().is_relative_to(settings.files_dir.resolve()) for p in stored)


def test_unknown_document_is_a_clean_error(settings: Settings) -> None:
    result = run("show", "deadbeef")
    assert result.exit_code == 1
    assert "deadbeef" in result.stderr and "Traceback" not in result.output


class _Site(BaseHTTPRequestHandler):
    pdf = b""

    def do_GET(self) -> None:
        body, kind = {
            "/paper": (self.pdf, "application/pdf"),
            "/page.html": (b"<html><title>Page</title><p>A web page.</p></html>", "text/html"),
        }.get(self.path, (b"", ""))
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def site(evaldata: Path) -> Iterator[str]:
    _Site.pdf = (evaldata / PAPER).read_bytes()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_add_urls_of_a_pdf_and_a_page(settings: Settings, site: str) -> None:
    result = run_json("add", f"{site}/paper", f"{site}/page.html", f"{site}/gone")
    statuses = [r["status"] for r in result["results"]]
    assert statuses == ["added", "added", "failed"]
    assert result["results"][0]["document"]["format"] == "pdf"
    assert result["results"][1]["document"]["title"] == "Page"
    assert "HTTP 404" in result["results"][2]["error"]


def test_a_corrupt_keyword_index_blocks_only_search(settings: Settings, docs_dir: Path) -> None:
    """Damaged index files (here: every term dictionary overwritten) must not stop `docs`,
    `show` or `rm`, which the store serves; `search` and `ask` name the repair."""
    added = run_json("add", str(docs_dir))["results"]
    for term_file in (settings.index_dir / "keyword").glob("*.term"):
        term_file.write_bytes(b"not a term dictionary")
    assert len(run_json("docs")["documents"]) == 2
    first, second = (r["document"]["id"] for r in added)
    assert run_json("show", first)["document"]["id"] == first
    for command in (("search", "installer"), ("ask", "How do I install it?")):
        result = CliRunner().invoke(main, list(command))
        assert result.exit_code == 1, result.output
        assert "cannot open the keyword index" in result.output
        assert "askalong doctor --repair" in result.output
    assert run("rm", second).exit_code == 0
    assert [d["id"] for d in run_json("docs")["documents"]] == [first]
