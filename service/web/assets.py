"""Static assets: the files of a folder, kept in memory with their entity tag.

:class:`Assets` is a small ASGI app to mount (``/static``, ``/static/docs``). It
serves only the files that were in its folder when it was made (no path from a
request ever reaches the file system), each with a strong ``ETag`` and its
``Cache-Control``. A matching ``If-None-Match`` gets ``304``. Compression is the
middleware's (:mod:`.middleware.compression`), which keeps the gzip of each file.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from ..answers import etag
from .caching import etag_matches
from .media import compressible


@dataclass
class Asset:
    """One file: its bytes, media type and entity tag."""

    content: bytes
    media_type: str
    etag: str = field(init=False)

    def __post_init__(self) -> None:
        self.etag = etag(self.content)


class Assets:
    """The files of ``folder`` (and its subfolders), served from memory; see the module docstring."""

    def __init__(
        self,
        folder: Path,
        *,
        max_age: int,
        rewrite: dict[str, Callable[[bytes], bytes]] | None = None,
    ) -> None:
        self.cache_control = f"public, max-age={max_age}"
        self._folder = folder
        self._rewrite = rewrite or {}
        self._names = {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}
        self._assets: dict[str, Asset] = {}

    def asset(self, name: str) -> Asset | None:
        """The file ``name`` (a path below the folder), read on first use; ``None`` if it is not one."""
        if name not in self._names:
            return None
        found = self._assets.get(name)
        if found is None:
            content = (self._folder / name).read_bytes()
            rewrite = self._rewrite.get(name)
            if rewrite is not None:
                content = rewrite(content)
            media_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
            if media_type.startswith("text/") or media_type == "application/javascript":
                media_type += "; charset=utf-8"
            found = self._assets[name] = Asset(content, media_type)
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] not in ("GET", "HEAD"):
            raise HTTPException(405, headers={"Allow": "GET, HEAD"})
        asset = self.asset(scope["path"].removeprefix(scope.get("root_path", "")).lstrip("/"))
        if asset is None:
            raise HTTPException(404)
        answer_headers = {"ETag": asset.etag, "Cache-Control": self.cache_control}
        if etag_matches(Headers(raw=scope["headers"]).get("if-none-match"), asset.etag):
            if compressible(asset.media_type, len(asset.content)):  # the 200 would vary on it
                answer_headers["Vary"] = "Accept-Encoding"
            response = Response(status_code=304, headers=answer_headers)
        else:
            response = Response(asset.content, media_type=asset.media_type, headers=answer_headers)
        await response(scope, receive, send)
