"""One server of the benchmark: a baseline on stock uvicorn, or the product as its tree runs it.

Run by path, not as a module, with ``DIR`` on ``PYTHONPATH`` and as the working directory
(``DIR`` is the project checked out somewhere: this checkout, or a ``git worktree`` of an
earlier commit, ``--against``):

* ``python bench/serve.py --stock MODULE:FACTORY --port PORT``: a baseline, run as a user runs
  an app on uvicorn, ``uvicorn.run(app, factory=True, host="127.0.0.1", port=PORT,
  access_log=False)`` and nothing else: uvicorn's own log configuration, HTTP protocol and
  defaults (uvloop and httptools, which uvicorn picks), nothing of the product's;
* ``python bench/serve.py --tree DIR``: the product, exactly as ``python -m service`` of that
  tree runs it (its settings come from the ``TICTACTOE_*`` environment);
* ``python bench/serve.py --tree DIR --app MODULE:FACTORY``: the same, serving ``--app`` instead
  of the product, with the arguments the tree's ``python -m service`` passes to uvicorn (its log
  configuration, headers and time-outs). Only the diagnostic target "constant route, first in the
  product app" runs so.

The tree's own ``service.__main__.main`` is called with ``uvicorn.run`` wrapped, so that what
``main`` sets up around it (the metrics directory of its workers, for one) lives as long as the
server, and so that the arguments it passes can be written down.

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


def serve_stock(app: str, port: int, describe: Path | None) -> None:
    """``app`` on stock uvicorn, as a user runs it: nothing but the address and no access log."""
    settings: dict[str, Any] = {"factory": True, "host": "127.0.0.1", "port": port, "access_log": False}
    if describe is not None:
        describe.write_text(json.dumps(described(app, settings)))
    uvicorn.run(app, **settings)


def serve_as_the_tree_does(app: str | None, describe: Path | None) -> None:
    """Run the tree's ``python -m service``; with ``app``, ``uvicorn.run`` serves that instead."""
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
    parser.add_argument("--stock", metavar="MODULE:FACTORY", help="a baseline to serve on stock uvicorn")
    parser.add_argument("--port", type=int, help="the port of a --stock server")
    parser.add_argument("--tree", type=Path, help="the checkout whose python -m service is run")
    parser.add_argument("--app", help="an application factory to serve instead of the product")
    parser.add_argument("--describe", type=Path, help="write what is served to this file, as JSON")
    args = parser.parse_args()
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [entry for entry in sys.path if entry != here]  # bench's modules are not top-level ones
    if args.stock is not None:
        if args.port is None or args.tree is not None or args.app is not None:
            parser.error("--stock takes --port, and neither --tree nor --app")
        serve_stock(args.stock, args.port, args.describe)
        return
    if args.tree is None:
        parser.error("--tree or --stock is required")
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
