"""One server of the benchmark: uvicorn run exactly as ``python -m service`` of a tree runs it.

Run by path, not as a module: ``python bench/serve.py --tree DIR [--app MODULE:FACTORY]``, with
``DIR`` on ``PYTHONPATH`` and as the working directory. ``DIR`` is the project checked out
somewhere: this checkout, or a ``git worktree`` of an earlier commit (``--against``).

The tree's own ``service.__main__.main`` is called with ``uvicorn.run`` replaced by a call that
serves ``--app`` instead of the product when one is given (an application factory, as the
product's is), with exactly the arguments ``main`` passes: the log configuration, the headers,
the time-outs. So the product runs as it ships, and every baseline runs with the same uvicorn
settings as the product (uvicorn's stock HTTP protocol among them).

Only the standard library, uvicorn and the tree's ``service`` are imported here, since this file
also runs against older trees; it checks that ``service`` was imported from the tree, and
writes what it serves (the app and uvicorn's arguments) to the file named by ``--describe``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import uvicorn


def serve_as_the_tree_does(app: str | None, describe: Path | None) -> None:
    """Run the tree's ``python -m service``, with ``uvicorn.run`` serving ``app`` instead of the product.

    ``uvicorn.run`` is called from inside the tree's ``main``, so that what ``main`` sets up around
    it (the metrics directory of its workers, for one) lives as long as the server.
    """
    import service.__main__ as entry  # noqa: PLC0415 - the tree's, found through PYTHONPATH

    serve = uvicorn.run
    called = False

    def replaced(product: str, **settings: Any) -> None:  # noqa: ANN401 - uvicorn.run's keywords
        nonlocal called
        called = True
        if settings.get("workers", 1) != 1:
            raise SystemExit("bench/serve.py: every server of the benchmark has one worker")
        served = product if app is None else app
        if app is not None:
            settings["factory"] = True
        if describe is not None:
            describe.write_text(json.dumps(described(served, settings)))
        serve(served, **settings)

    sys.argv = ["python -m service"]
    with mock.patch.object(uvicorn, "run", replaced):
        entry.main()
    if not called:
        raise SystemExit("bench/serve.py: python -m service of the tree did not call uvicorn.run")


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench/serve.py", description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, required=True, help="the checkout whose service is run")
    parser.add_argument("--app", help="an application factory to serve instead of the product")
    parser.add_argument("--describe", type=Path, help="write what is served to this file, as JSON")
    args = parser.parse_args()
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [entry for entry in sys.path if entry != here]  # bench's modules are not top-level ones
    import service  # noqa: PLC0415 - the tree's, found through PYTHONPATH

    tree = args.tree.resolve()
    if not Path(service.__file__ or "").resolve().is_relative_to(tree):
        raise SystemExit(f"bench/serve.py: service was imported from {service.__file__}, not from {tree}")
    serve_as_the_tree_does(args.app, args.describe)


def described(app: str, settings: dict[str, Any]) -> dict[str, Any]:
    """What the server runs, for the results: the app and uvicorn's arguments (not the log configuration)."""
    shown: dict[str, Any] = {"app": app}
    for name, value in settings.items():
        if isinstance(value, str | int | float | bool) or value is None:
            shown[name] = value
        else:
            shown[name] = f"<{type(value).__name__}>" if name == "log_config" else repr(value)
    return shown


if __name__ == "__main__":
    main()
