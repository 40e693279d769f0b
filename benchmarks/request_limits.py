"""The per-user limits' cost on a request: ``GET /api/documents`` (an account's token,
ten documents) with the per-minute count in the store on and off, same app, same run,
rounds interleaved so that load on the machine falls on both alike.

The count is one upsert in the store per ``/api/`` request (``server/limits.py``), so this
is its price on the cheapest real route; the question slots are a dict under a lock.

    python benchmarks/request_limits.py [--requests 300] [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from fastapi.testclient import TestClient

from askalong.config import load_settings
from askalong.server.app import create_app

BASE_URL = "http://127.0.0.1:8000"
PASSWORD = "benchmark password 1"


def client(home: Path, per_minute: int) -> TestClient:
    """An app whose account ``bench`` may make ``per_minute`` requests (0: not counted)."""
    settings = replace(load_settings(home=home, embedder="none"), requests_per_minute=per_minute)
    return TestClient(create_app(settings), base_url=BASE_URL)


def timings(browser: TestClient, secret: str, requests: int) -> list[float]:
    headers = {"Authorization": f"Bearer {secret}"}
    out = []
    for _ in range(requests):
        started = time.perf_counter()
        response = browser.get("/api/documents", headers=headers)
        out.append(time.perf_counter() - started)
        assert response.status_code == 200, response.text
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    home = Path(tempfile.mkdtemp(prefix="askalong-limits-")) / "home"
    samples: dict[str, list[float]] = {"not counted": [], "counted": []}
    with client(home, 0) as off, client(home, 10**9) as on:
        store = off.app.state.askalong.library.store  # type: ignore[attr-defined]
        store.add_user("bench", PASSWORD)
        _, secret = store.create_token("bench")
        for n in range(10):
            text = f"# Note {n}\n\nTides follow the Moon, note {n}.\n".encode()
            headers = {"Authorization": f"Bearer {secret}"}
            off.post("/api/documents", files={"file": (f"n{n}.md", text)}, headers=headers)
        for _ in range(args.rounds):
            samples["not counted"] += timings(off, secret, args.requests)
            samples["counted"] += timings(on, secret, args.requests)
    base = statistics.median(samples["not counted"])
    print(f"| GET /api/documents ({len(samples['counted'])} each) | p50 ms | p95 ms | p50 ratio |")
    print("|---|---|---|---|")
    for label, values in samples.items():
        p95 = statistics.quantiles(values, n=20)[-1]
        median = statistics.median(values)
        print(f"| {label} | {median * 1000:.2f} | {p95 * 1000:.2f} | {median / base:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
