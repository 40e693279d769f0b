"""Secrets of accounts, the same for every backend: argon2id password hashes and API tokens.

A password is low-entropy and chosen by a person, so it gets a slow, salted, memory-hard
hash (argon2id, ``argon2-cffi``'s defaults: RFC 9106's second recommended profile). An
API token is 256 random bits, so a plain SHA-256 digest is as strong as any slow hash and
lets the store find the token with one index lookup; the secret itself is shown once, when
made, and never stored. A token reads ``aa_<id>_<secret>`` so a leaked one can be
recognised (and revoked by id) without the store knowing its secret.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from askalong.errors import InputError

if TYPE_CHECKING:
    from argon2 import PasswordHasher

MIN_PASSWORD_CHARS = 8
TOKEN_PREFIX = "aa_"


@dataclass(frozen=True)
class NewToken:
    """A token just made: ``secret`` is what the user sends, ``digest`` what is stored."""

    id: str
    secret: str
    digest: str


def hash_password(password: str) -> str:
    if len(password) < MIN_PASSWORD_CHARS:
        raise InputError(f"a password needs at least {MIN_PASSWORD_CHARS} characters")
    return _hasher().hash(password)


def password_matches(stored_hash: str, password: str) -> bool:
    from argon2.exceptions import InvalidHashError, VerificationError

    try:
        return _hasher().verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False


@functools.cache
def _hasher() -> PasswordHasher:
    """Made at the first password: every store imports this module, and argon2's cffi
    bindings cost a question that checks none (~5 CPU ms, issue 28)."""
    from argon2 import PasswordHasher

    return PasswordHasher()


def new_token() -> NewToken:
    token_id = secrets.token_hex(6)
    secret = f"{TOKEN_PREFIX}{token_id}_{secrets.token_urlsafe(32)}"
    return NewToken(token_id, secret, token_digest(secret))


def token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogateescape")).hexdigest()


def is_account_token(value: str) -> bool:
    """Whether ``value`` has an account token's shape (else it may be the install token)."""
    return value.startswith(TOKEN_PREFIX)
