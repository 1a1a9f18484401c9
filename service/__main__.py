"""``python -m service``: run the service under uvicorn.

Settings come from ``TICTACTOE_*`` environment variables; ``--host`` and
``--port`` override them.
"""

from __future__ import annotations

import argparse
import os
import signal
from collections.abc import Sequence
from types import FrameType
from typing import NoReturn

import uvicorn

from . import logs
from .settings import Settings


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m service", description=__doc__.splitlines()[0])
    parser.add_argument("--host", help="address to listen on (TICTACTOE_HOST, default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="TCP port (TICTACTOE_PORT, default 8000)")
    return parser.parse_args(argv)


def _exit_cleanly(signum: int, frame: FrameType | None) -> NoReturn:
    """End the process with status 0 on SIGTERM or SIGINT.

    uvicorn shuts down gracefully on these signals and then raises them again
    with the handler that was in place before it started: this one.
    """
    raise SystemExit(0)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    for stop in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop, _exit_cleanly)
    if args.host is not None:
        os.environ["TICTACTOE_HOST"] = args.host
    if args.port is not None:
        os.environ["TICTACTOE_PORT"] = str(args.port)
    settings = Settings()
    uvicorn.run(
        "service.web.app:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        log_level=settings.log_level,
        log_config=logs.config(settings.log_level),
        access_log=False,
        server_header=False,
        date_header=True,
        http="service.web.protocol:GuardedHttpProtocol",
        timeout_keep_alive=settings.keep_alive_timeout,
        timeout_graceful_shutdown=settings.shutdown_timeout,
    )


if __name__ == "__main__":
    main()
