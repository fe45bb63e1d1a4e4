# The two commands: `make run` and `make test`. Both set up .venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= $(or $(STREAMLIT_SERVER_PORT),8501)

.PHONY: run lint test check serve serve-class bench compat compat-python compat-node clean
WORKERS ?= 2

# uv installs the same packages from the same index as pip, in a third of the time (a fresh `make test` spent about
# 90 s in pip); pip is the fallback wherever uv cannot be installed or cannot install.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv || $(BIN)/pip install --quiet --upgrade pip
INSTALL = install() { if [ -x $(BIN)/uv ] && $(BIN)/uv pip install --quiet --python $(BIN)/python "$$@"; then :; \
	else $(BIN)/pip install --quiet "$$@"; fi; }; install

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(INSTALL) -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(INSTALL) -e ".[test]"
	touch $@ $(VENV)/.installed-run

run: $(VENV)/.installed-run
	$(BIN)/streamlit run app.py --server.port $(PORT) --server.headless true --browser.gatherUsageStats false

# The TypeScript tutorial program's SDK (skipped by its test when npm is missing).
tests/node/node_modules/.installed: tests/node/package.json tests/node/package-lock.json
	if command -v npm >/dev/null 2>&1; then npm ci --prefix tests/node --no-audit --no-fund --silent && touch $@; fi

# The formatter, the linter and the type checker (config in pyproject.toml: strict for agent_core) gate `make check`.
# The tests run in TEST_WORKERS processes (pytest-xdist), each with its own app servers and Chromium. Three on two
# cores: a browser test waits for its app server and Chromium (other processes), so a third worker fills those
# waits (2817 tests on a quiet 2-core machine: 580 s of pytest with 3, 620 s with 2; CI, 2026-12-02: 400 s, 3272 tests;
# 2026-12-04, 3343 tests: 589 s on a busy machine, 661-813 s in CI from a fresh clone, where PYTHONDONTWRITEBYTECODE
# made each of the suite's Python processes compile every module anew: tests/conftest.py now gives them one bytecode
# cache in the venv, which took a subset of program, CLI and browser tests from 508 s to 331 s, 237 to 150 s of CPU).
TEST_WORKERS ?= 3
lint: $(VENV)/.installed-test
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy

# `make test`: the formatter and the linter gate the tests; the type checker runs beside them (on a fresh clone it
# has no cache: ~40 s of one core, which the tests' waits for browsers and servers leave free) and prints its verdict after them;
# either failing fails make test. `--dist worksteal` with tests/schedule.py's order (one share per process, longest
# first, as many seconds each): an idle process takes the quick tests at the back of a busy one's share, so the run
# ends when all have nothing left.
test: $(VENV)/.installed-test tests/node/node_modules/.installed
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	types_log=$$(mktemp); $(BIN)/mypy >$$types_log 2>&1 & types=$$!; \
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist worksteal; tests=$$?; \
	wait $$types; typed=$$?; echo "mypy:"; cat $$types_log; rm -f $$types_log; exit $$(( tests || typed ))

# The inner loop: the same gates first, then every test that drives no browser, on every core.
check: lint tests/node/node_modules/.installed
	$(BIN)/python -m pytest -q -n auto --dist worksteal -m "not browser"

serve: $(VENV)/.installed-run
	$(BIN)/python -m agent_core serve

# The client matrix (compat/run.py): its own venv with the frameworks learners move on to, and the node clients
# (the TypeScript SDK, the Vercel AI SDK, Claude Code's CLI) when npm is there. `make compat` runs both parts.
COMPAT := .venv-compat
COMPAT_PACKAGES := "pydantic-ai-slim[anthropic]" langchain langchain-anthropic langgraph litellm openai mcp
$(COMPAT)/.installed: pyproject.toml
	$(PYTHON) -m venv $(COMPAT)
	$(COMPAT)/bin/pip install --quiet --upgrade pip
	$(COMPAT)/bin/pip install --quiet -e . $(COMPAT_PACKAGES)
	touch $@

compat/node/node_modules/.installed: compat/node/package.json
	if command -v npm >/dev/null 2>&1; then npm install --prefix compat/node --no-audit --no-fund --silent && touch $@; fi

compat-python: $(COMPAT)/.installed
	$(COMPAT)/bin/python compat/run.py python

compat-node: $(VENV)/.installed-run tests/node/node_modules/.installed compat/node/node_modules/.installed
	$(BIN)/python compat/run.py node

compat: $(COMPAT)/.installed tests/node/node_modules/.installed compat/node/node_modules/.installed
	$(COMPAT)/bin/python compat/run.py

# A class: WORKERS app processes behind nginx (sticky sessions) on PORT; set DATABASE_URL for PostgreSQL.
$(VENV)/.installed-postgres: pyproject.toml | $(BIN)/python
	$(INSTALL) -e ".[postgres]"
	touch $@ $(VENV)/.installed-run

serve-class: $(VENV)/.installed-postgres
	$(BIN)/python deploy/serve_class.py --workers $(WORKERS) --port $(PORT)

bench: $(VENV)/.installed-test
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) $(COMPAT) .pytest_cache
