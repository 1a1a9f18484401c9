"""The one exception of the client: an error answer of the service."""

from __future__ import annotations

import httpx
from pydantic import ValidationError

from ._models import Problem

__all__ = ["ServiceError"]


class ServiceError(Exception):
    """An error answer of the service (any status other than 2xx), with its problem details.

    ``status`` is the HTTP status, ``problem`` the ``application/problem+json`` body (RFC 9457):
    ``type`` names the kind of problem (such as ``/problems/game-over``), ``detail`` says what
    was wrong, ``errors`` lists each fault of invalid input with its location (``loc``), and
    ``game_status`` is the status of a finished board. An error body that is not problem
    details (a proxy's HTML page) is described by a problem of type ``about:blank``. The
    response itself, with its headers (``Retry-After``, ``X-Request-ID``), is ``response``.
    """

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self.status = response.status_code
        self.problem = problem_of(response)
        super().__init__(f"{self.status} {self.problem.title}: {self.problem.detail}")


def problem_of(response: httpx.Response) -> Problem:
    """The problem details of an error answer, or a stand-in when its body is something else."""
    try:
        return Problem.model_validate_json(response.content)
    except ValidationError:
        return Problem(
            type="about:blank",
            title=response.reason_phrase or "Error",
            status=response.status_code,
            detail=response.text[:500],
        )
