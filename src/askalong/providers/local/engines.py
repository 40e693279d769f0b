"""The local embedder's engines, by the name ``ASKALONG_EMBED_ENGINE`` gives them.

Each name says which fast ports of the model ``default_embedder`` tries, in order,
before it falls back to the package's own call (the reference): each port must load
and give the reference's vectors to be used. ``config`` checks the setting against
these keys, so this module imports nothing: the engines load in ``embedder.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from askalong.settings import EngineName

Engine = Literal["numpy", "onnx"]  # a fast port of the package's model (e5/model.py)

ENGINES: Mapping[EngineName, tuple[Engine, ...]] = {
    "auto": ("onnx", "numpy"),  # ONNX Runtime int8 first, the numpy float32 port second
    "onnx": ("onnx",),
    "numpy": ("numpy",),
    "package": (),  # the package's own call, no port
}
