"""The dependency rules of docs/architecture.md, checked by parsing every import (``ast``) in the source tree,
and the MicroPython subset of the firmware."""

import ast
import warnings
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIRMWARE = REPO / "firmware"
HOST = REPO / "host_tools"

# --- dependency rules (docs/architecture.md) -------------------------------------------------------------

HARDWARE = {"machine", "neopixel", "bluetooth", "aioble"}
FIRMWARE_TOP = {"cup", "boards", "drivers", "emulate", "main", "boot_select", "timescale"}
HARDWARE_BOARD_MODULES = {"firmware/boards/mcu.py", "firmware/boards/esp32.py", "firmware/boards/rp2.py",
                          "firmware/boards/ble.py"}

# (area, forbidden top-level modules, why)
RULES = (
    ("firmware/lib/schocken", FIRMWARE_TOP | HARDWARE | {"schocken_host"},
     "the rules package imports nothing from the cup, the boards, the drivers or the host"),
    ("firmware/cup", HARDWARE | {"boards", "drivers", "emulate", "main", "boot_select", "schocken_host"},
     "the cup app gets its board handed in: no machine/neopixel/bluetooth, no board module, no host"),
    ("host_tools", FIRMWARE_TOP | HARDWARE,
     "the host talks to cups over a transport: it imports the rules package and protocol, never the cup app "
     "or a board (emulated cups are separate processes)"),
)

# Known violations, each listed in the report that came with this test. The test fails on any new one AND
# on an entry that is no longer true, so this list cannot go stale.
KNOWN_VIOLATIONS = set()


def imports_of(path):
    """Every module a file imports, anywhere (top level, functions, try blocks), as dotted names; also
    ``__import__("name")`` with a constant string."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the file's package
                base = path.parent.relative_to(REPO).parts
                pkg = list(base[:len(base) - node.level + 1])
                names.append(".".join(pkg + ([node.module] if node.module else [])))
            elif node.module:
                names.append(node.module)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__"
              and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            names.append(node.args[0].value)
    return names


def sources(area):
    return sorted(p for p in (REPO / area).rglob("*.py") if "__pycache__" not in p.parts)


def violations():
    found = set()
    for area, forbidden, _ in RULES:
        for path in sources(area):
            for name in imports_of(path):
                if name.split(".")[0] in forbidden:
                    found.add((path.relative_to(REPO).as_posix(), name))
    # Only the hardware board modules import machine/neopixel/bluetooth/aioble, wherever else one looks.
    for path in sources("firmware") + sources("host_tools"):
        rel = path.relative_to(REPO).as_posix()
        if rel in HARDWARE_BOARD_MODULES:
            continue
        for name in imports_of(path):
            if name.split(".")[0] in HARDWARE:
                found.add((rel, name))
    return found


def test_import_parser_sees_real_imports():
    # Guard against a vacuous rule check: the parser must find imports we know are there.
    core = imports_of(FIRMWARE / "cup" / "core.py")
    assert "schocken" in core and "schocken.turn" in core and "schocken.rules" in core
    assert "machine" in imports_of(FIRMWARE / "boards" / "mcu.py")
    assert "cup.pixels" in imports_of(FIRMWARE / "boards" / "common.py")  # inside a function
    assert "drivers.lis3dh" in imports_of(FIRMWARE / "boards" / "mcu.py")  # inside if/else
    assert "schocken.throws" in imports_of(FIRMWARE / "lib" / "schocken" / "turn.py")  # inside a method


def test_import_parser_catches_a_violation(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    try:\n        from machine import Pin\n    except ImportError:\n"
                   "        import cup.core as c\n    __import__('boards.rp2')\n")
    assert set(imports_of(bad)) >= {"machine", "cup.core", "boards.rp2"}


def test_every_area_has_sources():
    for area, _, _ in RULES:
        assert sources(area), area


def test_dependency_rules():
    found = violations()
    new = sorted(found - KNOWN_VIOLATIONS)
    assert not new, "imports against docs/architecture.md's dependency rules:\n" + "\n".join(
        "%s imports %s" % v for v in new)
    gone = sorted(KNOWN_VIOLATIONS - found)
    assert not gone, "fixed, remove from KNOWN_VIOLATIONS: %s" % gone


# --- the host's layers (docs/architecture.md, "The host") ---------------------------------------------------
# Each package imports only from packages of a lower rank (and its own); the base modules (errors, texts,
# input checks, the table's pace) sit below every package. cli.py is the top. Imports inside functions count
# as well.
HOST_RANKS = {"errors": 0, "i18n": 0, "texts": 0, "input_checks": 0, "pace": 0, "odds": 1, "links": 2,
              "provision": 3, "emulation": 4, "table": 5, "league": 6, "views": 7, "tournament": 7.5,
              "commands": 8, "cli": 9}


def host_module(path):
    rel = path.relative_to(HOST).with_suffix("").parts
    return ".".join(rel[:-1] if rel[-1] == "__init__" else rel)


def host_layer(module):
    """The package (or base module) of a schocken_host module: "schocken_host.table.referee" -> "table"."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "schocken_host" else None


def host_imports(path):
    """The schocken_host modules a host file imports, with ``from schocken_host.table import state`` as
    schocken_host.table.state."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "schocken_host":
            for alias in node.names:
                full = "%s.%s" % (node.module, alias.name)
                found.add(full if (HOST / (full.replace(".", "/") + ".py")).exists()
                          or (HOST / full.replace(".", "/")).is_dir() else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "schocken_host")
    return found


def host_graph():
    return {host_module(p): host_imports(p) for p in sources("host_tools/schocken_host")}


def upward_imports(graph):
    bad = []
    for module, imported in sorted(graph.items()):
        low = host_layer(module)
        for name in sorted(imported):
            high = host_layer(name)
            if low in HOST_RANKS and high in HOST_RANKS and HOST_RANKS[high] > HOST_RANKS[low]:
                bad.append("%s imports %s" % (module, name))
    return bad


def import_circles(graph):
    """Every strongly connected set of more than one module (Tarjan), each sorted."""
    modules = set(graph)

    def known(name):
        while name not in modules and "." in name:
            name = name.rsplit(".", 1)[0]
        return name
    edges = {m: {known(n) for n in names if known(n) in modules and known(n) != m}
             for m, names in graph.items()}
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                circles.append(sorted(group))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return circles


def test_every_host_module_has_a_layer():
    layers = {host_layer(m) for m in host_graph() if m != "schocken_host"}
    assert layers <= set(HOST_RANKS), layers - set(HOST_RANKS)
    assert {"odds", "links", "provision", "emulation", "table", "views", "commands"} <= layers


def test_the_host_imports_only_downward():
    assert upward_imports(host_graph()) == []


def test_the_host_has_no_import_circles():
    assert import_circles(host_graph()) == []


def test_the_layer_checks_can_fail():
    graph = {"schocken_host.links.serial": {"schocken_host.table.left"},
             "schocken_host.table.left": {"schocken_host.table.right"},
             "schocken_host.table.right": {"schocken_host.table.left"}}
    assert upward_imports(graph) == ["schocken_host.links.serial imports schocken_host.table.left"]
    assert import_circles(graph) == [["schocken_host.table.left", "schocken_host.table.right"]]
    parsed = host_imports(HOST / "schocken_host" / "commands" / "play.py")
    assert "schocken_host.table.gamelog" in parsed and "schocken_host.table.session" in parsed


def test_the_table_is_composed_not_inherited():
    """The referee's parts (links, turns, sink) are objects it holds, not classes it derives from or that
    derive from each other: no part can call its owner through ``self``."""
    parts = {"Referee", "CupLinks", "Turns", "EventSink"}
    found = {}
    for path in sources("host_tools/schocken_host/table"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name in parts:
                found[node.name] = [ast.unparse(b) for b in node.bases]
    assert found == {name: [] for name in parts}


# A host module over 400 lines is worth a look, not a failure: a module ends at its seam, and nothing is split
# into siblings or reworded only to stay under a count (issue 44). pytest's summary lists the warnings.
LONG_MODULE = 400


def test_long_host_modules_are_named():
    for path in sources("host_tools/schocken_host"):
        name, lines = path.relative_to(REPO).as_posix(), len(path.read_text(encoding="utf-8").splitlines())
        if lines > LONG_MODULE:
            warnings.warn("%s: %d lines: is it still one idea?" % (name, lines))


# The MicroPython subset (DEVELOPERS.md): modules the unix port and the boards do not have. (Every firmware
# file compiles with mpy-cross for each board: tests/test_micropython.py.)
CPYTHON_ONLY = {"dataclasses", "enum", "typing", "functools", "abc"}


@pytest.mark.parametrize("path", sources("firmware"), ids=lambda p: p.relative_to(FIRMWARE).as_posix())
def test_firmware_stays_in_the_micropython_subset_and_small(path):
    assert not [n for n in imports_of(path) if n.split(".")[0] in CPYTHON_ONLY]
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 400


def test_emulator_starts_the_firmware_as_a_process_and_imports_none_of_it():
    path = HOST / "schocken_host" / "emulation" / "emulator.py"
    names = imports_of(path)
    assert not [n for n in names if n.split(".")[0] in FIRMWARE_TOP | HARDWARE | {"schocken"}]
    text = path.read_text()
    assert "subprocess.Popen" in text and '"emulate"' in text  # `micropython -m emulate` in its own process


# --- what a cup loads ------------------------------------------------------------------------------------

HOST_ONLY = {"schocken.throws", "schocken.results", "schocken.hostside", "schocken.ranking", "schocken.half",
             "schocken.game", "schocken.sim", "schocken.bleformat"}
ONLY_WHEN_ASKED = {"schocken.fair", "cup.session", "cheat", "boards.cpython", "cup.replay", "timescale",
                   "cup.tasks", "asyncio"}


def test_a_cup_loads_no_host_code(tmp_path):
    """Issue 3's 64 KB heap holds because a cup imports only what it runs (docs/firmware.md "Memory"): a cup
    built and started as emulate.py does, under the unix port, has none of the host's modules and none of the
    parts loaded on demand (fair play, a secret, cheats, CPython plumbing) until it needs them."""
    from conftest import micropython_path, run_firmware_code
    if micropython_path() is None:
        pytest.skip("needs the micropython unix port")
    out = run_firmware_code(("""
        import sys
        import emulate
        from boards import emulated
        from cup.app import App
        from schocken.protocol import MAX_LINE, LineSplitter
        board = emulated.make_board(link=(None, None))
        app = App(board, {"cup_id": "c1", "state_path": %r},
                  emulate.ScriptedRoller(board.urandom, None, None), LineSplitter(MAX_LINE))
        app.cup.on_message({"t": "configure", "rules": {"preset": "standard", "options": {}}, "name": "A",
                            "seat": 0})
        app.cup.on_message({"t": "turn", "round": 1, "limit": None})
        print(" ".join(sorted(sys.modules)))
    """) % str(tmp_path / "state.json"), "256k")
    loaded = set(out.split())
    assert {"cup.app", "cup.core", "schocken.turn", "schocken.rules", "boards.emulated"} <= loaded
    assert not loaded & (HOST_ONLY | ONLY_WHEN_ASKED), loaded & (HOST_ONLY | ONLY_WHEN_ASKED)


def test_every_host_package_is_installed():
    """pyproject.toml lists the packages a wheel carries: a package missing there works in a checkout and is
    gone after `pip install`."""
    import tomllib
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {"schocken_host." + init.parent.relative_to(HOST / "schocken_host").as_posix().replace("/", ".")
             for init in (HOST / "schocken_host").rglob("__init__.py")
             if init.parent != HOST / "schocken_host"}
    assert found <= listed, found - listed
