"""Who sits where: the ``Table`` of seats, the cups behind them (real ones on serial ports or BLE, found on
USB, or emulated ones) and the bots that play some of them, from a game's config (table/session.py), and the
names of the seats. The config is checked before (commands/play_table.py); what only shows when the cups are
there (real cups at a scaled time, fewer than two, not the table of the log) is a ``SeatingError``."""

import hashlib
import re
import secrets

from schocken.rules import from_dict

from schocken_host.i18n import LocalizedError
from schocken_host.emulation.emulator import PERSON_LONG_MS, EmulatedCup
from schocken_host.links.serial import SerialLink, discover
from schocken_host.links.transport import TransportClosed, cup_name
from schocken_host.table.seat_link import SeatLink
from schocken_host.table.bots import STRATEGIES, Bot
from schocken_host.table.coach import Coach


class SeatingError(LocalizedError):
    """The cups found cannot be this table."""


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


def seeded_dice(seed):
    """Dice as a function of (seed, round, seat, throw): the same table plays the same dice again, also
    after a resume, whatever happened in between."""
    def dice(round_id, seat, throw, n):
        digest = hashlib.sha256(("%s:%s:%s:%s" % (seed, round_id, seat, throw)).encode()).digest()
        out = [b % 6 + 1 for b in digest if b < 252]
        return out[:n]
    return dice


class Seat:
    """A seat at the table: who sits there, and the link to his cup (table/seat_link.py), whose state the
    links keep there."""

    def __init__(self, name, transport, kind="cup", reconnect=None, strategy=None):
        self.name = name
        self.kind = kind              # "bot", "human" (an emulated cup on the keyboard) or "cup"
        self.strategy = strategy      # a bot's strategy's name (table/bots.py STRATEGIES), in the start event
        self.cup_names = False        # a real cup's seat without a name given: the cup's own name, once known
        self.link = SeatLink(transport, reconnect)


def _reopen(cup):
    """A restarted emulated cup has a new link device (as a replugged USB cup would): open that one. An
    unplugged one has none: its old path may be another cup's pseudo-terminal by now."""
    async def reconnect():
        if not cup.plugged:
            raise TransportClosed("link.cannot_open", port=cup.cup_id, error="unplugged")
        return SerialLink(cup.port)
    return reconnect


class Table:
    """Who sits where, and the cups and bots behind them."""

    def __init__(self, config, resume_start=None):
        self.config = config
        self.cups = []
        self.seat_of = {}             # emulated cup id -> seat
        self.bots = []
        self.seats = []
        self.human = None             # the emulated cup a person plays, if one does
        self.resume_start = resume_start
        self.flash = None             # where emulated cups keep their flash: beside the game's log
        self.names = list(config.names)

    def rules(self):
        if self.resume_start:
            return from_dict(self.resume_start["rules"])
        return self.config.rules

    async def build(self):
        cfg = self.config
        if self.resume_start:
            players = self.resume_start["players"]
            kinds = [p.get("kind", "cup") for p in players]
            self.names = [p["name"] for p in players]
            emulated = [p for p in players if p.get("cup", "").startswith("emu")]
            n_emu = len(emulated)
            n_bots = sum(1 for p in emulated if p.get("kind") == "bot")
            logged = [p.get("strategy") for p in emulated if p.get("kind") == "bot"]
        else:
            n_emu = cfg.emulate
            n_bots = n_emu if cfg.bots is None else min(cfg.bots, n_emu)
            kinds = None
            logged = []
        for port in cfg.ports:
            self._seat_a_cup(SerialLink(port))
        for cup_id in cfg.ble:
            from schocken_host.links.ble_bleak import bleak_link
            self._seat_a_cup(bleak_link(cup=cup_id))
        if not cfg.ports and not n_emu and not cfg.ble:
            for transport, ident in await discover():
                transport.close()
                # A cup's own name, as long as a name may be (the transport let no control character in).
                name = cup_name(ident) or self._name(len(self.seats), "cup")
                self.seats.append(Seat(name, SerialLink(transport.port), "cup"))
        dice = seeded_dice(cfg.seed) if cfg.seed is not None else None
        scale = cfg.pace.time_scale
        # A real cup keeps its own clock: only emulated cups (and their bots) can run faster. A person at an
        # emulated cup plays it at any scale: his keys are presses of the cup's own duration in cup time
        # (views/keymap.py), only the bots and the cups' lights go faster.
        if scale != 1 and self.seats:
            raise SeatingError("seating.time_scale_real_cups", scale=scale)
        for k in range(n_emu):
            seat_no = len(self.seats)
            kind = "bot" if k < n_bots else "human"
            secret = secrets.token_hex(16) if cfg.auth else None  # paired by this host
            # A person's cup keeps a human-length long press (PERSON_LONG_MS says why).
            long_ms = 300 if kind == "bot" else PERSON_LONG_MS
            cup_id = "emu%d" % (k + 1)
            cup = EmulatedCup(cup_id, self._name(seat_no, kind), heap=cfg.heap, long_ms=long_ms,
                              secret=secret, flash=self.flash / cup_id if self.flash else None,
                              time_scale=scale)
            self.cups.append(cup)
            self.seat_of[cup.cup_id] = seat_no
            strategy = self.bot_strategy(k, logged) if kind == "bot" else None
            seat = Seat(self._name(seat_no, kind), SerialLink(cup.port), kind, reconnect=_reopen(cup),
                        strategy=strategy)
            self.seats.append(seat)
            if kind == "bot":
                self.bots.append(Bot(seat_no, cup, strategy, dice=dice, pace=cfg.pace))
            else:
                self.human = cup
        if kinds and [s.kind for s in self.seats] != kinds:
            raise SeatingError("seating.not_the_logged_table", seats=[s.kind for s in self.seats],
                               logged=kinds)
        if len(self.seats) < 2:
            raise SeatingError("seating.too_few_cups")

    def bot_strategy(self, k, logged):
        """The strategy's name of the k-th bot: a resumed game's log says it (its start event), else the
        config: one name for every bot, or one per bot in seating order."""
        if k < len(logged) and logged[k] in STRATEGIES:
            return logged[k]
        chosen = self.config.strategy
        if isinstance(chosen, str):
            return chosen
        return chosen[k] if k < len(chosen) else chosen[-1]

    def warm(self, rules, coach=False):
        """The odds tables the optimal bots and the coach share, made now: at the table's set-up, before the
        first turn and off the referee's event path, so that no decision pays for them."""
        if coach or any(hasattr(b.strategy, "for_table") for b in self.bots):
            Coach.warm(rules)

    def _seat_a_cup(self, transport):
        """A real cup's seat; without a name given (--names, the table file) it takes the name the cup says in
        its hello (CupLinks.connect), as a cup found on USB does."""
        seat = Seat(self._name(len(self.seats), "cup"), transport, "cup")
        seat.cup_names = len(self.seats) >= len(self.names)
        self.seats.append(seat)

    def _name(self, seat_no, kind):
        if seat_no < len(self.names):
            return self.names[seat_no]
        return default_name(seat_no, kind)

    def close(self):
        for cup in self.cups:
            cup.close()

