"""The per-install API token: random, kept in ``ASKALONG_HOME/api-token`` (mode 0600).

Whoever can read ``ASKALONG_HOME`` can drive the API; another local user cannot. The file
is made on first use, atomically: written whole under a temporary name, then linked into
place, so two processes starting at once agree on one token and neither reads half a file.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from askalong.settings import Settings

TOKEN_FILE = "api-token"
TOKEN_BYTES = 32  # 256 bits, URL-safe base64: 43 characters
PRIVATE = 0o600


def configured_token(settings: Settings) -> str:
    """``ASKALONG_API_TOKEN`` when set (app servers of one deployment share it), else the
    token kept in the install's home."""
    return settings.api_token or install_token(settings.home)


def token_path(home: Path) -> Path:
    return home / TOKEN_FILE


def install_token(home: Path) -> str:
    """The install's token, made (mode 0600) if there is none yet."""
    path = token_path(home)
    if not path.exists():
        _create(path)
    _keep_private(path)
    return path.read_text(encoding="ascii").strip()


def session_value(token: str) -> str:
    """The browser cookie's value: derived from the token, so the cookie store never holds
    the token itself (the cookie opens the API all the same; it is no weaker or stronger)."""
    return hmac.new(token.encode(), b"askalong browser session", hashlib.sha256).hexdigest()


def matches(given: str, expected: str) -> bool:
    """Constant-time comparison (a timing side channel must not spell the token out)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), expected.encode())


def _create(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{TOKEN_FILE}-{secrets.token_hex(8)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(secrets.token_urlsafe(TOKEN_BYTES) + "\n")
        os.link(temporary, path)  # fails if another process got there first: theirs wins
    except FileExistsError:
        pass
    finally:
        temporary.unlink(missing_ok=True)


def _keep_private(path: Path) -> None:
    """A token file someone loosened (a copy, a restore from backup) is made private again."""
    if path.stat().st_mode & 0o077:
        path.chmod(PRIVATE)
