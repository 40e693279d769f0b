"""A stand-in describer for the scripted chat server: each passage's description made from
what the request shows of it (the document title and the passage's first words), so a
test or a benchmark can run the model path of ``chunk/descriptions`` with no model."""

from __future__ import annotations

import re
from typing import Any

from chat_server import Reply

_FENCED = r"<<<{label} [0-9a-f]+>>>\n(.*?)\n<<<END [0-9a-f]+>>>"
LEAD_WORDS = 15  # of each passage (its section path comes first) in its description


def describe_request(body: Any) -> Reply:
    """The reply a describing model would give: ``{"descriptions": [...]}``, one per passage,
    "<title>: <the passage's first words>"."""
    user = str(body["messages"][-1]["content"])
    title = re.search(_FENCED.format(label="DOCUMENT"), user, re.DOTALL)
    passages = re.findall(_FENCED.format(label=r"PASSAGE \d+"), user, re.DOTALL)
    named = title.group(1) if title else ""
    return Reply.json(
        {"descriptions": [f"{named}: {' '.join(p.split()[:LEAD_WORDS])}" for p in passages]}
    )
