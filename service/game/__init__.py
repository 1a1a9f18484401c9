"""The tic-tac-toe family, solved: one engine for every variant, the standard game the first of them.

Standard library only: nothing here knows about HTTP, JSON or any other package.

* :mod:`.geometry`: a grid's cells, lines and symmetries, derived from its size;
* :mod:`.board`: reading a board in any accepted form, and the rules' words for a board that breaks
  them (:class:`BoardError`);
* :mod:`.variants`: the registry (:data:`VARIANTS`, the standard game first), each variant a small
  value (:class:`Variant`) with its moves and ends, and a position resolved from a board;
* :mod:`.exact`: the exact value of every position (:class:`Values`), and the move order;
* :mod:`.tables`: those values shipped as one memory-mapped table per variant (``data/``), made by
  ``make tables``;
* :mod:`.choice`: :func:`choose` picks the move to play under :class:`Options`;
* :mod:`.levels`: the difficulty levels, named presets of depth and skill (:class:`Level`), and
  ratings;
* :mod:`.tactics`: what a move does (win, block, fork, …) and the sentence that says why;
* :mod:`.review`: a game judged move by move, and each side's strength;
* :mod:`.puzzles`: the positions where one move alone keeps their value.
"""

from .board import BoardError, Mark
from .choice import Options, choose
from .exact import OUTCOMES, Outcome, Values
from .levels import Level
from .variants import STANDARD, VARIANTS, Variant

__all__ = [
    "OUTCOMES",
    "STANDARD",
    "VARIANTS",
    "BoardError",
    "Level",
    "Mark",
    "Options",
    "Outcome",
    "Values",
    "Variant",
    "choose",
]
