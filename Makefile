# The two commands a person needs: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The reader's JavaScript tooling (biome: lint + format; tsc: JSDoc types), from package-lock.json.
JS_STAMP := node_modules/.installed
JS_BIN := node_modules/.bin
export ASKALONG_EVALDATA ?= $(abspath ../shared/evaldata)

.PHONY: run test check sweep lint docs wheel-check bench install clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,ocr,llm]'
	touch $(STAMP)

$(JS_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(JS_STAMP)

install: $(STAMP) $(JS_STAMP)

PORT ?= 8000
run: $(STAMP)
	$(PY) -m askalong.demo $(PORT)

# Two pytest-xdist workers, a test file each at a time, so a file's module fixtures and shared
# servers start once a worker; TEST_WORKERS=0 runs one process. Either way the run fails when a
# collected test has no outcome, naming it (tests/helpers/accounted_tests.py).
TEST_WORKERS ?= 2
test: $(STAMP) lint
	$(PY) -m pytest -q -m "not sweep" -n $(TEST_WORKERS) --dist loadfile --durations=30

# The full sweeps (dev-set floors, every evaluation PDF in Chromium): minutes each.
sweep: $(STAMP)
	$(PY) -m pytest -q -m sweep

# The fast loop while developing: lint, then the unit and contract tests (no slow ones).
check: $(STAMP) lint
	$(PY) -m pytest -q -m "not slow and not sweep" tests/unit tests/contract

lint: $(STAMP) $(JS_STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/mypy
	$(PY) -m askalong.server.contract --check
	$(JS_BIN)/biome ci --reporter=summary --colors=off
	$(JS_BIN)/tsc --noEmit -p jsconfig.json
	$(VENV)/bin/mkdocs build --quiet --strict

# The docs site from docs/ (reference pages generated from the code), served while you edit.
docs: $(STAMP)
	$(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:8001

# The built wheel in a fresh virtual environment: migrations run, the reader's files are served.
wheel-check: $(STAMP)
	scripts/check-wheel.sh $(PY)

bench: $(STAMP)
	$(PY) benchmarks/ingest.py

clean:
	rm -rf $(VENV) node_modules .site .pytest_cache .mypy_cache .ruff_cache
