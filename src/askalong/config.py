"""Loading the settings: one explicit object passed down, never a global.

Precedence: defaults < ``$ASKALONG_HOME/config.toml`` < ``ASKALONG_*`` environment
variables < keyword arguments. Every field ``name`` is read from ``ASKALONG_NAME``;
``home`` alone decides where every file lives, which makes tests trivial. A setting
that picks one of several things is checked against ``CHOICES``, the keys of the
registries that build them; the ``Settings`` value itself lives in ``settings.py``.
"""

from __future__ import annotations

import dataclasses
import math
import os
import tomllib
from collections.abc import Collection
from pathlib import Path
from typing import Any

from askalong.answer.choose import ANSWERERS
from askalong.errors import ConfigError
from askalong.providers.choose import EMBEDDERS
from askalong.providers.local.engines import ENGINES
from askalong.settings import (
    AUTH_MODES,
    SEARCH_ROUTES,
    SENTENCE_SCORERS,
    Settings,
    default_home,
)
from askalong.types import VISIBILITIES

__all__ = ["CHOICES", "ENV_PREFIX", "Settings", "load_settings"]  # Settings: from settings.py

ENV_PREFIX = "ASKALONG_"
# setting -> its valid names. The registries' modules import nothing heavy: their
# factories load the models, the SDKs and numpy only when called.
CHOICES: dict[str, Collection[str]] = {
    "visibility": VISIBILITIES,
    "embedder": EMBEDDERS,
    "embed_engine": ENGINES,
    "answerer": ANSWERERS,
    "auth": AUTH_MODES,
    "sentence_scorer": SENTENCE_SCORERS,
    "search_routes": SEARCH_ROUTES,
}


def load_settings(**overrides: Any) -> Settings:
    """Build the settings from defaults, the config file, the environment and ``overrides``."""
    home = Path(overrides.get("home") or default_home())
    values: dict[str, Any] = {"home": home}
    values.update(_from_file(home / "config.toml"))
    values.update(_from_env())
    values.update({k: v for k, v in overrides.items() if v is not None})
    settings = Settings(**_coerce(values))
    _check_together(settings)
    return settings


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


def _env_key(name: str) -> str:
    return ENV_PREFIX + name.upper()


def _from_env() -> dict[str, Any]:
    return {
        name: os.environ[_env_key(name)]
        for name in _fields()
        if name != "home" and _env_key(name) in os.environ
    }


def _coerce(values: dict[str, Any]) -> dict[str, Any]:
    fields = _fields()
    coerced: dict[str, Any] = {}
    for name, raw in values.items():
        kind: type = Path if name == "home" else type(fields[name].default)
        try:
            coerced[name] = _boolean(raw) if kind is bool else kind(raw)
        except (TypeError, ValueError) as exc:
            problem = f"{_env_key(name)}={raw!r} is not a valid {kind.__name__}"
            raise ConfigError(problem) from exc
        if kind is float:
            _check_number(name, raw, coerced[name])
    _check_choices(coerced)
    return coerced


# Count limits, where 0 means no limit and a negative count means nothing.
LIMITS = (
    "requests_per_minute",
    "concurrent_questions",
    "owner_requests_per_minute",
    "owner_concurrent_questions",
)
# Counts of which at least one is needed: a model round, a tool call.
AT_LEAST_ONE = ("agent_rounds", "agent_tool_calls")
# Number settings for which 0 means something: no OCR while adding (pages read on request).
ZERO_ALLOWED = frozenset({"ocr_budget"})


def _check_number(name: str, raw: object, value: float) -> None:
    """Sizes and timeouts: ``float`` accepts "nan" and "inf", which no limit can be."""
    if name in ZERO_ALLOWED:
        if not (math.isfinite(value) and value >= 0):
            raise ConfigError(f"{_env_key(name)}={raw!r}: must be a finite number, 0 or more")
    elif not (math.isfinite(value) and value > 0):
        raise ConfigError(f"{_env_key(name)}={raw!r}: must be a finite number above 0")


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
    for name, valid in CHOICES.items():
        if name in values and values[name] not in valid:
            problem = f"{_env_key(name)}={values[name]!r}; valid choices: {', '.join(valid)}"
            raise ConfigError(problem)
    for name in LIMITS:
        if values.get(name, 0) < 0:
            raise ConfigError(f"{_env_key(name)}={values[name]}; must be 0 (no limit) or more")
    for name in AT_LEAST_ONE:
        if values.get(name, 1) < 1:
            raise ConfigError(f"{_env_key(name)}={values[name]}; must be 1 or more")
    overlap = values.get("chunk_overlap", 0)
    if not 0 <= overlap <= 100:
        raise ConfigError(f"ASKALONG_CHUNK_OVERLAP={overlap}; must be between 0 and 100")
    _check_api_token(values.get("api_token", ""))
    _check_database_url(values.get("database_url", ""))


MIN_API_TOKEN = 32  # characters: a shared secret as strong as the file's own (43)


def _check_api_token(token: str) -> None:
    """A shared API token is a secret: long and without spaces (it travels in a header)."""
    if token and (len(token) < MIN_API_TOKEN or any(c.isspace() for c in token)):
        raise ConfigError(
            f"ASKALONG_API_TOKEN: must be at least {MIN_API_TOKEN} characters without spaces"
            " (make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))')"
        )


DATABASE_SCHEMES = ("postgresql://", "postgres://")


def _check_database_url(url: str) -> None:
    """Empty (the SQLite file) or a PostgreSQL URL; the message leaves the URL out, since
    it may hold a password."""
    if url and not url.startswith(DATABASE_SCHEMES):
        scheme = url.split("://", 1)[0] if "://" in url else "no scheme"
        raise ConfigError(
            f"ASKALONG_DATABASE_URL: {scheme!r} is not a database this AskAlong opens;"
            f" give a {' or '.join(DATABASE_SCHEMES)} URL, or leave it empty for the"
            " SQLite file under ASKALONG_HOME"
        )


MIN_CHUNK_TARGET = 2  # size units: the chunker needs room for a sentence and its neighbour
STALE_HEARTBEATS = 2  # a job is stale after this many heartbeats missed, at the least


def _check_together(settings: Settings) -> None:
    """Settings that only make sense against another one, checked once every source of
    values (defaults included) is in; each message names both keys."""
    target, maximum = settings.chunk_target, settings.chunk_max
    if not MIN_CHUNK_TARGET <= target <= maximum:
        raise ConfigError(
            f"ASKALONG_CHUNK_TARGET={target}: must be between {MIN_CHUNK_TARGET} and"
            f" ASKALONG_CHUNK_MAX ({maximum})"
        )
    stale, beat = settings.job_stale, settings.job_heartbeat
    if stale < STALE_HEARTBEATS * beat:
        raise ConfigError(
            f"ASKALONG_JOB_STALE={stale:g} must be at least {STALE_HEARTBEATS} x"
            f" ASKALONG_JOB_HEARTBEAT={beat:g} ({STALE_HEARTBEATS * beat:g} s or more):"
            " a shorter one lets the sweep take a running job from its own worker"
        )
