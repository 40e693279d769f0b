"""Data model: :class:`Invoice`, :class:`Item`, :class:`Barcode` and the error type."""

from __future__ import annotations

import datetime as _dt
import json
import re
from dataclasses import asdict, dataclass, field
from decimal import Decimal
from typing import Any, Dict, List, Optional

__all__ = ["Item", "Invoice", "Barcode", "InvoiceError", "InvoiceFormatError", "roc_to_date", "date_to_roc", "period_of"]


class InvoiceError(Exception):
    """Base class for all errors raised by einvoice_tw."""


class InvoiceFormatError(InvoiceError, ValueError):
    """The scanned text does not follow the e-invoice barcode specification."""


# --------------------------------------------------------------------------- #
# ROC calendar helpers
# --------------------------------------------------------------------------- #

_ROC_DATE_RE = re.compile(r"^[0-9]{7}$")


def roc_to_date(text: str) -> _dt.date:
    """Convert a 7-character ROC date ``yyyMMdd`` (e.g. ``1130503``) to :class:`datetime.date`."""
    if not _ROC_DATE_RE.match(text):
        raise InvoiceFormatError(f"invalid ROC date {text!r}; expected 7 digits yyyMMdd")
    year, month, day = int(text[:3]) + 1911, int(text[3:5]), int(text[5:7])
    try:
        return _dt.date(year, month, day)
    except ValueError as exc:
        raise InvoiceFormatError(f"invalid ROC date {text!r}: {exc}") from exc


def date_to_roc(date: _dt.date) -> str:
    """Format a date as the 7-character ROC string used on invoices (``1130503``)."""
    return f"{date.year - 1911:03d}{date.month:02d}{date.day:02d}"


def period_of(date: _dt.date) -> str:
    """Return the bi-monthly lottery period (期別) a date belongs to, e.g. ``"11306"`` for May/June 2024.

    Periods are named by the ROC year plus the *even* month that closes them:
    01-02 月 -> ``02``, 03-04 月 -> ``04`` ... 11-12 月 -> ``12``.
    """
    even = date.month + (date.month % 2)
    return f"{date.year - 1911:03d}{even:02d}"


def _period_label(period: str) -> str:
    year, even = int(period[:3]), int(period[3:])
    return f"{year}年{even - 1:02d}-{even:02d}月"


# --------------------------------------------------------------------------- #
# Items
# --------------------------------------------------------------------------- #

def _to_decimal(text: str) -> Optional[Decimal]:
    text = text.strip().replace(",", "")
    if not text:
        return None
    try:
        value = Decimal(text)
    except Exception:  # InvalidOperation and friends
        return None
    return value if value.is_finite() else None


@dataclass(frozen=True)
class Item:
    """One line item (品名 / 數量 / 單價) as recorded in the QR code.

    ``quantity`` and ``unit_price`` are :class:`~decimal.Decimal` when the
    text was numeric and ``None`` otherwise; the untouched strings are kept
    in ``raw``.
    """

    name: str
    quantity: Optional[Decimal]
    unit_price: Optional[Decimal]
    raw: "tuple[str, str, str]" = field(default=("", "", ""), repr=False, compare=False)

    @classmethod
    def from_fields(cls, name: str, quantity: str, unit_price: str) -> "Item":
        return cls(
            name=name.strip(),
            quantity=_to_decimal(quantity),
            unit_price=_to_decimal(unit_price),
            raw=(name, quantity, unit_price),
        )

    @property
    def amount(self) -> Optional[Decimal]:
        """``quantity * unit_price`` when both are known."""
        if self.quantity is None or self.unit_price is None:
            return None
        return self.quantity * self.unit_price

    def to_dict(self) -> Dict[str, Any]:
        return {
            "name": self.name,
            "quantity": _num(self.quantity),
            "unit_price": _num(self.unit_price),
            "amount": _num(self.amount),
        }


def _num(value: Optional[Decimal]):
    """Decimal -> int/float for JSON; ``None`` stays ``None``."""
    if value is None:
        return None
    if value == value.to_integral_value():
        return int(value)
    return float(value)


# --------------------------------------------------------------------------- #
# Invoice
# --------------------------------------------------------------------------- #

_ENCODING_NAMES = {"0": "big5", "1": "utf-8", "2": "base64", "3": "utf-8"}


@dataclass
class Invoice:
    """Everything printed in the two QR codes of a Taiwan e-invoice certificate (電子發票證明聯)."""

    number: str
    """Invoice number: 2-letter track + 8 digits, e.g. ``AB11223344``."""
    date: _dt.date
    """Issue date (converted from the ROC calendar)."""
    random_code: str
    """4-digit 隨機碼 needed for lottery claims and carrier queries."""
    sales_amount: int
    """銷售額 (amount before tax). ``0`` when the issuer did not separate it (typical for B2C)."""
    total_amount: int
    """總計額 (amount including tax)."""
    seller_ubn: str
    """賣方統一編號."""
    buyer_ubn: Optional[str] = None
    """買方統一編號, ``None`` for ordinary consumers (``00000000`` on the receipt)."""
    encrypt: str = ""
    """24-character 加密驗證資訊 (AES of number+random code, Base64). Only the issuer can verify it."""
    seller_area: Optional[str] = None
    """營業人自行使用區, 10 free-form characters; ``None`` when unused (``**********``)."""
    items_in_qr: Optional[int] = None
    """二維條碼記載完整品目筆數 — how many items the issuer put into the QR codes."""
    items_total: Optional[int] = None
    """該張發票交易品目總筆數 — how many items the whole invoice has."""
    encoding_code: Optional[str] = None
    """中文編碼參數 as printed: ``0`` Big5, ``1`` UTF-8, ``2`` Base64, ``3`` UTF-8 (cross-border)."""
    items: List[Item] = field(default_factory=list)
    extra_fields: List[str] = field(default_factory=list)
    """Leftover ``:``-separated fields that did not form a complete name/quantity/price triple."""
    raw_left: str = field(default="", repr=False)
    raw_right: Optional[str] = field(default=None, repr=False)

    # ----------------------------------------------------------------- derived

    @property
    def track(self) -> str:
        """The two-letter 字軌 (``AB`` in ``AB11223344``)."""
        return self.number[:2]

    @property
    def serial(self) -> str:
        """The eight digits (``11223344`` in ``AB11223344``)."""
        return self.number[2:]

    @property
    def roc_date(self) -> str:
        """Issue date as printed, ``yyyMMdd`` in the ROC calendar."""
        return date_to_roc(self.date)

    @property
    def period(self) -> str:
        """Lottery period (期別) such as ``11306``; see :func:`period_of`."""
        return period_of(self.date)

    @property
    def period_label(self) -> str:
        """Human-readable period, e.g. ``113年05-06月``."""
        return _period_label(self.period)

    @property
    def tax_amount(self) -> Optional[int]:
        """``total - sales`` when the issuer recorded a sales amount, else ``None``."""
        if self.sales_amount <= 0:
            return None
        return self.total_amount - self.sales_amount

    @property
    def encoding(self) -> Optional[str]:
        """``big5`` / ``utf-8`` / ``base64`` derived from :attr:`encoding_code`; ``None`` if absent or unknown."""
        if self.encoding_code is None:
            return None
        return _ENCODING_NAMES.get(self.encoding_code)

    @property
    def is_cross_border(self) -> bool:
        """``True`` for invoices issued by cross-border e-commerce (境外電商, encoding code ``3``)."""
        return self.encoding_code == "3"

    @property
    def is_complete(self) -> bool:
        """``True`` when the QR codes contain every item of the invoice."""
        if self.items_total is None:
            return bool(self.items)
        return len(self.items) >= self.items_total

    @property
    def items_amount(self) -> Optional[Decimal]:
        """Sum of ``item.amount`` over items with known quantity and price."""
        amounts = [i.amount for i in self.items if i.amount is not None]
        return sum(amounts, Decimal(0)) if amounts else None

    @property
    def barcode(self) -> str:
        """Content of the Code 39 one-dimensional barcode: period + number + random code (19 chars)."""
        return f"{self.period}{self.number}{self.random_code}"

    # ------------------------------------------------------------------ export

    def to_dict(self) -> Dict[str, Any]:
        """JSON-friendly dict with all fields plus the derived ones."""
        return {
            "number": self.number,
            "track": self.track,
            "serial": self.serial,
            "date": self.date.isoformat(),
            "roc_date": self.roc_date,
            "period": self.period,
            "period_label": self.period_label,
            "random_code": self.random_code,
            "sales_amount": self.sales_amount,
            "tax_amount": self.tax_amount,
            "total_amount": self.total_amount,
            "buyer_ubn": self.buyer_ubn,
            "seller_ubn": self.seller_ubn,
            "encrypt": self.encrypt,
            "seller_area": self.seller_area,
            "items_in_qr": self.items_in_qr,
            "items_total": self.items_total,
            "is_complete": self.is_complete,
            "encoding": self.encoding,
            "encoding_code": self.encoding_code,
            "is_cross_border": self.is_cross_border,
            "barcode": self.barcode,
            "items": [item.to_dict() for item in self.items],
            "extra_fields": list(self.extra_fields),
        }

    def to_json(self, *, indent: Optional[int] = 2, ensure_ascii: bool = False) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=ensure_ascii)

    def item_rows(self) -> List[Dict[str, Any]]:
        """One flat dict per item (invoice fields repeated) — handy for CSV / pandas."""
        head = {
            "number": self.number,
            "date": self.date.isoformat(),
            "period": self.period,
            "random_code": self.random_code,
            "seller_ubn": self.seller_ubn,
            "buyer_ubn": self.buyer_ubn,
            "sales_amount": self.sales_amount,
            "tax_amount": self.tax_amount,
            "total_amount": self.total_amount,
        }
        if not self.items:
            return [dict(head, item_no=None, name=None, quantity=None, unit_price=None, amount=None)]
        return [
            dict(head, item_no=i, **item.to_dict())
            for i, item in enumerate(self.items, start=1)
        ]

    def __str__(self) -> str:
        buyer = self.buyer_ubn or "-"
        lines = [
            f"發票號碼 {self.number}  日期 {self.date.isoformat()} ({self.roc_date})  隨機碼 {self.random_code}",
            f"期別 {self.period_label}  賣方 {self.seller_ubn}  買方 {buyer}",
            f"銷售額 {self.sales_amount}  稅額 {self.tax_amount if self.tax_amount is not None else '-'}  總計 {self.total_amount}",
        ]
        if self.items_total is not None:
            lines.append(f"品項 {len(self.items)}/{self.items_total} 筆" + ("" if self.is_complete else "（QR 未含全部品項）"))
        for i, item in enumerate(self.items, start=1):
            qty = _fmt(item.quantity) if item.quantity is not None else item.raw[1]
            price = _fmt(item.unit_price) if item.unit_price is not None else item.raw[2]
            amount = _fmt(item.amount) if item.amount is not None else "-"
            lines.append(f"  {i:>2}. {item.name}  x{qty} @ {price} = {amount}")
        return "\n".join(lines)


def _fmt(value: Decimal) -> str:
    n = _num(value)
    return str(n)


# --------------------------------------------------------------------------- #
# 1-D barcode
# --------------------------------------------------------------------------- #

@dataclass(frozen=True)
class Barcode:
    """Content of the Code 39 barcode printed above the QR codes: ``期別 + 發票號碼 + 隨機碼``."""

    period: str
    number: str
    random_code: str

    @property
    def period_label(self) -> str:
        return _period_label(self.period)

    @property
    def track(self) -> str:
        return self.number[:2]

    @property
    def serial(self) -> str:
        return self.number[2:]

    def to_dict(self) -> Dict[str, Any]:
        d = asdict(self)
        d["period_label"] = self.period_label
        return d

    def __str__(self) -> str:
        return f"{self.period}{self.number}{self.random_code}"
