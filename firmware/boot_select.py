"""Boot: which board module runs this cup, and the start-up that firmware/main.py runs (docs/firmware.md).

The device holds two JSON files in its root folder:

    /board.json   the board spec, a copy of hardware/boards/<board>.json (pins and parts)
    /cup.json     this cup: {"board": "pico_w", "cup_id": "cup-7", "name": "Anna", "long_press_ms": 1200}

and the cup writes a third, /state.json, at every step of a turn (cup/store.py), so a reset mid turn comes
back with the same dice.

``select(config, spec)`` is pure (dicts in, a module name out, ``BootError`` with a clear message otherwise),
so it is tested on CPython and on the MicroPython unix port. ``boot(root)`` does the reading, makes the board
and starts the cup app. Nothing here imports ``machine``: only the board module chosen does.
KeyboardInterrupt is never caught, so mpremote can always interrupt a running cup.
"""

import sys

CONFIG_FILE = "cup.json"
SPEC_FILE = "board.json"
STATE_FILE = "state.json"

# Chip family (spec["chip"], the names of boards.pins.CHIPS) -> board module.
CHIP_MODULES = {
    "esp32": "boards.esp32",
    "esp32s3": "boards.esp32",
    "rp2040": "boards.rp2",
    "rp2350": "boards.rp2",
}
EMULATED = "emulated"          # spec name of the desktop board (firmware/boards/emulated.py):
                               # no chip, no pins
EMULATED_MODULE = "boards.emulated"

# Keys of /cup.json: name -> (type, required).
CONFIG_KEYS = {
    "board": (str, True),          # must equal the spec's "name": the right board.json was deployed
    "cup_id": (str, True),         # identity "cup" on the wire
    "name": (str, False),          # identity "name" until a host configures the cup
    "long_press_ms": (int, False),  # buttons: held this long = long press (default cup.buttons.LONG_MS)
    "secret": (str, False),        # per-cup secret for the fair-play features, written by `schocken deploy`
    "link": (str, False),          # "serial" (default: the USB REPL port) or "ble" (boards/ble.py, aioble)
    "brightness": (float, False),  # the LEDs dimmer than the cap (deploy --brightness; cup/app.py)
    "shake": (None, False),        # shake sensitivity: "low", "normal", "high" or a calibration (a list);
                                   # the detector checks it; one it refuses leaves the cup at normal
}
MAX_ID = 24                        # = schocken.protocol.MAX_NAME (checked by tests/test_boot.py)
LONG_PRESS_MIN_MS = 200            # far above the 20 ms debounce, below any "press and hold"
LONG_PRESS_MAX_MS = 10000

# What die 1 shows (in the error color, with the status pixel) when the cup cannot play.
FACE_CONFIG = 1                    # /cup.json missing or wrong
FACE_CRASH = 2                     # the cup app stopped with an exception

board = None                       # the board made by boot(), kept for the REPL after an error


class BootError(Exception):
    """kind: "spec" (board.json: the board cannot be driven) or "config" (cup.json: the board is fine)."""

    def __init__(self, kind, msg):
        super().__init__(msg)
        self.kind = kind
        self.msg = msg


def module_for(spec):
    """Board spec -> name of its board module; BootError("spec") for anything else."""
    if type(spec) is not dict:
        raise BootError("spec", "/%s is not a JSON object" % SPEC_FILE)
    if spec.get("name") == EMULATED and spec.get("chip") is None:
        return EMULATED_MODULE
    chip = spec.get("chip")
    module = CHIP_MODULES.get(chip) if type(chip) is str else None
    if module is None:
        raise BootError("spec", "/%s: chip %r unknown (known: %s)" % (
            SPEC_FILE, chip, ", ".join(sorted(CHIP_MODULES))))
    return module


def check_spec(spec):
    """The pin validator (boards/pins.py) over a hardware spec; BootError("spec") listing the problems."""
    module = module_for(spec)
    if module == EMULATED_MODULE:
        return module
    from boards import pins
    problems = pins.validate(spec)
    _forget("boards.pins", "boards", "pins")  # ~11 KB of chip tables, needed only here
    if problems:
        raise BootError("spec", "/%s (%s): %s" % (SPEC_FILE, spec.get("name"), "; ".join(problems)))
    return module


def check_config(config, spec):
    """/cup.json against its keys and the spec; returns the config; BootError("config") otherwise."""
    if config is None:
        raise BootError("config", "no /%s: write one, e.g. {\"board\": \"%s\", \"cup_id\": \"cup-1\"}" % (
            CONFIG_FILE, spec.get("name") if type(spec) is dict else "pico_w"))
    if type(config) is not dict:
        raise BootError("config", "/%s is not a JSON object" % CONFIG_FILE)
    for key in config:
        if key not in CONFIG_KEYS:
            raise BootError("config", "/%s: unknown key %r (known: %s)" % (
                CONFIG_FILE, key, ", ".join(sorted(CONFIG_KEYS))))
    for key in CONFIG_KEYS:
        kind, required = CONFIG_KEYS[key]
        if key not in config:
            if required:
                raise BootError("config", "/%s needs %r" % (CONFIG_FILE, key))
            continue
        value = config[key]
        if kind is not None and type(value) is not kind:
            raise BootError("config", "/%s: %r must be %s, got %r" % (
                CONFIG_FILE, key, "a string" if kind is str else "an integer" if kind is int else "a number",
                value))
    if config["board"] != spec.get("name"):
        raise BootError("config", "/%s is for board %r, but /%s describes %r" % (
            CONFIG_FILE, config["board"], SPEC_FILE, spec.get("name")))
    for key in ("cup_id", "name"):
        if len(config.get(key, "")) > MAX_ID:
            raise BootError("config", "/%s: %r longer than %d characters" % (CONFIG_FILE, key, MAX_ID))
    if not config["cup_id"]:
        raise BootError("config", "/%s: 'cup_id' is empty" % CONFIG_FILE)
    ms = config.get("long_press_ms")
    if ms is not None and not LONG_PRESS_MIN_MS <= ms <= LONG_PRESS_MAX_MS:
        raise BootError("config", "/%s: long_press_ms must be %d to %d, got %d" % (
            CONFIG_FILE, LONG_PRESS_MIN_MS, LONG_PRESS_MAX_MS, ms))
    return config


def select(config, spec):
    """(cup config or None, board spec) -> board module name, e.g. "boards.rp2".

    The spec is checked first (kind "spec": do not drive any pin), then the config (kind "config": the
    board itself is usable, so the error can be shown on its LEDs)."""
    if spec is None:
        raise BootError("spec", "no /%s: copy hardware/boards/<board>.json there" % SPEC_FILE)
    module = check_spec(spec)
    check_config(config, spec)
    return module


def read_json(path):
    """The JSON in ``path``; None when the file does not exist; BootError when it is not JSON."""
    import json
    try:
        f = open(path)
    except OSError:
        return None
    try:
        return json.load(f)
    except ValueError as e:
        kind = "config" if path.endswith(CONFIG_FILE) else "spec"
        raise BootError(kind, "%s is not valid JSON (%s)" % (path, e))
    finally:
        f.close()


def make_board(module, spec):
    """Import the board module by name and make the board from the spec."""
    __import__(module)
    return sys.modules[module].make_board(spec)


def show_error(b, face):
    """The cup cannot play: status pixel and die 1 in the error color, die 1 showing ``face`` pips."""
    from cup.leds import ERROR, DiceLeds
    leds = DiceLeds(b.pixels, 1.0)
    leds.show_die(0, face, ERROR)
    leds.status(ERROR)
    leds.refresh()


def boot(root="/", start=None):
    """Read root/board.json and root/cup.json, make the board, run the cup app until it ends.

    On an error it prints one line (the host skips it as noise), shows the error on the LEDs when the board
    could be made, and returns, so the device falls back to the REPL. Returns True when the app ended
    normally, else False. ``start`` replaces cup.app.start (tests)."""
    global board
    board = None
    spec = config = None
    from schocken.protocol import MAX_LINE, LineSplitter
    # The cup's largest buffer, made before the imports below cut the heap into pieces.
    splitter = LineSplitter(MAX_LINE)
    try:
        spec = read_json(root + SPEC_FILE)
        config = read_json(root + CONFIG_FILE)
        module = select(config, spec)
    except BootError as e:
        _say(e.msg)
        if e.kind == "config":  # the board itself may be fine: then it shows the error
            try:
                module = check_spec(spec)
            except BootError:
                return False
            _show(module, spec, FACE_CONFIG)
        return False
    try:
        board = make_board(module, spec)
        if config.get("link") == "ble":
            from boards import ble
            ble.attach(board, config)  # the host link becomes the GATT service; the radio also feeds the RNG
    except Exception as e:  # a missing sensor, a pin in use, no radio: no board, no LEDs
        _say("cannot start board %s: %s: %s" % (spec.get("name"), type(e).__name__, e))
        return False
    config["state_path"] = root + STATE_FILE  # the turn in progress, kept across a reset
    _collect()
    if start is None:
        from cup.app import start
    try:
        start(board, config, splitter=splitter)
    except Exception as e:  # KeyboardInterrupt is no Exception: it always reaches the REPL
        _say("the cup stopped: %s: %s" % (type(e).__name__, e))
        _print_exception(e)
        _show_on(board, FACE_CRASH)
        return False
    return True


# --- helpers ------------------------------------------------------------------------------------------
def _say(text):
    print("schocken boot: " + text)


def _show(module, spec, face):
    global board
    try:
        board = make_board(module, spec)
    except Exception as e:
        _say("cannot show the error on the LEDs: %s: %s" % (type(e).__name__, e))
        return
    _show_on(board, face)


def _show_on(b, face):
    try:
        show_error(b, face)
    except Exception as e:
        _say("cannot show the error on the LEDs: %s: %s" % (type(e).__name__, e))


def _print_exception(e):
    if hasattr(sys, "print_exception"):
        sys.print_exception(e)
    else:
        import traceback
        traceback.print_exception(type(e), e, e.__traceback__)


def _forget(name, parent, attr):
    # MicroPython: drop a module used once at boot, so the GC can reclaim it (CPython keeps it: other code in
    # the same process may hold it).
    if sys.implementation.name != "micropython":
        return
    sys.modules.pop(name, None)
    pkg = sys.modules.get(parent)
    if pkg is not None and attr in dir(pkg):
        try:
            delattr(pkg, attr)
        except (AttributeError, TypeError):
            pass


def _collect():
    import gc
    gc.collect()
