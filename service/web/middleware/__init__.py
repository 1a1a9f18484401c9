"""The service's middleware: one concern per module, each a small pure ASGI class.

Outermost first, as :func:`~service.web.app.create_app` stacks them:

1. :mod:`.security`: ``nosniff`` on every answer;
2. :mod:`.request_id`: the request id, so that every later line about the request carries it,
   and every answer (a ``500`` or a ``413`` included) sends it back;
3. :mod:`.access`: metrics and the access log, around everything that can answer;
4. :mod:`.head`: ``HEAD`` as ``GET``, outside compression so that their headers agree,
   and outside the error path so that every answer to a ``HEAD`` (a ``500`` included) goes
   without its body;
5. :mod:`.errors`: the one ``500``, for whatever escaped the layers inside;
6. :mod:`.compression`: gzip, once, for every answer worth it;
7. :mod:`.cors`: a refused preflight as problem+json, then Starlette's ``CORSMiddleware``,
   outside the limits, so that a browser on another origin can read their ``413`` as it reads
   every other answer;
8. :mod:`.encoding`: a body sent with a content coding (``Content-Encoding: gzip``) refused
   (``415``) from its headers, before a byte of it is read or counted, and before the fast lane
   could answer it;
9. :mod:`.limits`: the body limit (``413``) and clients that leave mid-request;
10. :class:`~service.web.admission.AdmissionMiddleware` and the fast lane
    (:mod:`service.web.fast_lane`), innermost, next to the routes.
"""
