"""The tools over Streamable HTTP in the service, with the SDK loaded when first called for.

Importing the SDK takes about a second of CPU, as long as the rest of a worker's start-up, and
most workers never get a call. So nothing here imports it: the first call to :data:`PATH` in a
run of the app's lifespan loads :mod:`.tools` in a worker thread, while the event loop goes on
serving, and every call waits until the tools are ready (at most :data:`READY_WAIT` seconds).
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

import anyio
import anyio.to_thread
from starlette.datastructures import Headers
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ... import logs
from ...answers import Answers, Coach
from ...game.words import Message, Said
from ...settings import Settings
from ..language import of_scope
from ..media import JSON, media_type, not_json
from ..problems import UNAVAILABLE, UNSUPPORTED_MEDIA_TYPE, problem

if TYPE_CHECKING:
    from types import ModuleType

    from anyio.abc import TaskGroup

#: Where the service serves the tools.
PATH = "/mcp"
#: The body limit of :data:`PATH`. The largest valid message, a call of ``review_game`` with 9 moves
#: and every argument, is 308 bytes of compact JSON and 1,430 pretty-printed with 8-space indents;
#: an ``initialize`` with every capability, about 600. A body this size is parsed in well under a
#: millisecond, so no message keeps the event loop from other clients for longer.
MAX_BODY_BYTES = 16 * 1024
#: Seconds a call waits for the tools to be loaded before it gets ``503``.
READY_WAIT = 30.0


class ToolsRoute(Route):
    """A route that names itself in the scope (``scope["route"]``), as Starlette's router does.

    FastAPI's router names only its own routes there; the service's metrics and access log name a
    request by its route (``/mcp``), and would count this one as unmatched.
    """

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope["route"] = self
        await super().handle(scope, receive, send)


class Endpoint:
    """The tools at :data:`PATH`: the route to add to the app, and the context to run in its lifespan.

    The route serves the endpoint at exactly :data:`PATH` (a mount would answer at ``/mcp/``
    only), for POST only: a stateless server without streams answers nothing else, and any other
    method gets the service's own ``405``.

    Within each run of the lifespan (:meth:`running`) the first call loads the tools and starts a
    session manager of the SDK of its own, which serves until the run ends (a manager runs only
    once, and a test client may run one app's lifespan several times). Outside a run, or when the
    tools could not be loaded, the endpoint answers ``503``. The manager gets only a body that is
    one JSON-RPC message of MCP; any other is answered in JSON-RPC before it
    (:func:`.tools.serving`, :class:`.envelope.Envelope`).
    """

    def __init__(self, answers: Answers, settings: Settings, coach: Coach) -> None:
        self.answers = answers
        self.settings = settings
        self.coach = coach
        self.manager: ASGIApp | None = None  # the SDK's session manager, behind the envelope check
        self.group: TaskGroup | None = None
        self.ready: anyio.Event | None = None
        self.route = ToolsRoute(PATH, self, methods=["POST"], name="mcp")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        content_type = Headers(scope=scope).get("content-type")
        if media_type(content_type) != JSON:  # the protocol's one media type
            refused = problem(UNSUPPORTED_MEDIA_TYPE, not_json(content_type), scope["path"], of_scope(scope))
            await refused(scope, receive, send)
            return
        if self.manager is None and self.group is not None:
            if self.ready is None:  # the first call of this run: load the tools
                self.ready = anyio.Event()
                self.group.start_soon(self._serve, self.ready)
            with anyio.move_on_after(READY_WAIT):
                await self.ready.wait()
        manager = self.manager
        if manager is None:
            detail = Said.of(
                Message("error", "the MCP tools are not running: the service is starting or stopping")
            )
            await problem(UNAVAILABLE, detail, scope["path"], of_scope(scope))(scope, receive, send)
            return
        await manager(scope, receive, send)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Serve the tools, once first called for, for as long as the block runs: enter it in the lifespan."""
        async with anyio.create_task_group() as group:
            previous = self.group, self.ready, self.manager
            self.group, self.ready, self.manager = group, None, None
            try:
                yield
            finally:
                group.cancel_scope.cancel()
                self.group, self.ready, self.manager = previous

    async def _serve(self, ready: anyio.Event) -> None:
        """Load the tools in a worker thread, then run the SDK's session manager until cancelled."""
        try:
            tools: ModuleType = await anyio.to_thread.run_sync(
                importlib.import_module, f"{__package__}.tools"
            )
            server = await anyio.to_thread.run_sync(self._build, tools)
            async with tools.serving(
                server, PATH, min(MAX_BODY_BYTES, self.settings.max_body_bytes)
            ) as manager:
                self.manager = manager
                ready.set()
                await anyio.sleep_forever()
        except Exception:
            logs.logger.exception("the MCP tools could not be started")
        finally:
            ready.set()  # calls waiting for the tools stop waiting: they are served, or get 503

    def _build(self, tools: ModuleType) -> object:
        tools.configure_logging(self.settings.log_level)
        return tools.build_server(self.answers, self.coach)
