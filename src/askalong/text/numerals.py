"""Numbers as headings and cross-references write them: Chinese numerals (二十), roman
numerals (XII) and ASCII digits, read the same way wherever a part's number is compared
(``context/outline``, ``context/crossref``) (pure)."""

from __future__ import annotations

import re

_CN_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"〇": 0, "两": 2}
_CN_UNITS = {"十": 10, "百": 100}
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def chinese_number(text: str) -> int:
    """一 -> 1, 十二 -> 12, 二十 -> 20, 一百零五 -> 105; ASCII digits pass through."""
    if text.isdigit() and text.isascii():
        return int(text)
    total, digit = 0, 0
    for char in text:
        if char in _CN_UNITS:
            total += (digit or 1) * _CN_UNITS[char]
            digit = 0
        else:
            digit = digit * 10 + _CN_DIGITS.get(char, 0) if digit else _CN_DIGITS.get(char, 0)
    return total + digit


def roman_number(text: str) -> int | None:
    """II -> 2, IV -> 4, XII -> 12; None for letters that are no roman numeral."""
    values = [_ROMAN.get(char) for char in text.upper()]
    if not values or any(v is None for v in values):
        return None
    numbers = [v for v in values if v is not None]
    total = sum(-v if v < nxt else v for v, nxt in zip(numbers, [*numbers[1:], 0], strict=True))
    return total if total > 0 else None


def numeral(raw: str) -> str:
    """A heading's or reference's number as compared: "二" -> "2", "II" -> "2", "a" -> "A"."""
    if re.fullmatch(r"[一二三四五六七八九十百零〇两]+", raw):
        return str(chinese_number(raw))
    if re.fullmatch(r"[IVXLCivxlc]+", raw) and (value := roman_number(raw)) is not None:
        return str(value)
    return raw.upper()
