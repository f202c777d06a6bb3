"""Test helpers: an emulated cup reached only through its real inputs, the serial link and the control
channel."""

import time

import serial

from schocken import hostside, protocol
from schocken_host.emulation.emulator import EmulatedCup, HEAP, SHAKE_MS
from schocken_host.i18n import firmware_text
from schocken_host.links import ledframe


class LineReader:
    """Whole lines from a serial link. pyserial's readline gives up at the link's timeout with what it has:
    a line the cup writes in pieces on a loaded machine is kept here until its newline comes."""

    def __init__(self, link):
        self.link = link
        self.partial = b""

    def next(self, timeout):
        """The next whole line (newline included), or None when none is complete within ``timeout`` s."""
        end = time.time() + timeout
        while True:
            self.partial += self.link.readline()
            if self.partial.endswith(b"\n"):
                line, self.partial = self.partial, b""
                return line
            if time.time() >= end:
                return None


# A throw's shake in cup ms: a bot's (table/bots.py), the shortest the shake-quality rule takes with room
# (300 ms and three half-swings of the emulated 5 Hz shake, docs/rules.md "The shake"), on the scaled clock
# that every EmulatedCup runs on unless it asks for the port's own (port_clock: the heap a board has). On
# that clock a stalled process's gap is time, and a stall in a 400 ms shake left too few half-swings to count
# (no throw, at load 15-24): such a cup shakes as a person's key does (SHAKE_MS, 800).
THROW_MS = 400


class CupDriver:
    def __init__(self, heap=None, long_ms=300, cup=None, **kw):
        """``cup``: an EmulatedCup made elsewhere (started with long_ms), else one is made here."""
        self.cup = cup or EmulatedCup(heap=heap or HEAP, long_ms=long_ms, **kw)
        self.long_ms = long_ms
        self.throw_ms = SHAKE_MS if kw.get("port_clock") else THROW_MS
        self.link = serial.Serial(self.cup.port, timeout=0.1)
        self.inbox = []
        self.lines = LineReader(self.link)

    def close(self):
        self.link.close()
        self.cup.close()

    def restart(self, while_off=None):
        """A reset: the link closed, the cup's process started again on its flash (``while_off`` called
        between), the link opened anew with a reader of its own. The inbox stays as it was."""
        self.link.close()
        if while_off is not None:
            while_off()
        self.cup.restart()
        self.link = serial.Serial(self.cup.port, timeout=0.1)
        self.lines = LineReader(self.link)

    # --- link -------------------------------------------------------------------------------------
    def send_raw(self, data):
        self.link.write(data)

    def send(self, **msg):
        self.link.write(protocol.encode(msg))

    def _read(self, timeout):
        end = time.time() + timeout
        while time.time() < end:
            try:
                line = self.lines.next(end - time.time())
            except serial.SerialException as e:
                time.sleep(0.2)   # a process that closed its link is reaped by then
                raise AssertionError("the cup's link broke (%s); %s" % (e, self.cup.last_words())) from e
            if line:
                if hostside.is_noise(line):
                    continue
                msg = protocol.decode(line, hostside.CUP_TO_HOST)
                if msg["t"] == "error" and msg.get("msg") is None:
                    msg["msg"] = firmware_text(msg["why"])  # in words, as the host's transport reads it
                return msg
        return None

    def recv(self, kind, timeout=20.0):
        """The next message of type ``kind``; others are kept in inbox. The wait ends with the message: its
        bound is for a cup that never answers, with room for a machine busy with the suite's other workers."""
        for i, msg in enumerate(self.inbox):
            if msg["t"] == kind:
                return self.inbox.pop(i)
        end = time.time() + timeout
        while time.time() < end:
            msg = self._read(end - time.time())
            if msg is None:
                break
            if msg["t"] == kind:
                return msg
            self.inbox.append(msg)
        raise AssertionError("no %s message within %.1f s; got %s" % (kind, timeout, self.inbox))

    def quiet(self, wait=0.3):
        """Collect everything the cup says within ``wait`` seconds."""
        end = time.time() + wait
        while time.time() < end:
            msg = self._read(end - time.time())
            if msg:
                self.inbox.append(msg)
        out, self.inbox = self.inbox, []
        return out

    def request(self, kind_back="ok", **msg):
        self.send(**msg)
        return self.recv(kind_back)

    # --- physical world ---------------------------------------------------------------------------
    def start(self, preset="standard", name="Anna", seat=0, options=None):
        self.request("identity", t="hello", v=protocol.VERSION)
        self.request(t="configure", rules={"preset": preset, "options": options or {}}, name=name, seat=seat)

    def throw(self, *dice):
        if dice:
            self.cup.control("dice " + " ".join(str(d) for d in dice))
        self.cup.shake(self.throw_ms)
        return self.recv("progress")

    def three_rounds(self, fair=False):
        """Hello, configure, then three full rounds (turn, a throw, stand or the limit's own done, reveal,
        outcome), each reveal checked against its commitment and the rules; ``fair``: provably fair rolls, the
        host's nonce for every throw, as `schocken play` does by default. The reveals, in order."""
        from schocken.hostside import check_reveal
        from schocken.rules import Rules
        self.request("identity", t="hello", v=protocol.VERSION)
        self.request(t="configure", rules={"preset": "standard", "options": {}}, name="Anna", seat=0,
                     fair=fair)
        reveals = []
        for r in (1, 2, 3):
            limit = None if r == 1 else 1
            self.request(t="turn", round=r, limit=limit)
            if fair:
                self.recv("seed")
                self.cup.shake(self.throw_ms)
                ask = self.recv("shake")
                self.send(t="nonce", round=r, throw=ask["throw"], nonce="%032x" % (r * 7919))
                self.recv("progress")
            else:
                self.throw()
            done = self.stand() if r == 1 else self.recv("done")
            rev = self.request("revealed", t="reveal", round=r)
            check_reveal(Rules("standard"), limit, done["commit"], rev)
            self.request(t="outcome", round=r, result="won", deckel=0, middle=13)
            reveals.append(rev)
        return reveals

    def live_heap(self):
        """The cup's live heap in bytes (gc.mem_alloc after a collection), from its control channel."""
        seen = len(self.cup.control_lines)
        self.cup.control("mem")
        end = time.time() + 2
        while time.time() < end:
            for line in self.cup.control_lines[seen:]:
                if line.startswith("mem "):
                    return int(line.split()[1])
            time.sleep(0.005)
        raise AssertionError("no answer to mem")

    def control(self, line):
        """A control line that has taken effect when this returns: the link and the control channel are two
        streams with no order between them, so a link line sent right after a control line may be read first.
        The cup answers "mem" on the same channel, after the line."""
        self.cup.control(line)
        self.live_heap()

    def die(self, slot):
        self.cup.press(slot, 60)

    def die_long(self, slot):
        self.cup.press(slot, self.long_ms + 200)

    def stand(self):
        self.cup.press(3, self.long_ms + 200)
        return self.recv("done")

    def hold_main(self):
        self._and_its_frame("press 3")

    def release_main(self):
        self._and_its_frame("release 3")

    def _and_its_frame(self, line, timeout=5.0):
        """A control line, then the frame that shows it (bounded: a loaded machine draws it late; where no
        frame comes, the cup showed nothing new), and a debounce's time."""
        before = self.cup.frame_count
        self.cup.control(line)
        end = time.monotonic() + timeout
        while self.cup.frame_count == before and time.monotonic() < end:
            time.sleep(0.01)
        time.sleep(0.1)

    # --- what the LEDs show ----------------------------------------------------------------------
    def pixel(self, i):
        return ledframe.pixel(self.cup.last_frame, i)

    def faces(self):
        """Face shown on each die (0 = dark; None = a pattern that is no face)."""
        return ledframe.decode(self.cup.last_frame)["dice"]

    def settle(self, wait=0.2):
        time.sleep(wait)


def hello(port, timeout=5.0):
    """Open the cup's port like the referee does and ask who it is: its identity message."""
    deadline = time.time() + timeout
    with serial.Serial(port, timeout=0.2) as s:
        # On a line of its own, as the referee's (links/transport.py): what an earlier session left in the
        # cup's input (a raw REPL's last bytes before a power cycle) would swallow its start, and the cup
        # would answer bad_json instead of who it is.
        s.write(b"\n" + protocol.encode({"t": "hello", "v": protocol.VERSION}))
        buf = b""
        while time.time() < deadline:
            buf += s.read(4096)
            for line in buf.split(b"\n"):
                part = hostside.message_part(line)
                if part and b'"identity"' in part:
                    return protocol.decode(part, hostside.CUP_TO_HOST)
    raise AssertionError("no identity from the cup: %r" % buf[-300:])
