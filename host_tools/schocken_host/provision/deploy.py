"""`schocken deploy`: put the cup firmware on a board (or an emulated board) with one command.

Steps (docs/build.md, "Flashing"): find the port, interrupt a running cup (Ctrl-C) and enter the raw REPL,
find the board (``--board``, else the /board.json already on it, else what MicroPython reports), compile the
firmware with mpy-cross for the board's ``mpy_arch`` (or take it from ``schocken build``'s artefacts,
``--from``: provision/release.py), put it into the board's ROMFS partition where it has one
(provision/romfs_deploy.py) else copy the .mpy files that changed (with a progress bar) - or, on an image with
the cup frozen in, neither (provision/frozen.py) - remove stale
modules, install aioble on BLE boards unless it imports there (``mpremote mip``), write /board.json,
/cup.json (board, cup id, name, the cup's secret) and /firmware.json (the manifest: every file's size and
SHA-256), read everything back and compare the hashes, and start the cup (a hard reset on a board;
``import main`` on the emulated board, whose soft reset would end it).

mpremote is used as a library (``mpremote.transport_serial.SerialTransport``): one connection for the whole
deploy, never a soft reset (the unix port's process would end: the equivalent of always passing ``resume``);
``mip`` runs as ``mpremote connect PORT resume mip install aioble``.
"""

import hashlib
import json
import secrets
import subprocess
import sys
import time
from pathlib import Path


from schocken_host.i18n import Message, tr
from schocken_host.provision import DeployError, frozen, release, romfs_deploy
from schocken_host.provision.device import HASH_SCRIPT, PROBE, Device, find_port
from schocken_host.links.keys import cups_file, load_cups, save_cup
from schocken_host.provision.build import FIRMWARE
from schocken_host.provision.boards import (EMULATED, MANAGED, MANIFEST, MPY_ARCH_INDEX, MPY_VERSION,
                                            ROOT_FILES, board_from_machine, board_json, board_names,
                                            board_spec, firmware_version, flash_hint)
from schocken_host.provision.release import MAIN, Release, rom_files
from schocken_host.provision.romfs_deploy import ROM_DIR

# Root modules deploy may have put on the filesystem; removed where the firmware no longer has them there.
ROOT_MODULES = ("boot_select.py", "boot_select.mpy", "selftest.py", "selftest.mpy")

# --- output -----------------------------------------------------------------------------------------------

class Reporter:
    """A rich progress bar on a terminal, plain lines otherwise (pipes, logs, tests); the user's language."""

    def __init__(self, out=None, fancy=None, lang="de"):
        self.out = out or sys.stdout
        self.fancy = self.out.isatty() if fancy is None else fancy
        self.lang = lang
        self._progress = None

    def say(self, key, **fields):
        """The text ``deploy.<key>``, one line."""
        self.show(Message("deploy." + key, **fields))

    def show(self, message):
        text = message.localized(self.lang)
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
            task = self._progress.add_task(tr(self.lang, "deploy.copying"), total=total)
            base = [0]

            def update(i, path, done, size):
                self._progress.update(task, completed=base[0] + done, description=path)
                if done >= size:
                    base[0] += size
            return update

        def plain(i, path, done, size):
            if done >= size:
                self.say("copied", i=i + 1, n=len(files), path=path, size=size)
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
    return release.firmware_files(spec.get("mpy_arch"), emulated=spec["name"] == EMULATED)


SHAKE_SENSITIVITIES = ("low", "normal", "high")  # firmware/cup/shake.py; docs/rules.md, "The shake"


def cup_config(spec, probe, cup_id=None, name=None, new_secret=False, link=None, brightness=None, shake=None):
    """The cup's /cup.json: keep the id, name, secret, long-press time, brightness and shake sensitivity (a
    name, or the owner's calibration) on it unless told otherwise."""
    old = probe.get("cup") if isinstance(probe.get("cup"), dict) else {}
    cup_id = cup_id or old.get("cup_id") or "cup-" + secrets.token_hex(3)
    if not 1 <= len(cup_id) <= 24:
        raise DeployError("deploy.cup_id_length", most=24, cup_id=cup_id)
    name = name if name is not None else old.get("name")
    if name is not None and len(name) > 24:
        raise DeployError("deploy.name_length", most=24, name=name)
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
    brightness = brightness if brightness is not None else old.get("brightness")
    if isinstance(brightness, (int, float)) and not isinstance(brightness, bool):
        config["brightness"] = brightness   # the LEDs dimmer than the cap (cup/app.py): energy by need
    shake = shake or old.get("shake")
    if shake is not None and shake != "normal":
        config["shake"] = shake
    config["secret"] = secret or secrets.token_hex(16)
    link = link or old.get("link")
    if link == "ble" and not spec.get("ble"):
        raise DeployError("deploy.no_bluetooth", board=spec["name"])
    if link:
        config["link"] = link
    return config


def device_hashes(dev, extra=(), rom=False):
    """{path: [size, sha256]} of the files deploy owns on the board (and in /rom with ``rom``)."""
    dirs = list(MANAGED) + ([ROM_DIR] if rom else [])
    return dev.json(HASH_SCRIPT % (dirs, list(ROOT_FILES) + list(extra)), timeout=30)


def _dev_path(p):
    return p[1:] if p.startswith("/") else p


def deploy(port=None, board=None, name=None, cup_id=None, mip=True, start=True, control=None,
           new_secret=False, timeout=5.0, out=None, fancy=None, link=None, lang="de", romfs=None,
           source=None, slowness=1, brightness=None, shake=None):
    """Deploy; returns a summary dict. Raises DeployError with what to do. romfs: None = the board's ROMFS
    partition where it has one, False = .mpy files; source: a `schocken build` folder instead of this
    checkout's firmware; slowness K: a cup K times slower than a chip, every wait for it K times longer."""
    rep = Reporter(out, fancy, lang)
    rel = Release(source) if source else None    # every hash checked before the board is touched
    if rel is not None:
        rep.say("release", path=source, version=rel.version)
    port = find_port(port)
    rep.say("connecting", port=port)
    dev = Device(port, timeout, slowness)
    started = False
    try:
        probe = dev.json(PROBE)
        rep.say("micropython", version=".".join(map(str, probe["version"])), machine=probe["machine"] or "?",
                platform=probe["platform"])
        on_board = probe["board"].get("name") if isinstance(probe.get("board"), dict) else None
        name_guess = board or on_board or board_from_machine(probe["machine"], probe["platform"])
        if name_guess is None:
            known = rel.board_names() if rel else board_names()
            raise DeployError("deploy.which_board", machine=probe["machine"], known=", ".join(known))
        spec = rel.spec(name_guess) if rel else board_spec(name_guess)
        _check_interpreter(spec, probe)
        if not control and spec["name"] == EMULATED and on_board == EMULATED:
            control = probe["board"].get("control")   # a redeploy keeps the emulated board's control channel
        if control:
            if spec["name"] != EMULATED:
                raise DeployError("deploy.control_emulated_only")
            spec["control"] = control
        config = cup_config(spec, probe, cup_id, name, new_secret, link, brightness, shake)
        rep.say("board", board=spec["name"], arch=spec.get("mpy_arch") or "bytecode", cup=config["cup_id"],
                name=" \u201c%s\u201d" % config["name"] if config.get("name") else "")
        rom = romfs_deploy.status(dev)
        frozen_in = frozen.choose(frozen.is_frozen(dev), romfs)  # None: no cup frozen into the image
        config_only = frozen_in is not None and frozen_in[0]
        if config_only:  # the image holds the modules: of the firmware only main.py goes on, uncompiled
            firmware = {MAIN: rel.files(spec)[MAIN] if rel else (FIRMWARE / MAIN).read_bytes()}
        else:
            if rel is None:
                rep.say("compiling", arch=spec.get("mpy_arch") or Message("deploy.unix_port"))
            firmware = rel.files(spec) if rel else firmware_files(spec)
        modules = rom_files(firmware)
        image = b""
        if romfs is not False and frozen_in is None:
            image = rel.image(spec) if rel else romfs_deploy.image(modules)
        if frozen_in is None:
            use_rom, why = romfs_deploy.choose(rom, romfs, len(image))
        else:
            use_rom, why = False, frozen_in[1]
        rep.show(why)
        files = {MAIN: firmware[MAIN]} if use_rom or config_only else dict(firmware)
        listed = dict(files)      # what firmware.json lists and the verification reads back
        if use_rom:
            listed.update((ROM_DIR + "/" + p, d) for p, d in modules.items())
        version = "frozen" if config_only else rel.version if rel else firmware_version()
        manifest = {"version": version, "board": spec["name"],
                    "files": {p: [len(d), _sha(d)] for p, d in sorted(listed.items())}}
        if use_rom:
            manifest["romfs"] = [len(image), _sha(image)]
        for path, data in (("board.json", board_json(spec)),
                           ("cup.json", json.dumps(config, sort_keys=True) + "\n"),
                           (MANIFEST, json.dumps(manifest, sort_keys=True) + "\n")):
            files[path] = listed[path] = data.encode()

        if use_rom:
            _write_rom(dev, image, rep)
        elif romfs_deploy.holds_firmware(rom) and not config_only:  # /rom/lib comes before /lib: empty it
            romfs_deploy.write(dev, romfs_deploy.empty_image())
            romfs_deploy.unmount(dev)
            rep.say("romfs_emptied")
        before = {_dev_path(p): v for p, v in device_hashes(dev).items()}
        changed = [p for p, d in files.items() if before.get(p) != [len(d), _sha(d)]]
        rep.say("files", n=len(files), size=sum(len(d) for d in files.values()), copy=len(changed),
                same=len(files) - len(changed))
        _copy(dev, files, changed, rep)
        elsewhere = "rom" if use_rom else "frozen" if config_only else None
        stale = _remove_stale(dev, before, files, elsewhere, rep)

        dev, mip_note = _aioble(dev, spec, mip, port, timeout, rep)
        rep.show(mip_note)

        after = {_dev_path(p): v for p, v in device_hashes(dev, rom=use_rom).items()}
        bad = [p for p, d in listed.items() if after.get(p) != [len(d), _sha(d)]]
        if bad:
            raise DeployError("deploy.verify_failed", files=", ".join(sorted(bad)))
        rep.say("verified", n=len(listed), size=sum(len(d) for d in listed.values()))

        save_cup(config["cup_id"], {"secret": config["secret"], "board": spec["name"],
                                    "name": config.get("name"),
                                    "deployed": time.strftime("%Y-%m-%dT%H:%M:%S"),
                                    "firmware": manifest["version"]})
        rep.say("secret_kept", cup=config["cup_id"], path=cups_file())
        if start:
            dev.start(spec["name"] == EMULATED)
            started = True
            rep.say("started" if spec["name"] == EMULATED else "started_reset")
        else:
            rep.say("left")
        return {"port": port, "board": spec["name"], "cup_id": config["cup_id"], "files": len(listed),
                "copied": len(changed), "removed": stale, "verified": True, "started": started,
                "mip": str(mip_note), "romfs": use_rom}
    finally:
        if not started:
            dev.close()


def _write_rom(dev, image, rep):
    """The image into the partition unless it holds it already; then mounted at /rom."""
    if romfs_deploy.has_image(dev, image):
        rep.say("romfs_same", size=len(image))
    else:
        progress = rep.copying([("ROMFS", len(image))])
        try:
            romfs_deploy.write(dev, image, lambda done, total: progress(0, "ROMFS", done, total))
        finally:
            rep.done_copying()
    romfs_deploy.mount(dev)


def _copy(dev, files, changed, rep):
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


def _remove_stale(dev, before, files, elsewhere, rep):
    """Modules deploy no longer puts there. With the firmware elsewhere (``elsewhere``: "rom" in the ROMFS,
    "frozen" in the image) that is every file of the folders deploy owns, and the folders: '' comes before
    /rom and .frozen on sys.path, and MicroPython imports even an empty /cup folder as a namespace package
    (provision/romfs_deploy.py, provision/frozen.py)."""
    stale = [p for p in before if p not in files and any(p.startswith(d + "/") for d in MANAGED)
             and (elsewhere or p.endswith((".py", ".mpy")))]
    stale += [p for p in ROOT_MODULES if p in before and p not in files]
    for p in sorted(stale):
        dev.run("import os\nos.remove(%r)\n" % ("/" + p))
        if not elsewhere:
            rep.say("removed_stale", path=p)
    if elsewhere and stale:
        rep.say("removed_moved" if elsewhere == "rom" else "removed_frozen", n=len(stale))
    if elsewhere:
        dev.run(RMDIRS % (sorted(MANAGED, key=lambda d: -d.count("/")),))
    return stale


# Deepest first; a folder that is not there or not empty (something not deploy's) stays.
RMDIRS = "import os\nfor _d in %r:\n    try:\n        os.rmdir('/' + _d)\n    except OSError:\n        pass\n"

# On the board already (frozen into the Pico W / Pico 2 W images, or installed by an earlier mip): where from.
AIOBLE_PROBE = """\
try:
    import aioble
    print(getattr(aioble, '__file__', 'aioble'))
except Exception:
    print('')
"""


def _aioble(dev, spec, mip, port, timeout, rep):
    """(the device, possibly reconnected; the one line about aioble)."""
    if not spec.get("ble"):
        return dev, Message("deploy.aioble_skipped", board=spec["name"])
    where = (dev.run(AIOBLE_PROBE).strip().splitlines() or [""])[-1]
    if where:
        return dev, Message("deploy.aioble_present", where=where)
    if not mip:
        return dev, Message("deploy.aioble_no_mip", port=port)
    dev.close()
    note = _mip_install(port, rep)
    return Device(port, timeout, dev.slowness), note


def _check_interpreter(spec, probe):
    mpy = probe.get("mpy") or 0
    if mpy and mpy & 0xFF != MPY_VERSION:
        raise DeployError("deploy.mpy_version", loads=mpy & 0xFF, needs=MPY_VERSION, hint=flash_hint(spec))
    arch = spec.get("mpy_arch")
    if arch and mpy and not _loads(mpy >> 10, MPY_ARCH_INDEX[arch]):
        names = {v: k for k, v in MPY_ARCH_INDEX.items()}
        raise DeployError("deploy.wrong_arch", runs=names.get(mpy >> 10) or Message("deploy.no_native_arch"),
                          board=spec["name"], arch=arch, machine=probe.get("machine"))
    if spec["name"] == EMULATED and probe.get("platform") not in ("linux", "darwin"):
        raise DeployError("deploy.needs_unix_port", platform=probe.get("platform"))


def _loads(runs, needs):
    """Whether a MicroPython built for arch index ``runs`` loads .mpy files made for ``needs``: the same,
    or on Cortex-M any Thumb arch from armv6m up to its own (py/persistentcode.h, MPY_FEATURE_ARCH_TEST),
    so a Pico's armv6m firmware runs on a Cortex-M3 or M33."""
    thumb = MPY_ARCH_INDEX["armv6m"], MPY_ARCH_INDEX["armv7emdp"]
    return runs == needs or thumb[0] <= needs <= runs <= thumb[1]


def _mip_install(port, rep):
    rep.say("installing_aioble")
    cmd = [sys.executable, "-m", "mpremote", "connect", port, "resume", "mip", "install", "aioble"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    except subprocess.TimeoutExpired:
        return Message("deploy.aioble_timeout", command=" ".join(cmd[2:]))
    if r.returncode:
        why = (r.stderr or r.stdout).strip().splitlines()
        return Message("deploy.aioble_failed", why=why[-1] if why else "mip failed", port=port)
    return Message("deploy.aioble_installed")


