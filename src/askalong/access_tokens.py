"""Access tokens: what a document carries and a caller holds; the permission filter of every
store query and search route is where the two sets meet (``types.Access``)."""

from __future__ import annotations

PUBLIC_TOKEN = "public"


def user_token(user: str) -> str:
    return f"u:{user}"


def org_token(org: str) -> str:
    return f"o:{org}"


def document_tokens(owner: str, visibility: str, org_tags: tuple[str, ...]) -> tuple[str, ...]:
    """The access tokens a document's chunks carry in every route (``types.Access``)."""
    tokens = {user_token(owner)}
    if visibility == "public":
        tokens.add(PUBLIC_TOKEN)
    if visibility == "org":
        tokens.update(map(org_token, org_tags))
    return tuple(sorted(tokens))
