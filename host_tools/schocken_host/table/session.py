"""One game at this host, from a ``GameConfig``: its log opened (or a logged game taken up), the table seated,
the referee run with the bots and the people's inputs, and everything closed again however the game ends.

`schocken play` builds the config from its options (commands/play.py); a test or a bench builds one of its
own. The session knows no command line: what a front end adds (the terminal's view, a web page beside it, a
person's keys) it hands in as ``ui_factory``, ``web`` and ``inputs``.
"""

import asyncio
import gc
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from schocken.rules import Rules

from schocken_host.errors import CommandError
from schocken_host.i18n import tr
from schocken_host.links.transport import TransportClosed
from schocken_host.pace import Pace
from schocken_host.table import gamelog, habit_book
from schocken_host.table.referee import REVEAL_PAUSE_S, Referee
from schocken_host.table.seating import SeatingError, Table


@dataclass
class GameConfig:
    """A game, everything in it checked already. A resumed game (``resume``) takes its players, its rules and
    its fair play from its log: ``names``, ``rules``, ``fair`` and the counts of cups are not used then."""
    names: list = field(default_factory=list)   # in seating order; a seat without one is "Spieler N"/"Bot N"
    emulate: int = 0                  # emulated cups (MicroPython processes on this PC)
    bots: Optional[int] = None        # of those played by bots (None: all); the others by people
    ports: list = field(default_factory=list)   # serial ports (or socket://, rfc2217:// URLs) of real cups
    ble: list = field(default_factory=list)     # cup ids over Bluetooth LE
    rules: Optional[Rules] = None     # None: the standard rules
    strategy: object = "optimal"      # how the bots play (table/bots.py STRATEGIES): a name for every bot, or
                                      # a list of names, one per bot in seating order
    seed: Optional[int] = None        # scripted dice for the bots' cups (fair play is off then)
    fair: bool = True                 # dice from each cup's committed seed and the host's nonces
    reveal: str = "all"               # "all": the host uncovers every cup; "button": each player presses
    cheat: str = "replay"             # "replay": play the round again; "deckel": the cheater takes the Deckel
    absent_timeout: float = 120.0     # s a cup may be gone or silent before the table is asked
    turn_timeout: float = 600.0       # s a present player may take for a turn before the table is asked
    opener: Optional[int] = None      # the seat that opens, skipping the throw-off
    resume: Optional[Path] = None     # the log of an interrupted game to continue
    log_dir: Optional[Path] = None    # where the log goes (None: the user's data folder)
    heap: str = "160k"                # heap of each emulated cup
    pace: Pace = field(default_factory=Pace)  # cups and bots faster (emulated), cups slower than a chip
    coach: bool = False               # the coach's odds are shown: its tables are made before the first turn
    auth: bool = True                 # each emulated cup gets a fresh secret and signs every message
    table: Optional[str] = None       # the table's name (the table file's): the league's evening is its own
    habit_book: Optional[Path] = None  # what the host remembers of each player's play (table/habit_book.py):
                                      # the table starts from it and the game adds to it; None: neither


def fair_play(config, start):
    """Fair play at this game: a resumed game (``start``, its log's start event) keeps the mode its log
    started with, whatever the config says now."""
    return bool(start.get("fair")) if start is not None else config.fair


class GameSession:
    """``run(ui_factory)`` plays the game and returns its TableState; ``ui_factory()`` makes the terminal's
    view once the table is seated. ``web`` (or None) is a page beside it: ``start()``, ``attach(ui,
    log_path)`` -> the view of both and the lines that announce the page, ``referee`` (who takes the page's
    table actions), ``announce()``, ``stop(finished)``. ``inputs(referee, table, ui)`` -> coroutines of the
    people at the table (their keys, the table's words), run beside the bots for as long as the game.
    ``finished(log_path)`` is called once a finished game's log is closed (the league records it there): it
    must return at once, and whatever it raises is not the game's end."""

    def __init__(self, config, web=None, inputs=None, finished=None):
        self.config = config
        self.finished = finished
        self.ui_factory = None
        self.web = web
        self.inputs = inputs
        self.log_path = None          # the game's log, once its first line is written or it was resumed
        self.state = None             # the live TableState: the standings of a game stopped midway too
        self.table = None

    async def run(self, ui_factory):
        self.ui_factory = ui_factory
        cfg = self.config
        state = log = start = None
        if cfg.resume:
            log, state, start = gamelog.open_resume(cfg.resume)
            if state.over:
                return self._write_the_end(log, state)
        web = self.web
        try:
            self.table = table = Table(cfg, start)
        except SeatingError as e:
            if log is not None:
                log.close()
            raise CommandError.of(e)
        try:
            if web is not None:
                await web.start()
            if log is None:
                try:
                    log = gamelog.GameLog.new(cfg.log_dir)
                except gamelog.LogFileError as e:
                    raise CommandError.of(e)
            # Emulated cups keep their flash beside the log, as a real cup keeps its own: after a host crash
            # the new cup processes come back with their turns, and nobody throws again.
            table.flash = gamelog.flash_folder(log.path)
            try:
                await table.build()
            except SeatingError as e:
                raise CommandError.of(e)
            rules = table.rules()
            table.warm(rules, coach=cfg.coach)  # before the first turn: no decision pays for the odds tables
            self.log_path = log.path
            return await self._referee(table, rules, log, state, start)
        finally:
            if web is not None:
                await self._stop_web(log)
            table.close()
            if log is not None:
                log.close()
                if not cfg.resume and log.path.exists() and log.path.stat().st_size == 0:
                    log.path.unlink()  # no game was started: leave no empty log behind
                if not log.path.exists() or gamelog.finished(log.path):
                    shutil.rmtree(gamelog.flash_folder(log.path), ignore_errors=True)  # nothing to resume
                    if log.path.exists():
                        self._tell_finished(log.path)

    def _tell_finished(self, path):
        if self.finished is None:
            return
        try:
            self.finished(path)
        except Exception:  # noqa: BLE001 - the log is the record of the game, whatever its listener does
            pass

    def _write_the_end(self, log, state):
        """The host died after the last round but before game_over: the game is decided, its end written."""
        log.append({"ev": "game_over", "loser": state.loser, "blattschuss": bool(state.game.blattschuss),
                    "ts": round(time.time(), 3)})
        ui = self.ui_factory()
        lang = ui.lang
        ui.note(tr(lang, "play.log_repaired", path=log.path, what=log.repaired) if log.repaired
                else tr(lang, "play.log", path=log.path))
        state.apply({"ev": "game_over", "loser": state.loser, "blattschuss": bool(state.game.blattschuss)})
        log.close()
        self.state = state
        self._tell_finished(log.path)
        return state

    async def _referee(self, table, rules, log, state, start):
        cfg, web = self.config, self.web
        ui = self.ui_factory()
        lang = ui.lang
        notes = []
        if web is not None:
            ui, said = web.attach(ui, log.path)
            notes += said
        notes.append(tr(lang, "play.log", path=log.path))
        if log.repaired:
            notes.append(tr(lang, "play.log_repaired", path=log.path.name, what=log.repaired))
        notes += [tr(lang, "play.cup", cup=cup.cup_id, port=cup.port, interpreter=cup.interpreter)
                  for cup in table.cups]
        # Said once the log holds the game's first line: a start the cups refuse names no log (it stays empty
        # and is removed), and prints nothing on standard output.
        log.when_written(lambda: self._announce(ui, notes))
        referee = Referee(rules, table.seats, log, ui, reveal=cfg.reveal, cheat=cfg.cheat, state=state,
                          fair=fair_play(cfg, start), absent_timeout=cfg.absent_timeout,
                          turn_timeout=cfg.turn_timeout, reveal_pause=REVEAL_PAUSE_S / cfg.pace.time_scale,
                          pace=cfg.pace, table=cfg.table)
        if web is not None:
            web.referee = referee
        self.state = referee.state
        seen_before = len(referee.state.turns_seen)   # a resumed game's: in the book already
        if cfg.habit_book is not None:
            referee.state.known_habits = habit_book.load(cfg.habit_book)
        tasks = [asyncio.create_task(b.run(referee)) for b in table.bots]
        if self.inputs is not None:
            tasks += [asyncio.create_task(c) for c in self.inputs(referee, table, ui)]
        # What was built to seat the table lives as long as the game: out of the collector's way, so that no
        # full collection (several ms, tens on a loaded machine) lands on a round's reveals.
        gc.collect()
        gc.freeze()
        try:
            await referee.run(opener=cfg.opener)
        except TransportClosed as e:  # only a cup that cannot be reached at the start gets here
            raise CommandError.of(e)
        except asyncio.TimeoutError:
            raise CommandError("play.no_answer", cups=", ".join(s.link.transport.name for s in table.seats))
        except gamelog.LogFileError as e:
            raise CommandError("play.log_failed", error=e)
        finally:
            gc.unfreeze()
            for t in tasks:
                t.cancel()
            referee.close()
            if cfg.habit_book is not None and len(referee.state.turns_seen) > seen_before:
                habit_book.record(referee.state, cfg.habit_book, seen_before)   # a memory: never fails a game
        return referee.state

    def _announce(self, ui, notes):
        if self.web is not None:
            self.web.announce()
        for note in notes:
            ui.note(note)

    async def _stop_web(self, log):
        """The browsers get the game's last events (a finished game's, bounded); the page stays served until
        the host exits."""
        try:
            await self.web.stop(log is not None and log.path.exists() and gamelog.finished(log.path))
        except Exception:  # noqa: BLE001 - closing a page must not hide how the game ended
            pass
