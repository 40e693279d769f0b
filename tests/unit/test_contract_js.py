"""The reader's generated contract (``static/lib/contract.js``): committed and current, and
holding exactly the Python constants it names."""

from __future__ import annotations

import json
import re
from pathlib import Path

from askalong.asking.code_routes import FROM_CODE_ROUTES
from askalong.asking.question import INTENT_QUESTIONS
from askalong.ingest.archive import ARCHIVE_SUFFIXES
from askalong.ingest.inputs import DOCUMENT_SUFFIXES
from askalong.parse.code.languages import CODE_SUFFIXES
from askalong.parse.code.tokens import KIND_NAMES
from askalong.parse.progress import STAGES
from askalong.server.chat_events import CHAT_EVENT_NAMES
from askalong.server.contract import CONTRACT_JS, main, render
from askalong.server.sse import EVENT_NAMES
from askalong.server.upload_events import UPLOAD_EVENT_NAMES
from askalong.types import INTENTS, VERDICTS
from askalong.values.feedback import MAX_REASON_CHARS, RATINGS

EXPORT = re.compile(r"^export const (\w+) = Object\.freeze\((.*?)\);$", re.M | re.S)
BARE_KEY = re.compile(r"([{,]\s*)([A-Za-z_]\w*):")
TRAILING_COMMA = re.compile(r",(\s*[\]}])")


def exports(text: str) -> dict[str, object]:
    """The JS module's exported constants, read back as JSON (the browser reads them too:
    tests/e2e/test_js_modules.py)."""
    return {name: json.loads(as_json(value)) for name, value in EXPORT.findall(text)}


def as_json(literal: str) -> str:
    return TRAILING_COMMA.sub(r"\1", BARE_KEY.sub(r'\1"\2":', literal))


def test_the_committed_contract_is_current() -> None:
    assert CONTRACT_JS.read_text(encoding="utf-8") == render(), (
        "static/lib/contract.js is stale: run python -m askalong.server.contract"
    )


def test_the_contract_holds_the_python_constants() -> None:
    assert exports(render()) == {
        "INTENTS": list(INTENTS),
        "VERDICTS": list(VERDICTS),
        "INTENT_QUESTIONS": {intent: list(pair) for intent, pair in INTENT_QUESTIONS.items()},
        "EVENT_NAMES": list(EVENT_NAMES),
        "CHAT_EVENT_NAMES": list(CHAT_EVENT_NAMES),
        "UPLOAD_EVENT_NAMES": list(UPLOAD_EVENT_NAMES),
        "CODE_TOKEN_KINDS": list(KIND_NAMES),
        "PROGRESS_STAGES": list(STAGES),
        "DOCUMENT_SUFFIXES": sorted(DOCUMENT_SUFFIXES),
        "CODE_SUFFIXES": sorted(CODE_SUFFIXES),
        "ARCHIVE_SUFFIXES": list(ARCHIVE_SUFFIXES),
        "FEEDBACK_RATINGS": list(RATINGS),
        "FROM_CODE_ROUTES": sorted(FROM_CODE_ROUTES),
        "MAX_FEEDBACK_REASON_CHARS": MAX_REASON_CHARS,
    }


def test_check_fails_on_a_stale_file_until_it_is_written(tmp_path: Path) -> None:
    out = tmp_path / "contract.js"
    out.write_text(render().replace('"explain"', '"explained"'), encoding="utf-8")
    assert main(["--check", "--out", str(out)]) == 1
    assert main(["--out", str(out)]) == 0
    assert main(["--check", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == render()


def test_check_fails_when_the_file_is_missing(tmp_path: Path) -> None:
    assert main(["--check", "--out", str(tmp_path / "absent.js")]) == 1
