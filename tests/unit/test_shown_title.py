"""A title on the wire is never a path of the machine that added the document
(``wire/titles``): a path shows as its last part; a title that merely holds a slash stays."""

from __future__ import annotations

import pytest

from askalong.types import Document
from askalong.wire.documents import document_json
from askalong.wire.titles import shown_title


@pytest.mark.parametrize(
    ("title", "shown"),
    [
        ("/home/me/thesis/main", "main"),
        ("C:\\Users\\me\\Documents\\report.docx", "report.docx"),
        ("\\\\fileserver\\share\\notes.txt", "notes.txt"),
        ("~/notes/tides.md", "tides.md"),
        ("A/B testing at scale", "A/B testing at scale"),
        ("TCP/IP Illustrated", "TCP/IP Illustrated"),
        ("/", "/"),
        ("Tides", "Tides"),
    ],
)
def test_a_path_title_shows_its_last_part(title: str, shown: str) -> None:
    assert shown_title(title) == shown


def test_a_documents_json_never_carries_a_path_title() -> None:
    document = Document(
        "d1", "h", "/srv/askalong/files/ab/tides", "/x/tides.md", "text", "en", 0, 9, ""
    )
    assert document_json(document)["title"] == "tides"
