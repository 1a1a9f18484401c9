"""The game of tic-tac-toe, solved: board rules, every position's value, and how a move is chosen.

Standard library only: nothing here knows about HTTP, JSON or any other package.

* :mod:`.board`: :class:`Board`, :class:`Position`, :class:`Status` and the legality rules;
* :mod:`.solver`: :func:`solve` values every legal position once (:class:`SolvedGame`);
* :mod:`.choice`: :func:`choose` picks the move to play under :class:`Options`.
"""

from .board import CELLS, LINES, MARKS, Board, BoardError, Line, Mark, Position, Status, opponent
from .choice import Options, choose
from .solver import OUTCOMES, Analysis, MoveValue, Outcome, SolvedGame, solve

__all__ = [
    "CELLS",
    "LINES",
    "MARKS",
    "OUTCOMES",
    "Analysis",
    "Board",
    "BoardError",
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
