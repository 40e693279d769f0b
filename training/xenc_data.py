"""Token pairs for the cross-encoder experiment (issue 32): each question of ``prepare.py``'s
sources with a few of its own article's sentences, as e5 token ids, plus the first layers
of the bundled multilingual-e5-small as float32 arrays (the training's starting point).

    PYTHONPATH=src python training/xenc_data.py --out /work/data/xenc

Writes ``pairs.npz`` (ids of ``<s> query: Q </s></s> passage: S </s>``, cut to ``WIDTH``
tokens; a group of ``GROUP`` candidates per question, the gold first-class) and
``init.npz`` (embeddings for the vocabulary the pairs use, renumbered; the first
``LAYERS`` encoder layers). Splits are ``splits.py``'s, by article; TEST is never read.
Runs in the product's environment (it needs the package's model); training does not.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from askalong.providers.local.e5.file import ModelFile, read_model_file
from askalong.providers.local.e5.model import PREFIXES, PackageModel
from askalong.providers.local.e5.tokenizer import Tokenizer
from askalong.providers.local.e5.weights import EncoderWeights, cache_key, load_weights

sys.path.insert(0, str(Path(__file__).resolve().parent))
from prepare import Paragraph, Question, candidates_of, load

SEED = 32
GROUP = 8  # candidates per question: its gold sentence and hard negatives of its article
WIDTH = 96  # tokens a pair, ``<s>`` and ``</s>`` included
QUERY_TOKENS = 32  # the question's share at most
LAYERS = 4  # layers kept for the experiment (trained with 2 to 4 of them)


@dataclass(frozen=True)
class E5Parts:
    """The package's tokenizer and float32 weights, loaded once."""

    tokenizer: Tokenizer
    weights: EncoderWeights
    image: ModelFile

    @classmethod
    def installed(cls, cache_root: Path) -> E5Parts:
        model = PackageModel.installed()
        image = read_model_file(model.path)
        folder = cache_root / cache_key(image, model.version, cache_root)
        weights = load_weights(image, folder)
        return cls(Tokenizer(image.vocabulary, folder), weights, image)

    def pair_ids(self, question: str, sentence: str) -> list[int]:
        """``<s> query: Q </s></s> passage: S </s>`` (XLM-R's pair form), at most ``WIDTH``."""
        vocabulary = self.image.vocabulary
        bos, eos = vocabulary.bos, vocabulary.eos
        asked = self.tokenizer.content_ids(PREFIXES["query"] + question)[:QUERY_TOKENS]
        room = WIDTH - len(asked) - 4
        said = self.tokenizer.content_ids(PREFIXES["passage"] + sentence)[:room]
        return [bos, *asked, eos, eos, *said, eos]


def group_of(
    question: Question, near: list[int], paragraphs: list[Paragraph], rng: random.Random
) -> tuple[list[str], list[int]]:
    """Up to ``GROUP`` sentences of the question's article: one gold, then negatives of its
    own paragraph first (the hardest), then of the article's other near paragraphs."""
    own = paragraphs[question.paragraph].sentences
    gold = sorted(question.gold)
    if not gold or gold[0] >= len(own):
        return [], []
    chosen = [own[rng.choice(gold)]]
    same = [s for i, s in enumerate(own) if i not in question.gold]
    other = [s for p in near[1:] for s in paragraphs[p].sentences]
    rng.shuffle(same)
    rng.shuffle(other)
    chosen += (same + other)[: GROUP - 1]
    labels = [1] + [0] * (len(chosen) - 1)
    order = list(range(len(chosen)))
    rng.shuffle(order)
    return [chosen[k] for k in order], [labels[k] for k in order]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/work/data/xenc"))
    parser.add_argument("--limit", type=int, default=2500, help="questions per source")
    parser.add_argument("--sources", nargs="+", default=["cmrc", "drcd", "scifact", "hotpot"])
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(SEED)
    paragraphs, questions, splits = load(args.limit, args.sources)
    by_article: dict[tuple[str, str], list[int]] = {}
    for k, p in enumerate(paragraphs):
        by_article.setdefault((p.dataset, p.article), []).append(k)
    parts = E5Parts.installed(args.out / "cache")
    ids, labels, groups, meta = [], [], [], []
    for q in questions:
        texts, gold = group_of(q, candidates_of(q, by_article, paragraphs), paragraphs, rng)
        if len(texts) < 2:
            continue
        ids += [parts.pair_ids(q.text, t) for t in texts]
        labels += gold
        groups += [len(meta)] * len(texts)
        meta.append((q.language, splits[q.paragraph]))
    save(args.out, parts, ids, labels, groups, meta)


def save(out: Path, parts: E5Parts, ids: list, labels: list, groups: list, meta: list) -> None:
    """The pairs with the vocabulary renumbered to the ids they use, and the weights."""
    used = np.unique(np.concatenate([np.array(row) for row in ids]))
    renumber = {int(v): k for k, v in enumerate(used)}
    tokens = np.zeros((len(ids), WIDTH), dtype=np.int32)  # past each length: masked out
    lengths = np.array([len(row) for row in ids], dtype=np.int32)
    for r, row in enumerate(ids):
        tokens[r, : len(row)] = [renumber[t] for t in row]
    np.savez_compressed(
        out / "pairs.npz",
        tokens=tokens,
        lengths=lengths,
        label=np.array(labels, dtype=np.int8),
        group=np.array(groups, dtype=np.int32),
        language=np.array([m[0] for m in meta]),
        split=np.array([m[1] for m in meta]),
    )
    w = parts.weights
    layers = {
        f"l{k}.{name}": np.asarray(getattr(layer, name), dtype=np.float32)
        for k, layer in enumerate(w.layers[:LAYERS])
        for name in layer.__dataclass_fields__
    }
    np.savez(
        out / "init.npz",
        vocab=used.astype(np.int32),
        word=w.word_rows(used).astype(np.float32),
        positions=np.asarray(w.positions, np.float32),
        token_type=np.asarray(w.token_type, np.float32),
        ln_w=np.asarray(w.ln_w, np.float32),
        ln_b=np.asarray(w.ln_b, np.float32),
        **layers,
    )
    print(f"{len(meta)} groups, {len(ids)} pairs, vocabulary {len(used)} -> {out}")


if __name__ == "__main__":
    main()
