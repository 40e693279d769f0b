"""The fixed split of the training sets, by article: a stable hash of the set's name and
the article's key puts each article in one bucket of 100, for every run and machine.

- buckets 0-29: TEST, never read by ``prepare.py`` (held out for a final measurement);
- buckets 30-44: DEV (thresholds, model choice, the dev figures);
- buckets 45-99: TRAIN.

XQuAD is never used here at all (test only).
"""

from __future__ import annotations

import hashlib

TEST_BELOW, DEV_BELOW = 30, 45


def bucket(dataset: str, article: str) -> int:
    digest = hashlib.blake2b(f"{dataset}:{article}".encode(), digest_size=8).hexdigest()
    return int(digest, 16) % 100


def split_of(dataset: str, article: str) -> str:
    """ "test", "dev" or "train" for one article of one set."""
    b = bucket(dataset, article)
    return "test" if b < TEST_BELOW else "dev" if b < DEV_BELOW else "train"
