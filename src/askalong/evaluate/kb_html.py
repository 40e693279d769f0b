"""The KB evaluation's HTML report (``eval kb --report DIR``): the table of
``kb_report`` as HTML, every cell escaped, and one bar chart per metric over the
categories, each a PNG file beside ``index.html``.

matplotlib is the optional extra ``report``; without it the error names the extra.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from askalong.errors import ConfigError
from askalong.evaluate.kb_report import JUDGE_NOT_MEASURED, METRICS, CategoryScores, cell


def write_report(folder: Path, rows: Sequence[CategoryScores], title: str) -> Path:
    """``folder/index.html`` and one ``<metric>.png`` per metric; returns the page."""
    folder.mkdir(parents=True, exist_ok=True)
    plots = [_plot(folder, name, label, rows) for name, label in METRICS]
    page = folder / "index.html"
    page.write_text(_page(title, rows, plots), encoding="utf-8")
    return page


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only, never a window
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ConfigError(
            "the HTML report needs matplotlib: pip install 'askalong[report]'",
            source="--report",
        ) from exc
    return plt


def _plot(folder: Path, name: str, label: str, rows: Sequence[CategoryScores]) -> str:
    plt = _pyplot()
    shown = [r for r in rows if getattr(r, name) is not None]
    figure, axes = plt.subplots(figsize=(7, 3.2))
    axes.bar([r.category for r in shown], [getattr(r, name) for r in shown], color="#4c72b0")
    axes.set_ylim(0, 1)
    axes.set_ylabel(label)
    axes.set_title(label)
    axes.tick_params(axis="x", labelrotation=30)
    figure.tight_layout()
    file = f"{name}.png"
    figure.savefig(folder / file, dpi=100)
    plt.close(figure)
    return file


def _page(title: str, rows: Sequence[CategoryScores], plots: Sequence[str]) -> str:
    e = html.escape
    head = "".join(f"<th>{e(label)}</th>" for _, label in METRICS)
    body = []
    for row in rows:
        cells = "".join(f"<td>{cell(getattr(row, name))}</td>" for name, _ in METRICS)
        body.append(
            f"<tr><td>{e(row.category)}</td><td>{row.items}</td>{cells}"
            f"<td>{row.leaks}</td><td>{row.errors}</td></tr>"
        )
    images = "".join(
        f'<figure><img src="{e(p)}" alt="{e(label)}"></figure>'
        for p, (_, label) in zip(plots, METRICS, strict=True)
    )
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{e(title)}</title>'
        "<style>body{font-family:sans-serif}td,th{padding:2px 8px;text-align:right}"
        "td:first-child{text-align:left}</style></head><body>"
        f"<h1>{e(title)}</h1><table><tr><th>category</th><th>items</th>{head}"
        f"<th>leaks</th><th>errors</th></tr>{''.join(body)}</table>"
        f"<p>Judge scores and judge agreement: {e(JUDGE_NOT_MEASURED)}.</p>{images}</body></html>"
    )
