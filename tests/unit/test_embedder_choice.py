"""The local embedder's engine choice is remembered per home, under a key of what it
depends on, so a later start skips the reference model, the self-check and the timing."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from askalong.config import load_settings
from askalong.providers.local import choices
from askalong.providers.local.choices import CHOICE_FILE, Choice


def test_a_choice_is_recalled_under_the_same_conditions(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path)
    assert choices.recall(settings) is None
    choices.remember(settings, Choice("onnx", package_queries=False))
    assert (tmp_path / "cache" / CHOICE_FILE).is_file()
    assert choices.recall(settings) == Choice("onnx", package_queries=False)


def test_another_engine_setting_chooses_afresh(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path)
    choices.remember(settings, Choice("onnx", package_queries=True))
    numpy_only = dataclasses.replace(settings, embed_engine="numpy")
    assert choices.recall(numpy_only) is None


def test_a_damaged_file_is_no_choice(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path)
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / CHOICE_FILE).write_text('{"key": 3', encoding="utf-8")
    assert choices.recall(settings) is None
    (tmp_path / "cache" / CHOICE_FILE).write_text("[1, 2]", encoding="utf-8")
    assert choices.recall(settings) is None
