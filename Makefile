# make run   — install into .venv and run Claimwatch on the built-in defaults
# make test  — install into .venv (with test extras) and run the test suite
# make demo  — install and replay a month of the Jalapeño story offline

VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin

.PHONY: install run demo test lint bench clean

$(BIN)/claimwatch: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	$(BIN)/python -m compileall -q monitor watchers db alerts  # as pip does for installed packages
	touch $@

install: $(BIN)/claimwatch

run: install
	$(BIN)/claimwatch run

demo: install
	$(BIN)/claimwatch demo

test: install
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache *.egg-info
