# Two commands for a newcomer: `make demo` and `make test`. Both build .venv themselves.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo play web test venv bench clean

$(BIN)/schocken: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

venv: $(BIN)/schocken

demo: venv
	$(BIN)/schocken play --emulate 4 --bots 4

web: venv
	$(BIN)/schocken play --emulate 4 --bots 4 --web

play: venv
	$(BIN)/schocken play --emulate 4 --bots 3

test: venv
	$(BIN)/python -m pytest

bench: venv
	$(BIN)/python bench/rules.py

clean:
	rm -rf $(VENV) build *.egg-info
