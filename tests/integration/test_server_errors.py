"""Domain errors map to HTTP statuses in one place."""

from __future__ import annotations

import pytest

from askalong.errors import (
    AskAlongError,
    ConfigError,
    CorruptDocument,
    NotFound,
    ProviderError,
    StoreError,
    TooLarge,
)
from askalong.server.errors import status_of


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (TooLarge("big"), 413),
        (CorruptDocument("bad"), 400),
        (NotFound("gone"), 404),
        (ProviderError("model down"), 502),
        (StoreError("locked"), 503),
        (ConfigError("wrong"), 500),
    ],
)
def test_status_of(error: AskAlongError, status: int) -> None:
    assert status_of(error) == status
