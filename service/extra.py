"""The ``server`` extra: the service's packages, which a plain install of the distribution lacks.

A plain install is the game (:mod:`service.game`, standard library only) and the commands, which
import the service's packages only inside :func:`server_packages`: without them, a command ends in
one line that names the extra to install, and no traceback.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

#: How a plain install gets the service's packages.
SERVER_EXTRA = "pip install 'tictactoe-service[server]'"


@contextmanager
def server_packages(command: str) -> Iterator[None]:
    """Inside the block, a package of the ``server`` extra that is missing ends ``command`` in one line."""
    try:
        yield
    except ModuleNotFoundError as error:
        raise SystemExit(
            f"error: {command} needs the service's packages ({error.name} is not installed): {SERVER_EXTRA}"
        ) from None
