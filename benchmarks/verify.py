"""The offline claim verifier: how well does "supported" separate supported claims?

Pairs of a claim and one evidence sentence, labelled supported or not:

- SciFact (validation claims): claim + one of its SUPPORT rationale sentences ->
  supported; claim + a CONTRADICT rationale sentence, or + a sentence of the same
  abstract that is no rationale -> not supported.
- Climate-FEVER: claim + evidence; SUPPORTS -> supported, REFUTES / NOT_ENOUGH_INFO ->
  not supported.

Each pair goes through ``verify_claims`` as a one-sentence answer citing [1]; the
figure is the balanced accuracy of "verdict == supported", with and without the default
embedder, plus the ROC AUC of the support score (the verdict's threshold aside). The
checks target hallucinated specifics, not entailment: expect modest numbers.
Prints a markdown table and saves it to ``benchmarks/results/verify-<date>.md``.

    .venv/bin/python benchmarks/verify.py [--n 1500] [--no-embedder]
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import random
import re
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from askalong.config import load_settings
from askalong.evaluate.datasets import parse_sentence_list
from askalong.providers.base import Embedder, EmbedKind
from askalong.verify.claims import ClaimDraft, similarity_scores, support_score, verify_claims
from evaldata import EVALDATA

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Pair:
    claim: str
    evidence: str
    supported: bool


def scifact_pairs(folder: Path) -> list[Pair]:
    csv.field_size_limit(1 << 24)
    with (folder / "corpus_train.csv").open(encoding="utf-8") as handle:
        abstracts = {
            row["doc_id"]: parse_sentence_list(row["abstract"], source="scifact")
            for row in csv.DictReader(handle)
        }
    pairs: list[Pair] = []
    with (folder / "claims_validation.csv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            sentences = abstracts.get(row["evidence_doc_id"])
            if not sentences:
                continue
            rationale = {int(n) for n in re.findall(r"\d+", row["evidence_sentences"])}
            label = row["evidence_label"] == "SUPPORT"
            for n in sorted(rationale):
                pairs.append(Pair(row["claim"], sentences[n], label))
            others = [s for k, s in enumerate(sentences) if k not in rationale]
            if others:
                pairs.append(Pair(row["claim"], random.Random(row["claim"]).choice(others), False))
    return list(dict.fromkeys(pairs))


def climate_fever_pairs(path: Path) -> list[Pair]:
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        for evidence in item["evidences"]:
            supported = evidence["evidence_label"] == "SUPPORTS"
            pairs.append(Pair(item["claim"], evidence["evidence"], supported))
    return pairs


def sample(pairs: list[Pair], n: int) -> list[Pair]:
    """At most ``n`` pairs, half supported when there are enough (fixed seed)."""
    rng = random.Random(7)
    yes = [p for p in pairs if p.supported]
    no = [p for p in pairs if not p.supported]
    rng.shuffle(yes)
    rng.shuffle(no)
    half = min(n // 2, len(yes), len(no))
    return yes[:half] + no[:half]


def balanced_accuracy(predicted: list[bool], gold: list[bool]) -> float:
    tp = sum(p and g for p, g in zip(predicted, gold, strict=True))
    tn = sum(not p and not g for p, g in zip(predicted, gold, strict=True))
    positives, negatives = sum(gold), len(gold) - sum(gold)
    return 0.5 * (tp / max(positives, 1) + tn / max(negatives, 1))


def roc_auc(scores: list[float], gold: list[bool]) -> float:
    """Mann-Whitney U / (n_pos * n_neg), ties counted half."""
    ranks = _average_ranks(np.asarray(scores, dtype=float))
    positives = np.asarray(gold, dtype=bool)
    n_pos, n_neg = int(positives.sum()), int((~positives).sum())
    if not n_pos or not n_neg:
        return float("nan")
    return float((ranks[positives].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def _average_ranks(values: np.ndarray) -> np.ndarray:
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(len(values))
    sorted_values = values[order]
    start = 0
    while start < len(values):
        end = start
        while end + 1 < len(values) and sorted_values[end + 1] == sorted_values[start]:
            end += 1
        ranks[order[start : end + 1]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


class CachedEmbedder(Embedder):
    """Remembers vectors, so the verdict pass and the score pass embed each text once."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(name=inner.name, dimension=inner.dimension)
        self._inner = inner
        self._seen: dict[tuple[str, str], np.ndarray] = {}

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if (kind, t) not in self._seen))
        if missing:
            for text, row in zip(missing, self._inner._embed(missing, kind), strict=True):
                self._seen[kind, text] = row
        return np.stack([self._seen[kind, t] for t in texts])


@dataclass(frozen=True)
class Row:
    dataset: str
    checks: str
    pairs: int
    supported_share: float
    balanced_accuracy: float
    auc: float
    seconds: float


def evaluate(name: str, pairs: list[Pair], embedder: Embedder | None) -> Row:
    start = time.perf_counter()
    drafts = [ClaimDraft(p.claim, (k,)) for k, p in enumerate(pairs, start=1)]
    cited = {k: p.evidence for k, p in enumerate(pairs, start=1)}
    claims = verify_claims(drafts, cited, embedder=embedder)
    similarity: list[float | None] = [None] * len(pairs)
    if embedder is not None:
        claim_texts = [p.claim for p in pairs]
        similarity = list(similarity_scores(embedder, claim_texts, [p.evidence for p in pairs]))
    scores = [support_score(p.claim, p.evidence, s) for p, s in zip(pairs, similarity, strict=True)]
    gold = [p.supported for p in pairs]
    predicted = [c.verdict == "supported" for c in claims]
    return Row(
        dataset=name,
        checks="offline + embedder" if embedder is not None else "offline",
        pairs=len(pairs),
        supported_share=sum(gold) / len(gold),
        balanced_accuracy=balanced_accuracy(predicted, gold),
        auc=roc_auc(scores, gold),
        seconds=time.perf_counter() - start,
    )


def table(rows: list[Row]) -> str:
    lines = [
        "| dataset | checks | pairs | supported share | balanced accuracy | AUC of score | s |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.dataset} | {r.checks} | {r.pairs} | {r.supported_share:.2f} | "
            f"{r.balanced_accuracy:.3f} | {r.auc:.3f} | {r.seconds:.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1500, help="pairs per dataset (balanced)")
    parser.add_argument("--no-embedder", action="store_true")
    args = parser.parse_args()
    datasets = {
        "SciFact rationales": sample(scifact_pairs(EVALDATA / "retrieval" / "scifact"), args.n),
        "Climate-FEVER": sample(
            climate_fever_pairs(
                EVALDATA / "faithfulness" / "climate-fever" / "climate-fever.jsonl"
            ),
            args.n,
        ),
    }
    embedder = None
    if not args.no_embedder:
        from askalong.providers.local.embedder import default_embedder

        embedder = CachedEmbedder(default_embedder(load_settings()))
    rows = []
    for name, pairs in datasets.items():
        rows.append(evaluate(name, pairs, None))
        if embedder is not None:
            rows.append(evaluate(name, pairs, embedder))
    text = table(rows)
    print(text)
    out = REPO / "benchmarks" / "results" / f"verify-{datetime.date.today().isoformat()}.md"
    header = "# Claim verifier: supported vs not supported (balanced samples)\n\n"
    out.write_text(header + text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
