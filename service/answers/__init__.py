"""The API's answers, rendered to JSON bytes from the engine: below the web, used by it and by MCP.

* :mod:`.moves`: :class:`Answers`, best moves and analyses in every variant, each deterministic one
  rendered once and kept (:mod:`.variants`);
* :mod:`.coach`: :class:`Coach`, reviews of games and the puzzle book;
* :mod:`.entity`: :class:`Entity`, an answer that never changes with its strong entity tag.

Nothing here knows about HTTP: the routes (:mod:`service.web`) wrap these bytes in responses, the
MCP tools in tool results.
"""

from .books import PuzzleFilter
from .coach import Coach
from .entity import Entity, etag
from .moves import Answers

__all__ = ["Answers", "Coach", "Entity", "PuzzleFilter", "etag"]
