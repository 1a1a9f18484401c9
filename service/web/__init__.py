"""The HTTP layer: FastAPI app, routes, schemas on the wire, problems, middleware, pages.

:func:`service.web.app.create_app` builds the app; uvicorn runs it as a factory.
"""
