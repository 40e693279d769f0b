"""Image-only PDF pages -> printed lines, with RapidOCR (PP-OCRv4, Chinese + English).

The models ship inside the ``rapidocr-onnxruntime`` wheel, so nothing downloads. The
package is optional (``askalong[ocr]``): without it a scanned page keeps a notice naming
the pip command. Recognised lines come out as ``pdf.printed.Line`` in page points, so OCR
pages go through the same reading order, line joining and typing as text pages, and a
selection on a scan maps to blocks exactly as on a text page.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
import pypdfium2 as pdfium

from askalong.parse.ocr.words import ink_gaps, restore_spaces
from askalong.parse.pdf.printed import Line, PageFrame

OCR_INSTALL = "pip install 'askalong[ocr]'"
_PACKAGE = "rapidocr_onnxruntime"
# Pages are rendered at this many pixels per point, but never larger than the detector's
# own limit (it would shrink a bigger image again, at a cost).
_SCALE = 2.0
_MAX_SIDE_PIXELS = 2000
# A detector box is padded around the glyphs; its height is about this many font sizes.
_BOX_PER_SIZE = 1.3
_SIZE_SLACK = 0.2
# Each stage of the engine, the attribute holding its onnxruntime session, its model file.
_STAGES = (
    ("text_det", "infer", "*_det_infer.onnx"),
    ("text_rec", "session", "*_rec_infer.onnx"),
)


class LineReader(Protocol):
    """What reads a scanned page's printed lines: the OCR engine (tests give a stand-in)."""

    def page_lines(self, page: pdfium.PdfPage, frame: PageFrame) -> tuple[Line, ...]: ...


def ocr_installed() -> bool:
    """Whether the OCR extra is installed (found, not loaded: loading takes seconds)."""
    return importlib.util.find_spec(_PACKAGE) is not None


class Recognizer:
    """One loaded OCR engine; reads any number of pages of one parse."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine

    @classmethod
    def load(cls) -> Recognizer | None:
        """The engine, or None when the OCR extra is not installed."""
        try:
            module = importlib.import_module(_PACKAGE)
        except ImportError:
            return None
        cores = os.cpu_count() or 1
        engine = module.RapidOCR(intra_op_num_threads=cores, inter_op_num_threads=1)
        _stop_spinning(engine, cores)
        return cls(engine)

    def page_lines(self, page: pdfium.PdfPage, frame: PageFrame) -> tuple[Line, ...]:
        """The recognised lines of one page, in points with a top-left origin."""
        scale = min(_SCALE, _MAX_SIDE_PIXELS / max(frame.width, frame.height, 1.0))
        bitmap = page.render(scale=scale, grayscale=True)
        try:
            pixels = bitmap.to_numpy()
            gray = np.array(pixels if pixels.ndim == 2 else pixels[..., 0])  # a copy
        finally:
            bitmap.close()
        # No per-line angle classifier: on upright scans it flips a few good lines upside
        # down, and the recogniser then returns nothing for them (two lines lost on linn).
        result, _ = self._engine(np.dstack([gray] * 3), use_cls=False, return_word_box=True)
        lines = (_line(gray, row, scale) for row in result or ())
        return _even_sizes([line for line in lines if line is not None])


def _line(gray: npt.NDArray[np.uint8], row: Sequence[Any], scale: float) -> Line | None:
    quad = np.asarray(row[0], dtype=float)
    left, top = (float(value) for value in quad.min(axis=0))
    right, bottom = (float(value) for value in quad.max(axis=0))
    text = str(row[1])
    cells = _cells(row, len(text))
    if cells:
        crop = gray[int(top) : int(bottom) + 1, int(left) : int(right) + 1]
        gaps = [(start + int(left), end + int(left)) for start, end in ink_gaps(crop)]
        text = restore_spaces(text, cells, gaps)
    text = " ".join(text.split())
    if not text:
        return None
    height = (bottom - top) / scale
    return Line(
        text,
        left / scale,
        top / scale,
        right / scale,
        bottom / scale,
        height / _BOX_PER_SIZE,
        False,
    )


def _even_sizes(lines: Sequence[Line]) -> tuple[Line, ...]:
    """Lines within a fifth of the page's usual box height get the usual size.

    Detector boxes vary in height with ascenders, descenders and padding; left alone,
    every line of a paragraph would have its own "font size" and end up a block apart.
    """
    if not lines:
        return ()
    usual = float(np.median([line.size for line in lines]))
    return tuple(
        replace(line, size=usual) if abs(line.size - usual) <= _SIZE_SLACK * usual else line
        for line in lines
    )


def _cells(row: Sequence[Any], length: int) -> list[tuple[float, float]]:
    """Each character's horizontal extent, when the recogniser gave one per character."""
    if len(row) < 5 or len(row[3]) != length or len(row[4]) != length:
        return []
    cells = []
    for box in row[3]:
        xs = [point[0] for point in box]
        cells.append((float(min(xs)), float(max(xs))))
    return cells


def _stop_spinning(engine: Any, cores: int) -> None:
    """Give each model a session that uses every core but does not spin when idle.

    RapidOCR builds its onnxruntime sessions with spinning worker threads, which burn
    the cores between pages; its config has no key for that, so the sessions are made
    again from the same model files with ``allow_spinning`` off.
    """
    ort = importlib.import_module("onnxruntime")
    options = ort.SessionOptions()
    options.intra_op_num_threads = cores
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 4
    models = Path(importlib.import_module(_PACKAGE).__file__ or "").parent / "models"
    for stage, attribute, pattern in _STAGES:
        holder = getattr(getattr(engine, stage, None), attribute, None)
        paths = sorted(models.glob(pattern))
        if holder is not None and hasattr(holder, "session") and len(paths) == 1:
            holder.session = ort.InferenceSession(
                str(paths[0]), sess_options=options, providers=["CPUExecutionProvider"]
            )
