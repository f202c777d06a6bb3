"""Start one emulated cup: the unchanged firmware with the emulated board.

    MICROPYPATH=firmware:firmware/lib:.frozen micropython firmware/emulate.py --control /dev/pts/N [--cup ID]
        [--name NAME] [--board hardware/boards/pico_w.json] [--sensor accel|switch] [--long-ms MS]
        [--state FILE]   (the emulated flash: the cup's state survives a restart)
        [--secret HEX]   (the cup's secret, as deploy writes it to /cup.json: the host link is authenticated)
        [--time-scale K] (the board's clock runs K times faster: timescale.py; bots' tables in seconds)
        [--idle-scale K] (also while nothing moves: bench/energy.py's evening and shelf in minutes)
        [--clock-start MS] (the board's ticks_ms() starts at MS, e.g. just below its wrap at 2**30)

The host link is standard input/output (the host puts a pseudo-terminal there and opens it like a serial
port). The control channel (a second pseudo-terminal, path given with --control) carries the physical world:
button and shake lines in (docs/emulation.md), LED frames out as "leds <hex GRB bytes>" lines, and
"error: ..." lines for rejected control input. Emulation only: "dice D D D" scripts the next roll, "cheat
dice|transcript|garbage|chosen [always]" makes the cup misbehave on its next (or every) reveal, "inject JSON"
makes it send any message (cheat.py, docs/emulation.md); "power" answers the power counters (bench/energy.py).
The same file runs under CPython where the unix port does not exist (boards/cpython.py supplies what
MicroPython has built in; it says which interpreter it uses on the control channel: "hello <interpreter>").
"""

import sys

from cup.roller import Roller
from schocken import text

from micropython import const

MICROPYTHON = sys.implementation.name == "micropython"
_CONTROL_LINE = const(1100)  # bytes of a control line at most: "inject" and a message of protocol.MAX_LINE
# Texts of boards/emulated_texts.py (schocken.text), as the emulated board's: a number each.
_TEXTS = "boards.emulated_texts"
_USAGE_DICE = const(11)
_LINE_TOO_LONG = const(12)
_LINE_DROPPED = const(13)
_BAD_FRAME = const(14)
_BAD_ARGUMENT = const(15)
_NO_HEAP = const(16)


class ScriptedRoller(Roller):
    """Emulation only: dice scripted on the control channel ("dice 6 6 3") come out at the next roll of as
    many dice, so tests can play Sechsen drehen and friends through the cup's real inputs. Without a script it
    is the real roller."""

    scripted = None  # the next roll's dice: a line sent again (a bot that tried twice) replaces, never queues

    def roll(self, n):
        dice = self.scripted
        if dice:
            self.scripted = None
            if len(dice) == n:
                return dice
        return super().roll(n)


class Control:
    """The control channel: board lines (docs/emulation.md) plus "dice ..." for the scripted roller and
    "cheat ..." for a misbehaving cup (cheat.py, loaded when first asked for). A channel of the cup's loop
    (cup/app.py ``App.serve``): ``link`` a Console, ``step()`` takes what has come; under CPython (only there)
    ``task()`` reads its ``FdReader`` in asyncio. ``say(bytes)``: a line out."""

    def __init__(self, link, say, app):
        # The board and the roller are the app's (app.board, app.cup.roller): eight attributes, a table of 8
        # slots, not 10, in the emulated cup's heap.
        self.link = link
        self.say = say
        self.app = app
        self.cheat = None
        self.buf = bytearray(32)
        self.pending = bytes()  # the empty bytes: bytes() makes no object, b"" is one kept with the module
        self.skipping = False
        self.mem_asked = False

    def step(self):
        n = self.link.take(self.buf)
        if n > 0:
            self.feed(n)
            if self.mem_asked:  # "mem" answered here: the frames of feed and act (on the heap) are gone
                import gc
                self.mem_asked = False
                gc.collect()
                self.say(("mem %d %d\n" % (gc.mem_alloc(), gc.mem_free())).encode())
        return n >= 0

    if not MICROPYTHON:  # only the CPython emulation runs the cup in asyncio (cup/tasks.py): no object here
        async def task(self):
            while True:
                n = await self.link.readinto(self.buf)
                if not n:
                    return
                self.feed(n)

    def feed(self, n):
        """The ``n`` bytes just read into ``buf``: each line they end is acted on by itself, so a line that
        fails (no memory for a long line in a small heap, ...) is lost, not the lines beside it."""
        buf, say = self.buf, self.say
        start = 0
        if self.skipping:  # the rest of a dropped line: nothing of it is kept, up to its newline
            start = buf.find(b"\n", 0, n) + 1
            if not start:
                return
            self.skipping = False
        while start < n:
            end = buf.find(b"\n", start, n)
            try:
                # Too long is told before anything of it is kept: how much one read holds is the host's
                # timing, and a long line must end the same way whatever it was.
                if len(self.pending) + (n if end < 0 else end) - start > _CONTROL_LINE:
                    self.pending = bytes()
                    self.skipping = end < 0  # dropped up to its newline
                    say(text(_LINE_TOO_LONG, _CONTROL_LINE, module=_TEXTS).encode() + b"\n")
                    if end < 0:
                        return
                    start = end + 1
                    continue
                if end < 0:  # the line goes on in the next read
                    self.pending += buf[start:n]  # emulation only: a few short lines a second
                    return
                line = self.pending + buf[start:end]
                self.pending = bytes()
                err = self.act(line)
                if err is not None:
                    say(err.encode() + b"\n")
            except Exception as e:
                line = err = None  # what the line held goes before the answer is made
                self.pending = bytes()
                self.skipping = end < 0  # a line that failed before its end is dropped up to its newline
                try:
                    say(text(_LINE_DROPPED, type(e).__name__, module=_TEXTS).encode() + b"\n")
                except Exception:  # not even room for that: the channel still reads on
                    pass
                if end < 0:
                    return
            start = end + 1

    def act(self, line):
        """One control line (bytes) -> None, or the error line to answer. A line that is not UTF-8 raises
        (``feed`` answers that it was dropped)."""
        line = line.decode()
        words = line.split()
        verb = words[0] if words else ""
        if verb == "dice":
            dice = ["123456".find(w) + 1 if len(w) == 1 else 0 for w in words[1:]]
            if not 1 <= len(dice) <= 3 or 0 in dice:
                return text(_USAGE_DICE, module=_TEXTS)
            self.app.cup.roller.scripted = dice
            return None
        if verb == "cheat" or verb == "inject":
            if self.cheat is None:
                from cheat import Cheat
                self.cheat = Cheat(self.app, self.app.cup.roller)
            if verb == "cheat":
                return self.cheat.arm(words[1:])
            return self.cheat.inject(line.strip()[len(verb):])
        if verb == "power":  # the power counters (cup/clock.py), for bench/energy.py: wakes no sleeping cup
            from cup.clock import report
            counters = report(self.app.board.power)
            words = " ".join("%s=%d" % (k, counters[k]) for k in sorted(counters))
            self.say(("power " + words + "\n").encode())
            return None
        if verb == "mem":  # live heap, for bench/cup_firmware.py: answered by ``step``, after this frame
            if not MICROPYTHON:  # CPython's asyncio path has no step, and no heap of the cup's own to count
                return text(_NO_HEAP, module=_TEXTS)
            self.mem_asked = True
            return None
        return self.app.board.apply_control(line)


def main(argv):
    from schocken.protocol import MAX_LINE, LineSplitter
    # The cup's largest buffer, made before the imports below cut the heap into pieces.
    splitter = LineSplitter(MAX_LINE)
    opts = {"control": None, "cup": "emu", "name": "", "board": None, "sensor": None, "long-ms": None,
            "state": None, "secret": None, "time-scale": None, "clock-start": None, "idle-scale": None}
    i = 0
    while i < len(argv):
        key = argv[i][2:] if argv[i].startswith("--") else None
        if key not in opts or i + 1 >= len(argv):
            raise SystemExit(text(_BAD_ARGUMENT, argv[i], module=_TEXTS))
        opts[key] = argv[i + 1]
        i += 2
    clock = None
    if opts["time-scale"] or opts["clock-start"]:
        # Before the app is imported: its modules take the clock shim's functions at import. Without either
        # option the module is never loaded, the cup runs on the port's own clock and pays nothing for this.
        import timescale
        start = opts["clock-start"]
        clock = timescale.install(int(opts["time-scale"] or 1), None if start is None else int(start),
                                  int(opts["idle-scale"] or 1))
    from boards import emulated
    from cup.app import App

    spec = None
    if opts["board"]:
        import json
        with open(opts["board"]) as f:
            spec = json.load(f)
    if opts["sensor"]:
        spec = dict(spec or emulated.DEFAULT_SPEC)
        spec["sensor"] = "switch" if opts["sensor"] == "switch" else "lis3dh"
    control_file = control = None
    if opts["control"] and not MICROPYTHON:
        from boards.cpython import open_control
        control_file, control = open_control(opts["control"])
    elif opts["control"]:  # the control pseudo-terminal, raw
        import termios
        from boards.common import Console
        control_file = open(opts["control"], "r+b")
        termios.setraw(control_file.fileno())
        control = Console(control_file, None)

    def write_line(data):
        # One write per line where the pty takes it: a line in pieces could reach the host torn.
        if control_file is None:
            return
        while data:  # a busy pty may take only part of a line: write the rest, never tear a frame
            n = control_file.write(data)
            if not n:
                break
            data = data[n:]
        if not MICROPYTHON:  # MicroPython writes through; its flush() on a tty fails with EINVAL
            control_file.flush()

    # An LED frame per view change: its line is made in a buffer made once ("leds " + two hex digits per GRB
    # byte + newline), so showing a frame costs the cup no new string. Made from str constants: of ten
    # characters or fewer they are interned names, where bytes constants are objects kept with the module.
    leds = (spec or emulated.DEFAULT_SPEC).get("leds", 22)
    frame_line = bytearray(("leds " + "00" * 3 * leds + "\n").encode())

    def frame_sink(frame):
        if frame is None:  # the board went to deep sleep (boards/emulated.py): said on the channel
            return write_line("asleep\n".encode())
        n = len(frame)
        if 2 * n + 6 > len(frame_line):
            return write_line(text(_BAD_FRAME, n, module=_TEXTS).encode() + b"\n")
        for i in range(n):  # hex digits by arithmetic: a string of them would be an object of the module
            b = frame[i] >> 4
            frame_line[5 + 2 * i] = b + 48 if b < 10 else b + 87
            b = frame[i] & 15
            frame_line[6 + 2 * i] = b + 48 if b < 10 else b + 87
        frame_line[5 + 2 * n] = 10  # newline
        write_line(memoryview(frame_line)[:6 + 2 * n])

    link = None  # MicroPython: the board's own, over standard input and output (boards/common.py)
    if not MICROPYTHON:
        from boards.cpython import stdio_link
        link = stdio_link()
    board = emulated.make_board(spec, frame_sink=frame_sink, link=link)
    if clock is not None:
        board.on_input = clock.busy  # the scaled clock runs at K while a shake or a held button lasts
    config = {"cup_id": opts["cup"], "name": opts["name"], "state_path": opts["state"]}
    if opts["secret"]:
        config["secret"] = opts["secret"]  # as /cup.json after a deploy: the host link is authenticated
    if opts["long-ms"]:
        config["long_press_ms"] = int(opts["long-ms"])
    roller = ScriptedRoller(board.urandom, None, board.radio_on)
    app = App(board, config, roller, splitter)
    write_line(("hello %s\n" % sys.implementation.name).encode())
    extra = [Control(control, write_line, app)] if control is not None else []
    return app, extra


def run(argv):
    """The emulated cup's entry point (romfs.BOOT, and this file as a script). ``main`` sets the cup up and
    returns: its frame (the arguments, the options, every name it used) is gone before the cup runs."""
    app, extra = main(argv)
    app.main(extra)


if __name__ == "__main__":
    run(sys.argv[1:])
