"""The game of tic-tac-toe, solved: board rules, every position's value, and how a move is chosen.

Standard library only: nothing here knows about HTTP, JSON or any other package.

* :mod:`.geometry`: a grid's cells, lines and symmetries, derived from its size, and sets of cells
  as bit masks;
* :mod:`.board`: :class:`Board`, :class:`Position`, :class:`Status` and the legality rules;
* :mod:`.solver`: :func:`solve` values every legal position once (:class:`SolvedGame`);
* :mod:`.choice`: :func:`choose` picks the move to play under :class:`Options`;
* :mod:`.horizon`: the moves a player looking ``depth`` plies ahead finds best;
* :mod:`.levels`: the difficulty levels, named presets of depth and skill (:class:`Level`);
* :mod:`.tactics`: what a move does (win, block, fork, …) and the sentence that says why;
* :mod:`.family_tactics`: the same in every variant, in the words of its rules;
* :mod:`.variants`: the tic-tac-toe family (misère, wild, Notakto, 4 × 4), each rule variant a
  small value (:class:`~.variants.Variant`), with its moves and ends;
* :mod:`.exact`: the exact value of every position of any variant;
* :mod:`.tables`: those values shipped as one memory-mapped table per variant (``data/``), made by
  ``make tables``.
"""

from .board import MARKS, Board, BoardError, Mark, Position, Status, opponent
from .choice import Options, choose
from .geometry import CELLS, LINES, Line
from .levels import Level
from .solver import OUTCOMES, Analysis, MoveValue, Outcome, SolvedGame, solve

__all__ = [
    "CELLS",
    "LINES",
    "MARKS",
    "OUTCOMES",
    "Analysis",
    "Board",
    "BoardError",
    "Level",
    "Line",
    "Mark",
    "MoveValue",
    "Options",
    "Outcome",
    "Position",
    "SolvedGame",
    "Status",
    "choose",
    "opponent",
    "solve",
]
