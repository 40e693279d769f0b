"""Markdown parser: structure, plain text without markup, line ranges."""

from __future__ import annotations

import pytest

from askalong.errors import CorruptDocument, EmptyDocument
from askalong.parse.flow import markdown

DOC = """---
title: ignored front matter
---
Tide Pools
==========

Tide pools are *rocky* hollows, see [the guide](https://example.org/guide)
and `pool.depth`. 中文
续行

## Animals

- Sea **anemones**
- Hermit crabs
  1. nested item

| Species | Count |
|---------|------:|
| Crab    | 12    |

> Quoted **wisdom**.

```python
def depth(pool):
    return pool.depth
```

    indented code

Setext two
----------

<div align="center"><img src="logo.png"> Made with &amp; love</div>
"""


def test_structure_kinds_and_text() -> None:
    doc = markdown.parse(DOC.encode(), source="pools.md")
    assert doc.format == "markdown" and doc.title == "Tide Pools"
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("heading", "Tide Pools"),
        ("paragraph", "Tide pools are rocky hollows, see the guide and pool.depth. 中文续行"),
        ("heading", "Animals"),
        ("list_item", "Sea anemones"),
        ("list_item", "Hermit crabs"),
        ("list_item", "nested item"),
        ("table", "Species | Count\nCrab | 12"),
        ("paragraph", "Quoted wisdom."),
        ("code", "def depth(pool):\n    return pool.depth"),
        ("code", "indented code"),
        ("heading", "Setext two"),
        ("paragraph", "Made with & love"),
    ]


def test_line_ranges_and_section_paths() -> None:
    doc = markdown.parse(DOC.encode(), source="pools.md")
    lines = [b.lines for b in doc.blocks]
    assert lines == [
        (4, 5),
        (7, 9),
        (11, 11),
        (13, 13),
        (14, 14),
        (15, 15),
        (17, 19),
        (21, 21),
        (23, 26),
        (28, 28),
        (30, 31),
        (33, 33),
    ]
    assert [b.heading_level for b in doc.blocks if b.kind == "heading"] == [1, 2, 2]
    assert doc.blocks[6].section_path == ("Tide Pools", "Animals")
    assert doc.blocks[11].section_path == ("Tide Pools", "Setext two")
    assert [b.id for b in doc.blocks] == [f"b{i}" for i in range(len(doc.blocks))]


def test_title_without_h1_is_first_heading() -> None:
    doc = markdown.parse(b"Intro text.\n\n### Small\n\n## Bigger\n", source="t.md")
    assert doc.title == "Bigger"


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (b"", EmptyDocument),
        (b"\n \n\t\n", EmptyDocument),
        (b"---\n\n---\n", EmptyDocument),
        (bytes(range(256)) * 8, CorruptDocument),
    ],
)
def test_errors_name_the_source(data: bytes, error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        markdown.parse(data, source="bad.md")
    assert "bad.md" in str(info.value)
