"""The OpenAPI document and interactive documentation that works with no internet access.

``/openapi.json`` serves the document; ``/docs`` (Swagger UI) and ``/redoc``
(ReDoc) load their scripts and styles from ``/static/docs``, served from the
assets that the ``fastapi-offline`` package ships. They are added after the
API's routes, which are matched first.

The two pages are our own templates rather than fastapi's: those have no ``lang`` on ``<html>`` and
no landmark around the interface, both of which accessibility checkers rightly report. What the
interfaces render inside the page is theirs; docs/api.md lists what axe-core still finds there.
"""

from __future__ import annotations

import html
import json
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Response
from fastapi.openapi.docs import get_swagger_ui_oauth2_redirect_html, swagger_ui_default_parameters
from fastapi.responses import HTMLResponse, JSONResponse

from ...answers import Entity
from ..assets import Assets
from ..caching import ONE_DAY, cacheable
from ..deps import IfNoneMatch
from ..language import ENGLISH
from ..security import page

ASSETS_URL = "/static/docs"
ASSETS_DIR = Path(str(files("fastapi_offline") / "static"))
FAVICON = f"{ASSETS_URL}/favicon.png"

#: Swagger UI and ReDoc set styles inline, and ReDoc runs its search in a worker made from a blob.
_DOCS_POLICY = {"style_src": "'self' 'unsafe-inline'", "worker_src": "'self' blob:"}


#: ReDoc shows the Redocly logo from a CDN in its menu; an empty data URI keeps the page offline
#: (the logo hides itself when its image does not load).
_REDOC_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"


def offline_redoc_bundle(bundle: bytes) -> bytes:
    """ReDoc's bundle with its one reference to another host replaced."""
    return bundle.replace(_REDOC_LOGO, b"data:,")


#: Swagger UI renders into the page's one ``<main>``. The start-up script is the page's only inline
#: script, which its Content Security Policy allows by its hash (see ``security.page``).
_SWAGGER_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="{css}">
<link rel="icon" href="{favicon}">
</head>
<body>
<main id="swagger-ui" aria-label="{title}"></main>
<script src="{js}"></script>
<script>SwaggerUIBundle(Object.assign({config}, {{
  oauth2RedirectUrl: window.location.origin + {redirect},
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
}}));</script>
</body>
</html>
"""

#: ReDoc renders where its ``<redoc>`` element is: inside the page's one ``<main>``.
_REDOC_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="{favicon}">
<style>body {{ margin: 0; padding: 0; }}</style>
</head>
<body>
<noscript>ReDoc needs JavaScript to show this documentation; the OpenAPI document itself is at
<a href="{openapi_url}">{openapi_url}</a>.</noscript>
<main aria-label="{title}"><redoc spec-url="{openapi_url}"></redoc></main>
<script src="{js}"></script>
</body>
</html>
"""


def _script_json(value: object) -> str:
    """``value`` as JSON that cannot end the ``<script>`` element it is written in."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def swagger_page(
    *, title: str, openapi_url: str, oauth2_redirect_url: str, parameters: dict[str, Any]
) -> str:
    """The ``/docs`` page: Swagger UI with fastapi's default parameters updated by ``parameters``."""
    config = {**swagger_ui_default_parameters, "url": openapi_url, **parameters}
    return _SWAGGER_PAGE.format(
        title=html.escape(title),
        css=f"{ASSETS_URL}/swagger-ui.css",
        js=f"{ASSETS_URL}/swagger-ui-bundle.js",
        favicon=FAVICON,
        config=_script_json(config),
        redirect=_script_json(oauth2_redirect_url),
    )


def redoc_page(*, title: str, openapi_url: str) -> str:
    """The ``/redoc`` page: ReDoc, with no web fonts."""
    return _REDOC_PAGE.format(
        title=html.escape(title),
        favicon=FAVICON,
        openapi_url=html.escape(openapi_url),
        js=f"{ASSETS_URL}/redoc.standalone.js",
    )


def install_docs(app: FastAPI, openapi_url: str = "/openapi.json") -> None:
    """Serve ``/openapi.json``, ``/docs``, ``/redoc`` and their assets on ``app``."""

    @cache
    def document() -> Entity:
        """The document as the app builds it, rendered once, with its entity tag."""
        return Entity.of(bytes(JSONResponse(app.openapi()).body))

    @app.get(openapi_url, include_in_schema=False)
    async def openapi_document(if_none_match: IfNoneMatch = None) -> Response:
        # Revalidated on every use: a new version of the service brings a new document.
        return cacheable(document(), if_none_match, ENGLISH, cache_control="no-cache")

    # The package's files change only with its version: kept a day.
    assets = Assets(ASSETS_DIR, max_age=ONE_DAY, rewrite={"redoc.standalone.js": offline_redoc_bundle})
    app.mount(ASSETS_URL, assets, name="docs-assets")
    redirect = "/docs/oauth2-redirect"

    swagger = swagger_page(
        title=f"{app.title}: reference and console (Swagger UI)",
        openapi_url=openapi_url,
        oauth2_redirect_url=redirect,
        parameters={"validatorUrl": None, "tryItOutEnabled": True, "displayRequestDuration": True},
    )
    redoc = redoc_page(title=f"{app.title}: reference (ReDoc)", openapi_url=openapi_url)
    oauth2_redirect = bytes(get_swagger_ui_oauth2_redirect_html().body).decode()

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return page(swagger, **_DOCS_POLICY)

    @app.get("/redoc", include_in_schema=False)
    async def redoc_ui() -> HTMLResponse:
        return page(redoc, **_DOCS_POLICY)

    @app.get(redirect, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return page(oauth2_redirect)
