"""One server of the benchmark: uvicorn run exactly as ``python -m service`` of a tree runs it.

Run by path, not as a module: ``python bench/serve.py --tree DIR [--app MODULE:FACTORY]``, with
``DIR`` on ``PYTHONPATH`` and as the working directory. ``DIR`` is the project checked out
somewhere: this checkout, or a ``git worktree`` of an earlier commit (``--against``).

The tree's own ``service.__main__.main`` is called with ``uvicorn.run`` replaced, to read the
arguments it would pass: the app, the HTTP protocol, the log configuration, the headers, the
time-outs. uvicorn is then run with exactly those arguments, serving ``--app`` instead of the
product when one is given (an application factory, as the product's is). So the product runs as
it ships, and every baseline runs with the same uvicorn settings as the product.

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


def service_settings() -> dict[str, Any]:
    """The arguments the tree's ``python -m service`` passes to ``uvicorn.run``, the app as ``app``."""
    import service.__main__ as entry  # noqa: PLC0415 - the tree's, found through PYTHONPATH

    captured: dict[str, Any] = {}

    def capture(app: object, **kwargs: Any) -> None:  # noqa: ANN401 - uvicorn.run's keywords
        captured.update(kwargs, app=app)

    sys.argv = ["python -m service"]
    with mock.patch.object(uvicorn, "run", capture):
        entry.main()
    if "app" not in captured:
        raise SystemExit("bench/serve.py: python -m service of the tree did not call uvicorn.run")
    return captured


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench/serve.py", description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, required=True, help="the checkout whose service is run")
    parser.add_argument("--app", help="an application factory to serve instead of the product")
    parser.add_argument("--describe", type=Path, help="write what is served to this file, as JSON")
    parser.add_argument(
        "--http", help="uvicorn's HTTP protocol instead of the product's (auto: uvicorn's own)"
    )
    args = parser.parse_args()
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [entry for entry in sys.path if entry != here]  # bench's modules are not top-level ones

    settings = service_settings()
    import service  # noqa: PLC0415 - imported by service_settings already

    tree = args.tree.resolve()
    if not Path(service.__file__ or "").resolve().is_relative_to(tree):
        raise SystemExit(f"bench/serve.py: service was imported from {service.__file__}, not from {tree}")
    if settings.get("workers", 1) != 1:
        raise SystemExit("bench/serve.py: every server of the benchmark has one worker")
    app = settings.pop("app")
    if args.app is not None:
        app = args.app
        settings["factory"] = True
    if args.http is not None:
        settings["http"] = args.http
    if args.describe is not None:
        args.describe.write_text(json.dumps(described(app, settings)))
    uvicorn.run(app, **settings)


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
