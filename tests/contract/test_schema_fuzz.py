"""schemathesis over every route of the served OpenAPI schema, the install token set: a
few dozen generated requests per route; none may get a 5xx, every status must be one the
schema documents and every response must match its schema. The schema states the limits
the server enforces (``maxLength``, ``minLength``, enums, integer bounds), so a request it
calls valid gets no undocumented refusal. (Schema-valid ids name no stored document, so
"valid data is accepted" cannot hold here: a 404 is the right answer.)"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from api_client import token_headers
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    response_schema_conformance,
    status_code_conformance,
)

from askalong.config import load_settings
from askalong.server.app import create_app

# schemathesis's ASGI client calls itself "testserver": a name the gate is told to answer.
SETTINGS = load_settings(
    home=Path(tempfile.mkdtemp(prefix="askalong-fuzz-")),
    embedder="none",
    allowed_hosts="testserver",
)
APP = create_app(SETTINGS)
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]
schema = schemathesis.openapi.from_asgi("/openapi.json", APP, headers=token_headers(SETTINGS))


@pytest.fixture(scope="module", autouse=True)
def started() -> Iterator[None]:
    with TestClient(APP):  # runs the lifespan: the library is open for every case
        yield


# Random requests a route: `make test` draws 10 (the explicit examples and the coverage
# phase's boundary values run in full either way), `make sweep` the former 30.
FAST_EXAMPLES = 10
SWEEP_EXAMPLES = 30


@pytest.mark.slow  # 15 s of CPU over 43 routes: make check leaves it out, make test runs it
@schema.parametrize()
@settings(max_examples=FAST_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_error_and_responses_match_the_schema(case: schemathesis.Case) -> None:
    check_case(case)


@pytest.mark.sweep
@schema.parametrize()
@settings(max_examples=SWEEP_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_error_and_responses_match_the_schema_full(case: schemathesis.Case) -> None:
    check_case(case)


def check_case(case: schemathesis.Case) -> None:
    response = case.call_and_validate(headers=token_headers(SETTINGS), checks=CHECKS)
    assert response.status_code not in (401, 421), "the gate refused the fuzzer itself"
