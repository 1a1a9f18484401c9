"""Property-based fuzzing of every operation with Schemathesis, against the OpenAPI document the app serves.

Positive and negative inputs; the checks: no 5xx, documented status codes and
content types, responses conforming to their schemas, invalid input rejected,
unsupported methods answered with 405 and ``Allow``. The one default check left
out is "schema-valid input is accepted": a board can match the JSON Schema and
still be illegal by the rules of the game, which the schema cannot express.
"""

from __future__ import annotations

import os
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance
from schemathesis.core.result import Ok

from service.settings import Settings
from service.web.app import create_app
from tests.support.stats import counts

app = create_app(Settings(log_level="warning"))
schema = schemathesis.openapi.from_asgi("/openapi.json", app)

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_keeps_its_contract(case: schemathesis.Case[Any]) -> None:
    response = case.call_and_validate(excluded_checks=[positive_data_acceptance])
    counts["fuzz requests sent"] += 1
    assert response.status_code < 500


def test_the_fuzzer_covers_every_operation() -> None:
    found = [result.ok() for result in schema.get_all_operations() if isinstance(result, Ok)]
    operations = {f"{operation.method.upper()} {operation.path}" for operation in found}
    assert operations >= {
        "POST /v1/best-move",
        "GET /v1/best-move",
        "POST /v1/best-move/batch",
        "GET /v1/positions/{board}",
        "POST /v1/analysis",
        "GET /health",
        "GET /metrics",
    }
