"""The cup application: the inputs and the host link around the Cup state machine.

Every 10 ms a pass over the inputs (``tick``: the shake sensor at 100 Hz, the buttons debounced in
cup.buttons, the LED animation); between passes the host link's lines (``took``); after either,
what the cup sent is written. A serial link runs in one loop without asyncio (``serve``), a link that needs
asyncio (BLE on aioble, the emulation under CPython) in two tasks (cup/tasks.py). The board object, handed in,
is the only way to the hardware, so the same app runs on a board and emulated on a PC.
"""

from gc import collect

from micropython import const

from schocken import protocol, why

from cup.clock import shelved, ticks_ms

_SAMPLE_MS = const(10)      # 100 Hz
_ASLEEP_MS = const(1000)    # an emulated cup in deep sleep looks at its channels this often
_MAX_QUEUED = const(16)
_READ_SIZE = const(32)      # bytes per read of the link at most (a console gives 31: boards/common.py)
_POLLIN = const(1)          # select.POLLIN
_CTRL_C = const(3)          # interrupt byte of the REPL (never valid in a JSON line); an int: no bytes object
_TOO_LONG = const(18)
_LOST = const(20)
# A line longer than _SHORT_LINE is taken only while _LINE_RESERVE bytes stay free with it decoded: what the
# message then sets off (a turn's save, a throw's commitment) must find room, or the cup would take a line and
# fail after it.
_SHORT_LINE = const(128)
_LINE_RESERVE = const(5120)  # 64 KB, firmware in ROM: about 16 KB free after three rounds
try:
    from gc import mem_free
except ImportError:  # CPython (the emulation's fallback) has no heap of its own to count
    def mem_free():
        return _LINE_RESERVE


class App:
    def __init__(self, board, config, roller, splitter):
        # The cup's parts imported here, where they are made: each name imported with the module would be a
        # slot of its table for as long as the cup runs (22 names took it to 23 slots, 17 to 17).
        from cup import buttons
        from cup.core import Cup
        from cup.leds import DiceLeds
        from cup.roller import Roller
        from cup.shake import ShakeDetector
        from cup.view import View
        # The link's line buffer (1 KB, the largest block the cup keeps) is best made by the entry point
        # before it imports the app: on a small heap the import leaves no 1 KB hole (boot_select.boot,
        # emulate.main).
        self.splitter = splitter or protocol.LineSplitter(protocol.MAX_LINE)  # None: made here
        self.board = board
        # The roller and the LEDs are the cup's and the view's (cup.roller, view.leds): the app keeps 12
        # attributes, a 13th would take its table to 17 slots.
        roller = roller or Roller(board.urandom, None, board.radio_on)  # None: the board's
        # What the cup spends its time on (the meter of cup/clock.py): the board notes its LED frames there.
        from cup.clock import meter
        board.power = meter()
        # At most the power cap (cup/leds.py); dimmer where /cup.json says (deploy --brightness: a dark bar
        # needs less); 1, an int, by default: no float object.
        self.view = View(DiceLeds(board.pixels, config.get("brightness", 1)))
        self.reader = self.writer = None
        self.out = []               # messages waiting for write_one()
        self.owed = 0               # no_memory answers that found no room even in the queue
        try:  # the owner's sensitivity (`schocken deploy --shake`, `schocken doctor --calibrate`)
            self.detector = ShakeDetector(board.sensor_kind, config.get("shake", "normal"))
        except ValueError:  # a /cup.json from elsewhere: the cup plays at normal rather than not at all
            self.detector = ShakeDetector(board.sensor_kind, "normal")
        # "shake": the detector, whose ``motion`` the status answer reports (cup/core.py)
        identity = {"cup": config.get("cup_id", "cup"), "name": config.get("name", ""), "board": board.name,
                    "battery": board.battery_mv, "power": board.power, "shake": self.detector}
        self.cup = Cup(roller, self.view, self.send, identity)
        if config.get("state_path"):
            from cup.store import Store, restore
            self.cup.store = Store(config["state_path"])
            saved = self.cup.store.load()
            if saved:
                restore(self.cup, saved)  # back from a reset: same turn, same hidden dice
        self.session = None         # a cup with a secret: every host line must be signed (cup/session.py)
        if config.get("secret"):
            from cup.session import Session
            self.session = Session(config["secret"], roller.random_bytes, board.urandom)
        self.buttons = buttons.Buttons(self.on_button, config.get("long_press_ms", buttons.LONG_MS))
        self.repl_link = False  # set by start_link()

    def send(self, msg):
        if len(self.out) >= _MAX_QUEUED:
            self.out.pop(0)  # nobody reads the link (alone, no host): keep the heap, drop the oldest
        self.out.append(msg)

    # --- inputs -------------------------------------------------------------------------------------
    def on_button(self, button, event, was_long):
        collect()  # what a press sets off (a stand: its save, its commitment) in a swept heap, as on_line
        try:
            self.cup.on_button(button, event, was_long)
        except Exception as e:  # a bug must not take the cup off the table; KeyboardInterrupt still passes
            self.internal_error(e)

    def internal_error(self, e):
        try:
            self.send(protocol.error(protocol.E_INTERNAL, "%s: %s" % (type(e).__name__, e), None))
            self.view.refuse(self.cup)
        except Exception:  # out of memory even for the report: the task that called goes on regardless
            pass

    def tick(self):
        """One pass over the inputs, every 10 ms: the buttons, the LED animation (a flash's step, the LEDs
        going dark), the shake sensor at 100 Hz. The hot path: a preallocated buffer and ints only, nothing
        made per pass, its frame neither: no ``try`` here (one costs three words of the frame, and a frame of
        more than 11 words is taken from the heap at every call, tests/test_cup_loop.py); the caller reports
        what a pass raises. The sensor comes last: one that fails at every read must not stop the buttons or
        the LEDs."""
        self.buttons.poll(ticks_ms(), self.board.read_buttons())  # on_button catches what the cup raises
        self.view.tick(self.cup)  # a flash's step when due, the LEDs dark when their time has come
        if self.detector.feed_board(ticks_ms(), self.board):
            collect()  # the throw's objects in a swept heap, as a line's (on_line)
            self.cup.on_shake()
        if shelved(self.board.power, ticks_ms(), not self.cup.hosted and self.cup.state == "idle"):
            self.board.deep_sleep()  # a board wakes from it by a reset, in the turn its flash kept

    # The class's names stay at 17 (its dictionary's size step; one more takes it to 23 slots, 96 bytes).
    sample_ms = _SAMPLE_MS  # for cup/tasks.py too: the pass period

    def took(self, buf, n, handle):
        """The ``n`` bytes just read into ``buf``: their lines to ``handle`` (``on_line``, bound once)."""
        if self.repl_link and buf.find(_CTRL_C, 0, n) >= 0:
            # mpremote's Ctrl-C reached the app as data (the unix port on a pty has no USB driver that
            # raises it): stop as a board's driver would, so deploy and doctor can always reach the REPL.
            raise KeyboardInterrupt
        try:
            self.splitter.scan(buf, handle, n)
        except Exception as e:  # the splitter's own small slices: where the line stands is unknown
            self.splitter.drop()  # as after a read that failed: the line is dropped and answered
            self.line_failed(e)

    # --- the serial cup: one loop -------------------------------------------------------------------
    def serve(self, extra):
        """Runs the cup on a link that can be polled (boards/common.py ``Console``) until interrupted: a pass
        over the inputs every 10 ms; between passes the link and the ``extra`` channels (the emulation's
        control channel: ``.link`` a Console, ``.step()`` False once it has ended), all waited for in one
        ``select.poll``. No asyncio: its modules and tasks would cost the cup 3.9 KB of heap (issue 16)."""
        # The clock's functions read through the module, at call time (a scaled clock, timescale.py, may have
        # replaced wait): one name of this frame, not seven; the frame lives on the heap as long as the cup.
        from cup import clock
        from select import poll
        link, handle = self.reader, self.on_line
        buf = bytearray(_READ_SIZE)
        poller = poll()
        poller.register(link.s, _POLLIN)
        extra = list(extra)
        for channel in extra:
            poller.register(channel.link.s, _POLLIN)
        due = mark = ticks_ms()
        resting = False
        # The meter (board.power) and the cup read through board and self: a local is a word of this frame,
        # which lives on the heap for as long as the cup runs.
        board = self.board
        while True:
            asleep = board.asleep
            woke = False  # a pass or a read: a wake-up (a scaled clock's wait comes back every 10 ms: none)
            if asleep:
                # An emulated board's deep sleep (a board's never returns): no passes, until its control
                # channel brings a physical input or the host a line; then the cup shows its state again.
                due = clock.next_due(ticks_ms(), _ASLEEP_MS, None)
            elif clock.ticks_diff(due, ticks_ms()) <= 0:
                woke = True
                try:
                    self.tick()
                except Exception as e:  # a sensor that fails, a bug: reported, the cup stays on the table
                    self.internal_error(e)
                # A pass that put the cup to sleep: from here it is asleep (its wait counts as deep sleep), so
                # an input read below, in the same turn of the loop, wakes it and it shows its state.
                asleep = board.asleep
                # Resting (dark, no host, no turn: clock.shelved) a pass every 50 ms: the CPU waits longer.
                due = clock.next_due(due, _SAMPLE_MS, board.power)
                if resting:
                    resting = False
                    poller.modify(link.s, _POLLIN)
            if link is not None and not resting:
                try:
                    n = link.take(buf)
                except MemoryError as e:  # where the line in the read ends is lost: dropped and answered
                    self.splitter.drop()
                    self.line_failed(e)
                    resting = True  # not polled until the next pass (the garbage goes): no busy loop
                    poller.modify(link.s, 0)
                    n = 0
                except OSError:  # the host's end of a pseudo-terminal closed (EIO): as the end of input
                    n = -1
                if n < 0:
                    poller.unregister(link.s)
                    link = None
                    self.cup.hosted = self.cup.fair = False  # the host is gone: the cup plays on alone
                elif n:
                    woke = True
                    if asleep:  # written only then: the board's class says False, its instance stays smaller
                        board.asleep = False
                    self.took(buf, n, handle)
            for channel in extra:
                try:
                    if channel.step():
                        continue
                except OSError:  # as the link's: its other end closed (EIO)
                    pass
                poller.unregister(channel.link.s)  # it has ended
                extra.remove(channel)
                break
            while self.out or self.owed:  # write_one's frame is taken only when there is something to write
                self.write_one()
            # The time since the last wait was the CPU's work, the wait its waiting (cup/clock.py).
            now = ticks_ms()
            if woke or not asleep:
                clock.spend(board.power, clock.WORKING if woke else clock.WAITING,
                            clock.ticks_diff(now, mark), self.cup.hosted)
            clock.wait(poller, clock.ticks_diff(due, now))
            mark = ticks_ms()
            clock.spend(board.power, clock.DEEP_SLEEP if asleep else clock.WAITING,
                        clock.ticks_diff(mark, now), self.cup.hosted)
            if asleep and not board.asleep:  # woken: as a board after its reset, the cup shows its state
                self.view.show(self.cup)

    def on_line(self, line):
        """One line from the host (a memoryview into the splitter's buffer, valid during the call; None for an
        overlong line): decoded where it lies, checked, handed to the cup. Never raises: a line the cup cannot
        take is answered with an error and changes nothing."""
        try:
            if line is None:
                dropped = ["cup.texts", _TOO_LONG, protocol.MAX_LINE]
                return self.send(protocol.error(protocol.E_TOO_LONG, dropped, None))
            for b in line:  # a blank line is skipped (no copy made to find out)
                if b != 32 and not 9 <= b <= 13:  # not a space, tab, CR, LF, VT or FF
                    break
            else:
                return
            try:
                msg = protocol.decode(line, protocol.HOST_TO_CUP)
            except protocol.ProtocolError as e:
                return self.send(protocol.error(e.code, why(e), None))
            if len(line) > _SHORT_LINE:
                collect()
                if mem_free() < _LINE_RESERVE:
                    raise MemoryError  # no room beside this line: answered no_memory, nothing changed
            if self.session is not None:
                if msg["t"] == "hello":
                    self.cup.hello_nonce = self.session.hello(msg)
                else:
                    refused = self.session.refusal(line, msg)
                    if refused:
                        return self.send({"t": "error", "code": protocol.E_AUTH, "msg": refused,
                                          "_plain": True})
        except Exception as e:  # out of memory for a string in the line, for its signature check, ...
            return self.line_failed(e)
        # What the line sets off (a turn, its save) is made in a heap just swept, low and together, not
        # around the garbage of the reads before it. How much of that garbage there is depends on how the
        # bytes came (one read per burst: as many as were there), so without the sweep where the kept objects
        # land, and which holes are left, changed from run to run: at 64 KB a turn's start (160 bytes) or a
        # stand (120) then found no hole in some runs after long lines (tests/test_cup_lines.py). A press
        # and a throw sweep first for the same reason (on_button, tick).
        collect()
        try:
            self.cup.on_message(msg)
        except Exception as e:
            self.internal_error(e)

    def line_failed(self, e):
        """Answers a line that failed before the cup acted on it: ``no_memory`` for a MemoryError, else
        ``internal``. Never raises."""
        collect()  # the garbage of the attempt (the line's half-made objects) goes before the answer is made
        try:
            self.send(None if isinstance(e, MemoryError) else  # None: no_memory (_line), nothing to make now
                      protocol.error(protocol.E_INTERNAL, "%s: %s" % (type(e).__name__, e), None))
        except Exception:  # not even room in the queue: write_one() sends the answer made in advance
            self.owed += 1

    def encode(self, msg, plain):
        """A message -> what write_one() writes: its line (bytes), or its pieces (protocol.pieces: a list of
        bytes); signed, in one piece, in an authenticated session unless ``plain`` (an auth error)."""
        if self.session is not None:
            return self.session.encode(msg, plain)
        return protocol.pieces(msg)

    def _line(self, msg):
        """A message -> what write_one() writes (``encode``); one that cannot be sent becomes an error, or
        None when even that fails (out of memory): the tasks must outlive any message."""
        if msg is None:  # the answer to a line the cup had no memory for: made in advance, it needs none now
            if self.session is None:
                return (b'{"t": "error", "code": "no_memory", '
                        b'"msg": "no memory for this line: dropped, nothing changed"}\n')
            msg = protocol.error(protocol.E_MEMORY, "no memory for this line: dropped, nothing changed", None)
        plain = msg.pop("_plain", False)
        err = None
        for _ in range(2):  # compiled as a counted loop: no object, where (0, 1) would keep a tuple
            try:
                return self.encode(msg, plain)
            except protocol.ProtocolError as e:
                err = protocol.error(e.code, why(e), None)
                break
            except MemoryError as e:
                collect()  # the garbage the other tasks left: the second try usually fits
                err = e
            except Exception as e:
                err = e
                break
        if not isinstance(err, dict):
            err = protocol.error(protocol.E_INTERNAL, ["cup.texts", _LOST, type(err).__name__], None)
        try:
            return self.encode(err, False)
        except Exception:
            return None

    def write_one(self):
        """Writes the first message waiting (its line, or an error in its place); False when none waits.
        Never raises: a write that fails loses this line (a host gone: EIO), not the caller."""
        if not (self.out or self.owed):
            return False
        if self.out:
            msg = self.out.pop(0)
        else:
            self.owed -= 1
            msg = None
        data = self._line(msg)
        try:
            if type(data) is list:
                for piece in data:
                    self.writer.write(piece)
            elif data is not None:
                self.writer.write(data)
        except MemoryError:  # the stream's buffer for a busy link: this line is lost, not the link
            collect()
        except Exception:  # noqa: BLE001 - the link failed this line; the cup and the next line go on
            pass
        return True

    def start_link(self):
        """What both ways of running do first: the RNG's health check, the board's link."""
        if not self.cup.roller.health_check():
            self.view.error(self.cup)
        self.reader, self.writer = self.board.link()
        self.repl_link = _repl_link(self.board, self.reader)

    def main(self, extra):
        """Runs the cup until interrupted, on the board's link: ``serve`` where the link can be polled, else
        the two asyncio tasks of cup/tasks.py. ``extra``: channels as ``serve`` takes them (each with a
        ``.task()`` coroutine for asyncio)."""
        self.start_link()
        if hasattr(self.reader, "take"):
            return self.serve(extra)
        from cup import tasks
        tasks.run(tasks.Tasks(self), [channel.task() for channel in extra])


def _repl_link(board, reader):
    """True when the link is the REPL's console and nothing below the app turns Ctrl-C into KeyboardInterrupt:
    the board file says so ("link_is_repl", written by `schocken deploy` for the emulated board) and the
    reader reads standard input (boards/common.py's ``Console`` keeps its stream in ``.s``). Never on a BLE
    link."""
    import sys
    spec = board.spec if type(board.spec) is dict else {}
    stream = getattr(reader, "s", None)
    return (spec.get("link_is_repl") is True and stream is not None
            and stream is getattr(sys.stdin, "buffer", 0))


def start(board, config, splitter):
    """Run the cup until interrupted. KeyboardInterrupt is never swallowed: a cup can always be reached."""
    app = App(board, config, None, splitter)
    app.main(())
    return app

