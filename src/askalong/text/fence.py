"""Fences around untrusted text in a model prompt, with markers a document cannot forge.

Every prompt gets a fresh ``Fence``: a random nonce (``secrets``) that each of its markers
carries, ``<<<SOURCE 3 9f2c…>>>`` … ``<<<END 9f2c…>>>``. A document cannot close a fence
whose nonce it never saw. As a second line of defence ``strip_fences`` removes every run of
three or more ``<`` or ``>`` from the text that goes inside, to a fixed point: removing one
run can join its neighbours into a new one (``>><<<>`` -> ``>>>``), so the removal goes on
until nothing changes. It does so in one left-to-right pass that merges the neighbours as
they meet, linear in the text: repeating a regex pass until nothing changes takes quadratic
time on nested runs (a second for 9,000 characters), and this text is a document's. Either
way only ``<`` and ``>`` go and no run is left; which lone brackets survive can differ.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

NONCE_BYTES = 8  # 16 hex digits: a document guessing them has one chance in 2**64
FENCE_RUN = 3  # this many "<" or ">" in a row look like a fence marker
_PIECE = re.compile(r"<+|>+|[^<>]+")


@dataclass(frozen=True)
class Fence:
    """The markers of one prompt; ``Fence.new()`` draws its nonce."""

    nonce: str

    @classmethod
    def new(cls) -> Fence:
        return cls(secrets.token_hex(NONCE_BYTES))

    def opening(self, label: str) -> str:
        return f"<<<{label} {self.nonce}>>>"

    @property
    def closing(self) -> str:
        return f"<<<END {self.nonce}>>>"

    def wrap(self, label: str, text: str) -> str:
        """``text``, stripped of fence-like runs, on lines between this fence's markers."""
        return f"{self.opening(label)}\n{strip_fences(text)}\n{self.closing}"


def strip_fences(text: str) -> str:
    """``text`` with no run of ``FENCE_RUN`` or more ``<`` or ``>`` left, however the runs
    nest: the fixed point of removing every such run."""
    kept: list[str] = []  # plain pieces, and bracket runs shorter than FENCE_RUN
    for match in _PIECE.finditer(text):
        piece = match.group()
        if piece[0] not in "<>":
            kept.append(piece)
            continue
        if kept and kept[-1][0] == piece[0]:  # a removal made two runs neighbours
            piece = kept.pop() + piece
        if len(piece) < FENCE_RUN:
            kept.append(piece)
    return "".join(kept)
