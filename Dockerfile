# Tic-tac-toe best-move service.
#
#   docker build -t tictactoe-service:1.0.0 .
#   docker run --rm -p 8000:8000 --read-only --cap-drop ALL tictactoe-service:1.0.0
#
# BASE_IMAGE may be any image with python3 (>= 3.11) and its venv module, e.g. a
# Debian base: --build-arg BASE_IMAGE=localhost/python-base:bookworm.
# Podman/Buildah: build with --format docker, or the HEALTHCHECK is dropped.
ARG BASE_IMAGE=docker.io/library/python:3.12-slim

# --- builder: build the wheels and install them with their dependencies into /opt/venv ---
FROM ${BASE_IMAGE} AS builder

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_INPUT=1 \
    PYTHONDONTWRITEBYTECODE=1

WORKDIR /src
RUN python3 -m venv /opt/venv
COPY pyproject.toml README.md LICENSE constraints.txt ./
COPY service ./service
# The runtime venv keeps no pip, setuptools or wheel: nothing is installed at run time.
RUN /opt/venv/bin/python3 -m pip wheel --no-cache-dir --no-deps --wheel-dir /wheels . \
    && /opt/venv/bin/python3 -m pip install --no-cache-dir -c constraints.txt \
       "$(echo /wheels/tictactoe_service-*.whl)[server]" \
    && /opt/venv/bin/python3 -m pip uninstall --yes pip setuptools wheel \
    && /opt/venv/bin/python3 -c "import service.settings; print(service.settings.Settings())"

# --- runtime: the venv and nothing else of the build ---
FROM ${BASE_IMAGE} AS runtime

LABEL org.opencontainers.image.title="tictactoe-service" \
      org.opencontainers.image.description="Perfect-play tic-tac-toe best-move engine served as a REST/JSON microservice." \
      org.opencontainers.image.licenses="MIT"

# A fixed numeric UID/GID, so that Kubernetes can check runAsNonRoot against it.
RUN groupadd --system --gid 10001 app \
    && useradd --system --uid 10001 --gid 10001 --no-create-home \
       --home-dir /nonexistent --shell /usr/sbin/nologin app

COPY --from=builder /opt/venv /opt/venv

# TICTACTOE_HOST must be 0.0.0.0 in a container; every other TICTACTOE_* setting
# (PORT, WORKERS, LOG_LEVEL, CORS_ORIGINS, MAX_BODY_BYTES) can be given at run time.
ENV PATH="/opt/venv/bin:${PATH}" \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TICTACTOE_HOST=0.0.0.0 \
    TICTACTOE_PORT=8000

USER 10001:10001
EXPOSE 8000

HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python3", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/health' % os.environ.get('TICTACTOE_PORT', '8000'), timeout=2)"]

STOPSIGNAL SIGTERM
# Exec form: python3 is PID 1 and gets SIGTERM itself; it exits 0 after a graceful shutdown.
CMD ["python3", "-m", "service"]
