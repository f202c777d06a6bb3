"""Issue 33, "each fact once": a fact the host and the firmware need has one home, and these checks fail when
a second copy comes back (the sources read with ``ast``, as tests/test_architecture.py reads the imports)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOST = ROOT / "host_tools" / "schocken_host"


def python_files(*folders):
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            if "__pycache__" not in path.parts:
                yield path


def calls(tree, name):
    """The names of the functions (innermost) that call ``name`` (a name or an attribute), "" at module
    level."""
    found = []

    def walk(node, where):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                walk(child, child.name)
                continue
            if isinstance(child, ast.Call):
                f = child.func
                if name in (getattr(f, "id", None), getattr(f, "attr", None)):
                    found.append(where)
            walk(child, where)
    walk(tree, "")
    return found


def callers(name, *folders):
    """{(file relative to the repository, function)} of every call of ``name`` under ``folders``."""
    return {(path.relative_to(ROOT).as_posix(), where)
            for path in python_files(*folders)
            for where in calls(ast.parse(path.read_text(encoding="utf-8")), name)}


def test_serial_ports_are_searched_for_cups_in_one_place():
    """links/serial.py ``discover`` is the one search for cups on serial ports (play and scan); deploy's
    ``find_port`` looks for one board to flash, with no cup's hello."""
    assert callers("likely_ports", HOST) == {("host_tools/schocken_host/links/serial.py", "discover"),
                                             ("host_tools/schocken_host/provision/device.py", "find_port")}
    assert callers("comports", HOST) == {("host_tools/schocken_host/links/serial.py", "likely_ports")}


def assigned(name, *folders):
    """Files under ``folders`` that bind ``name`` at their top level (an assignment or a def)."""
    found = set()
    for path in python_files(*folders):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            names = {getattr(t, "id", None) for t in targets} | {getattr(node, "name", None)}
            if name in names:
                found.add(path.relative_to(ROOT).as_posix())
    return found


def test_one_pip_table():
    """The faces' pips are schocken.turn's PIPS: the cup's LEDs and the host's frame codec import it."""
    assert assigned("PIPS", ROOT / "firmware", HOST) == {"firmware/lib/schocken/turn.py"}
