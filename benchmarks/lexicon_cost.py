"""What the bilingual lexicon (``text/lexicon.py``) costs: reading it (CPU seconds, and the
resident memory it adds, Chinese -> English table first, then the English -> Chinese index
an English question builds), and the CPU of a cross-lingual question answered with the
shipped across head that reads it against the rank head alone (no lexicon read), each in a
fresh process over the same recorded DEV questions (every recorded plain cross-lingual
question of the recordings given, the bundled embedder).

    PYTHONPATH=src:benchmarks python benchmarks/lexicon_cost.py /work/data/rec/unseen17.pkl
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from _table import markdown_table
from unseen_replay import bundled_embedder, kind_of, recording


def _resident_mb() -> float:
    """This process's resident memory now (``/proc/self/statm``), in MB."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * resource.getpagesize() / 2**20


def load() -> dict[str, float]:
    """The lexicon read in this process: CPU seconds and resident MB added, per table."""
    from askalong.text import lexicon

    lexicon.english_of("预热")  # the segmenter and stemmer loaded before the clock starts
    lexicon.lexicon.cache_clear()
    before, start = _resident_mb(), time.process_time()
    table = lexicon.lexicon()
    english, middle = time.process_time() - start, _resident_mb()
    start = time.process_time()
    assert table.chinese
    chinese = time.process_time() - start
    return {"english_s": english, "english_mb": middle - before, "chinese_s": chinese,
            "both_mb": _resident_mb() - before}  # fmt: skip


def ask(paths: list[Path], head: bool) -> dict[str, float]:
    """The recorded cross-lingual questions answered (``head``: with the shipped across
    head, else the rank head alone): CPU seconds a question, the first apart."""
    from askalong.answer.extractive.learned import learned_answer
    from askalong.answer.scorer.model import shipped_scorer

    scorer = shipped_scorer() if head else replace(shipped_scorer(), across={})
    embedder = bundled_embedder()
    embedder.embed_query("warm up")  # the model loaded before the clock starts
    asked = []
    for path in paths:
        _, items, requests = recording(path)
        for item in items:
            request = requests.get(item.id)
            if request and request.intent == "ask" and kind_of(item) == "cross-lingual":
                asked.append(request)
    times = []
    for r in asked:
        start = time.process_time()
        learned_answer(r.question, r.units, embedder=embedder, scorer=scorer, hits=r.hits)
        times.append(time.process_time() - start)
    rest = times[1:] or [0.0]
    return {"questions": len(times), "first_s": times[0], "mean_s": sum(rest) / len(rest)}


def _child(*argv: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", *argv], check=True, capture_output=True, text=True
    )
    found: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--child", choices=("load", "rank", "across"))
    args = parser.parse_args()
    if args.child == "load":
        print(json.dumps(load()))
    elif args.child:
        print(json.dumps(ask(args.recordings, args.child == "across")))
    else:
        report([str(p) for p in args.recordings])


def report(paths: list[str]) -> None:
    cost = _child("load", *paths)
    print(markdown_table(
        ("table", "CPU s", "resident MB added"), "lrr",
        [("Chinese -> English (every cross-lingual question)",
          f"{cost['english_s']:.3f}", f"{cost['english_mb']:.1f}"),
         ("+ English -> Chinese (an English question's first)",
          f"{cost['chinese_s']:.3f}", f"{cost['both_mb']:.1f} (both)")],
    ))  # fmt: skip
    rows = []
    for name in ("rank", "across"):
        c = _child(name, *paths)
        rows.append((name, str(int(c["questions"])), f"{c['first_s']:.3f}", f"{c['mean_s']:.3f}"))
    header = ("order", "questions", "first question CPU s", "each later, mean CPU s")
    print(markdown_table(header, "lrrr", rows))


if __name__ == "__main__":
    main()
