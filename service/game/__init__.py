"""The game of tic-tac-toe, solved: board rules, every position's value, and how a move is chosen.

Standard library only: nothing here knows about HTTP, JSON or any other package.

* :mod:`.geometry`: the cells and the lines, and sets of cells as bit masks;
* :mod:`.board`: :class:`Board`, :class:`Position`, :class:`Status` and the legality rules;
* :mod:`.solver`: :func:`solve` values every legal position once (:class:`SolvedGame`);
* :mod:`.choice`: :func:`choose` picks the move to play under :class:`Options`;
* :mod:`.horizon`: the moves a player looking ``depth`` plies ahead finds best;
* :mod:`.levels`: the difficulty levels, named presets of depth and skill (:class:`Level`);
* :mod:`.tactics`: what a move does (win, block, fork, …) and the sentence that says why.
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
