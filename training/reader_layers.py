"""The reader encoder (issue 32): e5's top two layers fine-tuned as a bi-encoder on the
readers' groups, exported into the package, and the out-of-sample column the rank head is
fitted on.

1. Cache the groups' e5 states after layer 10 (``late_xenc_data.py``) and train the
   layers three times with ``late_xenc_train.py --design bi``: on the first half of the
   sets (scoring the second), on the second half (scoring the first), and on every set
   (the shipped layers).
2. ``export`` writes the every-set model's layers as the package's
   ``providers/local/e5/reader-layers.npz`` (int8 per output column, ``e5/reader.py``).
3. ``readers.py fit --reader-folds A B --states S`` fits the rank head with the column
   ``reader_cosine`` taken from the fold that was not trained on each group's set
   (``out_of_sample``): fitted on in-sample cosines the head would trust the column far
   more than it earns on new documents.
4. The heads that read the rank head's scores (refusal, read-on, intent) weigh
   each recorded question with the fold not trained on its set (``FoldEmbedders``,
   their ``--reader-folds``): with the shipped layers every DEV set would be in sample.

5. ``firsts`` measures a model by its cosine alone: per set, the groups whose gold it
   ranks first, on the sets it was not trained on, beside e5's and the shipped layers'.

    PYTHONPATH=src:training python training/reader_layers.py export /work/data/s45/bi-b.npz
    PYTHONPATH=src:benchmarks:training python training/reader_layers.py firsts \
        $(cat /work/data/s49/recs) --states /work/data/s49/states.npz \
        --cache /work/data/s49/groups --models bi-a.npz bi-b.npz bi-a.npz+bi-11.npz
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from _table import markdown_table
from askalong.answer.extractive.sentence_cache import CachedEmbedder
from askalong.providers.base import Embedder, EmbedKind
from askalong.providers.local.e5.model import FastE5Embedder
from askalong.providers.local.e5.reader import READER_FILE, quantised, upper_layers

PACKAGE_FILE = Path(__file__).parents[1] / "src/askalong/providers/local/e5" / READER_FILE


def export(model: Path, out: Path = PACKAGE_FILE) -> None:
    """The trained model's layer arrays (``l<k>.<field>``), quantised, as ``out``."""
    with np.load(model) as data:
        layers = {k: data[k] for k in data.files if k.startswith("l") and "." in k}
    np.savez_compressed(out, **quantised(layers))
    print(f"{len(layers)} arrays -> {out} ({out.stat().st_size / 1e6:.1f} MB)")


class FoldReader(Embedder):
    """The plain e5 vectors of ``plain``, with a fold model's layers as its reader encoder."""

    def __init__(self, plain: FastE5Embedder, fold: Path) -> None:
        super().__init__(name=plain.name, dimension=plain.dimension)
        self.plain = plain
        with np.load(fold) as data:
            layers = {k: data[k] for k in data.files if k.startswith("l") and "." in k}
        image = io.BytesIO()
        np.savez(image, **quantised(layers))  # the rounding the shipped layers get
        self._reader = FastE5Embedder._beside(plain, upper_layers(image.getvalue()))

    @property
    def vector_space(self) -> str:
        return self.plain.vector_space

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        return self.plain._embed(texts, kind)

    def reader(self) -> Embedder | None:
        return self._reader


class FoldEmbedders:
    """Per set, the embedder whose reader encoder was not trained on it: a fold model's
    (``late_xenc_train.py --design bi`` output, its ``fit`` sets) where one left the set
    out, else ``shipped`` (a set no layers saw, or no folds given)."""

    def __init__(self, shipped: Embedder | None, folds: Sequence[Path] = ()) -> None:
        self.shipped = shipped
        self.folds: list[tuple[set[str], Embedder]] = []
        plain = _plain(shipped) if folds else None
        for path in folds:
            with np.load(path) as data:
                fit = {str(name) for name in data["fit"]}
            self.folds.append((fit, CachedEmbedder(FoldReader(plain, path), size=200_000)))

    def of(self, set_name: str) -> Embedder | None:
        for fit, embedder in self.folds:
            if set_name not in fit:
                return embedder
        return self.shipped


def _plain(shipped: Embedder | None) -> FastE5Embedder:
    inner = shipped.inner if isinstance(shipped, CachedEmbedder) else shipped
    if not isinstance(inner, FastE5Embedder):
        raise ValueError(f"reader folds need the bundled e5 embedder, not {inner!r}")
    return inner


def add_folds_argument(parser: argparse.ArgumentParser) -> None:
    """``--reader-folds A B``: the fold models each DEV set is read by (``FoldEmbedders``)."""
    parser.add_argument(
        "--reader-folds", type=Path, nargs="*", default=[],
        help="late_xenc_train.py --design bi folds: each set read by the one not trained on it",
    )  # fmt: skip


def out_of_sample(states: Path, folds: Sequence[Path]) -> tuple[np.ndarray, np.ndarray]:
    """Per candidate row of ``states``' groups: the reader cosine from the fold model not
    trained on the row's set (a fold's ``scores`` are its scale times the cosine), and the
    rows' labels (to check the rows line up with the groups they are put beside)."""
    with np.load(states) as data:
        sets, cand_group, labels = data["sets"], data["cand_group"], data["labels"]
    column = np.full(len(cand_group), np.nan)
    for path in folds:
        with np.load(path) as fold:
            held = ~np.isin(sets, fold["fit"])[cand_group]
            column[held] = fold["scores"][held] / float(fold["scale"][0])
    if np.isnan(column).any():
        raise ValueError("some sets are in every fold's training sets: no out-of-sample cosine")
    return column, labels


def right_first(
    recordings: Sequence[Path], states: Path, cache: Path, models: Sequence[str]
) -> None:
    """Per set, the groups whose gold a column alone ranks first: e5's cosine, the shipped
    layers' (``cache``: ``readers.py``'s groups of ``recordings``; shown on every set, in
    sample on the sets those layers were trained on) and each model's
    (``late_xenc_train.py`` outputs; ``A+B`` sums their cosines, an ensemble), each shown
    only on the sets none of its models was trained on."""
    from readers import READER, collected  # readers imports this module

    from askalong.answer.scorer.model import RANK_COLUMNS

    with np.load(states) as data:
        sets, cand_group, labels = data["sets"], data["cand_group"], data["labels"]
    g = collected(recordings, None, 0, cache)
    if not np.array_equal(g.y[: len(labels)], labels):
        raise ValueError(f"{states}: its groups are not the recordings' in {cache}")
    rows = g.x[: len(labels)]
    columns = {"e5": (rows[:, RANK_COLUMNS.index("cosine")], set()),
               "shipped": (rows[:, READER], set())}  # fmt: skip
    for name in models:
        columns[name] = _summed([Path(p) for p in name.split("+")])
    names = sorted(set(sets.tolist()), key=lambda n: (len(n), n))
    table = []
    for set_name in names:
        groups = np.flatnonzero(sets == set_name)
        cells = [
            "—" if set_name in fit else str(_firsts(column, cand_group, labels, groups))
            for column, fit in columns.values()
        ]
        table.append((set_name, str(len(groups)), *cells))
    print(markdown_table(("set", "groups", *columns), "lr" + "r" * len(columns), table))


def _summed(paths: Sequence[Path]) -> tuple[np.ndarray, set[str]]:
    """The models' cosines summed, and every set one of them was trained on."""
    total, fit = 0.0, set()
    for path in paths:
        with np.load(path) as data:
            total = total + data["scores"] / float(data["scale"][0])
            fit |= {str(name) for name in data["fit"]}
    return np.asarray(total), fit


def _firsts(
    column: np.ndarray, cand_group: np.ndarray, labels: np.ndarray, groups: np.ndarray
) -> int:
    """How many of ``groups`` have a gold row first by ``column``."""
    hits = 0
    for g in groups:
        rows = np.flatnonzero(cand_group == g)
        hits += int(labels[rows][np.argmax(column[rows])] == 1)
    return hits


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    out = verbs.add_parser("export", help="a model's layers into the package")
    out.add_argument("model", type=Path, help="late_xenc_train.py --design bi output")
    out.add_argument("--out", type=Path, default=PACKAGE_FILE)
    firsts = verbs.add_parser("firsts", help="right first by each column alone, per set")
    firsts.add_argument("recordings", type=Path, nargs="+")
    firsts.add_argument("--states", type=Path, required=True, help="late_xenc_data.py output")
    firsts.add_argument("--cache", type=Path, required=True, help="readers.py --cache folder")
    firsts.add_argument("--models", nargs="*", default=[], help="model files; A+B: summed")
    args = parser.parse_args()
    if args.verb == "export":
        export(args.model, args.out)
    else:
        right_first(args.recordings, args.states, args.cache, args.models)


if __name__ == "__main__":
    main()
