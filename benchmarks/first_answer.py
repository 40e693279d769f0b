"""The first answer after an upload while the vectors are still being computed (issue 14,
ingestion jobs): goal <= 1.5 s (4.1 s before, 0.1 s once warm). A real server (private
ASKALONG_HOME, the local embedder) gets a 23-page paper (ALCE.pdf) either as a multipart
upload (read in the request, vectors in the background) or as a tus upload (queued, read
by the server's worker thread); a question is asked the moment the document is readable
(keyword-searchable), then again once it is ready (warm; ``--no-warm`` skips that wait).
Both routes run in the same invocation, on fresh homes; ``--src`` (repeatable) runs each
code tree's server in turn, route by route and round by round, so a before/after pair
sees the same load.

    python benchmarks/first_answer.py [--pdf PATH] [--repeat 1] [--src DIR ...] [--no-warm]
        [--out FILE.md]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from evaldata import EVALDATA

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from e2e.live import LiveServer, live_server  # noqa: E402

PAPER = EVALDATA / "pdf" / "en_2col" / "ALCE.pdf"
QUESTION = "How are citations evaluated?"
TUS = {"Tus-Resumable": "1.0.0"}


def tus_upload(server: LiveServer, data: bytes) -> None:
    headers = {**server.headers, **TUS, "Upload-Length": str(len(data))}
    created = httpx.post(server.url + "/api/uploads", headers=headers, timeout=30)
    created.raise_for_status()
    piece = {
        **server.headers,
        **TUS,
        "Content-Type": "application/offset+octet-stream",
        "Upload-Offset": "0",
    }
    httpx.patch(
        server.url + created.headers["Location"], content=data, headers=piece, timeout=60
    ).raise_for_status()


def multipart_upload(server: LiveServer, data: bytes) -> None:
    files = {"file": ("ALCE.pdf", data)}
    httpx.post(
        server.url + "/api/documents", files=files, headers=server.headers, timeout=300
    ).raise_for_status()


def readable(server: LiveServer) -> dict[str, Any] | None:
    """The document once it has blocks (keyword-searchable), with its job."""
    listed = httpx.get(server.url + "/api/documents", headers=server.headers, timeout=30)
    for document in listed.json()["documents"]:
        job = document["job"]
        if job is None or job["state"] in ("ocr", "embedding", "ready"):
            return dict(document)
    return None


def ask(server: LiveServer, document_id: str) -> float:
    started = time.perf_counter()
    body = {"document_id": document_id, "question": QUESTION, "stream": False}
    response = httpx.post(server.url + "/api/ask", json=body, headers=server.headers, timeout=120)
    response.raise_for_status()
    return time.perf_counter() - started


def vectors_done(server: LiveServer, document_id: str) -> bool:
    found = httpx.get(
        server.url + "/api/search",
        params={"q": QUESTION, "doc": document_id},
        headers=server.headers,
        timeout=60,
    ).json()
    return "vector" in found["routes"] and not any("no vectors" in n for n in found["notes"])


def one_run(route: str, data: bytes, src: Path, *, warm: bool = True) -> dict[str, object]:
    home = Path(tempfile.mkdtemp(prefix=f"first-answer-{route}-")) / "home"
    env = {"ASKALONG_EMBEDDER": "local", "PYTHONPATH": str(src)}  # that tree's code
    with live_server(home, env, startup=300) as server:
        started = time.perf_counter()
        (tus_upload if route == "tus" else multipart_upload)(server, data)
        while (document := readable(server)) is None:
            time.sleep(0.05)
        readable_s = time.perf_counter() - started
        embedding = not vectors_done(server, str(document["id"]))
        first = ask(server, str(document["id"]))
        warm_s = _warm(server, str(document["id"])) if warm else float("nan")
    return {
        "route": route,
        "readable_s": readable_s,
        "first_s": first,
        "vectors_pending_at_ask": embedding,
        "warm_s": warm_s,
    }


def _warm(server: LiveServer, document_id: str) -> float:
    """The median of three answers once the document's vectors are done."""
    deadline = time.monotonic() + 600
    while not vectors_done(server, document_id) and time.monotonic() < deadline:
        time.sleep(0.5)
    return statistics.median(ask(server, document_id) for _ in range(3))


def _line(src: Path, row: dict[str, object]) -> str:
    pending = "yes" if row["vectors_pending_at_ask"] else "no"
    warm = row["warm_s"]
    warm_cell = "-" if warm != warm else f"{warm:.2f}"  # NaN: not measured
    return (
        f"| {src} | {row['route']} | {row['readable_s']:.2f} | {row['first_s']:.2f} |"
        f" {pending} | {warm_cell} | {os.getloadavg()[0]:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdf", type=Path, default=PAPER)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--src", type=Path, action="append", help="a code tree's src/")
    parser.add_argument("--no-warm", action="store_true", help="skip the answers once ready")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    sources = args.src or [REPO / "src"]
    data = args.pdf.read_bytes()
    lines = [
        f"# First answer while vectors are computed, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        "",
        f"{args.pdf.name}, question {QUESTION!r}, local embedder; load"
        f" {os.getloadavg()[0]:.1f} at the start. Goal: first answer <= 1.5 s.",
        "",
        "| code | route | upload -> readable s | first answer s | vectors pending at ask |"
        " warm s | load |",
        "|---|---|---:|---:|---|---:|---:|",
    ]
    for _ in range(args.repeat):
        for route in ("multipart", "tus"):
            for src in sources:
                row = one_run(route, data, src, warm=not args.no_warm)
                line = _line(src, row)
                print(line, flush=True)
                lines.append(line)
    table = "\n".join(lines) + "\n"
    print(table)
    if args.out:
        args.out.write_text(table, encoding="utf-8")


if __name__ == "__main__":
    main()
