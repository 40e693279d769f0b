"""Legacy encodings of the text formats, with real encoded bytes: decoded correctly, or,
when only a guess is possible, stored with a notice instead of silent mojibake."""

from __future__ import annotations

import pytest

from askalong.parse.flow import html, markdown, text
from askalong.parse.flow.decoding import decode

FRENCH = (
    "Le cœur a ses raisons que la raison ne connaît point.\n\n"
    "À bientôt, élève français ! Ça marche très bien, déjà vu, garçon, noël."
)
JAPANESE = (
    "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。\n\n"
    "何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。"
)
# Ext-B characters (𠀀 𠀁 𪚥 𠮷) exist in GB18030 only as four-byte sequences.
CHINESE_EXT_B = (
    "𠀀𠀁是扩展B区的字。这份文件用GB18030编码，包含罕见字𪚥和𠮷野家。\n\n"
    "第二段：中文文本的解码必须正确。"
)
RUSSIAN = "Это русский текст в кодировке KOI8-R. Он должен читаться правильно."


@pytest.mark.parametrize(
    ("original", "encoding"),
    [
        (FRENCH.replace("œ", "oe"), "latin-1"),
        (FRENCH + " Prix : 5 € – « oui ».", "cp1252"),
        (JAPANESE, "shift_jis"),
        (JAPANESE, "euc_jp"),
        (CHINESE_EXT_B, "gb18030"),
        ("Café", "latin-1"),
    ],
    ids=["latin-1", "cp1252", "shift-jis", "euc-jp", "gb18030-ext-b", "short-latin-1"],
)
def test_legacy_encodings_decode_exactly_and_without_a_notice(original: str, encoding: str) -> None:
    data = original.encode(encoding)
    assert decode(data, source="x.txt").text == original
    parsed = text.parse(data, source="x.txt")
    assert parsed.notices == ()
    assert "\n\n".join(b.text for b in parsed.blocks).replace("\n", "") == original.replace(
        "\n", ""
    )


def test_markdown_in_shift_jis_keeps_its_headings() -> None:
    source = "# 吾輩は猫である\n\n" + JAPANESE
    parsed = markdown.parse(source.encode("shift_jis"), source="neko.md")
    assert parsed.blocks[0].text == "吾輩は猫である"
    assert parsed.notices == ()


def test_html_meta_charset_comes_first() -> None:
    """Shift-JIS bytes declared as such: the declaration decides, before any guessing."""
    page = (
        '<html><head><meta charset="shift_jis"><title>猫</title></head>'
        f"<body><p>{JAPANESE}</p></body></html>"
    )
    parsed = html.parse(page.encode("shift_jis"), source="neko.html")
    assert parsed.title == "猫"
    assert parsed.blocks[0].text.startswith("吾輩は猫である")
    assert parsed.notices == ()


def test_a_weak_guess_is_stored_with_a_visible_notice() -> None:
    """KOI8-R matches no rule: charset-normalizer's guess is taken, and said to be one."""
    parsed = text.parse(RUSSIAN.encode("koi8_r"), source="ru.txt")
    assert len(parsed.notices) == 1
    assert "encoding was guessed as" in parsed.notices[0]
    assert "may be shown wrongly" in parsed.notices[0]
