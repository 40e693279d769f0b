"""Traditional Chinese characters made Simplified, one character for one (pure).

The segmenter's dictionary is Simplified: a Traditional run ("資訊工程學系") comes out as
single characters. Its Simplified image ("资讯工程学系") is cut into the words the
dictionary knows, and since the image has the run's length, those cuts are the run's own
word boundaries (``text.tokens.han_words``). The keyword index also matches in the image
(``index/keyword_schema``), so a Traditional question finds a Simplified passage and the
reverse.

The table (``simplified.txt``, made by ``scripts/simplified_table.py`` from OpenCC's
character list) holds only characters that Simplified text does not write: a text in
Simplified characters is its own image.
"""

from __future__ import annotations

import functools
from importlib.resources import files


def simplified(text: str) -> str:
    """``text`` with its Traditional characters made Simplified (the same length)."""
    return text.translate(_table())


@functools.cache
def _table() -> dict[int, str]:
    lines = files("askalong.text").joinpath("simplified.txt").read_text(encoding="utf-8")
    pairs = (line for line in lines.splitlines() if line and not line.startswith("#"))
    return {ord(line[0]): line[1] for line in pairs}
