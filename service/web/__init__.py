"""The HTTP layer: the FastAPI app, its routes, middleware, problems, OpenAPI document and pages.

:func:`service.web.app.create_app` builds the app; uvicorn runs it as a factory. The answers it
serves are rendered below it (:mod:`service.answers`), and the fast lane (:mod:`.fast_lane`) is
the one place where speed bends the plain way of doing things.
"""
