"""The version of the distribution (``tictactoe-client``), read by setuptools at build time."""

__version__ = "1.0.0"
