"""The OpenAPI document and interactive documentation that works with no internet access.

``/openapi.json`` serves the document; ``/docs`` (Swagger UI) and ``/redoc``
(ReDoc) load their scripts and styles from ``/static/docs``, served from the
assets that the ``fastapi-offline`` package ships. They are added after the
API's routes, which are matched first.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI, Response
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse, JSONResponse

from ..answers import Entity, cacheable
from ..assets import Assets
from ..deps import IfNoneMatch
from ..security import page

ASSETS_URL = "/static/docs"
ASSETS_DIR = Path(str(files("fastapi_offline") / "static"))

#: Swagger UI and ReDoc set styles inline, and ReDoc runs its search in a worker made from a blob.
_DOCS_POLICY = {"style_src": "'self' 'unsafe-inline'", "worker_src": "'self' blob:"}


#: ReDoc shows the Redocly logo from a CDN in its menu; an empty data URI keeps the page offline
#: (the logo hides itself when its image does not load).
_REDOC_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"


def offline_redoc_bundle(bundle: bytes) -> bytes:
    """ReDoc's bundle with its one reference to another host replaced."""
    return bundle.replace(_REDOC_LOGO, b"data:,")


def _text(response: HTMLResponse) -> str:
    return bytes(response.body).decode()


def install_docs(app: FastAPI, openapi_url: str = "/openapi.json") -> None:
    """Serve ``/openapi.json``, ``/docs``, ``/redoc`` and their assets on ``app``."""

    @cache
    def document() -> Entity:
        """The document as the app builds it, rendered once, with its entity tag."""
        return Entity.of(bytes(JSONResponse(app.openapi()).body))

    @app.get(openapi_url, include_in_schema=False)
    async def openapi_document(if_none_match: IfNoneMatch = None) -> Response:
        # Revalidated on every use: a new version of the service brings a new document.
        return cacheable(document(), if_none_match, cache_control="no-cache")

    # The package's files change only with its version: kept a day.
    assets = Assets(ASSETS_DIR, max_age=86400, rewrite={"redoc.standalone.js": offline_redoc_bundle})
    app.mount(ASSETS_URL, assets, name="docs-assets")
    favicon = f"{ASSETS_URL}/favicon.png"
    redirect = "/docs/oauth2-redirect"

    swagger = _text(
        get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{app.title} - Swagger UI",
            oauth2_redirect_url=redirect,
            swagger_js_url=f"{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=favicon,
            swagger_ui_parameters={
                "validatorUrl": None,
                "tryItOutEnabled": True,
                "displayRequestDuration": True,
            },
        )
    )
    redoc = _text(
        get_redoc_html(
            openapi_url=openapi_url,
            title=f"{app.title} - ReDoc",
            redoc_js_url=f"{ASSETS_URL}/redoc.standalone.js",
            redoc_favicon_url=favicon,
            with_google_fonts=False,
        )
    )
    oauth2_redirect = _text(get_swagger_ui_oauth2_redirect_html())

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return page(swagger, **_DOCS_POLICY)

    @app.get("/redoc", include_in_schema=False)
    async def redoc_ui() -> HTMLResponse:
        return page(redoc, **_DOCS_POLICY)

    @app.get(redirect, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return page(oauth2_redirect)
