"""Resumable (tus) upload throughput on loopback against one plain multipart POST of the
same bytes, in the same run, against a real ``askalong serve`` process.

A file of ``--mb`` random megabytes (default 200) goes up three ways, ``--runs`` times each:
one ``POST /api/documents`` (the whole body in one request, as the reader sent it before),
tus in 5 MB pieces (``POST /api/uploads`` then ``PATCH`` after ``PATCH``) timed to the last
piece's answer, and the same with a sha256 ``Upload-Checksum`` on every piece. Random bytes
are no document, so both routes refuse them once received (the single POST in its answer,
tus in the upload's state): what is timed is moving the bytes. Prints a markdown table of
medians with MB/s and the ratio to the single POST, and writes it to
``benchmarks/results/upload-throughput-<date>.md``.

    python benchmarks/upload_throughput.py [--mb 200] [--runs 3]
"""

from __future__ import annotations

import argparse
import base64
import datetime
import hashlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from _table import write_results  # noqa: E402
from e2e.live import LiveServer, live_server  # noqa: E402

PIECE = 5 * 1024 * 1024
TUS = {"Tus-Resumable": "1.0.0"}


def single_post(server: LiveServer, data: bytes) -> None:
    response = httpx.post(
        server.url + "/api/documents",
        files={"file": ("random.bin", data)},
        headers=server.headers,
        timeout=600,
    )
    assert response.status_code == 400, response.text  # received whole, then refused


def tus_pieces(server: LiveServer, data: bytes, *, checksum: bool = False) -> None:
    with httpx.Client(headers={**server.headers, **TUS}, timeout=600) as client:
        name = base64.b64encode(b"random.bin").decode()
        created = client.post(
            server.url + "/api/uploads",
            headers={"Upload-Length": str(len(data)), "Upload-Metadata": f"filename {name}"},
        )
        assert created.status_code == 201, created.text
        url = server.url + created.headers["Location"]
        for offset in range(0, len(data), PIECE):
            piece = data[offset : offset + PIECE]
            headers = {
                "Content-Type": "application/offset+octet-stream",
                "Upload-Offset": str(offset),
            }
            if checksum:
                digest = base64.b64encode(hashlib.sha256(piece).digest()).decode()
                headers["Upload-Checksum"] = f"sha256 {digest}"
            answered = client.patch(url, content=piece, headers=headers)
            assert answered.status_code == 204, answered.text
    wait_settled(server, url)


def wait_settled(server: LiveServer, url: str) -> None:
    """Until the server has refused the bytes (as the single POST does in its answer); a
    fresh connection each time (the server closes one idle for 5 s)."""
    while httpx.get(url, headers=server.headers, timeout=60).json()["state"] in (
        "receiving",
        "complete",
    ):
        time.sleep(0.05)


def median_ms(call: Callable[[], None], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    data = os.urandom(args.mb * 1024 * 1024)
    os.environ["ASKALONG_MAX_FILE_MB"] = str(args.mb + 1)
    os.environ["ASKALONG_UPLOAD_PIECE_MB"] = "8"
    with tempfile.TemporaryDirectory() as tmp, live_server(Path(tmp) / "home") as server:
        ways = {
            "one multipart POST (baseline)": lambda: single_post(server, data),
            "tus, 5 MB pieces": lambda: tus_pieces(server, data),
            "tus, 5 MB pieces + sha256 each": lambda: tus_pieces(server, data, checksum=True),
        }
        results = {label: median_ms(way, args.runs) for label, way in ways.items()}
    table = render(results, args.mb, args.runs)
    write_results(table + "\n", f"upload-throughput-{datetime.date.today()}.md", None)


def render(results: dict[str, float], mb: int, runs: int) -> str:
    baseline = next(iter(results.values()))
    load = os.getloadavg()[0]
    lines = [
        f"# Upload throughput, {mb} MB on loopback ({datetime.date.today()})",
        "",
        f"Median of {runs} runs each, same server process, load average {load:.1f} on "
        f"{os.cpu_count()} cores; timed until the server has refused the random bytes "
        "(received whole, then no document).",
        "",
        "| way | median s | MB/s | time / single POST |",
        "|---|---:|---:|---:|",
    ]
    for label, ms in results.items():
        lines.append(
            f"| {label} | {ms / 1000:.2f} | {mb / (ms / 1000):.0f} | {ms / baseline:.2f} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
