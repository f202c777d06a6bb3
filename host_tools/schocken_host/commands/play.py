"""`schocken play`: seat the players, connect their cups (serial ports and/or emulated cups), run the referee
with a scoreboard, log everything; `--resume` continues a logged game."""

import argparse
import asyncio
import hashlib
import os
import secrets
import shutil
import sys
import time
from pathlib import Path

from schocken import RuleError
from schocken.rules import from_dict

from schocken_host import gamelog, keymap, seating
from schocken_host.bots import Bot, STRATEGIES
from schocken_host.emulator import EmulatedCup
from schocken_host.i18n import tr
from schocken_host.input_checks import count, heap_size, seconds
from schocken_host.plain import PlainUI
from schocken_host.play_keys import keyboard, ui_keys
from schocken_host.referee import Referee, Seat
from schocken_host.replay_cmd import read_log
from schocken_host.state import TableState, LogError
from schocken_host.table_file import read_table  # noqa: F401  (the table file, docs/table-file.md)
from schocken_host.transport import SerialTransport, TransportClosed, discover


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
                   help="seconds a cup may be gone or silent before the table decides: wait or forfeit "
                        "(default 120; a table that does not answer within as long again forfeits)")
    p.add_argument("--turn-timeout", type=seconds, default=600.0, metavar="S",
                   help="seconds a present player may take for a turn or a reveal before the table decides "
                        "(default 600)")
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
    p.add_argument("--time-scale", type=time_scale, default=1, metavar="K",
                   help="emulated cups and bots run K times faster (1..%d; only a table of bots: a person plays "
                        "at K = 1)" % MAX_TIME_SCALE)


MAX_TIME_SCALE = 100


def time_scale(text):
    """argparse type of --time-scale: a whole number 1..MAX_TIME_SCALE."""
    k = count(text)
    if not 1 <= k <= MAX_TIME_SCALE:
        raise argparse.ArgumentTypeError("must be 1..%d, not %d" % (MAX_TIME_SCALE, k))
    return k


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
        self.flash = None             # where emulated cups keep their flash: beside the game's log
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
        scale = getattr(args, "time_scale", 1)
        people = len(self.seats) + (n_emu - n_bots)
        if scale != 1 and people:
            raise RuleError("--time-scale %d: %d player(s) at this table are people, who play at human speed "
                            "(only a table of bots runs faster)" % (scale, people))
        for k in range(n_emu):
            seat_no = len(self.seats)
            kind = "bot" if k < n_bots else "human"
            secret = None if getattr(args, "no_auth", False) else secrets.token_hex(16)  # paired by this host
            # A person's cup keeps a human-length long press (keymap.PERSON_LONG_MS says why).
            long_ms = 300 if kind == "bot" else keymap.PERSON_LONG_MS
            cup_id = "emu%d" % (k + 1)
            cup = EmulatedCup(cup_id, self._name(seat_no, kind), heap=args.heap, long_ms=long_ms, secret=secret,
                              flash=self.flash / cup_id if self.flash else None, time_scale=scale)
            self.cups.append(cup)
            self.seat_of[cup.cup_id] = seat_no
            seat = Seat(self._name(seat_no, kind), SerialTransport(cup.port), kind, reconnect=_reopen(cup))
            self.seats.append(seat)
            if kind == "bot":
                self.bots.append(Bot(seat_no, cup, args.strategy, dice=dice, time_scale=scale))
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


def open_resume(args):
    """The log to continue (``--resume [LOG]``): (GameLog, TableState, start event). The log is locked, its
    torn tail repaired; a log that does not replay is refused naming the line."""
    if args.resume == "latest":
        path = gamelog.latest(args.log_dir, unfinished=True)
        if path is None:
            newest = gamelog.latest(args.log_dir)
            where = gamelog.log_dir() if args.log_dir is None else args.log_dir
            if newest is not None and newest.stat().st_size == 0:
                raise RuleError("%s is empty: no game was started in it, and no other game is unfinished" % newest)
            raise RuleError("no unfinished game log in %s" % where)
    else:
        path = args.resume
    try:
        log = gamelog.GameLog(path) if os.path.exists(path) else None
    except gamelog.LogFileError as e:
        raise RuleError(str(e))
    if log is None:
        raise RuleError("%s: no such game log" % path)
    try:
        state, start = TableState(), None
        try:
            events = gamelog.read(path)
        except ValueError as e:
            raise RuleError("%s: %s" % (path, e))
        for n, ev in events:
            try:
                state.apply(ev)
            except LogError as e:
                raise RuleError("%s line %d: %s" % (path, n, e))
            if ev["ev"] == "start" and start is None:
                start = ev
        if start is None:
            raise RuleError("%s: no game in this log (it has no start event)" % path)
        if events[-1][1]["ev"] == "game_over":
            raise RuleError("%s: this game is over already" % path)
    except BaseException:
        log.close()
        raise
    return log, state, start


async def play(args, ui_factory):
    state = None
    log = None
    start = None
    if args.resume:
        log, state, start = open_resume(args)
        if state.over:
            # The host died after the last round but before game_over: the game is decided, write its end.
            log.append({"ev": "game_over", "loser": state.loser, "blattschuss": bool(state.game.blattschuss),
                        "ts": round(time.time(), 3)})
            ui = ui_factory()
            ui.note("%s: %s" % (log.path, log.repaired) if log.repaired else "Log: %s" % log.path)
            state.apply({"ev": "game_over", "loser": state.loser, "blattschuss": bool(state.game.blattschuss)})
            log.close()
            return state
    table = Table(args, start)
    try:
        if log is None:
            try:
                log = gamelog.GameLog.new(args.log_dir)
            except gamelog.LogFileError as e:
                raise RuleError(str(e))
        # Emulated cups keep their flash beside the log, as a real cup keeps its own: after a host crash the new
        # cup processes come back with their turns, and nobody throws again.
        table.flash = flash_folder(log.path)
        await table.build()
        rules = table.rules()
        args.log_path = log.path  # cmd_play says how to continue a game stopped midway
        ui = ui_factory()
        ui.note("Log: %s" % log.path)
        if log.repaired:
            ui.note("%s: %s" % (log.path.name, log.repaired))
        for cup in table.cups:
            ui.note("%s: %s (%s)" % (cup.cup_id, cup.port, cup.interpreter))
        fair = fair_mode(args, start)
        referee = Referee(rules, table.seats, log, ui, reveal=args.reveal, cheat=args.cheat, state=state, fair=fair,
                          absent_timeout=args.absent_timeout, turn_timeout=args.turn_timeout)
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
        except gamelog.LogFileError as e:
            raise RuleError("%s; the game stops here, continue with --resume once the log can be written" % e)
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
            if not log.path.exists() or gamelog.finished(log.path):
                shutil.rmtree(flash_folder(log.path), ignore_errors=True)  # nothing left to resume


def flash_folder(log_path):
    return Path(log_path).with_suffix(".cups")


def cmd_play(args):
    lang = getattr(args, "lang", "de")
    try:
        if args.plain or not sys.stdout.isatty():
            state = asyncio.run(play(args, lambda: PlainUI(lang)))
        else:
            from schocken_host.scoreboard import run_scoreboard
            state = run_scoreboard(args, play, lang)
    except (KeyboardInterrupt, asyncio.CancelledError):  # --plain: Ctrl-C, a quit key, the end of the input
        state = None
    if state is None or not state.over:
        # Stopped midway by the people at the table (q, Ctrl-C): not a failure; the log holds the game.
        hint = resume_hint(args, lang)
        if hint:
            print(hint, flush=True)
    return 0


def resume_hint(args, lang):
    """The line that tells how to continue an interrupted game from its log, or None when no game began."""
    import shlex

    path = getattr(args, "log_path", None)
    if path is None or not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    words = ["schocken", "play", "--resume", str(path)]
    for port in args.port:
        words += ["--port", port]
    for cup_id in args.ble:
        words += ["--ble", cup_id]
    if args.table:
        words += ["--table", args.table]
    return tr(lang, "interrupted", command=" ".join(shlex.quote(w) for w in words))
