"""Training pairs for the learned sentence scorer: questions, their candidate sentences
with ``askalong.answer.scorer.features`` rows, the gold sentence, and for answerability
the same question over another article's best-matching paragraphs.

    PYTHONPATH=src python training/prepare.py --out /work/data/scorer/pairs.npz

Sources (see training/README.md): CMRC 2018 dev+trial, DRCD dev (from ASKALONG_EVALDATA),
SciFact train claims with rationale sentences, HotpotQA items of HaluEval. Articles are
split by ``splits.split_of``; the TEST buckets are skipped here, never read.
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import os
import random
import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from askalong.answer.scorer.features import Sentence, sentence_features
from askalong.text.sentences import split_sentences
from askalong.text.tokens import terms_of

sys.path.insert(0, str(Path(__file__).resolve().parent))
from splits import split_of

EVALDATA = Path(os.environ.get("ASKALONG_EVALDATA", "/work/shared/evaldata"))
SEED = 32
SAME_ARTICLE = 2  # further paragraphs of the question's own article among its candidates
FAR = 3  # another article's best-matching paragraphs for the unanswerable case
FAR_POOL = 40  # ... chosen among this many random paragraphs of other articles


@dataclass
class Paragraph:
    dataset: str
    article: str
    sentences: list[str]
    title: str = ""  # the article's title (the passage model's heading)


@dataclass
class Question:
    text: str
    paragraph: int  # index into the paragraphs
    gold: set[int]  # sentence indices holding the answer
    language: str


def sentence_spans(text: str) -> list[tuple[int, int]]:
    return [(a, b) for a, b in split_sentences(text) if text[a:b].strip()]


def squad_format(name: str, path: Path, language: str) -> Iterator[tuple[Paragraph, list]]:
    """(paragraph, [(question, {gold sentence})]) of a SQuAD-format file."""
    for article in json.loads(path.read_text(encoding="utf-8"))["data"]:
        key = str(article.get("id") or article.get("title"))
        for p in article["paragraphs"]:
            spans = sentence_spans(p["context"])
            texts = [p["context"][a:b].strip() for a, b in spans]
            paragraph = Paragraph(name, key, texts, str(article.get("title") or ""))
            asked = []
            for qa in p["qas"]:
                starts = {a["answer_start"] for a in qa["answers"] if "answer_start" in a}
                gold = {k for k, (a, b) in enumerate(spans) for s in starts if a <= s < b}
                if gold:
                    asked.append((qa["question"], gold))
            yield paragraph, asked


def scifact() -> Iterator[tuple[Paragraph, list]]:
    """SciFact train claims with rationale sentences, each over its abstract."""
    folder = EVALDATA / "retrieval" / "scifact"
    csv.field_size_limit(1 << 24)
    with (folder / "corpus_train.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    abstracts = {row["doc_id"]: row["abstract"] for row in rows}
    titles = {row["doc_id"]: row["title"] for row in rows}
    by_doc: dict[str, list] = {}
    with (folder / "claims_train.csv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            doc, evidence = (
                row["evidence_doc_id"],
                {int(n) for n in re.findall(r"\d+", row["evidence_sentences"])},
            )
            if doc and evidence and doc in abstracts:
                by_doc.setdefault(doc, []).append((row["claim"], evidence))
    for doc, asked in by_doc.items():
        sentences = _abstract_sentences(abstracts[doc])
        yield Paragraph("scifact", doc, sentences, titles[doc]), asked


def _abstract_sentences(text: str) -> list[str]:
    """The abstract's sentences (stored as a Python-list string without commas)."""
    found = re.findall(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"", text)
    texts = (a or b for a, b in found)
    return [t.replace("\\n", " ").strip() for t in texts]  # indices are the rationale ids


GLUED = re.compile(r"(?<=[a-z0-9)]\.)(?=[A-Z])")


def hotpot() -> Iterator[tuple[Paragraph, list]]:
    """HaluEval's HotpotQA items: the knowledge text, the sentence holding the answer."""
    path = EVALDATA / "qa" / "halueval_hotpot500" / "qa_one-turn_data.json"
    for k, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        item = json.loads(line)
        text = GLUED.sub(" ", item["knowledge"])
        sentences = [text[a:b].strip() for a, b in sentence_spans(text)]
        answer = item["right_answer"].lower()
        gold = {i for i, s in enumerate(sentences) if answer in s.lower()}
        yield Paragraph("hotpot", str(k), sentences), [(item["question"], gold)] if gold else []


SOURCES = {
    "cmrc": lambda: [
        *squad_format("cmrc", EVALDATA / "qa/cmrc2018/cmrc2018_dev.json", "zh"),
        *squad_format("cmrc", EVALDATA / "qa/cmrc2018/cmrc2018_trial.json", "zh"),
    ],
    "drcd": lambda: squad_format("drcd", EVALDATA / "qa/drcd/DRCD_dev.json", "zh-Hant"),
    "scifact": scifact,
    "hotpot": hotpot,
    "pgdocs": lambda: _self_supervised("pg_manual"),
    "pydocs": lambda: _self_supervised("python_docs"),
}
LANGUAGE = {
    "cmrc": "zh-Hans", "drcd": "zh-Hant", "scifact": "en", "hotpot": "en", "pgdocs": "en",
    "pydocs": "en",
}  # fmt: skip


def _self_supervised(name: str) -> Iterator[tuple[Paragraph, list]]:
    """``manuals.py``'s pairs (imported on use: it imports this module's types)."""
    import manuals

    return getattr(manuals, name)()


def load(limit: int, sources: list[str]) -> tuple[list[Paragraph], list[Question], list[str]]:
    """Paragraphs and questions of ``sources``, TEST articles skipped; ``limit``
    questions per source at most (an even spread)."""
    paragraphs: list[Paragraph] = []
    questions: list[Question] = []
    splits: list[str] = []
    for name in sources:
        read = SOURCES[name]
        mine: list[Question] = []
        for paragraph, asked in read():
            split = split_of(paragraph.dataset, paragraph.article)
            if split == "test" or not paragraph.sentences:
                continue
            paragraphs.append(paragraph)
            splits.append(split)
            for text, gold in asked:
                mine.append(Question(text, len(paragraphs) - 1, gold, LANGUAGE[name]))
        step = max(1.0, len(mine) / limit)
        questions.extend(mine[int(k * step)] for k in range(min(limit, len(mine))))
    return paragraphs, questions, splits


@functools.cache
def paragraph_terms(sentences: tuple[str, ...]) -> frozenset[str]:
    return frozenset(terms_of(" ".join(sentences)))


def lexical_order(question: str, candidates: list[int], paragraphs: list[Paragraph]) -> list[int]:
    """Candidates by the share of the question's terms their text holds (a stand-in for
    the search's order), the highest first; ties keep their order."""
    asked = terms_of(question)
    held = {p: paragraph_terms(tuple(paragraphs[p].sentences)) for p in candidates}
    return sorted(candidates, key=lambda p: -len(asked & held[p]))


class Vectors:
    """e5 vectors of every text met, embedded in batches and remembered."""

    def __init__(self) -> None:
        from askalong.config import load_settings
        from askalong.providers.local.embedder import default_embedder

        self.embedder = default_embedder(load_settings())
        self.passages: dict[str, np.ndarray] = {}

    def fill(self, texts: list[str]) -> None:
        missing = sorted({t for t in texts if t not in self.passages})
        for k in range(0, len(missing), 64):
            batch = missing[k : k + 64]
            for text, row in zip(batch, self.embedder.embed_passages(batch), strict=True):
                self.passages[text] = row

    def save(self, path: Path) -> None:
        """The passage vectors met so far, kept for the next run."""
        texts = sorted(self.passages)
        np.savez(path, text=np.array(texts), vector=np.stack([self.passages[t] for t in texts]))

    def load(self, path: Path) -> None:
        kept = np.load(path)
        self.passages.update(zip(kept["text"].tolist(), kept["vector"], strict=True))

    def queries(self, texts: list[str]) -> np.ndarray:
        batches = [texts[k : k + 64] for k in range(0, len(texts), 64)]
        return np.concatenate([self.embedder._checked(batch, "query") for batch in batches])


def paragraph_indexes(
    paragraphs: list[Paragraph], splits: list[str]
) -> tuple[dict[tuple[str, str], list[int]], dict[tuple[str, str], list[int]]]:
    """The paragraphs' positions by (dataset, article) and by (dataset, split): a question's
    own article and the pool its far negatives are drawn from."""
    by_article: dict[tuple[str, str], list[int]] = {}
    pools: dict[tuple[str, str], list[int]] = {}
    for k, p in enumerate(paragraphs):
        by_article.setdefault((p.dataset, p.article), []).append(k)
        pools.setdefault((p.dataset, splits[k]), []).append(k)
    return by_article, pools


def candidates_of(
    question: Question, by_article: dict[tuple[str, str], list[int]], paragraphs: list[Paragraph]
) -> list[int]:
    """The question's paragraph and up to ``SAME_ARTICLE`` others of its article that
    share the most terms with the question."""
    own = paragraphs[question.paragraph]
    others = [p for p in by_article[(own.dataset, own.article)] if p != question.paragraph]
    return [question.paragraph, *lexical_order(question.text, others, paragraphs)[:SAME_ARTICLE]]


def far_of(
    question: Question, pool: list[int], paragraphs: list[Paragraph], rng: random.Random
) -> list[int]:
    """``FAR`` paragraphs of other articles of the same source, the best matching of a
    random ``FAR_POOL``."""
    own = paragraphs[question.paragraph]
    sample = [
        p
        for p in rng.sample(pool, min(FAR_POOL, len(pool)))
        if paragraphs[p].article != own.article
    ]
    return lexical_order(question.text, sample, paragraphs)[:FAR]


def group(
    question: str, chosen: list[int], paragraphs: list[Paragraph]
) -> tuple[list[Sentence], list[int]]:
    """The candidates of ``chosen`` paragraphs in lexical order, and that order."""
    ordered = lexical_order(question, chosen, paragraphs)
    return [
        Sentence(rank, i, text)
        for rank, p in enumerate(ordered)
        for i, text in enumerate(paragraphs[p].sentences)
    ], ordered


def save_groups(out: Path, rows: list, labels: list[int], groups: list[int], meta: list) -> None:
    """The groups' feature rows, labels and (language, split, covered) as one ``.npz``."""
    np.savez_compressed(
        out,
        x=np.vstack(rows),
        y=np.array(labels, dtype=np.int8),
        group=np.array(groups, dtype=np.int32),
        language=np.array([m[0] for m in meta]),
        split=np.array([m[1] for m in meta]),
        covered=np.array([m[2] for m in meta], dtype=np.int8),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/work/data/scorer/pairs.npz"))
    parser.add_argument("--limit", type=int, default=2500, help="questions per source")
    parser.add_argument("--sources", nargs="+", choices=list(SOURCES), default=list(SOURCES))
    args = parser.parse_args()
    started = time.time()
    rng = random.Random(SEED)
    paragraphs, questions, splits = load(args.limit, args.sources)
    print(f"{len(paragraphs)} paragraphs, {len(questions)} questions", flush=True)
    by_article: dict[tuple[str, str], list[int]] = {}
    pools: dict[tuple[str, str], list[int]] = {}
    for k, p in enumerate(paragraphs):
        by_article.setdefault((p.dataset, p.article), []).append(k)
        pools.setdefault((p.dataset, splits[k]), []).append(k)
    plans = []
    for q in questions:
        near = candidates_of(q, by_article, paragraphs)
        own = paragraphs[q.paragraph]
        far = far_of(q, pools[(own.dataset, splits[q.paragraph])], paragraphs, rng)
        plans.append((q, near, far))
    print(f"planned in {time.time() - started:.0f} s", flush=True)
    vectors = Vectors()
    texts = [s for _, near, far in plans for p in near + far for s in paragraphs[p].sentences]
    vectors.fill(texts)
    print(
        f"embedded {len(vectors.passages)} sentences in {time.time() - started:.0f} s", flush=True
    )
    qvecs = vectors.queries([q.text for q, _, _ in plans])
    rows, groups, labels, meta = [], [], [], []
    for (q, near, far), qv in zip(plans, qvecs, strict=True):
        for covered, chosen in ((1, near), (0, far)):
            if not chosen:
                continue
            sentences, ordered = group(q.text, chosen, paragraphs)
            vecs = np.stack([vectors.passages[s.text] for s in sentences])
            x = sentence_features(q.text, sentences, qv, vecs)
            gold_rank = ordered.index(q.paragraph) if covered else -1
            y = [int(covered and s.passage == gold_rank and s.index in q.gold) for s in sentences]
            rows.append(x)
            labels.extend(y)
            groups.extend([len(meta)] * len(sentences))
            meta.append((q.language, splits[q.paragraph], covered))
    save_groups(args.out, rows, labels, groups, meta)
    print(f"{len(meta)} groups, {len(labels)} rows in {time.time() - started:.0f} s -> {args.out}")


if __name__ == "__main__":
    main()
