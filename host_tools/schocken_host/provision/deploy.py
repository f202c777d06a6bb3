"""`schocken deploy`: put the cup firmware on a board (or an emulated board) with one command.

Steps (docs/build.md, "Flashing"): find the port, interrupt a running cup (Ctrl-C) and enter the raw REPL,
find the board (``--board``, else the /board.json already on it, else what MicroPython reports), compile the
firmware with mpy-cross for the board's ``mpy_arch``, copy what changed (with a progress bar), remove stale
modules, install aioble on BLE boards (``mpremote mip``), write /board.json, /cup.json (board, cup id, name,
the cup's secret) and /firmware.json (the manifest: every file's size and SHA-256), read everything back and
compare the hashes, and start the cup (a hard reset on a board; ``import main`` on the emulated board, whose
soft reset would end it).

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
from schocken_host.provision.build import FIRMWARE, build_dir, compile_firmware
from schocken_host.provision import DeployError
from schocken_host.provision.device import HASH_SCRIPT, PROBE, Device, find_port
from schocken_host.links.keys import cups_file, load_cups, save_cup
from schocken_host.provision.boards import (DESKTOP_ONLY, EMULATED, MANAGED, MANIFEST, MPY_ARCH_INDEX,
                                            MPY_VERSION, ROOT_FILES, board_from_machine, board_names,
                                            board_spec, firmware_version, flash_hint)

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
    """The cup's /cup.json: keep the id, name, secret and long-press time on it unless told otherwise."""
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
    config["secret"] = secret or secrets.token_hex(16)
    link = link or old.get("link")
    if link == "ble" and not spec.get("ble"):
        raise DeployError("deploy.no_bluetooth", board=spec["name"])
    if link:
        config["link"] = link
    return config


def device_hashes(dev, extra=()):
    return dev.json(HASH_SCRIPT % (list(MANAGED), list(ROOT_FILES) + list(extra)), timeout=30)


def _dev_path(p):
    return p[1:] if p.startswith("/") else p


def deploy(port=None, board=None, name=None, cup_id=None, mip=True, start=True, control=None,
           new_secret=False, timeout=5.0, out=None, fancy=None, link=None, lang="de"):
    """Deploy; returns a summary dict. Raises DeployError with what to do."""
    rep = Reporter(out, fancy, lang)
    port = find_port(port)
    rep.say("connecting", port=port)
    dev = Device(port, timeout)
    started = False
    try:
        probe = dev.json(PROBE)
        rep.say("micropython", version=".".join(map(str, probe["version"])), machine=probe["machine"] or "?",
                platform=probe["platform"])
        on_board = probe["board"].get("name") if isinstance(probe.get("board"), dict) else None
        name_guess = board or on_board or board_from_machine(probe["machine"], probe["platform"])
        if name_guess is None:
            raise DeployError("deploy.which_board", machine=probe["machine"], known=", ".join(board_names()))
        spec = board_spec(name_guess)
        _check_interpreter(spec, probe)
        if not control and spec["name"] == EMULATED and on_board == EMULATED:
            control = probe["board"].get("control")   # a redeploy keeps the emulated board's control channel
        if control:
            if spec["name"] != EMULATED:
                raise DeployError("deploy.control_emulated_only")
            spec["control"] = control
        config = cup_config(spec, probe, cup_id, name, new_secret, link)
        rep.say("board", board=spec["name"], arch=spec.get("mpy_arch") or "bytecode", cup=config["cup_id"],
                name=" \u201c%s\u201d" % config["name"] if config.get("name") else "")
        rep.say("compiling", arch=spec.get("mpy_arch") or Message("deploy.unix_port"))
        files = firmware_files(spec)
        manifest = {"version": firmware_version(), "board": spec["name"],
                    "files": {p: [len(d), _sha(d)] for p, d in sorted(files.items())}}
        files["board.json"] = (json.dumps(spec, indent=1, sort_keys=True) + "\n").encode()
        files["cup.json"] = (json.dumps(config, sort_keys=True) + "\n").encode()
        files[MANIFEST] = (json.dumps(manifest, sort_keys=True) + "\n").encode()

        before = {_dev_path(p): v for p, v in device_hashes(dev).items()}
        changed = [p for p, d in files.items() if before.get(p) != [len(d), _sha(d)]]
        rep.say("files", n=len(files), size=sum(len(d) for d in files.values()), copy=len(changed),
                same=len(files) - len(changed))
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
            rep.say("removed_stale", path=p)

        mip_note = None
        if spec.get("ble"):
            if mip:
                dev.close()
                mip_note = _mip_install(port, rep)
                dev = Device(port, timeout)
            else:
                mip_note = Message("deploy.aioble_no_mip", port=port)
        else:
            mip_note = Message("deploy.aioble_skipped", board=spec["name"])
        rep.show(mip_note)

        after = {_dev_path(p): v for p, v in device_hashes(dev).items()}
        bad = [p for p, d in files.items() if after.get(p) != [len(d), _sha(d)]]
        if bad:
            raise DeployError("deploy.verify_failed", files=", ".join(sorted(bad)))
        rep.say("verified", n=len(files), size=sum(len(d) for d in files.values()))

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
        return {"port": port, "board": spec["name"], "cup_id": config["cup_id"], "files": len(files),
                "copied": len(changed), "removed": stale, "verified": True, "started": started,
                "mip": str(mip_note)}
    finally:
        if not started:
            dev.close()


def _check_interpreter(spec, probe):
    mpy = probe.get("mpy") or 0
    if mpy and mpy & 0xFF != MPY_VERSION:
        raise DeployError("deploy.mpy_version", loads=mpy & 0xFF, needs=MPY_VERSION, hint=flash_hint(spec))
    arch = spec.get("mpy_arch")
    if arch and mpy and (mpy >> 10) != MPY_ARCH_INDEX[arch]:
        names = {v: k for k, v in MPY_ARCH_INDEX.items()}
        raise DeployError("deploy.wrong_arch", runs=names.get(mpy >> 10) or Message("deploy.no_native_arch"),
                          board=spec["name"], arch=arch, machine=probe.get("machine"))
    if spec["name"] == EMULATED and probe.get("platform") not in ("linux", "darwin"):
        raise DeployError("deploy.needs_unix_port", platform=probe.get("platform"))


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


