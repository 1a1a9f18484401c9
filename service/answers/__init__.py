"""The API's answers, rendered to JSON bytes from the solved game: below the web, used by it and by MCP.

* :mod:`.moves`: the solved game, made once per process, and :class:`Answers`: best moves and
  analyses, each deterministic one rendered once and kept;
* :mod:`.coach`: :class:`Coach`, reviews of games and the puzzle book;
* :mod:`.entity`: :class:`Entity`, an answer that never changes with its strong entity tag.

Nothing here knows about HTTP: the routes (:mod:`service.web`) wrap these bytes in responses, the
MCP tools in tool results.
"""

from .coach import Coach, PuzzleFilter
from .entity import Entity, etag
from .moves import Answers, solved_game

__all__ = ["Answers", "Coach", "Entity", "PuzzleFilter", "etag", "solved_game"]
