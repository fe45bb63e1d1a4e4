# The two commands: `make run` and `make test`. Both set up .venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= $(or $(STREAMLIT_SERVER_PORT),8501)

.PHONY: run test serve bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[test]"
	touch $@ $(VENV)/.installed-run

run: $(VENV)/.installed-run
	$(BIN)/streamlit run app.py --server.port $(PORT) --server.headless true --browser.gatherUsageStats false

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q

serve: $(VENV)/.installed-run
	$(BIN)/python -m agent_core serve

bench: $(VENV)/.installed-test
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache
