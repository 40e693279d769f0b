"""統一編號 (Taiwan Unified Business Number) checksum validation."""

from __future__ import annotations

import re

__all__ = ["is_valid_ubn", "validate_ubn"]

_WEIGHTS = (1, 2, 1, 2, 1, 2, 4, 1)
_EIGHT_DIGITS_RE = re.compile(r"^[0-9]{8}$")


def _digit_sum(value: int) -> int:
    return value // 10 + value % 10


def is_valid_ubn(ubn: str) -> bool:
    """Return ``True`` if *ubn* is a well-formed 8-digit 統一編號.

    Implements the rule in force since 2023-04-01: multiply the digits by
    ``1,2,1,2,1,2,4,1``, add up the digit sums of each product, and accept when
    the total is divisible by 5. When the seventh digit is ``7`` the product
    ``7 × 4 = 28`` may count as either ``10`` or ``1``, so a total that becomes
    divisible by 5 after adding 1 is accepted too. (Every number valid under
    the pre-2023 "divisible by 10" rule is still valid.)
    """
    if not isinstance(ubn, str):
        return False
    ubn = ubn.strip()
    if not _EIGHT_DIGITS_RE.match(ubn) or ubn == "00000000":
        return False  # 00000000 is the "no buyer" placeholder, never a real UBN
    total = sum(_digit_sum(int(d) * w) for d, w in zip(ubn, _WEIGHTS))
    if total % 5 == 0:
        return True
    return ubn[6] == "7" and (total + 1) % 5 == 0


def validate_ubn(ubn: str) -> str:
    """Return the stripped *ubn* or raise :class:`ValueError` if the checksum fails."""
    if not is_valid_ubn(ubn):
        raise ValueError(f"invalid 統一編號: {ubn!r}")
    return ubn.strip()
