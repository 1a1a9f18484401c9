"""The service's answers as tools for AI assistants, over the Model Context Protocol (MCP).

Language models play tic-tac-toe badly; these tools give them the solved game's exact answers.
The tools are defined in one place, :func:`.tools.build_server`, with the official SDK's
:class:`~mcp.server.mcpserver.MCPServer`:

* ``best_move``: the move to play, as ``POST /v1/best-move`` answers it (board, and perhaps the
  player, a level or a rating, and a seed);
* ``analyze_position``: everything about a position, as ``POST /v1/analysis`` answers it;
* ``explain_move``: why the engine plays its move: the tactics and the sentence of the best-move
  answer, with the move and its value;
* ``review_game``: a game graded move by move, and each side's strength, as ``POST /v1/review``
  answers it (an illegal move is a tool error naming its index in ``moves``);
* ``random_puzzle``, ``get_puzzle`` and ``list_puzzles``: the puzzles, as
  ``GET /v1/puzzles/random``, ``GET /v1/puzzles/{id}`` and ``GET /v1/puzzles`` answer them (no
  puzzle to give is a tool error, with the ``404``'s words).

Arguments are read by the API's own request models (:mod:`service.schemas`), and the answers are
the API's own (:class:`~service.answers.Answers`, :class:`~service.answers.Coach`): a tool's
structured content is the JSON of the REST answer (for ``explain_move``, its fields about the
move), and its text content that JSON as the API sends it. Invalid arguments are a tool error
(``isError``) naming each problem as a ``422`` of the API does (``board: a board string has
exactly 9 characters, one per cell; got 10``), never a protocol error; an unknown tool is a
protocol error, ``-32602`` (Invalid params), as the MCP specification says. The input schemas are
those of the API's request fields, and the output schemas those of its response models.

The tools are served two ways:

* over Streamable HTTP at :data:`PATH` in the service (:class:`.endpoint.Endpoint`, added by
  :func:`~service.web.app.create_app`), behind the same middleware as the API (request id, a
  body limit of its own, :data:`MAX_BODY_BYTES`, admission, metrics and access log), and a check
  of the JSON-RPC envelope before the SDK reads a body (:mod:`.envelope`). The endpoint is
  stateless and answers in JSON: every POST is complete in itself (no session id, no stream kept
  open), so any replica behind the proxy answers any request. The SDK is loaded at the first
  call, so neither start-up nor the workers that never get a call pay for it (see
  :mod:`.endpoint`);
* over standard input and output (:func:`.tools.run_stdio`), for an assistant that starts the tools as
  a subprocess: the ``tictactoe-service mcp`` command. Each line is checked by the envelope's
  checks before the SDK reads it, and answered as ``/mcp`` answers a body that is no message
  (:mod:`.stdio`).
"""

from .endpoint import MAX_BODY_BYTES, PATH, Endpoint

__all__ = ["MAX_BODY_BYTES", "PATH", "Endpoint"]
