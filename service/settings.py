"""Service settings, read from ``TICTACTOE_*`` environment variables."""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import Field, field_validator
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
    max_body_bytes: int = Field(
        default=1024 * 1024, ge=1, description="Largest request body accepted, in bytes (413 above)."
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
