"""``python -m service``: run the service under uvicorn.

Settings come from ``TICTACTOE_*`` environment variables; ``--host`` and
``--port`` override them. uvicorn runs as it comes, with its own HTTP protocol
and documented settings: the defence against slow and abusive clients is the
job of the reverse proxy in front (``deploy/proxy``), not of the application
server, which is not an internet edge.

This process also prepares what the workers share: the directory of their
metric files (prometheus_client's multiprocess mode, see
:mod:`service.web.metrics`), and, with ``TICTACTOE_METRICS_PORT``, the
``/metrics`` endpoint that adds up every worker's counts.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import NoReturn

from .extra import server_packages

with server_packages("python -m service"):
    import uvicorn
    from pydantic import ValidationError

    from . import logs
    from .settings import MULTIPROCESS_DIR, Settings

#: The settings that options override: each option's variable.
OPTIONS = {"--host": "TICTACTOE_HOST", "--port": "TICTACTOE_PORT"}


def parse_args(argv: Sequence[str] | None = None, prog: str = "python -m service") -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Run the tic-tac-toe best-move service under uvicorn. Settings come from TICTACTOE_* "
        "environment variables; these options override two of them.",
    )
    parser.add_argument("--host", help="address to listen on (TICTACTOE_HOST, default 127.0.0.1)")
    parser.add_argument("--port", help="TCP port, 0 for any free one (TICTACTOE_PORT, default 8000)")
    return parser.parse_args(argv)


def _exit_cleanly(signum: int, frame: FrameType | None) -> NoReturn:
    """End the process with status 0 on SIGTERM or SIGINT.

    uvicorn shuts down gracefully on these signals and then raises them again
    with the handler that was in place before it started: this one.
    """
    raise SystemExit(0)


@contextmanager
def metrics_directory(settings: Settings) -> Iterator[str]:
    """An empty directory for the workers' metric files, named in the environment they inherit.

    ``TICTACTOE_METRICS_DIR`` is emptied of metric files first (prometheus_client's docs: wipe it
    between runs); otherwise a new directory is made in shared memory when there is some (it is
    writable under a read-only root filesystem) and removed at exit.
    """
    if settings.metrics_dir is not None:
        path = Path(settings.metrics_dir)
        path.mkdir(parents=True, exist_ok=True)
        for stale in path.glob("*.db"):
            stale.unlink()
        made = None
    else:
        shm = Path("/dev/shm")
        base = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
        made = path = Path(tempfile.mkdtemp(prefix="tictactoe-metrics-", dir=base))
    os.environ[MULTIPROCESS_DIR] = str(path)
    try:
        yield str(path)
    finally:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)


def serve_metrics(settings: Settings) -> None:
    """``GET /metrics`` on ``TICTACTOE_METRICS_PORT``, from this process, with every worker's totals."""
    # Imported here, once the environment names the directory: prometheus_client reads it on import.
    from prometheus_client import start_http_server  # noqa: PLC0415

    from .web.metrics import export_registry  # noqa: PLC0415

    registry = export_registry()
    assert settings.metrics_port is not None and registry is not None
    start_http_server(settings.metrics_port, addr=settings.host, registry=registry)


def load_settings(given: Sequence[str] = ()) -> Settings:
    """The settings from the environment; an exit naming each wrong setting, not a traceback.

    A wrong setting is named as it was given: by its option when it is one of ``given`` (the
    options of :data:`OPTIONS` on the command line), by its variable otherwise.
    """
    prefix = Settings.model_config.get("env_prefix", "")
    named_by = {variable: option for option, variable in OPTIONS.items() if option in given}
    try:
        return Settings()
    except ValidationError as error:
        wrong = []
        for item in error.errors(include_url=False):
            variable = f"{prefix}{'.'.join(str(part) for part in item['loc']).upper()}"
            wrong.append(f"{named_by.get(variable, variable)}: {item['msg']}")
        raise SystemExit(f"error: invalid settings: {'; '.join(wrong)}") from None


def main(argv: Sequence[str] | None = None, prog: str = "python -m service") -> None:
    args = parse_args(argv, prog)
    for stop in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop, _exit_cleanly)
    given = {"--host": args.host, "--port": args.port}
    for option, value in given.items():
        if value is not None:
            os.environ[OPTIONS[option]] = value
    settings = load_settings([option for option, value in given.items() if value is not None])
    if "prometheus_client" in sys.modules:
        raise RuntimeError("prometheus_client was imported before its multiprocess directory was set")
    with metrics_directory(settings):
        if settings.metrics_port is not None:
            serve_metrics(settings)
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
            proxy_headers=bool(settings.forwarded_allow_ips),
            forwarded_allow_ips=settings.forwarded_allow_ips,
            timeout_keep_alive=settings.keep_alive_timeout,
            timeout_graceful_shutdown=settings.shutdown_timeout,
        )


if __name__ == "__main__":
    main()
