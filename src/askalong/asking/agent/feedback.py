"""Feedback a person gave on an answer in words (``submit_feedback``): one JSON line per
item in ``feedback.jsonl`` under ``ASKALONG_HOME``, appended and never rewritten; the
feedback issue reads and aggregates it. A line is written whole, under a lock, so two
answers in one process never interleave theirs."""

from __future__ import annotations

import json
import threading
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

FEEDBACK_FILE = "feedback.jsonl"
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Feedback:
    user: str
    rating: str  # "up" | "down"
    reason: str
    conversation_id: str | None
    turn_id: str | None
    created: str


def new_feedback(
    user: str, rating: str, reason: str, conversation_id: str | None, turn_id: str | None
) -> Feedback:
    now = datetime.now(UTC).isoformat(timespec="seconds")
    return Feedback(user, rating, reason, conversation_id, turn_id, now)


def append_feedback(home: Path, item: Feedback) -> None:
    line = json.dumps(asdict(item), ensure_ascii=False) + "\n"
    with _LOCK, (home / FEEDBACK_FILE).open("a", encoding="utf-8") as out:
        out.write(line)


def read_feedback(home: Path) -> list[Feedback]:
    path = home / FEEDBACK_FILE
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    return [Feedback(**json.loads(line)) for line in lines if line.strip()]
