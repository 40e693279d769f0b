"""Reading a received prompt's fences back, the way a model told the rules would read them.

The nonce is taken from the system message (the instructions name the markers); the user
message is then walked line by line: ``<<<LABEL NONCE>>>`` opens a fence, the next
``<<<END NONCE>>>`` line closes it. What a test gets is what each fence holds and what is
left outside them, so it can assert that a document's text sits in exactly one fence and
nowhere else::

    read = read_fences(system_text, user_text)
    assert "PWNED" in read.bodies["SOURCE 2"] and "PWNED" not in read.outside
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NONCE = re.compile(r"<<<END ([0-9a-f]{16})>>>")
FENCE_LIKE = re.compile(r"<<<|>>>")


@dataclass(frozen=True)
class Fences:
    nonce: str
    bodies: dict[str, str]  # label ("SOURCE 2", "CLAIM 0") -> the text inside its fence
    outside: str  # the user message's lines outside every fence

    def holding(self, text: str) -> list[str]:
        """The labels of the fences whose text contains ``text``."""
        return [label for label, body in self.bodies.items() if text in body]


def read_fences(system: str, user: str) -> Fences:
    """The fences of ``user`` under the nonce ``system`` names; an unclosed, nested or
    repeated fence, or a marker of another nonce, fails the test."""
    nonces = set(NONCE.findall(system))
    assert len(nonces) == 1, f"the system message names {len(nonces)} nonces"
    nonce = nonces.pop()
    opening = re.compile(rf"<<<([A-Z]+ \d+) {nonce}>>>")
    bodies: dict[str, str] = {}
    outside: list[str] = []
    label, inside = None, []  # the open fence and its lines so far
    for line in user.split("\n"):
        marker = opening.fullmatch(line)
        if label is None and marker:
            label, inside = marker.group(1), []
            assert label not in bodies, f"fence {label} opened twice"
        elif label is not None and line == f"<<<END {nonce}>>>":
            bodies[label], label = "\n".join(inside), None
        elif label is not None:
            assert not marker, f"fence {marker and marker.group(1)} opened inside {label}"
            inside.append(line)
        else:
            outside.append(line)
    assert label is None, f"fence {label} is never closed"
    return Fences(nonce, bodies, "\n".join(outside))
