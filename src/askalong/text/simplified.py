"""Traditional Chinese characters made Simplified, one character for one (pure).

The segmenter's dictionary is Simplified: a Traditional run ("資訊工程學系") comes out as
single characters, its Simplified image ("资讯工程学系") as the words the dictionary knows.
The keyword index tokenises the image (``index/keyword_schema``), so Traditional text is
searched by words, and a Traditional question finds a Simplified passage and the reverse.
The image has the text's length: a place in one is the same place in the other
(``question/traditional`` reads a question's words in it and finds them as written).

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
