"""Request bodies that cost: a large one checked for structure first, a batch validated item by item.

A body larger than :data:`~.facts.COSTLY_BODY` can hold thousands of
unknown fields, and Pydantic would pay for one error each, holding the event
loop for tens of milliseconds; it is refused at its first structural fault
(:func:`~service.schemas.first_structural_error`) before it is validated.

A batch (1,000 items in their longest form take some 15 ms to validate, and an item of Notakto on
three boards some 50 µs) is validated in a worker thread, off the event loop, which goes on serving
the other requests. Its errors carry the locations FastAPI gives them (``body``, ``items``,
the index, the field).

These are FastAPI dependencies. FastAPI reads and parses a declared body
before it solves the dependencies, and validates it after, so a dependency
can refuse a large body before it is validated; the batch is declared as the
dependency's result, and documented in the OpenAPI document as its body.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Annotated

from anyio import to_thread
from fastapi import Depends, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError

from ..schemas import BatchRequest, first_structural_error
from .facts import costly
from .problems import Fault


def refuse_early(model: type[BaseModel], data: object) -> None:
    """``422`` at the first structural fault of ``data`` for ``model``, if it has one."""
    early = first_structural_error(model, data)
    if early is not None:
        raise RequestValidationError([{**early, "loc": ("body", *early["loc"])}])


def well_formed(model: type[BaseModel]) -> Callable[[Request], Awaitable[None]]:
    """A dependency refusing a large body at its first structural fault, before ``model`` validates it."""

    async def check(request: Request) -> None:
        if costly(request.scope) and await request.body():
            refuse_early(model, await request.json())

    return check


async def json_body(request: Request) -> object:
    """The body as strict JSON, or the ``400`` FastAPI gives a declared body that is not."""
    try:
        return await request.json()
    except json.JSONDecodeError as error:
        raise RequestValidationError(
            [
                {
                    "type": "json_invalid",
                    "loc": ("body", error.pos),
                    "msg": "JSON decode error",
                    "input": {},
                    "ctx": {"error": error.msg, **({"said": error.said} if isinstance(error, Fault) else {})},
                }
            ]
        ) from None


async def batch_body(request: Request) -> BatchRequest:
    """The body of ``POST /v1/best-move/batch``, validated; see the module's docstring."""
    if not await request.body():  # the error FastAPI gives a missing body
        raise RequestValidationError([{"type": "missing", "loc": ("body",), "msg": "Field required"}])
    data = await json_body(request)
    if costly(request.scope):
        refuse_early(BatchRequest, data)
    # Each item's board is read by its variant's rules: some 50 µs an item in Notakto on three
    # boards, several milliseconds for the items of even a small batch.
    return await to_thread.run_sync(_validated, data)


def _validated(data: object) -> BatchRequest:
    try:
        return BatchRequest.model_validate(data)
    except ValidationError as error:
        located = [{**found, "loc": ("body", *found["loc"])} for found in error.errors(include_url=False)]
        raise RequestValidationError(located) from None


#: A batch, read by :func:`batch_body`.
BatchBody = Annotated[BatchRequest, Depends(batch_body)]
