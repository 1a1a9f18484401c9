"""The routes, one module per resource: ``moves``, ``analysis``, ``review``, ``puzzles`` and
``variants`` (API v1), ``operations`` (health and metrics), ``pages`` (the browser game) and ``docs``
(OpenAPI, Swagger UI, ReDoc)."""
