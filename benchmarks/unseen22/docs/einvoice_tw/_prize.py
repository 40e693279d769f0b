"""統一發票對獎 — checking an invoice number against a period's winning numbers."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Union

from ._models import Barcode, Invoice, InvoiceError

__all__ = ["Prize", "WinningNumbers", "PeriodMismatchError", "check", "PRIZE_TABLE"]

_EIGHT = re.compile(r"^[0-9]{8}$")
_THREE = re.compile(r"^[0-9]{3}$")
_PERIOD = re.compile(r"^[0-9]{5}$")
_FULL_NUMBER = re.compile(r"^[A-Za-z]{2}([0-9]{8})$")


class PeriodMismatchError(InvoiceError, ValueError):
    """The invoice belongs to a different lottery period than the winning numbers."""


@dataclass(frozen=True)
class Prize:
    """A winning result."""

    name: str
    """Chinese prize name, e.g. ``頭獎``."""
    name_en: str
    amount: int
    """Prize money in NTD."""
    matched: str
    """The winning number (or its matched suffix) that produced the hit."""
    digits: int
    """How many trailing digits matched (8 for a full match, 3 for the lowest prizes)."""

    def to_dict(self) -> Dict[str, Any]:
        return {"name": self.name, "name_en": self.name_en, "amount": self.amount, "matched": self.matched, "digits": self.digits}

    def __str__(self) -> str:
        return f"{self.name} NT${self.amount:,}（對中 {self.matched}）"


#: (digits matched against a 頭獎 number) -> (name, english name, amount)
PRIZE_TABLE: Dict[int, "tuple[str, str, int]"] = {
    8: ("頭獎", "First Prize", 200_000),
    7: ("二獎", "Second Prize", 40_000),
    6: ("三獎", "Third Prize", 10_000),
    5: ("四獎", "Fourth Prize", 4_000),
    4: ("五獎", "Fifth Prize", 1_000),
    3: ("六獎", "Sixth Prize", 200),
}
SPECIAL_PRIZE = ("特別獎", "Special Prize", 10_000_000)
GRAND_PRIZE = ("特獎", "Grand Prize", 2_000_000)
ADDITIONAL_PRIZE = ("增開六獎", "Additional Sixth Prize", 200)


def _clean_numbers(values: Sequence[str], pattern: "re.Pattern[str]", what: str) -> List[str]:
    out = []
    for v in values:
        v = str(v).strip()
        if not pattern.match(v):
            raise ValueError(f"{what} must match {pattern.pattern}: {v!r}")
        out.append(v)
    return out


@dataclass
class WinningNumbers:
    """The published winning numbers (中獎號碼) of one bi-monthly period.

    ``period`` is the ROC year plus the even closing month, e.g. ``"11306"``
    for 113 年 5-6 月. ``first`` holds the (usually three) 頭獎 numbers that
    also decide prizes two to six by suffix; ``additional`` holds the 3-digit
    增開六獎 numbers, if any were drawn.
    """

    period: str
    special: str
    grand: str
    first: List[str] = field(default_factory=list)
    additional: List[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.period = str(self.period).strip()
        if not _PERIOD.match(self.period) or int(self.period[3:]) not in (2, 4, 6, 8, 10, 12):
            raise ValueError(f"period must be 3-digit ROC year + even month (e.g. 11306): {self.period!r}")
        if not isinstance(self.first, (list, tuple)):
            raise ValueError("first prize numbers must be a list")
        if self.additional is None:
            self.additional = []
        if not isinstance(self.additional, (list, tuple)):
            raise ValueError("additional sixth prize numbers must be a list")
        (self.special,) = _clean_numbers([self.special], _EIGHT, "special prize number")
        (self.grand,) = _clean_numbers([self.grand], _EIGHT, "grand prize number")
        self.first = _clean_numbers(list(self.first), _EIGHT, "first prize numbers")
        self.additional = _clean_numbers(list(self.additional), _THREE, "additional sixth prize numbers")
        if not self.first:
            raise ValueError("at least one first prize number is required")

    @property
    def period_label(self) -> str:
        even = int(self.period[3:])
        return f"{int(self.period[:3])}年{even - 1:02d}-{even:02d}月"

    def to_dict(self) -> Dict[str, Any]:
        return {
            "period": self.period,
            "special": self.special,
            "grand": self.grand,
            "first": list(self.first),
            "additional": list(self.additional),
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "WinningNumbers":
        if not isinstance(data, dict):
            raise ValueError("winning numbers must be a JSON object with period, special, grand, first[, additional]")
        missing = [k for k in ("period", "special", "grand", "first") if data.get(k) in (None, "", [])]
        if missing:
            raise ValueError("winning numbers are missing: " + ", ".join(missing))
        return cls(
            period=data["period"],
            special=data["special"],
            grand=data["grand"],
            first=data["first"],
            additional=data.get("additional") or [],
        )

    @classmethod
    def from_json(cls, text_or_path: str) -> "WinningNumbers":
        """Load from a JSON string or a path to a JSON file (same keys as :meth:`to_dict`)."""
        text = text_or_path
        if not text.lstrip().startswith("{"):
            with open(text_or_path, "r", encoding="utf-8-sig") as fh:
                text = fh.read()
        return cls.from_dict(json.loads(text))


def _digits_of(value: Union[Invoice, Barcode, str]) -> "tuple[str, Optional[str]]":
    """Return (8 digits, period or None) for an invoice, barcode or number string."""
    if isinstance(value, Invoice):
        return value.serial, value.period
    if isinstance(value, Barcode):
        return value.serial, value.period
    text = str(value).strip().replace("-", "")
    match = _FULL_NUMBER.match(text)
    if match:
        return match.group(1), None
    if _EIGHT.match(text):
        return text, None
    raise ValueError(f"not an invoice number: {value!r} (expected AB12345678 or 12345678)")


def check(
    invoice: Union[Invoice, Barcode, str],
    numbers: WinningNumbers,
    *,
    verify_period: bool = True,
) -> Optional[Prize]:
    """Return the best :class:`Prize` *invoice* wins under *numbers*, or ``None``.

    *invoice* may be a parsed :class:`Invoice`, a :class:`Barcode`, a full
    number such as ``"AB12345678"`` or just the eight digits. When it carries a
    period and ``verify_period`` is on, a mismatch raises
    :class:`PeriodMismatchError` instead of silently comparing numbers from
    different draws.
    """
    digits, period = _digits_of(invoice)
    if verify_period and period is not None and period != numbers.period:
        raise PeriodMismatchError(
            f"invoice belongs to period {period}, winning numbers are for {numbers.period}"
        )

    if digits == numbers.special:
        return Prize(*SPECIAL_PRIZE, matched=numbers.special, digits=8)
    if digits == numbers.grand:
        return Prize(*GRAND_PRIZE, matched=numbers.grand, digits=8)

    best: Optional[Prize] = None
    for winner in numbers.first:
        for n in range(8, 2, -1):
            if digits[-n:] == winner[-n:]:
                name, name_en, amount = PRIZE_TABLE[n]
                candidate = Prize(name, name_en, amount, matched=winner[-n:], digits=n)
                if best is None or candidate.amount > best.amount:
                    best = candidate
                break
    if best is None:
        for extra in numbers.additional:
            if digits[-3:] == extra:
                best = Prize(*ADDITIONAL_PRIZE, matched=extra, digits=3)
                break
    return best
