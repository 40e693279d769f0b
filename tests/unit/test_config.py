"""Settings: defaults < config file < environment < arguments; bad values are named."""

from __future__ import annotations

from pathlib import Path

import pytest

from askalong.config import load_settings
from askalong.errors import ConfigError


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
