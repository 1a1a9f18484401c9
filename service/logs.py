"""Logging of the service."""

from __future__ import annotations

import logging
import sys

logger = logging.getLogger("service")


def configure(level: str) -> None:
    """Send the service's log records to standard error at ``level``."""
    if not any(getattr(handler, "_service", False) for handler in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(levelname)s:     %(message)s"))
        handler._service = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
        logger.propagate = False
    logger.setLevel(level.upper())
