"""Boot: firmware/main.py and firmware/boot_select.py (the dependency rules: tests/test_architecture.py).

- boot_select picks the board module from /board.json and /cup.json: tested on CPython and on the MicroPython
  unix port (the same cases, the same answers), and boot() is run end to end on the unix port with the
  emulated board.
- main.py and boot_select.py catch nothing that would swallow a KeyboardInterrupt (mpy-cross compiles them
  with every other firmware file: tests/test_micropython.py).
"""

import ast
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIRMWARE = REPO / "firmware"
HOST = REPO / "host_tools"
HW = REPO / "hardware" / "boards"

import boot_select  # noqa: E402
from boards import pins  # noqa: E402
from schocken import protocol  # noqa: E402
from schocken import hostside  # noqa: E402
from schocken_host.provision.build import find_tool  # noqa: E402
from conftest import rgb  # noqa: E402

BIN = Path(sys.executable).parent
MICROPYTHON = find_tool("micropython")
MICROPYPATH = "%s:%s:.frozen" % (FIRMWARE, FIRMWARE / "lib")
needs_mp = pytest.mark.skipif(MICROPYTHON is None,
                              reason="micropython unix port not installed (Linux x86_64)")

EXPECTED_MODULES = {
    "esp32_devkitc": "boards.esp32",
    "esp32_s3_devkitc": "boards.esp32",
    "pico_w": "boards.rp2",
    "pico2_w": "boards.rp2",
}
EMULATED_SPEC = {"name": "emulated", "chip": None, "leds": 22, "sensor": "lis3dh"}


# --- main.py and boot_select.py catch nothing ----------------------------------------------------------

def test_boot_files_import_no_hardware_and_catch_no_keyboard_interrupt():
    for name in ("main.py", "boot_select.py"):
        tree = ast.parse((FIRMWARE / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ExceptHandler):
                assert node.type is not None, "%s: bare except would swallow KeyboardInterrupt" % name
                caught = ast.unparse(node.type)
                assert "BaseException" not in caught and "KeyboardInterrupt" not in caught, (name, caught)
    main_code = [ln for ln in (FIRMWARE / "main.py").read_text().splitlines()
                 if ln.strip() and not ln.lstrip().startswith("#")]
    assert len(main_code) <= 5, main_code  # main.py stays tiny: the logic lives in boot_select


# --- boot_select on CPython ----------------------------------------------------------------------------

def spec_of(name):
    return pins.load(HW / ("%s.json" % name))


def config_for(board, **extra):
    cfg = {"board": board, "cup_id": "cup-1", "name": "Anna", "long_press_ms": 1200}
    cfg.update(extra)
    return cfg


def test_every_chip_of_the_pin_validator_has_a_board_module():
    assert sorted(boot_select.CHIP_MODULES) == sorted(pins.CHIPS)
    for module in set(boot_select.CHIP_MODULES.values()) | {boot_select.EMULATED_MODULE}:
        assert (FIRMWARE / (module.replace(".", "/") + ".py")).is_file(), module


def test_name_limit_is_the_protocols():
    assert boot_select.MAX_ID == protocol.MAX_NAME


@pytest.mark.parametrize("name", sorted(EXPECTED_MODULES))
def test_select_each_board(name):
    assert boot_select.select(config_for(name), spec_of(name)) == EXPECTED_MODULES[name]
    assert (boot_select.select({"board": name, "cup_id": "x"}, spec_of(name))
            == EXPECTED_MODULES[name])  # minimal


def test_select_emulated_board():
    assert boot_select.select(config_for("emulated"), EMULATED_SPEC) == "boards.emulated"


def _error(config, spec):
    with pytest.raises(boot_select.BootError) as e:
        boot_select.select(config, spec)
    return e.value.kind, e.value.msg


def test_unknown_chip_is_a_clear_spec_error():
    spec = dict(spec_of("pico_w"), chip="stm32f4")
    kind, msg = _error(config_for("pico_w"), spec)
    assert kind == "spec" and "'stm32f4' unknown" in msg and "esp32, esp32s3, rp2040, rp2350" in msg
    assert _error(config_for("pico_w"), dict(spec, chip=None))[0] == "spec"
    assert _error(config_for("x"), ["not", "a", "dict"])[0] == "spec"


def test_missing_files_are_clear_errors():
    kind, msg = _error(None, spec_of("pico_w"))
    assert kind == "config" and "no /cup.json" in msg and '"board": "pico_w"' in msg
    kind, msg = _error(config_for("pico_w"), None)
    assert kind == "spec" and "no /board.json" in msg


def test_spec_problems_from_the_pin_validator():
    spec = spec_of("esp32_devkitc")
    spec["pins"] = dict(spec["pins"], led_data=34)  # input-only pin cannot drive the LEDs
    kind, msg = _error(config_for("esp32_devkitc"), spec)
    assert kind == "spec" and "input-only" in msg


@pytest.mark.parametrize("config, words", [
    (["pico_w"], "not a JSON object"),
    ({"cup_id": "a"}, "needs 'board'"),
    ({"board": "pico_w"}, "needs 'cup_id'"),
    ({"board": "esp32_devkitc", "cup_id": "a"}, "is for board 'esp32_devkitc'"),
    ({"board": "pico_w", "cup_id": 7}, "'cup_id' must be a string"),
    ({"board": "pico_w", "cup_id": ""}, "'cup_id' is empty"),
    ({"board": "pico_w", "cup_id": "a", "name": "x" * 25}, "longer than 24"),
    ({"board": "pico_w", "cup_id": "a", "long_press_ms": "1200"}, "must be an integer"),
    ({"board": "pico_w", "cup_id": "a", "long_press_ms": True}, "must be an integer"),
    ({"board": "pico_w", "cup_id": "a", "long_press_ms": 50}, "long_press_ms must be 200 to 10000"),
    ({"board": "pico_w", "cup_id": "a", "long_pres_ms": 900}, "unknown key 'long_pres_ms'"),
])
def test_bad_configs(config, words):
    kind, msg = _error(config, spec_of("pico_w"))
    assert kind == "config" and words in msg, msg


def test_read_json(tmp_path):
    assert boot_select.read_json(str(tmp_path / "absent.json")) is None
    (tmp_path / "cup.json").write_text("{not json")
    with pytest.raises(boot_select.BootError) as e:
        boot_select.read_json(str(tmp_path / "cup.json"))
    assert e.value.kind == "config" and "not valid JSON" in e.value.msg
    (tmp_path / "board.json").write_text('{"chip": "rp2040"}')
    assert boot_select.read_json(str(tmp_path / "board.json")) == {"chip": "rp2040"}


def _root(tmp_path, spec=EMULATED_SPEC, config=None):
    (tmp_path / "board.json").write_text(json.dumps(spec))
    if config is not None:
        (tmp_path / "cup.json").write_text(json.dumps(config))
    return str(tmp_path) + "/"


def _die_and_status(b):
    assert b.frames > 0  # it was written to the LEDs
    px = [tuple(b.pixels[i]) for i in range(22)]  # colors as set, before the brightness scaling
    lit = sum(1 << i for i in range(7) if any(px[i]))
    return lit, px[21], {px[i] for i in range(7) if any(px[i])}


def test_boot_without_config_shows_the_error_and_returns(tmp_path, capsys):
    from cup import leds
    assert boot_select.boot(_root(tmp_path),
                            start=lambda b, c, **kw: pytest.fail("started without a config")) is False
    assert "no /cup.json" in capsys.readouterr().out
    lit, status, colors = _die_and_status(boot_select.board)
    assert (status == rgb(leds.ERROR) and colors == {rgb(leds.ERROR)}
            and lit == leds.PIPS[boot_select.FACE_CONFIG])


def test_boot_starts_the_app_with_board_and_config(tmp_path):
    seen = []
    cfg = config_for("emulated")
    assert boot_select.boot(_root(tmp_path, config=cfg),
                            start=lambda b, c, **kw: seen.append((b, c, kw))) is True
    (b, c, kw), = seen
    assert b.name == "emulated" and b is boot_select.board
    # the turn in progress is kept in the root folder, so a reset mid turn comes back with the same dice
    assert c == dict(cfg, state_path=str(tmp_path) + "/state.json")
    # the link's line buffer is made first thing, before the board and app imports fragment the heap
    from schocken.protocol import LineSplitter, MAX_LINE
    assert isinstance(kw["splitter"], LineSplitter) and len(kw["splitter"].buf) == MAX_LINE


def test_boot_never_swallows_keyboard_interrupt(tmp_path):
    def start(b, c, **kw):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        boot_select.boot(_root(tmp_path, config=config_for("emulated")), start=start)


def test_boot_reports_a_crashed_app_on_the_leds(tmp_path, capsys):
    from cup import leds

    def start(b, c, **kw):
        raise RuntimeError("boom")
    assert boot_select.boot(_root(tmp_path, config=config_for("emulated")), start=start) is False
    assert "the cup stopped: RuntimeError: boom" in capsys.readouterr().out
    lit, status, _ = _die_and_status(boot_select.board)
    assert status == rgb(leds.ERROR) and lit == leds.PIPS[boot_select.FACE_CRASH]


def test_boot_with_a_bad_spec_touches_no_board(tmp_path, capsys):
    spec = dict(spec_of("pico_w"), chip="z80")
    assert boot_select.boot(_root(tmp_path, spec, config_for("pico_w"))) is False
    assert "'z80' unknown" in capsys.readouterr().out and boot_select.board is None


# --- boot_select on the MicroPython unix port ------------------------------------------------------------

# One definition of the answers, run on MicroPython (as a script) and on CPython (exec'd here).
ANSWERS = r"""
def answers(cases, boot_select, pins):
    out = []
    for name, config, spec in cases:
        if isinstance(spec, str):
            spec = pins.load(spec)
        try:
            out.append(["ok", boot_select.select(config, spec)])
        except boot_select.BootError as e:
            out.append([e.kind, e.msg])
    return out
"""
CASES_SCRIPT = ("import json, sys\nimport boot_select\nfrom boards import pins\n" + ANSWERS
                + "print(json.dumps(answers(json.loads(sys.stdin.read()), boot_select, pins)))\n")


def _cases():
    cases = []
    for name in sorted(EXPECTED_MODULES):
        path = str(HW / ("%s.json" % name))
        cases.append((name, config_for(name), path))
        cases.append((name + " no config", None, path))
        cases.append((name + " wrong board", config_for("other"), path))
    bad = dict(spec_of("pico_w"), chip="stm32f4")
    cases.append(("unknown chip", config_for("pico_w"), bad))
    cases.append(("no spec", config_for("pico_w"), None))
    cases.append(("emulated", config_for("emulated"), EMULATED_SPEC))
    cases.append(("short long press", config_for("pico_w", long_press_ms=10), str(HW / "pico_w.json")))
    return cases


def _cpython_answers(cases):
    ns = {}
    exec(ANSWERS, ns)
    return ns["answers"](cases, boot_select, pins)


def _mp(args, **kw):
    env = dict(__import__("os").environ, MICROPYPATH=MICROPYPATH)
    return subprocess.run([MICROPYTHON] + args, env=env, capture_output=True, text=True, timeout=60, **kw)


@needs_mp
def test_select_same_on_micropython_and_cpython():
    cases = _cases()
    r = _mp(["-c", CASES_SCRIPT], input=json.dumps(cases))
    assert r.returncode == 0, r.stdout + r.stderr
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got == _cpython_answers(cases)
    assert [g[0] for g in got[:3]] == ["ok", "config", "config"] and got[0][1] == "boards.esp32"


@needs_mp
def test_boot_on_micropython_forgets_the_pin_tables(tmp_path):
    root = _root(tmp_path, spec_of("pico_w"))  # no cup.json; the unix port has no machine.ADC
    r = _mp(["-c", "import boot_select, sys; print(boot_select.boot(%r)); print('boards.pins' in sys.modules)"
             % root])
    lines = r.stdout.strip().splitlines()
    assert r.returncode == 0 and lines[-2:] == ["False", "False"], r.stdout
    assert "no /cup.json" in r.stdout


@needs_mp
def test_boot_without_board_json_returns_to_the_repl(tmp_path):
    r = _mp(["-c", "import boot_select; print(boot_select.boot(%r))" % (str(tmp_path) + "/")])
    assert r.returncode == 0 and r.stdout.strip().splitlines() == [
        "schocken boot: no /board.json: copy hardware/boards/<board>.json there", "False"]


@needs_mp
def test_boot_runs_the_emulated_cup_on_micropython(tmp_path):
    """boot() end to end on the unix port: the emulated board from board.json, the link on stdin/stdout."""
    root = _root(tmp_path, config=config_for("emulated", cup_id="boot-1", name="Bea"))
    env = dict(__import__("os").environ, MICROPYPATH=MICROPYPATH)
    proc = subprocess.Popen([MICROPYTHON, "-X", "heapsize=256k", "-c",
                             "import boot_select; boot_select.boot(%r)" % root],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        proc.stdin.write(protocol.encode({"t": "hello", "v": protocol.VERSION}))
        proc.stdin.flush()
        deadline = time.time() + 20
        ident = None
        while time.time() < deadline and ident is None:
            line = proc.stdout.readline()
            if not line:
                break
            if not hostside.is_noise(line):
                ident = protocol.decode(line, hostside.CUP_TO_HOST)
        assert ident is not None, proc.stderr.read1(2000) if proc.poll() is not None else "no answer"
        assert ((ident["t"], ident["cup"], ident["name"], ident["board"])
                == ("identity", "boot-1", "Bea", "emulated"))
    finally:
        proc.kill()
        proc.wait(5)


# --- main.py on the boards -------------------------------------------------------------------------------

@needs_mp
def test_main_py_runs_on_micropython_and_returns_without_board_json():
    # On this PC there is no /board.json: main.py must print why and return (exit code 0), not crash.
    if Path("/board.json").exists():
        pytest.skip("this machine has a /board.json")
    r = _mp([str(FIRMWARE / "main.py")])
    assert r.returncode == 0 and "no /board.json" in r.stdout, r.stdout + r.stderr
