"""Commands the tests run in a subprocess, and the project's distributions built by PyPA's ``build``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import ROOT
from .tools import require_module


@dataclass(frozen=True)
class Ran:
    """A command that has run to its end: its exit status and what it wrote."""

    command: list[str]
    returncode: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        """Standard output, then standard error."""
        return self.stdout + self.stderr


def run(
    command: Sequence[str | os.PathLike[str]],
    *,
    cwd: str | os.PathLike[str] = ROOT,
    env: Mapping[str, str] | None = None,
    input: str | None = None,
    timeout: float = 600,
    check: bool = True,
    fails: bool = False,
) -> Ran:
    """``command`` in ``cwd``, its output captured as text, killed after ``timeout`` seconds.

    With ``check`` (the default) it must succeed, or fail when ``fails`` is true; otherwise the
    test fails with the command, its exit status and all it wrote. ``env`` is the whole
    environment (as for :func:`subprocess.run`), this process's when ``None``; ``input`` is
    written to the command's standard input, which is empty otherwise.
    """
    shown = [os.fspath(part) for part in command]
    result = subprocess.run(
        shown,
        cwd=cwd,
        env=None if env is None else dict(env),
        input=input,
        stdin=subprocess.DEVNULL if input is None else None,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    ran = Ran(shown, result.returncode, result.stdout, result.stderr)
    if check and (ran.returncode != 0) != fails:
        expected = "fail" if fails else "succeed"
        raise AssertionError(
            f"{' '.join(shown)} (in {cwd}) exited with {ran.returncode}, expected to {expected}:\n"
            f"--- standard output\n{ran.stdout}\n--- standard error\n{ran.stderr}"
        )
    return ran


def build(project: Path, out: Path) -> dict[str, Path]:
    """The sdist and the wheel of ``project`` (the wheel built from the sdist), in ``out``.

    Skips without ``build`` (a dev dependency), but fails under CI.
    """
    require_module("build")
    run([sys.executable, "-m", "build", "--outdir", out, project])
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return {"sdist": sdist, "wheel": wheel}


def checkout_copy(destination: Path) -> Path:
    """The repository's files as a fresh clone has them, with this tree's changes, in ``destination``.

    pip builds a local directory in place (setuptools leaves ``build/`` behind), so an install
    "from a checkout" is made from this copy, never from the working tree itself.
    """
    listed = run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT
    ).stdout.split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination
