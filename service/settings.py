"""Service settings, read from ``TICTACTOE_*`` environment variables."""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

LogLevel = Literal["critical", "error", "warning", "info", "debug"]


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
        description="Serve GET /metrics on this port of the same host instead of the public one "
        "(one worker only: each worker counts its own requests).",
    )
    max_body_bytes: int = Field(
        default=1024 * 1024, ge=1, description="Largest request body accepted, in bytes (413 above)."
    )
    # --- what one connection may cost (see service.web.protocol) ---
    header_timeout: float = Field(
        default=10.0,
        gt=0,
        description="Seconds a client has to send a request's line and headers, counted from its first "
        "byte, or from the connection when it is new (408 and close after).",
    )
    body_timeout: float = Field(
        default=30.0, gt=0, description="Seconds a client has to send a request's body (408 and close after)."
    )
    write_timeout: float = Field(
        default=30.0,
        gt=0,
        description="Seconds an answer may wait for a client that does not read it (the connection is "
        "dropped after).",
    )
    keep_alive_timeout: int = Field(
        default=5, ge=1, description="Seconds an idle keep-alive connection is kept open."
    )
    max_header_bytes: int = Field(
        default=16 * 1024,
        ge=1024,
        description="Largest request line and headers, in bytes (431, or 414 for the request line alone).",
    )
    max_headers: int = Field(default=100, ge=8, description="Most header fields in a request (431 above).")
    max_connections: int = Field(
        default=1000,
        ge=1,
        description="Most open connections per worker; requests on connections beyond it get 503 with "
        "Retry-After. Kept below the process's descriptor limit.",
    )
    max_body_buffer: int = Field(
        default=64 * 1024 * 1024,
        ge=1024,
        description="Most bytes of request bodies in flight per worker, counted by their declared length "
        "(a chunked body counts as max_body_bytes); a request that would pass it gets 503 with Retry-After.",
    )
    linger_seconds: float = Field(
        default=2.0,
        ge=0,
        description="After an early answer (413, 408, 431), seconds spent reading and discarding what the "
        "client still sends, so that it sees the answer instead of a reset.",
    )
    linger_bytes: int = Field(
        default=16 * 1024 * 1024,
        ge=0,
        description="Most bytes read and discarded after an early answer (they are not kept: the time "
        "limit is what bounds the cost).",
    )
    shutdown_timeout: int = Field(
        default=10,
        ge=1,
        description="On SIGTERM, seconds given to requests in flight before the process exits regardless.",
    )

    @field_validator("log_level", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                return json.loads(text)
            return [origin.strip() for origin in text.split(",") if origin.strip()]
        return value

    @model_validator(mode="after")
    def _one_worker_for_a_metrics_port(self) -> Settings:
        if self.metrics_port is not None and self.workers > 1:
            raise ValueError("metrics_port needs workers = 1: the workers could not share the port")
        return self
