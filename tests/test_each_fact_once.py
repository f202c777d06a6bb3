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


def test_a_log_is_replayed_into_a_table_state_in_one_place():
    """A TableState outside the live game is made only to be handed to table/replay.py's Replay (the web
    page's hub and the browser's check get theirs from it); table/gamelog.py's resume still has a loop of its
    own, to go over to Replay with the rest of the table's work of issue 33."""
    made = {path for path, _ in callers("TableState", HOST)}
    live = {"table/referee.py", "table/session.py", "table/sink.py"}   # the live game's own state
    assert made <= {"host_tools/schocken_host/" + name for name in live | {
        "table/replay.py", "table/gamelog.py", "commands/replay.py", "commands/stats.py"}}, made
    for reader in ("commands/replay.py", "commands/stats.py", "views/web/hub.py", "views/web/check/check.py"):
        source = (HOST / reader).read_text(encoding="utf-8")
        assert "from schocken_host.table.replay import" in source, reader
