"""Write ``src/askalong/text/simplified.txt``, the one-for-one Traditional -> Simplified
character table the tokeniser cuts Traditional Chinese with (``text/simplified.py``).

Source: OpenCC's ``TSCharacters.txt`` (Apache-2.0; it ships inside the
``opencc-python-reimplemented`` wheel as ``opencc/dictionary/TSCharacters.txt``). Each line
there is a Traditional character and its Simplified candidates; we keep the first
candidate, and drop a character that is among its own candidates (乾, 於, 瞭 …): such a
character is also written in Simplified text ("乾隆"), where changing it would cut a known
word apart. 於 is the exception kept: Simplified text writes 于 but in surnames.

    python scripts/simplified_table.py PATH/TO/TSCharacters.txt
"""

from __future__ import annotations

import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src/askalong/text/simplified.txt"
KEPT = {"於": "于"}
HEADER = (
    "# Traditional -> Simplified, one character for one: a Traditional character, then its\n"
    "# Simplified form, a pair a line. Made by scripts/simplified_table.py from OpenCC's\n"
    "# TSCharacters.txt (Copyright BYVoid and the OpenCC contributors, Apache License 2.0).\n"
)


def pairs(source: Path) -> dict[str, str]:
    table = dict(KEPT)
    for line in source.read_text(encoding="utf-8").splitlines():
        traditional, candidates = line.split("\t")
        forms = candidates.split()
        if len(traditional) == 1 and traditional not in forms and len(forms[0]) == 1:
            table[traditional] = forms[0]
    return table


def main() -> None:
    table = pairs(Path(sys.argv[1]))
    lines = (f"{t}{s}\n" for t, s in sorted(table.items()))
    OUT.write_text(HEADER + "".join(lines), encoding="utf-8")
    print(f"{len(table)} pairs -> {OUT}")


if __name__ == "__main__":
    main()
