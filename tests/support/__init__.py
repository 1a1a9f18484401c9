"""What the tests (and the benchmark) share: the independent oracle, the positions of the game,
a real server on a free port, a load generator, the tools a test needs, and summary figures."""

from pathlib import Path

#: The project's root directory.
ROOT = Path(__file__).resolve().parents[2]
