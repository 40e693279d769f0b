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

    PYTHONPATH=src:training python training/reader_layers.py export /work/data/s45/bi-b.npz
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from askalong.providers.local.e5.reader import READER_FILE, quantised

PACKAGE_FILE = Path(__file__).parents[1] / "src/askalong/providers/local/e5" / READER_FILE


def export(model: Path, out: Path = PACKAGE_FILE) -> None:
    """The trained model's layer arrays (``l<k>.<field>``), quantised, as ``out``."""
    with np.load(model) as data:
        layers = {k: data[k] for k in data.files if k.startswith("l") and "." in k}
    np.savez_compressed(out, **quantised(layers))
    print(f"{len(layers)} arrays -> {out} ({out.stat().st_size / 1e6:.1f} MB)")


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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("verb", choices=("export",))
    parser.add_argument("model", type=Path, help="late_xenc_train.py --design bi output")
    parser.add_argument("--out", type=Path, default=PACKAGE_FILE)
    args = parser.parse_args()
    export(args.model, args.out)


if __name__ == "__main__":
    main()
