"""Where an answer is worked out: on the event loop when it is quick, else in a worker thread.

The event loop serves every connection of the worker, so work that can take more than about a
millisecond of CPU (an analysis in a larger variant, a move chosen with options, a review, a batch)
is done in one of anyio's worker threads, and the loop goes on serving the others meanwhile. What is
quick is the answers' to say (:meth:`service.answers.Answers.quick`); the routes, the fast lane and
the MCP tools all ask here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, TypeVarTuple

from anyio import to_thread

from ..answers import Answers, Entity
from ..game import Options
from ..game.variants import VariantPosition

T = TypeVar("T")
Args = TypeVarTuple("Args")


async def analysis(answers: Answers, position: VariantPosition, language: str) -> Entity:
    """The analysis of ``position`` in ``language``: here when it is quick, else in a worker thread."""
    if answers.quick(position):
        return answers.analysis(position, language)
    return await off_loop(answers.analysis, position, language)


async def best_move(answers: Answers, position: VariantPosition, options: Options, language: str) -> bytes:
    """The move chosen in ``position`` with ``options``, in ``language``: here when it is quick, else in a
    worker thread."""
    if answers.quick(position, options):
        return answers.best_move_with(position, options, language)
    return await off_loop(answers.best_move_with, position, options, language)


async def off_loop(work: Callable[[*Args], T], *args: *Args) -> T:
    """``work(*args)`` in a worker thread: for work that is never quick (a review, a batch)."""
    return await to_thread.run_sync(work, *args)
