"""Domain errors become HTTP statuses here, in one place, as ``{"error": {type, message,
source}}``; the framework's own errors (bad parameters, unknown routes) get the same shape."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from askalong.errors import (
    AskAlongError,
    Busy,
    ChecksumMismatch,
    ConfigError,
    Conflict,
    DiskFull,
    Expired,
    InputError,
    NotFound,
    ProviderError,
    StoreError,
    TooLarge,
    TooMany,
    Unauthorized,
    Unavailable,
)
from askalong.server.schemas import LONE_SURROGATE, ErrorBody, ErrorOut, TooManyOut

log = logging.getLogger("askalong.server")

# Validation errors that are not 422: a string of the body over its limit (``asking/limits``)
# is too large; one in the URL (a path or query parameter) is a bad URL, as are a lone
# surrogate, an empty or blank string, an unknown enum value: 400, as before the schema
# stated those limits. The first listed that occurs decides.
URL_TOO_LONG = "url_string_too_long"
VALIDATION_STATUSES: tuple[tuple[str, int, str], ...] = (
    ("string_too_long", 413, "TooLarge"),
    (URL_TOO_LONG, 400, "InputError"),
    (LONE_SURROGATE, 400, "InputError"),
    ("string_too_short", 400, "InputError"),
    ("string_pattern_mismatch", 400, "InputError"),
    ("literal_error", 400, "InputError"),
)


def status_of(exc: AskAlongError) -> int:
    """The HTTP status for a domain error (most specific class first)."""
    statuses: tuple[tuple[type[AskAlongError], int], ...] = (
        (TooLarge, 413),
        (ChecksumMismatch, 460),  # the tus checksum extension's status
        (InputError, 400),
        (Expired, 410),
        (NotFound, 404),
        (Conflict, 409),
        (TooMany, 429),
        (Unauthorized, 401),
        (ProviderError, 502),  # a model or embedding endpoint failed, not the request
        (DiskFull, 507),  # Insufficient Storage: the server's disk, not the request
        (StoreError, 503),
        (Unavailable, 503),  # a worker was replaced mid-request: trying again may work
        (Busy, 503),  # a shared resource stayed taken: refused rather than parked
    )
    for kind, status in statuses:
        if isinstance(exc, kind):
            return status
    return 500  # ConfigError and anything unforeseen: the server is set up wrongly


def error_response(status: int, kind: str, message: str, source: str | None = None) -> JSONResponse:
    body = ErrorOut(error=ErrorBody(type=kind, message=message, source=source))
    return JSONResponse(body.model_dump(), status_code=status)


def too_many_response(exc: TooMany | Busy) -> JSONResponse:
    """429 for a per-user limit, 503 for a busy resource: ``Retry-After`` and the body's
    ``retry_after`` agree."""
    body = TooManyOut(
        error=ErrorBody(type=type(exc).__name__, message=exc.message, source=exc.source),
        retry_after=exc.retry_after,
    )
    status = 503 if isinstance(exc, Busy) else 429
    return JSONResponse(
        body.model_dump(), status_code=status, headers={"Retry-After": str(exc.retry_after)}
    )


async def _domain(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AskAlongError)
    if isinstance(exc, ConfigError | StoreError):
        log.error("%s: %s", type(exc).__name__, exc)
    if isinstance(exc, TooMany | Busy):  # a slot frees when an upload or a write ends
        return too_many_response(exc)
    response = error_response(status_of(exc), type(exc).__name__, exc.message, exc.source)
    if isinstance(exc, Unavailable):  # its worker is already replaced: soon is fine
        response.headers["Retry-After"] = "1"
    return response


async def _http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    response = error_response(exc.status_code, "HTTPError", str(exc.detail))
    response.headers.update(exc.headers or {})
    return response


async def _validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    problems = "; ".join(_problem(e) for e in errors)
    found = {_kind(error) for error in errors}
    status, kind = next(
        ((status, kind) for name, status, kind in VALIDATION_STATUSES if name in found),
        (422, "InvalidRequest"),
    )
    return error_response(status, kind, problems or "the request is not valid")


def _kind(error: dict[str, object]) -> object:
    """The error's type; a too-long string in the URL told apart from one in the body."""
    where = error.get("loc") or ("body",)
    if error.get("type") == "string_too_long" and where[0] != "body":  # type: ignore[index]
        return URL_TOO_LONG
    return error.get("type")


def _problem(error: dict[str, object]) -> str:
    where = ".".join(str(part) for part in error.get("loc", ()))  # type: ignore[attr-defined]
    return f"{where}: {error.get('msg', 'invalid')}"


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(AskAlongError, _domain)
    app.add_exception_handler(HTTPException, _http)
    app.add_exception_handler(RequestValidationError, _validation)
