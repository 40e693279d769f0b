"""Hostile content in Chromium, the fast sample of the attack suite's ``xss`` section: one
document per format carrying every payload (title, heading, sentences, file name), shown in
the library, the reader, a thread opened from the Threads tab and a typed follow-up; no
payload may run (``window.__pwned``) and no markup may get into the page."""

from __future__ import annotations

import random
import sys

import pytest
from playwright.sync_api import Browser

from conftest import REPO
from e2e.conftest import Library

sys.path.insert(0, str(REPO / "benchmarks"))
from attack_xss import (
    FORMATS,
    PAYLOADS,
    case_problems,
    check_the_detector,
    hostile_document,
)


def test_the_detector_sees_planted_markup(browser: Browser, library: Library) -> None:
    check_the_detector(browser, library.server)


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_payload_runs_or_gets_in(browser: Browser, library: Library, fmt: str) -> None:
    document = hostile_document(fmt, list(PAYLOADS), random.Random(fmt))
    assert case_problems(browser, library.server, document) == []
