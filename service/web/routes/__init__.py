"""The routes, one module per resource: ``moves``, ``analysis``, ``review`` and ``puzzles`` (API v1),
``operations`` (health and metrics), ``pages`` (the browser game) and ``docs`` (OpenAPI, Swagger UI,
ReDoc)."""
