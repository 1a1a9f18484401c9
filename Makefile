# The two commands: `make run` starts the service, `make test` runs the whole suite.
# Both create the virtual environment in .venv and install the project as needed: `make run`
# only what the service needs (the "server" extra), `make test` the test tools too. Versions come from constraints.txt.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.runtime-stamp
STAMP := $(VENV)/.dev-stamp

.PHONY: install run test lint typecheck test-fast test-slow openapi lock clean

install: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Two distributions, each installable with pip alone: the service (here) and the Python client with
# the tictactoe command (clients/python). Both are installed, editable.
$(RUNTIME): pyproject.toml clients/python/pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -c constraints.txt -e clients/python -e '.[server]'
	touch $@

$(STAMP): pyproject.toml clients/python/pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -c constraints.txt -e clients/python -e '.[dev]'
	touch $@ $(RUNTIME)

run: $(RUNTIME)
	$(BIN)/python -m service

lint: $(STAMP)
	$(BIN)/ruff check service tests bench scripts clients/python
	$(BIN)/ruff format --check service tests bench scripts clients/python

typecheck: $(STAMP)
	$(BIN)/mypy --strict service tests bench scripts clients/python

# The OpenAPI linters (openapi/package.json), installed by the pattern rule below.
LINTERS := openapi/node_modules/.package-lock.json

# The TypeScript client's tools, and those of the generated-client check, when npm is there.
TS_TOOLS := clients/typescript/node_modules/.package-lock.json tests/e2e/generated/typescript/node_modules/.package-lock.json \
  tests/e2e/generated/heyapi/node_modules/.package-lock.json tests/e2e/generated/orval/node_modules/.package-lock.json
# axe-core, which the browser tests run on the pages (tests/browser/package.json).
TS_TOOLS += tests/browser/node_modules/.package-lock.json
%/node_modules/.package-lock.json: %/package.json %/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --prefix $* --no-audit --no-fund --loglevel=error; \
	else echo "npm is not installed: $* is not set up"; fi

# The suite by layer (see tests/conftest.py): the fast layers first, then what needs a server,
# a browser or the deployment tools.
test-fast: $(STAMP) $(LINTERS)
	$(BIN)/python -m pytest -m "game or api"

test-slow: $(STAMP) $(TS_TOOLS)
	$(BIN)/python -m pytest -m "not (game or api)"

# Cheap checks first: lint, types, the shipped tables, books and catalogues, then the fast tests, then
# the slow ones.
test: lint typecheck tables-check puzzles-check messages-check test-fast test-slow

# The variants' tables of exact values, shipped in service/game/data: `make tables` writes them
# again (about a minute), `make tables-check` checks each is what a fresh generation gives.
.PHONY: tables tables-check
tables: $(RUNTIME)
	$(BIN)/python -m service.game.tables

tables-check: $(RUNTIME)
	$(BIN)/python -m service.game.tables --check

# The variants' puzzle books, shipped rendered in service/answers/data: `make puzzles` writes them
# again from the tables and the levels (some minutes: every position of 4 × 4 is looked at),
# `make puzzles-check` checks each is what a fresh computation gives.
.PHONY: puzzles puzzles-check
puzzles: $(RUNTIME)
	$(BIN)/python -m scripts.puzzles

puzzles-check: $(RUNTIME)
	$(BIN)/python -m scripts.puzzles --check

# The message catalogues of the languages offered, in service/language: `make messages` extracts every
# message of the code into messages.pot and brings each language's catalogue up to date with it (a new
# message waits there untranslated), compiled; `make messages-check` checks all of that is so. With
# Babel's own commands (scripts/messages.py).
.PHONY: messages messages-check
messages: $(STAMP)
	$(BIN)/python -m scripts.messages

messages-check: $(STAMP)
	$(BIN)/python -m scripts.messages --check

openapi: $(STAMP)
	$(BIN)/tictactoe-service openapi openapi/openapi.json
	$(MAKE) client-models

# The Python client's models, generated from the committed OpenAPI document with the options of
# [tool.datamodel-codegen] in clients/python/pyproject.toml (a test checks the committed file).
.PHONY: client-models
client-models: $(STAMP)
	cd clients/python && ../../$(BIN)/datamodel-codegen > src/tictactoe_client/_models.py.new
	mv clients/python/src/tictactoe_client/_models.py.new clients/python/src/tictactoe_client/_models.py

# Pin every dependency (runtime and dev) to the versions a fresh install resolves today.
lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/python -m pip install --quiet -e clients/python -e '.[dev]'
	{ echo "# Exact versions of every dependency, runtime and dev, that CI and the image install with pip -c."; \
	  echo "# Regenerate with: make lock"; \
	  .lock-venv/bin/python -m pip freeze --exclude-editable; } > constraints.txt
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build *.egg-info

# Build the image with Podman and check it end to end (scripts/container-test.sh).
.PHONY: container-test
container-test:
	bash scripts/container-test.sh

# The benchmark (bench/): figures beside their targets, and bench/results.json. Needs wrk.
# BENCH_ARGS=--quick for a shorter run, --smoke to check that it all runs.
.PHONY: bench
bench: $(STAMP)
	$(BIN)/python -m bench.run $(BENCH_ARGS)

# The difficulty levels measured by play in the standard game and in each variant
# (scripts/calibrate.py): writes docs/levels.md and docs/levels.png, the same bytes on every run.
# CALIBRATE_ARGS=--games N for another size, --variants ... for some of the variants only.
.PHONY: calibrate
calibrate: $(STAMP)
	$(BIN)/python -m scripts.calibrate $(CALIBRATE_ARGS)
