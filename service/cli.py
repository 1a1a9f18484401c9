"""``tictactoe-service``: the service's own commands.

``serve`` runs the service (as ``python -m service``), ``mcp`` serves the engine's tools to an AI
assistant over standard input and output (docs/mcp.md), and ``openapi`` writes the OpenAPI
document. Each needs the service's packages, the ``server`` extra: without them it says so in one
line and exits with status 1. This module itself imports only the standard library, so that it can.

The terminal game is the client's ``tictactoe`` command (``tictactoe-client``); it runs the service
in its own process through :func:`in_process_app`, which this distribution names as its entry point.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__
from .extra import server_packages

if TYPE_CHECKING:
    from starlette.types import ASGIApp


def in_process_app() -> ASGIApp:
    """The app, quiet (no access log), for the ``tictactoe`` command to run in its own process."""
    from .settings import Settings  # noqa: PLC0415 - the server's packages, only when asked for
    from .web.app import create_app  # noqa: PLC0415

    return create_app(Settings(log_level="warning"))


def serve(args: argparse.Namespace) -> int:
    """Run the service under uvicorn, as ``python -m service`` does, with its options."""
    with server_packages("tictactoe-service serve"):
        from .__main__ import main as run_service  # noqa: PLC0415

    run_service(
        [
            *(["--host", args.host] if args.host else []),
            *(["--port", str(args.port)] if args.port is not None else []),
        ],
        prog="tictactoe-service serve",
    )
    return 0


def serve_mcp(args: argparse.Namespace) -> int:
    """Serve the engine's tools to an AI assistant over standard input and output (docs/mcp.md)."""
    with server_packages("tictactoe-service mcp"):
        from .web.mcp.tools import run_stdio  # noqa: PLC0415

    run_stdio()
    return 0


def write_openapi(args: argparse.Namespace) -> int:
    """Write the OpenAPI document the app serves to ``args.output``."""
    with server_packages("tictactoe-service openapi"):
        from .settings import Settings  # noqa: PLC0415
        from .web.app import create_app  # noqa: PLC0415
        from .web.openapi import render  # noqa: PLC0415

    target = Path(args.output)
    document = render(create_app(Settings(log_level="warning")))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(document, encoding="utf-8")
    except OSError as error:
        sys.stderr.write(f"error: cannot write {target}: {error.strerror or error}\n")
        return 1
    print(f"wrote {target}")
    return 0


def serve_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--host", help="address to listen on (default: TICTACTOE_HOST, or 127.0.0.1)")
    command.add_argument(
        "--port", help="TCP port, 0 for any free one (default: TICTACTOE_PORT, or 8000)", metavar="PORT"
    )


def no_options(command: argparse.ArgumentParser) -> None:
    """``mcp`` has no options of its own: an assistant starts it and speaks on its pipes."""


def openapi_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "output", nargs="?", default="openapi/openapi.json", help="where to write it (default: %(default)s)"
    )


@dataclass(frozen=True)
class Command:
    """A subcommand: its line in the help, its own options, and what it runs (its exit status)."""

    help: str
    options: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


#: Every subcommand, in the order of the help. A new one is a new entry.
COMMANDS: dict[str, Command] = {
    "serve": Command("run the service (as python -m service)", serve_options, serve),
    "mcp": Command(
        "serve the engine's tools to an AI assistant over stdin and stdout (MCP)", no_options, serve_mcp
    ),
    "openapi": Command("write the OpenAPI document of the service", openapi_options, write_openapi),
}


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(
        prog="tictactoe-service",
        description="The tic-tac-toe best-move service: run it, serve its tools to an AI assistant, "
        "or write its OpenAPI document. The terminal game is the tictactoe command (tictactoe-client).",
    )
    main.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = main.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, command in COMMANDS.items():
        command.options(commands.add_parser(name, help=command.help, description=command.help))
    return main


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return COMMANDS[args.command].run(args)
