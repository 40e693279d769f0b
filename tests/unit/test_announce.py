"""One test of whether a text announces what follows, for the answerer's sentences and the
reader's selections alike (``text.announce``)."""

from __future__ import annotations

import pytest

from askalong.text.announce import announces, counts_ahead


@pytest.mark.parametrize(
    "text",
    [
        "This looks like:",
        "Available fields: ",
        "Tesla stated: “",
        "The steps are as follows.",
        "We use the following:",
        "示例如下：",
        "得到以下结论：",
        "主要步骤如下",
        "配置文件的格式：",
    ],
)
def test_a_lead_in_announces(text: str) -> None:
    assert announces(text)


@pytest.mark.parametrize(
    "text",
    [
        "The -as option fixes this.",
        "A hard link is a second name for the same inode.",
        "For instance, we can limit the iterations to two, while also",
        "这个选项修复了缩进问题。",
        "ratio 3:1 holds",
    ],
)
def test_a_finished_sentence_announces_nothing(text: str) -> None:
    assert not announces(text)


def test_a_count_is_no_lead_in_but_opens_a_count() -> None:
    for text in ("We consider two sets of negative examples.", "本文从三个方面展开。"):
        assert counts_ahead(text) and not announces(text)
    assert not counts_ahead("This looks like:")
