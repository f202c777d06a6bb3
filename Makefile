# Two commands for a newcomer: `make demo` and `make test`. Both build .venv themselves.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo play web test venv bench enclosure clean

$(BIN)/schocken: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# MicroPython's WebAssembly port for the web page's check (package.json, docs/web-check.md), where npm is.
NODE_DONE := node_modules/.package-lock.json

$(NODE_DONE): package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then npm ci --no-audit --no-fund --loglevel=error; \
	else echo "npm not found: no MicroPython WebAssembly, the web page's check says so (docs/web-check.md)"; fi

venv: $(BIN)/schocken $(NODE_DONE)

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

# The printed cup: STL and STEP of every part per board into build/enclosure/, previews into docs/.
enclosure: venv
	$(BIN)/python hardware/enclosure/build.py --preview

clean:
	rm -rf $(VENV) build *.egg-info node_modules
