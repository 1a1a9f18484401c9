"""Security headers of the HTML pages: a Content Security Policy that the pages satisfy, and friends.

Every page loads its scripts, styles and images from the service itself. The
only inline script, Swagger UI's start-up call, is allowed by its hash.
"""

from __future__ import annotations

import base64
import hashlib
import re

from fastapi.responses import HTMLResponse

_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)

BASE_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "worker-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def content_security_policy(html: str, **overrides: str) -> str:
    """The policy for ``html``: :data:`BASE_POLICY`, ``overrides``, and the hash of each inline script."""
    policy = {**BASE_POLICY, **{name.replace("_", "-"): value for name, value in overrides.items()}}
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
        for script in _INLINE_SCRIPT.findall(html)
    ]
    if hashes:
        policy["script-src"] = " ".join([policy["script-src"], *hashes])
    return "; ".join(f"{name} {value}" for name, value in policy.items())


def page_headers(html: str, **overrides: str) -> dict[str, str]:
    """Headers for an HTML page."""
    return {
        "Content-Security-Policy": content_security_policy(html, **overrides),
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "DENY",
        "Cache-Control": "no-cache",
    }


def page(html: str, **overrides: str) -> HTMLResponse:
    """An HTML page with its security headers."""
    return HTMLResponse(html, headers=page_headers(html, **overrides))
