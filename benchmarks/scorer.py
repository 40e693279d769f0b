"""The learned sentence scorer against the rules it replaces, in the same run (issue 32).

Paragraph level, with the bundled embedder (both answerers share one cached embedder):
each question over its own paragraph and a neighbour of its article (in an order fixed
by a hash, so the gold paragraph is not always first), and over two paragraphs of an
article half the set away (it must be refused). Figures: *answer hit* = the direct answer
(``result.answer``) holds a gold answer, i.e. the chosen sentence is right; *evidence
hit* = some quote does; covered refused; uncovered refused.

- DEV (``training/splits.py`` dev buckets, the same the thresholds were chosen on):
  CMRC 2018 dev+trial (zh-Hans), DRCD dev (zh-Hant), HotpotQA of HaluEval (en);
- TEST, never tuned on: XQuAD en / zh as ``benchmarks/extractive.py`` builds it (the
  gold paragraph first, as the 0.96 evidence hit of earlier runs was measured), and the
  DRCD articles of the TEST buckets (never read by ``training/prepare.py``).

Where a covered answer misses: *wrong sentence* (its first quote is in the paragraph
holding the gold), *wrong paragraph* (it is not), *covered refused*.

Then the cost: CPU ms to score 40 candidate sentences (features + model; vectors cached,
as a follow-up finds them; and with the 40 sentences embedded cold).

    PYTHONPATH=src .venv/bin/python benchmarks/scorer.py [--limit 300]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "training"))

from prepare import GLUED  # noqa: E402
from splits import split_of  # noqa: E402

from askalong.answer.extractive.learned import learned_answer  # noqa: E402
from askalong.answer.extractive.select import ExtractiveResult, answer_extractively  # noqa: E402
from askalong.answer.extractive.sentence_cache import CachedEmbedder  # noqa: E402
from askalong.config import load_settings  # noqa: E402
from askalong.providers.base import Embedder  # noqa: E402
from askalong.question.reading import QuestionReading, read_question  # noqa: E402
from extractive import EVALDATA, SETS, Case, cases, units_of  # noqa: E402

DEV_SETS = {
    "cmrc dev-split (zh-Hans)": (
        "cmrc",
        ["qa/cmrc2018/cmrc2018_dev.json", "qa/cmrc2018/cmrc2018_trial.json"],
    ),
    "drcd dev-split (zh-Hant)": ("drcd", ["qa/drcd/DRCD_dev.json"]),
}
Answer = Callable[[QuestionReading, list, Embedder], ExtractiveResult]
ANSWERERS: dict[str, Answer] = {
    "rules": lambda q, units, e: answer_extractively(q, units, embedder=e),
    "learned": lambda q, units, e: learned_answer(q, units, embedder=e),
}


HEADER = "# Learned sentence scorer vs rules (2026-12-04)"
NOTES = (
    "Paragraph level, bundled embedder, CPU ms of both cases (covered and far) per question. "
    "DEV rows: the splits the learned model's thresholds were chosen on (never its training "
    "articles); TEST rows: XQuAD, never trained or tuned on by the learned scorer (the "
    "rules' weights were tuned on XQuAD, so their TEST rows are not a held-out figure)."
)


@dataclass(frozen=True)
class Row:
    dataset: str
    scorer: str
    questions: int
    answer_hit: float
    evidence_hit: float
    wrong_sentence: float  # answered from the gold paragraph, not its answering sentence
    wrong_paragraph: float  # answered from a paragraph holding no gold answer
    covered_refused: float
    uncovered_refused: float
    ms: float


def dev_cases(name: str, files: Sequence[str], limit: int, split: str = "dev") -> list[Case]:
    """The ``split``-bucket questions of a SQuAD-format set, each over its paragraph and a
    neighbour (hash-ordered), and over two paragraphs of another article of the split."""
    articles = []
    for rel in files:
        for article in json.loads((EVALDATA / rel).read_text(encoding="utf-8"))["data"]:
            key = str(article.get("id") or article.get("title"))
            if split_of(name, key) == split:
                articles.append([p for p in article["paragraphs"]])
    found = []
    for a, paragraphs in enumerate(articles):
        other = articles[(a + len(articles) // 2) % len(articles)]
        for k, p in enumerate(paragraphs):
            near = paragraphs[k + 1 if k + 1 < len(paragraphs) else max(k - 1, 0)]["context"]
            far = (other[k % len(other)]["context"], other[(k + 1) % len(other)]["context"])
            for qa in p["qas"]:
                pair = (p["context"], near)
                flip = hashlib.blake2b(qa["question"].encode(), digest_size=1).digest()[0] % 2
                context = pair[::-1] if flip else pair
                golds = tuple(x["text"] for x in qa["answers"])
                found.append(Case(qa["question"], golds, context, far))
    step = max(1.0, len(found) / limit)
    return [found[int(k * step)] for k in range(min(limit, len(found)))]


def hotpot_cases(limit: int) -> list[Case]:
    """HaluEval's HotpotQA items of the dev buckets (en): the knowledge text as the
    paragraph, the next dev item's as its neighbour, two items half the set away as far."""
    path = EVALDATA / "qa" / "halueval_hotpot500" / "qa_one-turn_data.json"
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    dev = [item for k, item in enumerate(items) if split_of("hotpot", str(k)) == "dev"]
    texts = [GLUED.sub(" ", item["knowledge"]) for item in dev]
    n = len(dev)
    found = [
        Case(
            item["question"],
            (item["right_answer"],),
            (texts[k], texts[(k + 1) % n]),
            (texts[(k + n // 2) % n], texts[(k + n // 2 + 1) % n]),
        )
        for k, item in enumerate(dev)
    ]
    return found[:limit]


def evaluate(name: str, found: Sequence[Case], scorer: str, embedder: Embedder) -> Row:
    answer = ANSWERERS[scorer]
    hits = evidence = refused = declined = sentence = paragraph = 0
    started = time.process_time()
    for case in found:
        question = read_question(case.question)
        result = answer(question, units_of(case.context, "retrieved"), embedder)
        answered = result.status == "answered"
        hit = answered and any(g in result.answer for g in case.golds)
        hits += hit
        evidence += answered and any(g in q.text for q in result.quotes for g in case.golds)
        refused += not answered
        if answered and not hit:
            in_gold = _from_gold_paragraph(result, case)
            sentence, paragraph = sentence + in_gold, paragraph + (not in_gold)
        far = answer(question, units_of(case.far, "retrieved"), embedder)
        declined += far.status == "not_covered"
    n = max(len(found), 1)
    ms = (time.process_time() - started) * 1000 / (2 * n)
    return Row(
        name, scorer, len(found), hits / n, evidence / n, sentence / n, paragraph / n,
        refused / n, declined / n, ms,
    )  # fmt: skip


def _from_gold_paragraph(result: ExtractiveResult, case: Case) -> bool:
    """Whether the answer's first quote lies in a paragraph holding a gold answer."""
    golden = [p for p in case.context if any(g in p for g in case.golds)]
    return bool(result.quotes) and any(result.quotes[0].text in p for p in golden)


def cost(embedder: Embedder, found: Sequence[Case]) -> list[str]:
    """Median CPU ms to score 40 candidate sentences (features, both heads): with their
    vectors known (a follow-up, a nearby question), and with the 40 sentences and the
    question embedded first (cold)."""
    import numpy as np

    from askalong.answer.scorer.features import Sentence, sentence_features
    from askalong.answer.scorer.model import shipped_scorer
    from askalong.text.sentences import split_sentences

    scorer = shipped_scorer()
    inner = embedder.inner  # type: ignore[attr-defined]
    spans = [(p, c.context[0]) for p, c in enumerate(found[:40])]
    every = [
        Sentence(p, i, text[a:b])
        for p, text in spans
        for i, (a, b) in enumerate(split_sentences(text))
    ]
    times: dict[str, list[float]] = {"vectors known": [], "embedded cold": []}
    for k in range(15):
        sentences = every[k * 7 : k * 7 + 40]
        question = found[k].question
        vectors = embedder.embed_passages([s.text for s in sentences])
        query = embedder.embed_query(question)
        for label in times:
            started = time.process_time()
            if label == "embedded cold":
                vectors = inner.embed_passages([s.text for s in sentences])
                query = inner._checked([question], "query")[0]
            rows = sentence_features(question, sentences, query, vectors)
            scores = scorer.sentence_scores(rows, embedded=True)
            scorer.answerable_probability(rows, scores, embedded=True)
            times[label].append((time.process_time() - started) * 1000)
    lines = ["| 40 candidates | CPU ms (median of 15) |", "|---|---:|"]
    lines += [f"| {label} | {np.median(t):.1f} |" for label, t in times.items()]
    return lines


def table(rows: Sequence[Row]) -> str:
    lines = [
        "| set | scorer | questions | answer hit | evidence hit | wrong sentence "
        "| wrong paragraph | covered refused | uncovered refused | CPU ms / answer |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.dataset} | {r.scorer} | {r.questions} | {r.answer_hit:.3f} | "
            f"{r.evidence_hit:.3f} | {r.wrong_sentence:.3f} | {r.wrong_paragraph:.3f} | "
            f"{r.covered_refused:.3f} | {r.uncovered_refused:.3f} | "
            f"{r.ms:.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=300, help="questions per set (spread)")
    parser.add_argument(
        "--out", type=Path, default=REPO / "benchmarks/results/scorer-2026-12-04.md"
    )
    parser.add_argument("--cost-only", action="store_true", help="only the cost table")
    parser.add_argument("--sets", nargs="*", default=None, help="only the sets named so")
    args = parser.parse_args()
    from askalong.providers.local.embedder import default_embedder

    embedder = CachedEmbedder(default_embedder(load_settings()))
    sets = {label: dev_cases(name, files, args.limit) for label, (name, files) in DEV_SETS.items()}
    spent = "\n".join(cost(embedder, sets["cmrc dev-split (zh-Hans)"]))
    print(spent, flush=True)
    if args.cost_only:  # the comparison kept, the cost table measured again
        kept = args.out.read_text(encoding="utf-8").split("\n| 40 candidates")[0]
        args.out.write_text(kept.rstrip("\n") + "\n\n" + spent + "\n", encoding="utf-8")
        return
    sets["hotpot dev-split (en)"] = hotpot_cases(args.limit)
    drcd = DEV_SETS["drcd dev-split (zh-Hant)"]
    sets["drcd test-split (zh-Hant) TEST"] = dev_cases(*drcd, args.limit, split="test")
    sets |= {f"{name} TEST": cases(SETS[name], args.limit) for name in ("xquad.en", "xquad.zh")}
    rows = []
    for label, found in sets.items():
        if args.sets and not any(name in label for name in args.sets):
            continue
        for scorer in ANSWERERS:
            rows.append(evaluate(label, found, scorer, embedder))
            print(table(rows[-1:]).splitlines()[-1], flush=True)
    text = "\n\n".join([HEADER, table(rows), NOTES, spent])
    args.out.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
