"""The KB evaluation's HTML report: its text escaped, one PNG per metric, and without
matplotlib an error that names the extra to install."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from askalong.errors import ConfigError
from askalong.evaluate.kb_html import write_report
from askalong.evaluate.kb_report import METRICS, CategoryScores

ROW = CategoryScores("<script>x</script>", 2, 0.5, 1.0, 0.75, 1.0, None, 0.5, 0, 0)


@pytest.mark.slow  # draws the report's plots: make test, not make check
def test_report_escapes_and_plots_each_metric(tmp_path: Path) -> None:
    page = write_report(tmp_path, [ROW], "kb <eval>").read_text("utf-8")
    assert "<script>" not in page and "&lt;script&gt;" in page and "kb &lt;eval&gt;" in page
    for name, _ in METRICS:
        assert (tmp_path / f"{name}.png").read_bytes()[:4] == b"\x89PNG"
        assert f'src="{name}.png"' in page


def test_missing_matplotlib_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import raises ImportError
    with pytest.raises(ConfigError, match=r"askalong\[report\]"):
        write_report(tmp_path, [ROW], "kb")
