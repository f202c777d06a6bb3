"""Release artefacts: `schocken build` writes them from a checkout, `schocken deploy --from DIR` deploys them
where there is none (no firmware sources, no mpy-cross). docs/build.md, "Release artefacts".

    DIR/release.json          {"format": 1, "version", "mpy_version", "archs": {arch: {"files": [...],
                              "romfs": path}}, "files": {path: [size, sha256]}}: every file below, hashed
    DIR/boards/NAME.json      the board files (hardware/boards), so a deploy needs no checkout for them
    DIR/ARCH/files/...        the .mpy bundle for one mpy architecture, as deploy copies it (main.py:
                              source)
    DIR/ARCH/firmware.romfs   the same modules (not main.py) as a ROMFS image (mpremote's format)

ARCH is a board's ``mpy_arch`` (xtensawin, armv6m, armv7emsp) or "bytecode" for the emulated board (the unix
port; its bundle has boards/emulated.mpy, the others do not). A deploy checks every hash in release.json
before it talks to the board: a changed or missing file stops it with one line and nothing written.
"""

import hashlib
import json
import shutil
from pathlib import Path

from schocken_host.provision import DeployError
from schocken_host.provision.boards import (EMULATED, EMULATED_SPEC, HARDWARE, MPY_VERSION, firmware_sources,
                                            firmware_version)
from schocken_host.provision.build import build_dir, compile_firmware

MANIFEST = "release.json"
FORMAT = 1
BYTECODE = "bytecode"        # the arch name of the emulated board's bundle: mpy-cross without -march
MAIN = "main.py"             # stays source and on the filesystem: a board runs /main.py at power-up


def arch_of(spec):
    return spec.get("mpy_arch") or BYTECODE


def archs():
    """Every arch a board file names, and the emulated board's."""
    names = {json.loads(p.read_text()).get("mpy_arch") for p in HARDWARE.glob("*.json")}
    return sorted(n for n in names if n) + [BYTECODE]


def firmware_files(arch=None, emulated=False):
    """{device path: bytes} of the compiled firmware for one mpy arch (None: bytecode for the unix port).
    main.py stays source; the modules are ``boards.firmware_sources(emulated)``'s."""
    tree = compile_firmware(build_dir() / (arch or "unix"), arch=arch)
    files = {}
    for rel in firmware_sources(emulated):
        dest = rel if rel == MAIN else rel[:-3] + ".mpy"
        files[dest] = (tree / dest).read_bytes()
    return files


def rom_files(files):
    """What goes into the ROM: every module but main.py."""
    return {p: d for p, d in files.items() if p != MAIN}


def _sha(data):
    return hashlib.sha256(data).hexdigest()


def build(out, which=None):
    """Write the artefacts for the archs ``which`` (default: all) into ``out``; returns the manifest. Only
    what this writes is replaced there (ARCH/ and boards/ folders, release.json)."""
    from schocken_host.provision import romfs_deploy
    out = Path(out)
    which = list(dict.fromkeys(which or archs()))
    manifest = {"format": FORMAT, "version": firmware_version(), "mpy_version": MPY_VERSION, "archs": {},
                "files": {}}
    written = {}
    for arch in which:
        files = firmware_files(None if arch == BYTECODE else arch, emulated=arch == BYTECODE)
        for path, data in files.items():
            written["%s/files/%s" % (arch, path)] = data
        written["%s/firmware.romfs" % arch] = romfs_deploy.image(rom_files(files))
        manifest["archs"][arch] = {"files": sorted(files), "romfs": "%s/firmware.romfs" % arch}
    for p in sorted(HARDWARE.glob("*.json")):
        written["boards/" + p.name] = p.read_bytes()
    for folder in set(which) | {"boards"}:
        shutil.rmtree(out / folder, ignore_errors=True)
    for path, data in sorted(written.items()):
        dest = out / path
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
        manifest["files"][path] = [len(data), _sha(data)]
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return manifest


class Release:
    """Artefacts read back and checked: every file of the manifest is there with its size and SHA-256."""

    def __init__(self, folder):
        self.folder = Path(folder)
        try:
            self.manifest = json.loads((self.folder / MANIFEST).read_text())
            self.version = self.manifest["version"]
            listed = self.manifest["files"]
            self.manifest["archs"]
        except (OSError, ValueError, KeyError, TypeError):
            raise DeployError("release.no_manifest", path=self.folder / MANIFEST)
        if self.manifest.get("format") != FORMAT:
            raise DeployError("release.format", path=self.folder / MANIFEST,
                              found=self.manifest.get("format"))
        self._data = {}
        for path, (size, digest) in sorted(listed.items()):
            if ".." in Path(path).parts or Path(path).is_absolute():
                raise DeployError("release.tampered", path=path)
            try:
                data = (self.folder / path).read_bytes()
            except OSError:
                raise DeployError("release.missing", path=self.folder / path)
            if len(data) != size or _sha(data) != digest:
                raise DeployError("release.tampered", path=self.folder / path)
            self._data[path] = data

    def spec(self, name):
        """The board file as released (the emulated board's is built in)."""
        if name == EMULATED:
            return dict(EMULATED_SPEC)
        data = self._data.get("boards/%s.json" % name)
        if data is None:
            raise DeployError("boards.unknown", name=name, known=", ".join(self.board_names()))
        return json.loads(data)

    def board_names(self):
        return sorted(p[7:-5] for p in self._data if p.startswith("boards/")) + [EMULATED]

    def _arch(self, spec):
        arch = arch_of(spec)
        if arch not in self.manifest["archs"]:
            raise DeployError("release.no_arch", arch=arch, board=spec["name"],
                              archs=", ".join(sorted(self.manifest["archs"])))
        return self.manifest["archs"][arch]

    def files(self, spec):
        """{device path: bytes} of the bundle for the board's arch."""
        entry, arch = self._arch(spec), arch_of(spec)
        return {p: self._get("%s/files/%s" % (arch, p)) for p in entry["files"]}

    def image(self, spec):
        return self._get(self._arch(spec)["romfs"])

    def _get(self, path):
        if path not in self._data:   # named by "archs" but not hashed under "files": not ours
            raise DeployError("release.tampered", path=self.folder / path)
        return self._data[path]
