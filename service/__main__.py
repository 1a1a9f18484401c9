"""``python -m service``: run the service under uvicorn.

Settings come from ``TICTACTOE_*`` environment variables; ``--host`` and
``--port`` override them.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

import uvicorn

from .settings import Settings


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m service", description=__doc__.splitlines()[0])
    parser.add_argument("--host", help="address to listen on (TICTACTOE_HOST, default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="TCP port (TICTACTOE_PORT, default 8000)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    if args.host is not None:
        os.environ["TICTACTOE_HOST"] = args.host
    if args.port is not None:
        os.environ["TICTACTOE_PORT"] = str(args.port)
    settings = Settings()
    uvicorn.run(
        "service.app:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        log_level=settings.log_level,
        server_header=False,
        date_header=True,
    )


if __name__ == "__main__":
    main()
