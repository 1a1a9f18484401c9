"""The routes, one module per resource: ``moves`` and ``analysis`` (API v1), ``operations``
(health and metrics), ``pages`` (the browser game) and ``docs`` (OpenAPI, Swagger UI, ReDoc)."""
