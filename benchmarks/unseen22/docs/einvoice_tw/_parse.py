"""Parsing the text scanned from the two QR codes and the Code 39 barcode."""

from __future__ import annotations

import base64
import binascii
import re
from typing import List, Optional, Sequence, Tuple, Union

from ._models import Barcode, Invoice, InvoiceFormatError, Item, roc_to_date

__all__ = ["parse", "parse_any", "parse_barcode", "split_items", "is_barcode", "HEADER_LEN", "RIGHT_PREFIX"]

HEADER_LEN = 77
RIGHT_PREFIX = "**"

_NUMBER_RE = re.compile(r"^[A-Za-z]{2}[0-9]{8}$")
_HEX_RE = re.compile(r"^[0-9A-Fa-f]{8}$")
_DIGITS_RE = re.compile(r"^[0-9]+$")
# ":" + 10-char seller area + ":" + items-in-QR + ":" + items-total + ":" + encoding [+ ":" + items]
_TAIL_RE = re.compile(r"^:(?P<area>.{10}):(?P<n1>[0-9]*):(?P<n2>[0-9]*):(?P<enc>[0-9])(?::(?P<items>.*))?$", re.S)
# Tolerant variant for issuers whose seller area is not exactly 10 characters.
_TAIL_LOOSE_RE = re.compile(r"^:(?P<area>.*?):(?P<n1>[0-9]{0,4}):(?P<n2>[0-9]{0,4}):(?P<enc>[0-9])(?::(?P<items>.*))?$", re.S)
_BARCODE_RE = re.compile(r"^\*?(?P<period>[0-9]{5})(?P<number>[A-Za-z]{2}[0-9]{8})(?P<random>[0-9]{4})\*?$")
_KNOWN_ENCODINGS = ("0", "1", "2", "3")
_CJK_RE = re.compile(r"[　-ヿ㐀-䶿一-鿿豈-﫿＀-￯]")


def _clean(text: str) -> str:
    return text.strip().lstrip("﻿").strip()


def _looks_like_left(text: str) -> bool:
    return len(text) >= HEADER_LEN and bool(_NUMBER_RE.match(text[:10])) and bool(_DIGITS_RE.match(text[10:17]))


def is_barcode(text: str) -> bool:
    """``True`` if *text* is the 19-character Code 39 barcode content (``*`` guards optional)."""
    return bool(_BARCODE_RE.match(_clean(text)))


# --------------------------------------------------------------------------- #
# Public API
# --------------------------------------------------------------------------- #

def parse(
    left: str,
    right: Optional[str] = None,
    *,
    strict: bool = False,
    fix_mojibake: bool = True,
) -> Invoice:
    """Parse the text of the left QR code (and optionally the right one) into an :class:`Invoice`.

    *left* is the code whose first 77 characters are the fixed header; *right*
    is the continuation code that starts with ``**``. If you pass them the
    other way round they are swapped automatically.

    With ``strict=False`` (default) small deviations from the specification
    seen in the wild are tolerated: lowercase track letters, a seller area that
    is not exactly 10 characters, a right code without the ``**`` marker, and
    item text that is not valid Base64 even though the encoding flag says so.
    ``strict=True`` raises :class:`InvoiceFormatError` for all of those.
    ``fix_mojibake`` repairs Big5/UTF-8 item text that a scanner decoded as
    Latin-1 (the usual cause of ``Ã©``-style garbage).
    """
    left = _clean(left)
    right = _clean(right) if right is not None else None
    if right == "":
        right = None

    if left.startswith(RIGHT_PREFIX) and right is not None and not right.startswith(RIGHT_PREFIX):
        left, right = right, left

    if len(left) < HEADER_LEN:
        raise InvoiceFormatError(
            f"left QR code text is {len(left)} characters long; the fixed header alone is {HEADER_LEN}"
        )

    number = left[0:10]
    if not _NUMBER_RE.match(number):
        raise InvoiceFormatError(f"invalid invoice number {number!r}; expected 2 letters + 8 digits")
    if strict and not number[:2].isupper():
        raise InvoiceFormatError(f"invoice track letters must be uppercase: {number!r}")
    number = number.upper()

    date = roc_to_date(left[10:17])

    random_code = left[17:21]
    if strict and not random_code.isdigit():
        raise InvoiceFormatError(f"random code must be 4 digits: {random_code!r}")

    sales_hex, total_hex = left[21:29], left[29:37]
    if not (_HEX_RE.match(sales_hex) and _HEX_RE.match(total_hex)):
        raise InvoiceFormatError(f"amounts must be 8 hex digits each: {sales_hex!r}, {total_hex!r}")
    sales_amount, total_amount = int(sales_hex, 16), int(total_hex, 16)

    buyer = left[37:45]
    seller = left[45:53]
    encrypt = left[53:77]
    if strict and not (buyer.isdigit() and seller.isdigit()):
        raise InvoiceFormatError(f"UBN fields must be 8 digits: buyer {buyer!r}, seller {seller!r}")

    invoice = Invoice(
        number=number,
        date=date,
        random_code=random_code,
        sales_amount=sales_amount,
        total_amount=total_amount,
        seller_ubn=seller,
        buyer_ubn=None if buyer == "00000000" else buyer,
        encrypt=encrypt,
        raw_left=left,
        raw_right=right,
    )

    tail = left[HEADER_LEN:]
    left_items = ""
    if tail:
        match = _TAIL_RE.match(tail) or (None if strict else _TAIL_LOOSE_RE.match(tail))
        if match is None:
            if strict:
                raise InvoiceFormatError(
                    "text after the 77-character header must be ':<seller area>:<items in QR>:<items total>:<encoding>[:items...]'"
                )
            invoice.extra_fields = [tail]
            return invoice
        area = match.group("area")
        invoice.seller_area = None if area.strip("*") == "" else area
        invoice.items_in_qr = int(match.group("n1")) if match.group("n1") else None
        invoice.items_total = int(match.group("n2")) if match.group("n2") else None
        invoice.encoding_code = match.group("enc")
        if strict and invoice.encoding_code not in _KNOWN_ENCODINGS:
            raise InvoiceFormatError(f"unknown encoding flag {invoice.encoding_code!r}; expected 0, 1, 2 or 3")
        left_items = match.group("items") or ""
    elif strict:
        raise InvoiceFormatError("left QR code has no fields after the 77-character header")

    right_items = ""
    if right is not None:
        if right.startswith(RIGHT_PREFIX):
            right_items = right[len(RIGHT_PREFIX):]
        elif strict:
            raise InvoiceFormatError("right QR code text must start with '**'")
        elif _looks_like_left(right):
            raise InvoiceFormatError("the second code looks like another invoice's left QR code, not a '**' continuation")
        else:
            right_items = right

    if invoice.encoding_code is None and (left_items or right_items):
        invoice.extra_fields = [t for t in (left_items, right_items) if t]
        return invoice

    text = _decode_items(left_items, right_items, invoice.encoding_code, strict=strict, fix_mojibake=fix_mojibake)
    invoice.items, invoice.extra_fields = split_items(text)
    return invoice


def parse_barcode(text: str) -> Barcode:
    """Parse the 19-character Code 39 barcode (``期別 + 發票號碼 + 隨機碼``), with or without ``*`` guards."""
    match = _BARCODE_RE.match(_clean(text))
    if match is None:
        raise InvoiceFormatError("barcode must be 5-digit period + invoice number + 4-digit random code (19 characters)")
    period = match.group("period")
    if int(period[3:]) not in (2, 4, 6, 8, 10, 12):
        raise InvoiceFormatError(f"barcode period {period!r} must end in an even month (02, 04 ... 12)")
    return Barcode(
        period=period,
        number=match.group("number").upper(),
        random_code=match.group("random"),
    )


def parse_any(*codes: str, strict: bool = False, fix_mojibake: bool = True) -> Union[Invoice, Barcode]:
    """Parse whatever was scanned: one barcode, one left QR code, or a left/right pair in any order.

    In lenient mode a second code that is neither a ``**`` continuation nor a
    77+ character header is taken to be a right code whose ``**`` was lost.
    """
    cleaned = [c for c in (_clean(c) for c in codes if c is not None) if c]
    if not cleaned:
        raise InvoiceFormatError("nothing to parse")
    if len(cleaned) == 1 and _BARCODE_RE.match(cleaned[0]):
        return parse_barcode(cleaned[0])
    rights = [c for c in cleaned if c.startswith(RIGHT_PREFIX)]
    others = [c for c in cleaned if not c.startswith(RIGHT_PREFIX)]
    lefts = [c for c in others if _looks_like_left(c)]
    strays = [c for c in others if not _looks_like_left(c)]
    if len(lefts) != 1:
        raise InvoiceFormatError(
            f"expected exactly one left QR code (got {len(lefts)}) and at most one '**' right QR code (got {len(rights)})"
        )
    if len(rights) > 1:
        raise InvoiceFormatError(f"expected at most one '**' right QR code, got {len(rights)}")
    if strays and (strict or rights or len(strays) > 1):
        raise InvoiceFormatError(f"unrecognised code {strays[0][:20]!r}: not a left QR, not a '**' right QR, not a barcode")
    right = rights[0] if rights else (strays[0] if strays else None)
    return parse(lefts[0], right, strict=strict, fix_mojibake=fix_mojibake)


def split_items(text: str) -> Tuple[List[Item], List[str]]:
    """Split decoded ``品名:數量:單價:...`` text into items plus any leftover fields."""
    if not text:
        return [], []
    fields = text.split(":")
    if fields and fields[-1] == "":
        fields.pop()  # the left code's item run often ends with ':' before the '**' continuation
    complete = len(fields) - len(fields) % 3
    items = [Item.from_fields(*fields[i : i + 3]) for i in range(0, complete, 3)]
    return items, fields[complete:]


# --------------------------------------------------------------------------- #
# Item text decoding
# --------------------------------------------------------------------------- #

def _decode_items(left: str, right: str, encoding_code: Optional[str], *, strict: bool, fix_mojibake: bool) -> str:
    if encoding_code == "2":
        return _decode_base64_pair(left, right, strict=strict)
    text = left + right
    if fix_mojibake:
        text = _repair_latin1(text, "cp950" if encoding_code == "0" else "utf-8")
    return text


def _b64(text: str) -> bytes:
    compact = re.sub(r"\s+", "", text).replace("-", "+").replace("_", "/")  # tolerate URL-safe alphabet
    compact += "=" * (-len(compact) % 4)
    return base64.b64decode(compact, validate=True)


def _decode_base64_pair(left: str, right: str, *, strict: bool) -> str:
    """Base64 mode: decode the item text carried by the two QR codes.

    The official examples Base64-encode each code's share separately, but some
    issuers encode the whole item text once and split the Base64 string
    wherever the first code fills up. Both readings are tried and the one that
    yields clean UTF-8 (then Big5) wins; bytes are joined *before* text
    decoding so a split inside a multi-byte character still comes out right.
    """
    parts = [p for p in (left, right) if p]
    if not parts:
        return ""
    candidates: List[bytes] = []
    try:
        candidates.append(_b64("".join(parts)))  # encoded once, split anywhere
    except (binascii.Error, ValueError):
        pass
    try:
        per_code = b"".join(_b64(p) for p in parts)  # encoded per code (spec examples)
        if per_code not in candidates:
            candidates.append(per_code)
    except (binascii.Error, ValueError):
        pass
    if not candidates:
        if strict:
            raise InvoiceFormatError("encoding flag says Base64 but the item text is not valid Base64")
        return left + right
    for codec in ("utf-8", "cp950"):
        for data in candidates:
            try:
                return data.decode(codec)
            except UnicodeDecodeError:
                continue
    if strict:
        raise InvoiceFormatError("Base64 item text is neither valid UTF-8 nor Big5")
    return candidates[0].decode("utf-8", errors="replace")


def _repair_latin1(text: str, codec: str) -> str:
    """Undo a scanner that decoded Big5/UTF-8 bytes as Latin-1.

    Only fires when the text looks like mojibake (every char < U+0100 and at
    least two chars >= U+0080) *and* the repaired text contains CJK, so genuine
    Latin-1 such as ``30°C`` or ``Café`` is left alone.
    """
    if not text or any(ord(c) > 0xFF for c in text):
        return text
    if sum(1 for c in text if ord(c) >= 0x80) < 2:
        return text
    try:
        repaired = text.encode("latin-1").decode(codec)
    except UnicodeError:
        return text
    return repaired if _CJK_RE.search(repaired) else text
