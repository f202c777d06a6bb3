"""`schocken play`: seat the players, connect their cups (serial ports and/or emulated cups), run the referee
with a scoreboard, log everything; `--resume` continues a logged game."""

import argparse
import asyncio
import hashlib
import os
import secrets
import sys

from schocken import RuleError
from schocken.rules import from_dict

from schocken_host import gamelog, seating
from schocken_host.bots import Bot, STRATEGIES
from schocken_host.emulator import EmulatedCup
from schocken_host.input_checks import count, heap_size, seconds
from schocken_host.plain import PlainUI
from schocken_host.referee import Referee, Seat
from schocken_host.replay_cmd import read_log
from schocken_host.state import TableState, LogError
from schocken_host.table_file import read_table  # noqa: F401  (the table file, docs/table-file.md)
from schocken_host.transport import SerialTransport, TransportClosed, discover

KEYS = {"s": ("shake", 800), "1": ("tap", 0), "2": ("tap", 1), "3": ("tap", 2), "4": ("long", 0),
        "5": ("long", 1), "6": ("long", 2), "p": ("peek", 3), "": ("long", 3), "enter": ("long", 3),
        "r": ("tap", 3)}


def add_arguments(p):
    p.add_argument("--emulate", type=count, default=0, metavar="N", help="start N emulated cups (at most 20)")
    p.add_argument("--bots", type=count, default=None, metavar="K",
                   help="K of the emulated cups are played by bots (default: all)")
    p.add_argument("--port", action="append", default=[], help="serial port of a cup (repeatable)")
    p.add_argument("--ble", action="append", default=[], metavar="CUP_ID",
                   help="a cup over Bluetooth LE by its id, through the system's stack (bleak; repeatable)")
    p.add_argument("--names", default=None, help="player names in seating order, comma separated")
    p.add_argument("--table", default=None, metavar="FILE.toml",
                   help="players, their ports and the rules from a table file (docs/table-file.md)")
    p.add_argument("--rules", default=None, metavar="PRESET")
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE")
    p.add_argument("--plain", action="store_true", help="one line per event instead of the scoreboard")
    p.add_argument("--reveal", choices=("all", "button"), default="all",
                   help="uncover all cups at once, or each player presses his cup's button")
    p.add_argument("--cheat", choices=("replay", "deckel"), default="replay",
                   help="a cup caught cheating: play the round again, or the cheater takes the Deckel")
    p.add_argument("--absent-timeout", type=seconds, default=120.0, metavar="S",
                   help="seconds a cup may be gone before the table decides: wait or forfeit (default 120)")
    p.add_argument("--no-auth", action="store_true",
                   help="emulated cups without a secret: unauthenticated links (by default each emulated cup "
                        "gets a fresh secret and every message is signed)")
    p.add_argument("--fair", action=argparse.BooleanOptionalAction, default=None,
                   help="provably fair dice: each throw from the cup's committed seed and a host nonce "
                        "(docs/fairness.md; on by default, off with --seed; --no-fair: each cup rolls alone)")
    p.add_argument("--strategy", choices=sorted(STRATEGIES), default="schock", help="how the bots play")
    p.add_argument("--seed", type=int, default=None,
                   help="dice for emulated bot cups from this seed (scripted dice: fair play is off)")
    p.add_argument("--opener", type=count, default=None, metavar="SEAT",
                   help="seat that opens, 0 for the first (skips the throw-off)")
    p.add_argument("--resume", nargs="?", const="latest", default=None, metavar="LOG", type=game_log,
                   help="continue an interrupted game (the newest log if none is named)")
    p.add_argument("--log-dir", default=None, help="where game logs go (default: the user data directory)")
    p.add_argument("--heap", type=heap_size, default="160k",
                   help="heap of each emulated cup (micropython -X heapsize, 64k to 64M)")


def game_log(path):
    """argparse type of --resume: a log that reads as events (the game in it is checked when it is resumed),
    so a missing, binary or broken file is refused naming the file before anything starts."""
    if path != "latest":
        try:
            read_log(path)
        except RuleError as e:
            raise argparse.ArgumentTypeError(str(e))
    return path


def fair_mode(args, start):
    """Fair play is the default. A resumed game keeps the mode of its log; scripted dice (--seed) are not
    fair dice, so --seed turns it off, and --seed with --fair is refused."""
    if start is not None:
        return bool(start.get("fair"))
    if args.seed is not None:
        if args.fair:
            raise RuleError("--seed scripts the dice of the emulated cups: it cannot be combined with --fair")
        return False
    return args.fair is not False


def seeded_dice(seed):
    """Dice as a function of (seed, round, seat, throw): the same table plays the same dice again, also
    after a resume, whatever happened in between."""
    def dice(round_id, seat, throw, n):
        digest = hashlib.sha256(("%s:%s:%s:%s" % (seed, round_id, seat, throw)).encode()).digest()
        out = [b % 6 + 1 for b in digest if b < 252]
        return out[:n]
    return dice


def _reopen(cup):
    """A restarted emulated cup has a new link device (as a replugged USB cup would): open that one."""
    async def reconnect():
        return SerialTransport(cup.port)
    return reconnect


class Table:
    """Who sits where, and the cups and bots behind them."""

    def __init__(self, args, resume_start=None):
        self.args = args
        self.cups = []
        self.seat_of = {}             # emulated cup id -> seat
        self.bots = []
        self.seats = []
        self.resume_start = resume_start
        # Everything the user gave is checked now: a refused table starts no cup, makes no log, prints nothing.
        fair_mode(args, resume_start)
        self.names, self.ports, self._rules = seating.plan(args, resuming=resume_start is not None)

    def rules(self):
        if self.resume_start:
            return from_dict(self.resume_start["rules"])
        return self._rules

    async def build(self):
        args = self.args
        if self.resume_start:
            players = self.resume_start["players"]
            kinds = [p.get("kind", "cup") for p in players]
            self.names = [p["name"] for p in players]
            emulated = [p for p in players if p.get("cup", "").startswith("emu")]
            n_emu = len(emulated)
            n_bots = sum(1 for p in emulated if p.get("kind") == "bot")
        else:
            n_emu = args.emulate
            n_bots = n_emu if args.bots is None else min(args.bots, n_emu)
            kinds = None
        for port in self.ports:
            self.seats.append(Seat(self._name(len(self.seats), "cup"), SerialTransport(port), "cup"))
        for cup_id in args.ble:
            from schocken_host.ble import BleakTransport
            self.seats.append(Seat(self._name(len(self.seats), "cup"), BleakTransport(cup=cup_id), "cup"))
        if not self.ports and not n_emu and not args.ble:
            for transport, ident in await discover():
                transport.close()
                self.seats.append(Seat(ident.get("name") or self._name(len(self.seats), "cup"),
                                       SerialTransport(transport.port), "cup"))
        dice = seeded_dice(args.seed) if args.seed is not None else None
        for k in range(n_emu):
            seat_no = len(self.seats)
            kind = "bot" if k < n_bots else "human"
            secret = None if getattr(args, "no_auth", False) else secrets.token_hex(16)  # paired by this host
            cup = EmulatedCup("emu%d" % (k + 1), self._name(seat_no, kind), heap=args.heap, long_ms=300,
                              secret=secret)
            self.cups.append(cup)
            self.seat_of[cup.cup_id] = seat_no
            seat = Seat(self._name(seat_no, kind), SerialTransport(cup.port), kind, reconnect=_reopen(cup))
            self.seats.append(seat)
            if kind == "bot":
                self.bots.append(Bot(seat_no, cup, args.strategy, dice=dice))
            else:
                self.human = cup
        if kinds and [s.kind for s in self.seats] != kinds:
            raise RuleError("the table does not match the log: seats %s, the log has %s"
                            % ([s.kind for s in self.seats], kinds))
        if len(self.seats) < 2:
            raise RuleError("a game needs at least two cups (use --emulate N or --port)")

    def _name(self, seat_no, kind):
        if seat_no < len(self.names):
            return self.names[seat_no]
        return ("Bot %d" if kind == "bot" else "Spieler %d") % (seat_no + 1)

    def close(self):
        for cup in self.cups:
            cup.close()


async def ui_keys(queue, cup, referee, table=None):
    """Keys the scoreboard forwards (it owns the terminal): the same meaning as on standard input."""
    while True:
        await _key((await queue.get()).strip().lower(), cup, referee, table)


async def keyboard(cup, referee, table=None):
    """The human at an emulated table: keys as lines on standard input (see KEYS); and the table's word:
    "drop N" (seat N dropped the dice: a penalty Deckel), "ein N" (seat N throws back in)."""
    loop = asyncio.get_running_loop()
    lines = asyncio.Queue()
    fd = sys.stdin.fileno()

    def readable():
        data = os.read(fd, 4096)
        if not data:
            loop.remove_reader(fd)
            lines.put_nowait(None)
            return
        for line in data.decode(errors="replace").splitlines():
            lines.put_nowait(line)
    loop.add_reader(fd, readable)  # no reader thread: nothing blocks the host's exit
    try:
        while True:
            line = await lines.get()
            if line is None:
                return
            await _key(line.strip().lower(), cup, referee, table)
    finally:
        loop.remove_reader(fd)


async def _key(key, cup, referee, table=None):
    words = key.split()
    if len(words) == 2 and words[0] in ("drop", "ein", "wait", "forfeit") and words[1].isdigit():
        what = {"drop": "penalty", "ein": "einwuerfeln"}.get(words[0], words[0])
        referee.request(what, int(words[1]) - 1)
        return
    if len(words) == 2 and words[0] == "unplug" and words[1].isdigit() and table is not None:
        # Emulated cups only, for testing a referee: seat N's cup is gone for good.
        for emu in table.cups:
            if table.seat_of.get(emu.cup_id) == int(words[1]) - 1:
                emu.unplug()
        return
    if len(words) == 3 and words[0] == "cheat" and words[1].isdigit() and table is not None:
        # Emulated cups only, for testing a referee: seat N misbehaves (firmware/emulate.py, docs/emulation.md).
        seat = int(words[1]) - 1
        for emu in table.cups:
            if table.seat_of.get(emu.cup_id) == seat:
                emu.control("cheat " + words[2])
        return
    if cup is None or key not in KEYS:
        return
    what, arg = KEYS[key]
    if what == "shake":
        cup.shake(arg)
    elif what == "peek":
        cup.control("press 3")
        await asyncio.sleep(1.0)
        cup.control("release 3")
    else:
        cup.control("press %d" % arg)
        await asyncio.sleep(0.06 if what == "tap" else 0.5)
        cup.control("release %d" % arg)


async def play(args, ui_factory):
    state = None
    log = None
    start = None
    if args.resume:
        path = gamelog.latest(args.log_dir) if args.resume == "latest" else args.resume
        if path is None:
            raise RuleError("no game log to resume")
        state = TableState()
        for n, ev in gamelog.read(path):
            try:
                state.apply(ev)
            except LogError as e:
                raise RuleError("%s line %d: %s" % (path, n, e))
            if ev["ev"] == "start":
                start = ev
        if state.over:
            raise RuleError("%s: this game is over already" % path)
        log = gamelog.GameLog(path)
    table = Table(args, start)
    try:
        await table.build()
        rules = table.rules()
        if log is None:
            log = gamelog.GameLog.new(args.log_dir)
        ui = ui_factory()
        ui.note("Log: %s" % log.path)
        for cup in table.cups:
            ui.note("%s: %s (%s)" % (cup.cup_id, cup.port, cup.interpreter))
        fair = fair_mode(args, start)
        referee = Referee(rules, table.seats, log, ui, reveal=args.reveal, cheat=args.cheat, state=state, fair=fair,
                          absent_timeout=args.absent_timeout)
        tasks = [asyncio.create_task(b.run(referee)) for b in table.bots]
        human = getattr(table, "human", None)
        if hasattr(ui, "keys"):
            tasks.append(asyncio.create_task(ui_keys(ui.keys, human, referee, table)))
        elif human is not None or (not sys.stdin.isatty() and args.plain):
            tasks.append(asyncio.create_task(keyboard(human, referee, table)))
        try:
            await referee.run(opener=args.opener)
        except TransportClosed as e:  # only a cup that cannot be reached at the start gets here
            raise RuleError(str(e))
        except asyncio.TimeoutError:
            raise RuleError("a cup does not answer (%s)" % ", ".join(s.transport.name for s in table.seats))
        finally:
            for t in tasks:
                t.cancel()
            referee.close()
        return referee.state
    finally:
        table.close()
        if log is not None:
            log.close()
            if not args.resume and log.path.exists() and log.path.stat().st_size == 0:
                log.path.unlink()  # no game was started: leave no empty log behind


def cmd_play(args):
    lang = getattr(args, "lang", "de")
    if args.plain or not sys.stdout.isatty():
        state = asyncio.run(play(args, lambda: PlainUI(lang)))
    else:
        from schocken_host.scoreboard import run_scoreboard
        state = run_scoreboard(args, play, lang)
    return 0 if state is not None and state.over else 1
