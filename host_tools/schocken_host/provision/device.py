"""The connection to a cup on a serial port, shared by `schocken deploy` and `schocken doctor`.

mpremote is used as a library (``mpremote.transport_serial.SerialTransport``): one raw-REPL session, never a
soft reset (the unix port's process would end). Also the scripts deploy runs on the board (the probe, the file
hashes) and the ones that start the cup again.
"""

import json
import time

from schocken_host.i18n import Message
from schocken_host.links import urls
from schocken_host.provision import DeployError
from schocken_host.provision.boards import all_flash_hints

USB_HINT = Message("device.usb_hint")


HASH_SCRIPT = """\
import os, hashlib, binascii, json
os.chdir('/')
def _h(p):
    h = hashlib.sha256(); n = 0; b = bytearray(512); m = memoryview(b)
    with open(p, 'rb') as f:
        while True:
            k = f.readinto(b)
            if not k:
                break
            h.update(m[:k]); n += k
    return [n, binascii.hexlify(h.digest()).decode()]
def _walk(d, o):
    try:
        it = list(os.ilistdir(d))
    except OSError:
        return
    for e in it:
        p = d + '/' + e[0]
        if e[1] & 0x4000:
            _walk(p, o)
        else:
            o[p] = _h(p)
_o = {}
for _d in %r:
    _walk(_d, _o)
for _f in %r:
    try:
        _o[_f] = _h(_f)
    except OSError:
        pass
print(json.dumps(_o))
del _o, _h, _walk
"""

PROBE = """\
import sys, os, json
try:
    _m = os.uname().machine
except AttributeError:
    _m = ''
def _r(p):
    try:
        with open(p) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
print(json.dumps({'platform': sys.platform, 'machine': _m, 'mpy': getattr(sys.implementation, '_mpy', 0),
                  'version': list(sys.implementation.version)[:3], 'board': _r('/board.json'),
                  'cup': _r('/cup.json')}))
del _m, _r
"""

# Start the cup: a board resets (main.py runs as after power-up); the emulated board cannot (a soft reset ends
# the unix port), so it forgets the old modules and runs main.py in place. It keeps "vfs": on an emulated
# board with a ROMFS partition that entry is the partition's driver (tests/testbed/flash_cup.py), part of the
# "hardware", which a redeploy looks for.
START_BOARD = "import machine\nmachine.reset()\n"
START_EMULATED = ("import sys\nfor _k in list(sys.modules):\n    if _k != 'vfs':\n"
                  "        del sys.modules[_k]\nimport main\n")


def find_port(port=None):
    if port:
        return port
    from schocken_host.links.serial import likely_ports
    ports = likely_ports()
    if len(ports) == 1:
        return ports[0]
    if not ports:
        raise DeployError("device.no_board", hint=USB_HINT)
    raise DeployError("device.several_boards", ports=", ".join(ports))


class Device:
    """One raw-REPL session with a cup (mpremote's SerialTransport), never soft-resetting it. ``slowness`` K:
    a cup K times slower than a chip (an emulated one): every wait for it, the REPL's and each answer's, is K
    times longer."""

    def __init__(self, port, timeout=5.0, slowness=1):
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport
        self.port = port
        self.slowness = slowness
        try:
            self.t = SerialTransport(port, baudrate=115200)
        except (TransportError, ValueError) as e:
            if urls.is_url(port):
                raise _url_error(port, e)
            raise DeployError("device.cannot_open", port=port, error=e, hint=USB_HINT)
        urls.no_delay(self.t.serial)
        if slowness != 1:   # every answer of the session, mpremote's own (a file's chunks) too
            exec_raw = self.t.exec_raw
            self.t.exec_raw = lambda command, timeout=10, data_consumer=None: exec_raw(
                command, timeout=timeout * slowness, data_consumer=data_consumer)
        try:
            self._enter(timeout * slowness)
        except DeployError:
            self.t.close()
            raise

    def _enter(self, timeout):
        from mpremote.transport import TransportError
        import contextlib
        import io
        # mpremote reads a pty with blocking read(1): a silent port would hang it, so reads time out
        # meanwhile.
        self.t.serial.timeout = 0.2
        try:
            for attempt in range(2):   # a board just reset by opening the port may miss the first Ctrl-C
                try:
                    with contextlib.redirect_stdout(io.StringIO()):   # mpremote prints what it got instead
                        self.t.enter_raw_repl(soft_reset=False, timeout_overall=timeout)
                    return
                except TransportError:
                    continue
            raise NotMicroPython(self.port)
        finally:
            self.t.serial.timeout = None

    def run(self, code, timeout=10):
        """Execute code in the raw REPL; returns its standard output (str); DeployError on an exception."""
        from mpremote.transport import TransportError
        try:
            out, err = self.t.exec_raw(code, timeout=timeout)
        except TransportError as e:
            raise DeployError("device.stopped_answering", port=self.port, error=e)
        if err:
            last = err.decode(errors="replace").strip().splitlines()[-1]
            raise DeployError("device.on_the_cup", error=last)
        return out.decode(errors="replace")

    def json(self, code, timeout=10):
        """Execute code that prints a JSON line last; returns it parsed."""
        lines = [ln for ln in self.run(code, timeout).splitlines() if ln.strip()]
        if not lines:
            raise DeployError("device.printed_nothing", code=code[:40])
        return json.loads(lines[-1])

    def write(self, path, data, progress=None):
        from mpremote.transport import TransportError
        try:
            self.t.fs_writefile(path, data, chunk_size=512, progress_callback=progress)
        except (TransportError, OSError) as e:
            raise DeployError("device.write_failed", path=path, error=e)

    def mkdir(self, path):
        self.run("import os\ntry:\n    os.mkdir(%r)\nexcept OSError:\n    pass\n" % path)

    def start(self, emulated):
        """Start the cup app and let go of the port (no Ctrl-B: the app would read it as link data)."""
        self.t.exec_raw_no_follow(START_EMULATED if emulated else START_BOARD)
        time.sleep(0.05)
        self.t.close()

    def close(self):
        """Back to the friendly REPL and close (the cup app stays stopped)."""
        try:
            self.t.exit_raw_repl()
        except Exception:
            pass
        self.t.close()


def _url_error(port, error):
    """A URL mpremote could not open, said as the serial link says it (links/urls.py): mpremote's own error
    is only "failed to access", so the network is asked why."""
    key, fields = urls.open_error(port, urls.why_not(port) or error)
    return DeployError(key, **fields)


class NotMicroPython(DeployError):
    def __init__(self, port):
        super().__init__("device.not_micropython", port=port, hints=all_flash_hints(), hint=USB_HINT)
