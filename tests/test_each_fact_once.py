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
    """links/serial.py ``cups_on_ports`` is the one search for cups on serial ports (play through
    ``discover``, and scan); deploy's ``find_port`` looks for one board to flash, with no cup's hello."""
    assert callers("likely_ports", HOST) == {("host_tools/schocken_host/links/serial.py", "cups_on_ports"),
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
    """A TableState outside the live game is made only to be handed to table/replay.py's Replay (a resume,
    replay, stats, the league's import and its luck do so; the web page's hub and the browser's check get
    theirs from it)."""
    made = {path for path, _ in callers("TableState", HOST)}
    live = {"table/referee.py", "table/session.py", "table/sink.py"}   # the live game's own state
    assert made <= {"host_tools/schocken_host/" + name for name in live | {
        "table/replay.py", "table/gamelog.py", "commands/replay.py", "commands/stats.py",
        "league/games.py", "league/luck/game.py"}}, made
    for reader in ("commands/replay.py", "commands/stats.py", "views/web/hub.py", "table/game_check.py",
                   "league/games.py", "league/luck/game.py"):
        source = (HOST / reader).read_text(encoding="utf-8")
        assert "from schocken_host.table.replay import" in source, reader


# --- MicroPython's const under CPython: host_tools/micropython.py -----------------------------------------
STAND_IN = ROOT / "host_tools" / "micropython.py"


def test_no_module_brings_a_const_of_its_own():
    """``from micropython import const`` as it is, everywhere: no ``try`` around it and no ``def const``;
    under CPython host_tools/micropython.py answers it."""
    own = set()
    for path in python_files(ROOT / "firmware", ROOT / "host_tools", ROOT / "bench", ROOT / "tests"):
        if path == STAND_IN:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "const":
                own.add(path.relative_to(ROOT).as_posix())
            elif isinstance(node, ast.Try) and any(isinstance(n, ast.ImportFrom) and n.module == "micropython"
                                                   for n in ast.walk(node)):
                own.add(path.relative_to(ROOT).as_posix())
    assert not own


def test_the_stand_in_is_all_cpython_needs_to_import_the_firmware():
    """A CPython without site-packages (so without Blinka's ``micropython``), the firmware's folders and
    host_tools on its path: every firmware module that needs no hardware imports, with the stand-in."""
    import subprocess
    import sys
    lib = ROOT / "firmware" / "lib"
    names = sorted(
        ".".join(path.relative_to(lib if lib in path.parents else ROOT / "firmware").with_suffix("").parts)
        for path in python_files(ROOT / "firmware")
        if "from micropython import const" in path.read_text(encoding="utf-8")
        and path.stem not in ("mcu", "rp2", "esp32"))  # these need the board's `machine`
    assert len(names) > 15
    code = ("import sys; sys.path[:0] = %r\nimport micropython\nprint(micropython.__file__)\n"
            "for name in %r: __import__(name)\n"
            % ([str(ROOT / "host_tools"), str(ROOT / "firmware" / "lib"), str(ROOT / "firmware")], names))
    proc = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(STAND_IN)


def test_no_board_gets_the_stand_in():
    """The boards have the real module: deploy, build (firmware/ compiled) and the mip and frozen packages
    carry only firmware/, where no micropython.py is."""
    from schocken_host.provision import packages
    from schocken_host.provision.boards import board_names
    assert not list((ROOT / "firmware").rglob("micropython.py"))
    for board in board_names():
        assert not [f for f in packages.board_sources(board) if f.endswith("micropython.py")], board
    assert not [url for url, _ in packages.rules_package()["urls"] if "micropython" in url]
    assert not [f for f in packages.frozen_sources() if "micropython" in f]
