"""`schocken play`: seat the players, connect their cups (serial ports and/or emulated cups), run the referee
with a scoreboard, log everything; `--resume` continues a logged game."""

import argparse
import asyncio
import gc
import os
import shutil
import signal
import sys
import threading
import time


from schocken_host.table import gamelog
from schocken_host.table.bots import STRATEGIES
from schocken_host.i18n import tr
from schocken_host.input_checks import (WEB_PORT, OneLineParser, count, heap_size, seat_number, seconds,
                                        seconds_or_zero, web_address)
from schocken_host.views.plain import PlainUI
from schocken_host.views.play_keys import keyboard, ui_keys
from schocken_host.table.referee import REVEAL_PAUSE_S, Referee
from schocken_host.table.gamelog import read_log
from schocken_host.table.table_file import read_table  # noqa: F401  (the table file, docs/table-file.md)
from schocken_host.links.transport import TransportClosed
from schocken_host.errors import CommandError
from schocken_host.table.gamelog import flash_folder, open_resume
from schocken_host.table.seating import Table, fair_mode


def add_arguments(p):
    p.add_argument("--emulate", type=count, default=0, metavar="N", help="start N emulated cups (at most 32)")
    p.add_argument("--bots", type=count, default=None, metavar="K",
                   help="K of the emulated cups are played by bots (default: all)")
    p.add_argument("--port", action="append", default=[],
                   help="serial port of a cup, or socket://HOST:PORT, rfc2217://HOST:PORT for a cup on the "
                        "network (repeatable)")
    p.add_argument("--ble", action="append", default=[], metavar="CUP_ID",
                   help="a cup over Bluetooth LE by its id, through the system's stack (bleak; repeatable)")
    p.add_argument("--names", default=None, help="player names in seating order, comma separated")
    p.add_argument("--table", default=None, metavar="FILE.toml",
                   help="players, their ports and the rules from a table file (docs/table-file.md)")
    p.add_argument("--rules", default=None, metavar="PRESET",
                   help="rule set (default: the table file's, else standard; schocken rules shows them)")
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                   help="change one option of the rule set (repeatable)")
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
    p.add_argument("--strategy", choices=sorted(STRATEGIES), default="optimal",
                   help="how the bots play (default: optimal, docs/odds.md)")
    p.add_argument("--seed", type=int, default=None,
                   help="dice for emulated bot cups from this seed (scripted dice: fair play is off)")
    p.add_argument("--opener", type=seat_number, default=None, metavar="SEAT",
                   help="seat that opens, 1 for the first (skips the throw-off)")
    p.add_argument("--resume", nargs="?", const="latest", default=None, metavar="LOG", type=game_log,
                   help="continue an interrupted game (the newest log if none is named)")
    p.add_argument("--log-dir", default=None, help="where game logs go (default: the user data directory)")
    p.add_argument("--heap", type=heap_size, default="160k",
                   help="heap of each emulated cup (micropython -X heapsize, 64k to 64M)")
    p.add_argument("--time-scale", type=time_scale, default=1, metavar="K",
                   help="emulated cups and bots run K times faster (1..%d; only emulated cups: a person at "
                        "one plays it with his keys as usual, the bots go faster)" % MAX_TIME_SCALE)
    p.add_argument("--coach", action="store_true",
                   help="show the player on turn his chance of beating the throws before his and the Deckel "
                        "he can expect, from what the table shows (scoreboard and --web; off by default: it "
                        "changes the game; docs/odds.md)")
    p.add_argument("--exit-after", type=seconds_or_zero, default=None, metavar="SECONDS",
                   help="once the game is over, wait this many seconds (the scoreboard shows the end), then "
                        "exit; without it the scoreboard stays until q")
    p.add_argument("--web", nargs="?", const=("", WEB_PORT), default=None, type=web_address,
                   metavar="[HOST:]PORT",
                   help="serve the game as a live web page (default port %d on every address; "
                        "docs/web.md)" % WEB_PORT)


MAX_TIME_SCALE = 100


def time_scale(text):
    """argparse type of --time-scale: a whole number 1..MAX_TIME_SCALE."""
    k = count(text)
    if not 1 <= k <= MAX_TIME_SCALE:
        raise argparse.ArgumentTypeError(tr(OneLineParser.lang, "arg.time_scale", most=MAX_TIME_SCALE, k=k))
    return k


def game_log(path):
    """argparse type of --resume: a log that reads as events (the game in it is checked when it is resumed),
    so a missing, binary or broken file is refused naming the file before anything starts."""
    if path != "latest":
        try:
            read_log(path)
        except CommandError as e:
            raise argparse.ArgumentTypeError(e.localized(OneLineParser.lang))
    return path


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
            lang = getattr(ui, "lang", "de")
            ui.note(tr(lang, "play.log_repaired", path=log.path, what=log.repaired) if log.repaired
                    else tr(lang, "play.log", path=log.path))
            state.apply({"ev": "game_over", "loser": state.loser,
                         "blattschuss": bool(state.game.blattschuss)})
            log.close()
            return state
    web_view = getattr(args, "web_view", None)
    table = Table(args, start)
    try:
        if web_view is not None:
            await web_view.start()
        if log is None:
            try:
                log = gamelog.GameLog.new(args.log_dir)
            except gamelog.LogFileError as e:
                raise CommandError.of(e)
        # Emulated cups keep their flash beside the log, as a real cup keeps its own: after a host crash the
        # new cup processes come back with their turns, and nobody throws again.
        table.flash = flash_folder(log.path)
        await table.build()
        rules = table.rules()
        table.warm(rules, coach=getattr(args, "coach", False))  # before the first turn: no decision pays
        args.log_path = log.path  # run() says how to continue a game stopped midway
        ui = ui_factory()
        lang = getattr(ui, "lang", "de")
        notes = []
        if web_view is not None:
            from schocken_host.views.web.server import Both
            web_view.attach_log(log.path)
            ui = Both(ui, web_view)
            notes += [tr(lang, "web.url", url=web_view.url), tr(lang, "web.pin", pin=web_view.pin)]
        notes.append(tr(lang, "play.log", path=log.path))
        if log.repaired:
            notes.append(tr(lang, "play.log_repaired", path=log.path.name, what=log.repaired))
        notes += [tr(lang, "play.cup", cup=cup.cup_id, port=cup.port, interpreter=cup.interpreter)
                  for cup in table.cups]
        # Said once the log holds the game's first line: a start the cups refuse names no log (it stays empty
        # and is removed), and prints nothing on standard output.
        log.when_written(lambda: announce(args, web_view, ui, notes))
        fair = fair_mode(args, start)
        referee = Referee(rules, table.seats, log, ui, reveal=args.reveal, cheat=args.cheat, state=state,
                          fair=fair, absent_timeout=args.absent_timeout, turn_timeout=args.turn_timeout,
                          reveal_pause=REVEAL_PAUSE_S / getattr(args, "time_scale", 1))
        if web_view is not None:
            web_view.referee = referee
        args.table_state = referee.state   # run() prints the standings, also of a game stopped midway
        tasks = [asyncio.create_task(b.run(referee)) for b in table.bots]
        human = getattr(table, "human", None)
        if hasattr(ui, "keys"):
            tasks.append(asyncio.create_task(ui_keys(ui.keys, human, referee, table)))
        elif human is not None or (not sys.stdin.isatty() and args.plain):
            tasks.append(asyncio.create_task(keyboard(human, referee, table)))
        # What was built to seat the table lives as long as the game: out of the collector's way, so that no
        # full collection (several ms, tens on a loaded machine) lands on a round's reveals.
        gc.collect()
        gc.freeze()
        try:
            await referee.run(opener=args.opener)
        except TransportClosed as e:  # only a cup that cannot be reached at the start gets here
            raise CommandError.of(e)
        except asyncio.TimeoutError:
            raise CommandError("play.no_answer", cups=", ".join(s.transport.name for s in table.seats))
        except gamelog.LogFileError as e:
            raise CommandError("play.log_failed", error=e)
        finally:
            gc.unfreeze()
            for t in tasks:
                t.cancel()
            referee.close()
        return referee.state
    finally:
        if web_view is not None:
            await _stop_web(web_view, log)
        table.close()
        if log is not None:
            log.close()
            if not args.resume and log.path.exists() and log.path.stat().st_size == 0:
                log.path.unlink()  # no game was started: leave no empty log behind
            if not log.path.exists() or gamelog.finished(log.path):
                shutil.rmtree(flash_folder(log.path), ignore_errors=True)  # nothing left to resume


def announce(args, web_view, ui, notes):
    """The page's URL, QR code and PIN once (--plain: the scoreboard shows them itself), then the notes."""
    if web_view is not None and getattr(args, "web_banner", False):
        print(web_view.banner(web_view.lang), flush=True)
    for note in notes:
        ui.note(note)


async def _stop_web(web_view, log):
    """The browsers get the game's last events (a finished game's, bounded); the server goes on serving the
    final page until the host exits (the scoreboard shows the end until q; --plain exits at once)."""
    from schocken_host.views.web.server import FLUSH_S
    try:
        done = log is not None and log.path.exists() and gamelog.finished(log.path)
        await web_view.finish(FLUSH_S if done else 0)
    except Exception:  # noqa: BLE001 - closing a page must not hide how the game ended
        pass


STOP_S = 10.0   # after Ctrl-C the host has this long to close its cups and its log; then it ends regardless


def _stop_in_time(args, lang):
    """SIGINT handler of --plain: raises KeyboardInterrupt (the game stops, cups and log are closed) and
    starts a watchdog: should the stopping itself hang (a wait that swallowed the cancellation, a thread that
    does not come back), the host still ends after STOP_S with the resume hint. The log is safe either way:
    every event in it was fsynced when it was written."""
    def force_exit():
        hint = resume_hint(args, lang)
        if hint:
            print(hint, flush=True)
        os._exit(0)

    def handler(signum, frame):
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C changes nothing now
        watchdog = threading.Timer(STOP_S, force_exit)
        watchdog.daemon = True  # a host that stopped in time does not wait for it
        watchdog.start()
        raise KeyboardInterrupt
    return handler


def run(args):
    lang = getattr(args, "lang", "de")
    # The scoreboard leaves this long after the game is over (0: at once).
    args.auto_exit = None if args.exit_after is None else max(args.exit_after, 0.001)
    args.web_view = None
    if args.web is not None:
        from schocken_host.views.web.server import WebView
        # bound now: a port in use is refused before anything starts
        args.web_view = WebView(args.web, lang, coach=getattr(args, "coach", False))
        args.web_banner = args.plain or not sys.stdout.isatty()   # the scoreboard shows URL and PIN itself
    try:
        if args.plain or not sys.stdout.isatty():
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, _stop_in_time(args, lang))
            state = asyncio.run(play(args, lambda: PlainUI(lang)))
        else:
            from schocken_host.views.scoreboard import run_scoreboard
            state = run_scoreboard(args, play, lang)
    except (KeyboardInterrupt, asyncio.CancelledError):  # --plain: Ctrl-C, a quit key, the end of the input
        state = None
    if state is None:
        state = getattr(args, "table_state", None)
    print_end(args, state, lang)
    if state is None or not state.over:
        # Stopped midway by the people at the table (q, Ctrl-C): not a failure; the log holds the game.
        hint = resume_hint(args, lang)
        if hint:
            print(hint, flush=True)
    return 0


def print_end(args, state, lang):
    """After the game (over, or stopped midway), on the terminal the scoreboard has left: the standings and
    where the log is. Nothing when no game began (a refused start leaves no log to name)."""
    path = getattr(args, "log_path", None)
    if path is None or not os.path.exists(path) or os.path.getsize(path) == 0:
        return
    from schocken_host.commands.replay import standings_lines
    lines = []
    if state is not None and state.players:
        try:
            lines = [tr(lang, "play.final" if state.over else "play.standings_now")]
            lines += standings_lines(state, lang)
        except Exception:  # noqa: BLE001 - the standings are a courtesy: the log is the record, and named below
            lines = []
    lines.append(tr(lang, "play.log_at", path=path))
    print("\n".join(lines), flush=True)


def resume_hint(args, lang):
    """The line that tells how to continue an interrupted game from its log, or None when no game began."""
    import shlex

    path = getattr(args, "log_path", None)
    if path is None or not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    words = invoked_command() + ["play", "--resume", str(path)]
    for port in args.port:
        words += ["--port", port]
    for cup_id in args.ble:
        words += ["--ble", cup_id]
    if args.table:
        words += ["--table", args.table]
    if getattr(args, "plain", False):
        words.append("--plain")
    if lang == "en":
        words += ["--lang", "en"]
    return tr(lang, "play.interrupted", command=" ".join(shlex.quote(w) for w in words))


def invoked_command():
    """The words that ran this command line, as the user can type them again: ``schocken`` when that is what
    the shell finds, else the path it was started by (``.venv/bin/schocken``, as typed); started as ``python
    -m schocken_host.cli``, the ``schocken`` command beside that python (its install's), else that again."""
    argv0 = sys.argv[0] if sys.argv else ""
    if argv0.replace("\\", "/").endswith("schocken_host/cli.py"):   # python -m schocken_host.cli
        script = os.path.join(os.path.dirname(sys.executable), "schocken")   # the same install's command
        if not os.path.isfile(script):
            return [sys.executable, "-m", "schocken_host.cli"]
        inside = os.path.realpath(script).startswith(os.getcwd() + os.sep)
        argv0 = os.path.relpath(script) if inside else script
    elif os.path.basename(argv0) != "schocken":
        return ["schocken"]     # started some other way (a test calls run() in its own process)
    found = shutil.which("schocken")
    if found and os.path.realpath(found) == os.path.realpath(argv0):
        return ["schocken"]     # what the shell finds
    return [argv0]
