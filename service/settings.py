"""Service settings, read from ``TICTACTOE_*`` environment variables."""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from .schemas import MAX_BODY_BYTES

LogLevel = Literal["critical", "error", "warning", "info", "debug"]
#: Where the workers' metric files are, for prometheus_client, which reads it once, on import.
MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"


class Settings(BaseSettings):
    """Every setting has a default; ``TICTACTOE_<NAME>`` overrides it."""

    model_config = SettingsConfigDict(env_prefix="TICTACTOE_", extra="ignore")

    host: str = Field(default="127.0.0.1", description="Address to listen on.")
    port: int = Field(default=8000, ge=0, le=65535, description="TCP port to listen on.")
    workers: int = Field(default=1, ge=1, le=64, description="Number of uvicorn worker processes.")
    log_level: LogLevel = Field(default="info", description="Log level of the service and uvicorn.")
    cors_origins: Annotated[list[str], NoDecode] = Field(
        default=["*"],
        description="Origins allowed to call the API from a browser: '*' for any, "
        "or a comma-separated list (a JSON array also works).",
    )
    metrics_port: int | None = Field(
        default=None,
        ge=0,
        le=65535,
        description="Serve GET /metrics on this port of the same host instead of the public one; "
        "the supervising process serves it, with the totals of every worker.",
    )
    metrics_dir: str | None = Field(
        default=None,
        description="An empty directory for the workers' metric files (prometheus_client's "
        "multiprocess mode), emptied at start; by default a new one under /dev/shm, else the "
        "temporary directory, removed at exit.",
    )
    max_body_bytes: int = Field(
        default=MAX_BODY_BYTES,
        ge=1,
        description="Largest request body accepted, in bytes (413 above). The default, 1 MiB, fits the "
        "longest valid request, a batch of 1,000 items in their longest form, pretty-printed.",
    )
    max_costly_requests: int = Field(
        default=1,
        ge=1,
        description="Most costly requests (a body over 8 KiB, or chunked) in progress at once in a "
        "worker; one more gets 503 with Retry-After, so that cheap requests never wait behind them. "
        "A worker has one CPU at most: two at once would not end sooner than one after the other.",
    )
    forwarded_allow_ips: Annotated[list[str], NoDecode] = Field(
        default=[],
        description="Addresses (or networks, or '*') of the proxies whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed, comma-separated; none by default, so that a client cannot "
        "choose the address that is logged. Give the proxy's address when the service runs behind one.",
    )
    keep_alive_timeout: int = Field(
        default=5,
        ge=1,
        description="Seconds an idle keep-alive connection is kept open. Keep it above the proxy's own "
        "idle timeout for its upstream connections (4 s in deploy/proxy), so that the proxy closes "
        "them first and never sends a request on a connection that is being closed.",
    )
    shutdown_timeout: int = Field(
        default=10,
        ge=1,
        description="On SIGTERM, seconds given to requests in flight before the process exits regardless.",
    )

    opentelemetry: bool = Field(
        default=False,
        description="FastAPI's own OpenTelemetry spans, metrics and log records, for a process whose "
        "OpenTelemetry SDK is configured (opentelemetry-instrument, say). Off by default: the service's "
        "metrics are Prometheus's and its logs its own, and FastAPI would otherwise look up the global "
        "providers on every request.",
    )

    @field_validator("log_level", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    @field_validator("cors_origins", "forwarded_allow_ips", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                return json.loads(text)
            return [origin.strip() for origin in text.split(",") if origin.strip()]
        return value
