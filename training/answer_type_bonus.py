"""The question's answer type read beside the rank head, an experiment (issue 32; measured,
not shipped): per answer type (why, how, the rest), a weight on the sentence's answer shape
(``cues.answer_fit``: a cause for a why question, a means for a how question, a name, a
number, a date) added to the rank head's score, times the median spread of a question's
rank scores, and the runner-up share (``direct_choice.RUNNER_UP_SHARE``) the direct answer
pairs the best sentence with.

Every answered covered question is answered again by the real answerer for each setting of
``WEIGHTS`` × ``SHARES`` (the refusal reads the rank head's own scores, so only the answer's
sentences move). ``cross`` chooses per answer type the setting with the most answers holding
the gold on the fit sets with one left out, in turn, then on every fit set for the
``JUDGED`` sets (in no fit), and prints both against the shipped setting (weight 0, share
0.1). About 80 CPU seconds over the nineteen DEV sets once they are weighed.

    PYTHONPATH=src:benchmarks:training python training/answer_type_bonus.py cross \
        /work/data/rec/unseen*.pkl --reader-folds A.npz B.npz --cache /tmp/weighed
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
from reader_layers import add_folds_argument
from weighed_recordings import JUDGED, WeighedQuestion, weighed_sets

from _table import markdown_table
from askalong.answer.extractive import direct_choice
from askalong.answer.extractive.cues import answer_fit
from askalong.answer.extractive.learned import answered
from askalong.answer.scorer.model import shipped_scorer
from askalong.text.tokens import terms_of

WEIGHTS = (0.0, 0.25, 0.5, 1.0, 1.5)  # times the median spread of a question's rank scores
SHARES = (0.03, 0.1, 0.3, 1.01)  # 1.01: never the runner-up
SHIPPED = (0.0, direct_choice.RUNNER_UP_SHARE)
TYPES = ("reason", "method", "other")
Setting = tuple[float, float]


def answer_type(wq: WeighedQuestion) -> str:
    kind = wq.question.form.answer_type
    return kind if kind in TYPES else "other"


def hits(found: Sequence[WeighedQuestion]) -> dict[tuple[int, Setting], bool]:
    """Whether each answered covered question's answer holds the gold, per setting."""
    spread = float(np.median([np.std(wq.w.ranks) for wq in found]))
    scorer, out = shipped_scorer(), {}
    for k, wq in enumerate(found):
        q = wq.question
        asked = frozenset(terms_of(q.text))
        fit = np.array(
            [answer_fit(q.form, c.text, set(terms_of(c.text)), asked) for c in wq.w.found]
        )
        for weight in WEIGHTS:
            w = replace(wq.w, ranks=wq.w.ranks + weight * spread * fit)
            for share in SHARES:
                direct_choice.RUNNER_UP_SHARE = share  # the experiment's one knob there
                result = answered(q, w, scorer, True)
                out[k, (weight, share)] = replace(
                    wq, status=result.status, answer=result.answer
                ).hit
    direct_choice.RUNNER_UP_SHARE = SHIPPED[1]
    return out


def cross(found: Sequence[WeighedQuestion]) -> None:
    """Per answer type: shipped against chosen, each fit set left out, then per judged set."""
    answered_ = [wq for wq in found if not wq.item.refuse and wq.status == "answered"]
    hit = hits(answered_)
    settings = [(w, s) for w in WEIGHTS for s in SHARES]
    fit_sets = sorted({wq.set for wq in answered_} - set(JUDGED))

    def total(mine: list[int], setting: Setting) -> int:
        return sum(hit[k, setting] for k in mine)

    def best(mine: list[int]) -> Setting:
        return max(settings, key=lambda s: (total(mine, s), s == SHIPPED))

    rows = []
    for kind in TYPES:
        of = [k for k, wq in enumerate(answered_) if answer_type(wq) == kind]
        fit = [k for k in of if answered_[k].set in fit_sets]
        left_out = 0
        for name in fit_sets:
            chosen = best([k for k in fit if answered_[k].set != name])
            left_out += total([k for k in fit if answered_[k].set == name], chosen)
        chosen = best(fit)
        judged = [[k for k in of if answered_[k].set == name] for name in JUDGED]
        rows.append((
            kind, f"{total(fit, SHIPPED)} → {left_out}", f"{chosen[0]} / {chosen[1]}",
            *(f"{total(j, SHIPPED)} → {total(j, chosen)} / {len(j)}" for j in judged),
        ))  # fmt: skip
    header = ("answer type", "fit sets, each left out", "chosen on all: weight / share", *JUDGED)
    print(markdown_table(header, "lll" + "r" * len(JUDGED), rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("verb", choices=("cross",))
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--cache", type=Path, help="a folder keeping each set weighed")
    add_folds_argument(parser)
    args = parser.parse_args()
    cross(weighed_sets(args.recordings, args.reader_folds, args.cache))


if __name__ == "__main__":
    main()
