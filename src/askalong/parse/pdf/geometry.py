"""A PDF page's geometry, read in one place: the box the page shows and its rotation.

The parser (where block boxes are measured), the stored page sizes (which the reader's text
layer lays pages out by) and the page renderer all take a page's size from here, so a box
measured at parse time lies over the same ink in the image drawn later.

The visible box is pdfium's page bounding box: the crop box clipped to the media box, both
looked up through the page tree (a box set on the /Pages node is inherited). pypdfium2's
``get_mediabox`` and ``get_cropbox`` read only the page's own dictionary and fall back to US
Letter (612 x 792) otherwise, which put every box of an A4 paper whose boxes are inherited
50 points too high. /UserUnit scales all of page space alike; pdfium neither applies nor
reports it, and the reader places every box as a fraction of its page, so it cancels.
"""

from __future__ import annotations

from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from askalong.parse.pdf.printed import PageFrame
from askalong.parse.pdf.rotate import displayed_size


@dataclass(frozen=True)
class PageGeometry:
    """Where a page's visible box is in PDF space (y up) and how it is turned."""

    left: float
    bottom: float
    right: float
    top: float
    rotation: int = 0  # degrees clockwise the page is turned when displayed: 0, 90, 180, 270

    @property
    def width(self) -> float:
        """Points wide, unturned."""
        return self.right - self.left

    @property
    def height(self) -> float:
        """Points high, unturned."""
        return self.top - self.bottom

    @property
    def size(self) -> tuple[float, float]:
        """(width, height) in points as displayed (and as rendered)."""
        return displayed_size(self.width, self.height, self.rotation)

    @property
    def frame(self) -> PageFrame:
        """The unturned box with a top-left origin, to measure characters in."""
        return PageFrame(self.left, self.top, self.width, self.height)

    def scale(self, pixels_wide: int) -> float:
        """Pixels per point for an image ``pixels_wide`` wide of the displayed page."""
        return pixels_wide / self.size[0]


def page_geometry(page: pdfium.PdfPage) -> PageGeometry:
    """The geometry of an open pdfium page."""
    rotation = page.get_rotation() % 360
    rect = pdfium_c.FS_RECTF()
    if pdfium_c.FPDF_GetPageBoundingBox(page.raw, rect):
        # a rectangle may name any two opposite corners (the parser fuzz found negative
        # and zero page sizes stored from such boxes)
        left, right = sorted((rect.left, rect.right))
        bottom, top = sorted((rect.bottom, rect.top))
        if right - left > 0 and top - bottom > 0:
            return PageGeometry(left, bottom, right, top, rotation)
    # No usable box: pdfium's own page size (as displayed), from the origin, unturned.
    shown_width, shown_height = page.get_size()
    width, height = displayed_size(shown_width, shown_height, rotation)
    return PageGeometry(0.0, 0.0, width, height, rotation)
