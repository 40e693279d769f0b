"""Where the evaluation data lies, for every benchmark: ``ASKALONG_EVALDATA``, else
``shared/evaldata`` beside the checkout (as ``tests/conftest.py`` finds it). Never copied
into the repository."""

from __future__ import annotations

import os
from pathlib import Path

EVALDATA = Path(
    os.environ.get("ASKALONG_EVALDATA")
    or Path(__file__).resolve().parents[2] / "shared" / "evaldata"
)
