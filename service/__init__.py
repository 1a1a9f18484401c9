"""Tic-tac-toe best-move service: the solved game behind a REST/JSON API."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tictactoe-service")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0.0.0"
