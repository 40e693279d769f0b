"""The bases a class header names, which a method called on ``self`` is looked up in after
its own class (``context/code_graph``)."""

from __future__ import annotations

import pytest

from askalong.context.code_bases import class_bases


@pytest.mark.parametrize(
    ("header", "bases"),
    [
        (
            "class Lock(_ContextManagerMixin, mixins._LoopBoundMixin):\n    x = 1",
            {"_ContextManagerMixin", "_LoopBoundMixin"},
        ),
        ("class Meta(Base, metaclass=ABCMeta):\n    pass", {"Base"}),
        ("class Plain:\n    pass", set()),
        (
            "public class Pool extends AbstractPool implements Closeable, Map<K, V> {",
            {"AbstractPool", "Closeable", "Map"},
        ),
        ("export class View extends React.Component<Props> {", {"Component"}),
        ("class Reader : public io::Source {", {"Source"}),
    ],
)
def test_a_class_header_names_its_bases(header: str, bases: set[str]) -> None:
    assert class_bases(header) == bases
