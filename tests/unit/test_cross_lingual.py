"""Whether a question's evidence is in the other language (``candidates.cross_lingual``)."""

from __future__ import annotations

from askalong.answer.extractive.candidates import Candidate, cross_lingual
from askalong.text.scripts import detect_language


def _found(*texts: str) -> list[Candidate]:
    return [
        Candidate(0, 0, k, "b", 0, len(t), t, "retrieved", None, False) for k, t in enumerate(texts)
    ]


# both between the scripts' clear shares (``scripts.detect_language``: "mixed")
ENGLISH_PAGE_WITH_CHINESE_NAMES = _found(
    "Validate a mobile barcode (手機條碼載具) with isMobileBarcode.",
    "A citizen digital certificate (自然人憑證) is checked by isCitizenDigitalCertificate.",
    "The unified business number (營利事業統一編號) uses isBan.",
)
CHINESE_GUIDE_WITH_CODE = _found(
    "把带数字的拼音转换成带声调符号的拼音。",
    'import { convert } from "pinyin-pro"; convert("pin1 yin1", { format: "numToSymbol" });',
    "也可以反过来转换。",
)


def test_mixed_evidence_goes_by_its_larger_script() -> None:
    for found in (ENGLISH_PAGE_WITH_CHINESE_NAMES, CHINESE_GUIDE_WITH_CODE):
        assert detect_language(" ".join(c.text for c in found)) == "mixed"
    assert cross_lingual("zh", ENGLISH_PAGE_WITH_CHINESE_NAMES)
    assert not cross_lingual("en", ENGLISH_PAGE_WITH_CHINESE_NAMES)
    assert not cross_lingual("zh", CHINESE_GUIDE_WITH_CODE)
    assert cross_lingual("en", CHINESE_GUIDE_WITH_CODE)


def test_evidence_in_one_script_and_no_evidence() -> None:
    assert cross_lingual("en", _found("長江注入東海。"))
    assert not cross_lingual("en", _found("The Rhine flows into the North Sea."))
    assert not cross_lingual("zh", [])
