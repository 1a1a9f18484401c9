"""System tools and optional modules that tests use for real: skipped outside CI, required under it."""

from __future__ import annotations

import importlib
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest


def under_ci() -> bool:
    return os.environ.get("CI") == "true"


def require_tool(*names: str) -> str:
    """The first of ``names`` found on PATH or beside the test interpreter.

    Skips when none is installed, but fails under CI, which installs them all.
    """
    for name in names:
        path = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
        if path is not None:
            return path
    missing = " or ".join(names)
    if under_ci():
        pytest.fail(f"{missing} is required under CI but is not installed")
    pytest.skip(f"{missing} is not installed")


def require_module(name: str) -> Any:
    """The module ``name`` (a dev dependency): skips without it, but fails under CI."""
    if under_ci():
        try:
            return importlib.import_module(name)
        except ImportError as error:
            pytest.fail(f"{name} is required under CI but cannot be imported: {error}")
    return pytest.importorskip(name)
