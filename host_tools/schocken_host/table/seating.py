"""`schocken play`: who sits where, from the command line and the table file (docs/table-file.md), checked in
full before any cup starts, any log is made or any line is printed, so a refused table leaves nothing behind.
Every problem is a CommandError of one line (exit status 2)."""

import hashlib
import re
import secrets

from schocken import RuleError, protocol
from schocken.rules import Rules, from_dict

from schocken_host.table import gamelog
from schocken_host.input_checks import check_folder_for_writing, check_port
from schocken_host.input_checks import parse_assignments
from schocken_host.table.table_file import check_name, read_table
from schocken_host.errors import CommandError
from schocken_host.i18n import Message, RuleText
from schocken_host.emulation.emulator import PERSON_LONG_MS, EmulatedCup
from schocken_host.links.serial import SerialLink, discover
from schocken_host.table.bots import Bot
from schocken_host.table.coach import Coach

# Each emulated cup is a MicroPython process with two pseudo-terminals on this PC; a typo like --emulate 400
# would start them all before anything else could fail.
MAX_EMULATED = 32


# A seat without a name given is "Spieler N" (a bot's "Bot N") in the log and on every screen, whatever --lang
# says: a name, not a text. `stats` counts a player by his name, and "Player 4" of an English game and
# "Spieler 4" of a German one were two people. Logs from before say "Player N": canonical_name reads them so.
PERSON_NAME = "Spieler %d"
BOT_NAME = "Bot %d"
_OLD_PERSON_NAME = re.compile(r"Player ([1-9][0-9]*)\Z")


def default_name(seat_no, kind):
    return (BOT_NAME if kind == "bot" else PERSON_NAME) % (seat_no + 1)


def canonical_name(name):
    """A logged name as `stats` counts it: the English default of older logs ("Player 4") is "Spieler 4"."""
    old = _OLD_PERSON_NAME.match(name)
    return PERSON_NAME % int(old.group(1)) if old else name


def _names(args, table):
    if args.names is None:
        return [p["name"] for p in table["players"]] if table else []
    names = [check_name(n, "--names") for n in args.names.split(",") if n.strip()]
    if not names:
        raise CommandError("seating.no_names")
    for i, name in enumerate(names):
        if name in names[:i]:
            raise CommandError("seating.name_twice", name=name)
    return names


def _ports(args, table):
    """The serial ports in seating order, each named as the user gave it (``--port`` or the file's entry)."""
    given = [(port, "--port") for port in args.port]
    if table:
        given += [(p["port"], "%s: players[%d].port" % (args.table, i + 1))
                  for i, p in enumerate(table["players"]) if "port" in p]
    if args.port and len(given) > len(args.port):
        raise CommandError("seating.ports_twice", table=args.table)
    ports = [port for port, _ in given]
    for i, (port, option) in enumerate(given):
        check_port(port, option)
        if port in ports[:i]:
            raise CommandError("seating.port_twice", option=option, port=port)
    return ports


def _rules(args, table):
    """The table file's rule set, then --rules (another preset) and --set (options on top) from the command
    line. A bad option in the file is reported with the file's name."""
    preset, options = "standard", {}
    if table and table["rules"]:
        preset, options = table["rules"]["preset"], dict(table["rules"]["options"])
        try:
            Rules(preset, **options)
        except RuleError as e:
            raise CommandError("seating.table_rules", table=args.table, error=RuleText(e))
    options.update(parse_assignments(args.set))
    return Rules(args.rules or preset, **options)


def plan(args, resuming=False):
    """-> (names in seating order, serial ports, Rules). A resumed game takes its players and rules from its
    log (the rules are None then); the ports it needs are checked all the same."""
    table = read_table(args.table) if args.table else None
    names = _names(args, table)
    ports = _ports(args, table)
    if resuming:
        return names, ports, None
    rules = _rules(args, table)
    emulate = args.emulate
    if emulate > MAX_EMULATED:
        raise CommandError("seating.too_many_emulated", n=emulate, most=MAX_EMULATED)
    if args.bots is not None and args.bots > emulate:
        raise CommandError("seating.too_many_bots", bots=args.bots, cups=emulate)
    seats = len(ports) + len(args.ble) + emulate
    if seats:  # else the cups are found on USB when the table is seated: their number is not known yet
        if seats < 2:
            raise CommandError("seating.one_cup", seats=seats)
        if seats < rules.min_players:
            raise CommandError("seating.too_few_players", rules=rules.name, least=rules.min_players,
                               seats=seats)
        if len(names) > seats:
            raise CommandError("seating.too_many_names", n=len(names), seats=seats,
                               extra=", ".join(names[seats:]))
        if args.opener is not None and args.opener >= seats:
            raise CommandError("seating.opener", opener=args.opener + 1, last=seats)  # as typed: from 1
    if args.log_dir:
        check_folder_for_writing(args.log_dir, "--log-dir")
    else:
        check_folder_for_writing(gamelog.log_dir(), Message("input.log_folder"))
    return names, ports, rules


def fair_mode(args, start):
    """Fair play is the default. A resumed game keeps the mode of its log; scripted dice (--seed) are not
    fair dice, so --seed turns it off, and --seed with --fair is refused."""
    if start is not None:
        return bool(start.get("fair"))
    if args.seed is not None:
        if args.fair:
            raise CommandError("seating.seed_and_fair")
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


class Seat:
    """A seat at the table: its player, the link to his cup, and what the links keep of it (cuplinks.py)."""

    def __init__(self, name, transport, kind="cup", reconnect=None):
        self.name = name
        self.transport = transport
        self.kind = kind              # "bot", "human" (an emulated cup on the keyboard) or "cup"
        self.reconnect = reconnect    # async () -> Transport, for a cup that went away
        self.identity = None
        self.inbox = None
        self.pump = None
        self.link = 0                 # which connection the inbox's items came from (a new one drops the old)
        self.heard = 0.0              # loop time of the cup's last message
        self.ping_id = 0              # id of the last status request
        self.ping_at = None           # loop time of an unanswered status request
        self.fresh_from = 1           # a status answers the present only if its id is at least this
        self.away_since = None        # loop time the seat was paused (link lost or silent)
        self.away_before = 0.0        # s the link was lost before in this task: a flapping cup's add up
        self.since = 0.0              # loop time the present task with the seat began (--turn-timeout)
        self.asked_at = None          # loop time the table was asked about this seat
        self.asked_first = None       # ... first in the present task: its silence counts from there
        self.faults = {}              # round -> faults reported


def _reopen(cup):
    """A restarted emulated cup has a new link device (as a replugged USB cup would): open that one."""
    async def reconnect():
        return SerialLink(cup.port)
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
        # Everything the user gave is checked now: a refused table starts no cup, makes no log, prints
        # nothing.
        fair_mode(args, resume_start)
        self.names, self.ports, self._rules = plan(args, resuming=resume_start is not None)

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
            self.seats.append(Seat(self._name(len(self.seats), "cup"), SerialLink(port), "cup"))
        for cup_id in args.ble:
            from schocken_host.links.ble import BleakTransport
            self.seats.append(Seat(self._name(len(self.seats), "cup"), BleakTransport(cup=cup_id), "cup"))
        if not self.ports and not n_emu and not args.ble:
            for transport, ident in await discover():
                transport.close()
                # A cup's own name, as long as a name may be (the transport let no control character in).
                name = ident.get("name", "")[:protocol.MAX_NAME].strip() or self._name(len(self.seats), "cup")
                self.seats.append(Seat(name, SerialLink(transport.port), "cup"))
        dice = seeded_dice(args.seed) if args.seed is not None else None
        scale = getattr(args, "time_scale", 1)
        # A real cup keeps its own clock: only emulated cups (and their bots) can run faster. A person at an
        # emulated cup plays it at any scale: his keys are presses of the cup's own duration in cup time
        # (views/keymap.py), only the bots and the cups' lights go faster.
        if scale != 1 and self.seats:
            raise CommandError("seating.time_scale_real_cups", scale=scale)
        for k in range(n_emu):
            seat_no = len(self.seats)
            kind = "bot" if k < n_bots else "human"
            secret = None if getattr(args, "no_auth", False) else secrets.token_hex(16)  # paired by this host
            # A person's cup keeps a human-length long press (PERSON_LONG_MS says why).
            long_ms = 300 if kind == "bot" else PERSON_LONG_MS
            cup_id = "emu%d" % (k + 1)
            cup = EmulatedCup(cup_id, self._name(seat_no, kind), heap=args.heap, long_ms=long_ms,
                              secret=secret, flash=self.flash / cup_id if self.flash else None,
                              time_scale=scale)
            self.cups.append(cup)
            self.seat_of[cup.cup_id] = seat_no
            seat = Seat(self._name(seat_no, kind), SerialLink(cup.port), kind, reconnect=_reopen(cup))
            self.seats.append(seat)
            if kind == "bot":
                self.bots.append(Bot(seat_no, cup, args.strategy, dice=dice, time_scale=scale))
            else:
                self.human = cup
        if kinds and [s.kind for s in self.seats] != kinds:
            raise CommandError("seating.not_the_logged_table", seats=[s.kind for s in self.seats],
                               logged=kinds)
        if len(self.seats) < 2:
            raise CommandError("seating.too_few_cups")

    def warm(self, rules, coach=False):
        """The odds tables the optimal bots and the coach share, made now: at the table's set-up, before the
        first turn and off the referee's event path, so that no decision pays for them."""
        if coach or any(hasattr(b.strategy, "for_table") for b in self.bots):
            Coach.warm(rules)

    def _name(self, seat_no, kind):
        if seat_no < len(self.names):
            return self.names[seat_no]
        return default_name(seat_no, kind)

    def close(self):
        for cup in self.cups:
            cup.close()

