"""The browser's check of a game (docs/web-check.md): what the web server serves for it.

- ``/check/``: this folder (``CHECK_DIR``: check.js, check.html, the i18n shim; the check
  itself is table/game_check.py);
- ``/check/vendor/``: MicroPython's WebAssembly port from npm (``vendor_dir()``; None where it is not
  installed, and ``missing()`` says why in one line);
- ``/py/``: the Python the check runs in the browser (``py_files()``: URL path -> file): the unchanged rules
  package, the host's ``table/state.py``, ``table/events.py`` and ``table/replay.py`` with the texts they
  need, and this folder's ``i18n_shim.py`` in place of ``schocken_host/i18n.py``.

Nothing here imports the web server: it only names files."""

from pathlib import Path

CHECK_DIR = Path(__file__).resolve().parent
HOST = CHECK_DIR.parents[2]                      # host_tools/schocken_host
RULES = HOST.parents[1] / "firmware" / "lib" / "schocken"
NPM_PACKAGE = "@micropython/micropython-webassembly-pyscript"
VENDOR_FILES = ("micropython.mjs", "micropython.wasm")

# The rules modules the check imports (schocken.bleformat and schocken.sim it does not need).
RULE_MODULES = ("__init__", "fair", "game", "half", "hostside", "protocol", "ranking", "results", "rules",
                "texts", "throws", "turn")


def _rules_dir():
    """firmware/lib/schocken in a source tree; the installed package ``schocken`` elsewhere."""
    if (RULES / "turn.py").is_file():
        return RULES
    import schocken
    return Path(schocken.__file__).resolve().parent


def py_files():
    """URL path under /py/ -> the file to serve. check.js loads exactly these (its PY_FILES)."""
    rules = _rules_dir()
    files = {"schocken/%s.py" % m: rules / ("%s.py" % m) for m in RULE_MODULES}
    files.update({
        "schocken_host/__init__.py": HOST / "__init__.py",
        "schocken_host/i18n.py": CHECK_DIR / "i18n_shim.py",
        "schocken_host/texts/__init__.py": HOST / "texts" / "__init__.py",
        "schocken_host/texts/input_errors.py": HOST / "texts" / "input_errors.py",
        "schocken_host/table/__init__.py": HOST / "table" / "__init__.py",
        "schocken_host/table/events.py": HOST / "table" / "events.py",
        "schocken_host/table/replay.py": HOST / "table" / "replay.py",
        "schocken_host/table/state.py": HOST / "table" / "state.py",
        "schocken_host/table/game_check.py": HOST / "table" / "game_check.py",
    })
    return files


def _candidates():
    yield CHECK_DIR / "vendor"                   # copied in by a build (package data)
    for root in [HOST.parents[1], Path.cwd()]:   # the repo's node_modules (make installs it with npm)
        yield root / "node_modules" / Path(*NPM_PACKAGE.split("/"))


def vendor_dir():
    """The folder with MicroPython's WebAssembly port, or None."""
    for d in _candidates():
        if all((d / f).is_file() for f in VENDOR_FILES):
            return d
    return None


def missing():
    """None when the check can run in a browser, else why not (one line, English; the page says it too)."""
    if vendor_dir() is None:
        return ("MicroPython's WebAssembly port is not installed (npm package %s: `make` installs it where "
                "Node.js is present)" % NPM_PACKAGE)
    return None
