"""`schocken play`: its options made a checked GameConfig (commands/play_table.py) and played as a GameSession
(table/session.py) with what only the command line knows: the scoreboard or the plain lines, the web page
beside them, the people's keys, the standings and the resume hint at the end; `--resume` continues a logged
game."""

import argparse
import asyncio
import os
import shutil
import signal
import sys
import threading

from schocken_host.commands.play_table import game_config
from schocken_host.errors import CommandError
from schocken_host.i18n import tr
from schocken_host.input_checks import (WEB_PORT, OneLineParser, argument_error, count,
                                        heap_size, seat_number, seconds, seconds_or_zero, time_scale,
                                        web_address)
from schocken_host.league.recorder import Recorder
from schocken_host.pace import MAX_FACTOR
from schocken_host.table.bots import STRATEGIES
from schocken_host.table.gamelog import read_log
from schocken_host.table.session import GameSession
from schocken_host.table.view import Views
from schocken_host.views.plain import PlainUI
from schocken_host.views.play_keys import keyboard, ui_keys


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
    p.add_argument("--strategy", type=strategies, default=None, metavar="NAME[,NAME...]",
                   help="how the bots play: one strategy for every bot, or one per bot in seating order "
                        "(optimal,fast,schock,general); default: the table file's, else optimal "
                        "(docs/odds.md)")
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
                        "one plays it with his keys as usual, the bots go faster)" % MAX_FACTOR)
    p.add_argument("--cup-slowness", type=time_scale, default=1, metavar="K",
                   help="the cups run K times slower than a chip (1..%d; an emulated RP2040 about 26, "
                        "docs/build.md): the host waits K times longer for each answer" % MAX_FACTOR)
    p.add_argument("--coach", action="store_true",
                   help="show the player on turn his chance of beating the throws before his and the Deckel "
                        "he can expect, from what the table shows (scoreboard and --web; off by default: it "
                        "changes the game; docs/odds.md)")
    p.add_argument("--exit-after", type=seconds_or_zero, default=None, metavar="SECONDS",
                   help="once the game is over, wait this many seconds (the scoreboard shows the end), then "
                        "exit; without it the scoreboard stays until q")
    p.add_argument("--no-league", action="store_true",
                   help="do not record the finished game in the league (schocken liga; by default it is "
                        "recorded in league.sqlite3 in the user data directory as it ends)")
    p.add_argument("--web", nargs="?", const=("", WEB_PORT), default=None, type=web_address,
                   metavar="[HOST:]PORT",
                   help="serve the game as a live web page (default port %d on every address; "
                        "docs/web.md)" % WEB_PORT)
    p.add_argument("--turnier", default=None, metavar="URL",
                   help="a tournament's table: the address on its table card (http://HOST:PORT/tisch/KEY); "
                        "the players come from the director's draw and the finished game is reported there "
                        "(docs/turnier.md)")


def strategies(text):
    """argparse type of --strategy: the names of bot strategies, one for every bot or one per bot in seating
    order, comma separated (their number is checked against the bots in play_table.bot_strategies)."""
    names = [name.strip() for name in text.split(",")]
    for name in names:
        if name not in STRATEGIES:
            raise argument_error("arg.strategy", name=name, known=", ".join(sorted(STRATEGIES)))
    return names


def game_log(path):
    """argparse type of --resume: a log that reads as events (the game in it is checked when it is resumed),
    so a missing, binary or broken file is refused naming the file before anything starts."""
    if path != "latest":
        try:
            read_log(path)
        except CommandError as e:
            raise argparse.ArgumentTypeError(e.localized(OneLineParser.lang))
    return path


class WebSide:
    """The live web page beside the terminal's view (views/web/server.WebView), as a GameSession uses it."""

    def __init__(self, view, banner):
        self.view = view
        self.banner = banner          # print URL, QR code and PIN (--plain: the scoreboard shows them itself)

    @property
    def referee(self):
        return self.view.referee

    @referee.setter
    def referee(self, referee):
        self.view.referee = referee   # who takes the page's table actions

    async def start(self):
        await self.view.start()

    def attach(self, ui, log_path):
        """The view of both (nothing the page does reaches the referee) and the lines that announce it."""
        self.view.attach_log(log_path)
        lang = ui.lang
        said = [tr(lang, "web.url", url=self.view.url), tr(lang, "web.pin", pin=self.view.pin)]
        return Views(ui, self.view), said

    def announce(self):
        if self.banner:
            print(self.view.banner(self.view.lang), flush=True)

    async def stop(self, finished):
        """The browsers get the game's last events (a finished game's, bounded); the server goes on serving
        the final page until the host exits (the scoreboard shows the end until q; --plain exits at once)."""
        from schocken_host.views.web.server import FLUSH_S
        await self.view.finish(FLUSH_S if finished else 0)


def person_inputs(plain):
    """What the people at the table type: a person's keys through the scoreboard, or lines on standard input
    (his keys, and the table's words; --plain reads them also without a person at an emulated cup)."""
    def inputs(referee, table, ui):
        if ui.keys is not None:
            return [ui_keys(ui.keys, table.human, referee, table)]
        if table.human is not None or (not sys.stdin.isatty() and plain):
            return [keyboard(table.human, referee, table)]
        return []
    return inputs


def session_of(args, lang):
    """The GameSession of `schocken play` ARGS: the options checked in full (play_table.game_config), the web
    page bound (a port in use is refused before anything starts)."""
    web = None
    if args.web is not None:
        from schocken_host.views.web.server import WebView
        web = WebSide(WebView(args.web, lang, coach=args.coach), banner=args.plain or not sys.stdout.isatty())
    recorder = None if getattr(args, "no_league", False) else Recorder()
    table = tournament_table(args, lang) if getattr(args, "turnier", None) else None
    if table is not None:
        from schocken_host.tournament.reporter import Reporter
        recorder = Reporter(args.turnier, table["round"], args.log_dir, then=recorder)
    session = GameSession(game_config(args), web=web, inputs=person_inputs(args.plain), finished=recorder)
    session.tournament = table
    return session


def tournament_table(args, lang):
    """--turnier URL: the table's round and players from the director (``--names`` when none are given;
    names given must be the ones drawn), announced in one line."""
    from schocken_host.tournament.reporter import seating
    table = seating(args.turnier, args.log_dir)
    drawn = table.get("players") or []
    if not drawn:
        raise CommandError("turnier.not_seated", table=table.get("table"), round=table.get("round"))
    fresh = not args.resume and not args.table     # a resumed game has its players and rules in its log
    if args.names is None and fresh:
        args.names = ",".join(drawn)
    rules = table.get("rules")
    if isinstance(rules, dict) and args.rules is None and not args.set and fresh:
        # the tournament's rules (the director holds back a game played under others)
        args.rules = rules.get("preset")
        args.set = ["%s=%s" % (k, str(v).lower() if isinstance(v, bool) else v)
                    for k, v in (rules.get("options") or {}).items()]
    elif args.names is not None and [n.strip() for n in args.names.split(",")] != drawn:
        raise CommandError("turnier.names_differ", given=args.names, table=table.get("table"),
                           drawn=", ".join(drawn))
    print(tr(lang, "turnier.seated", table=table.get("table"), round=table.get("round"),
             players=", ".join(drawn)), flush=True)
    if table.get("offline"):
        print(tr(lang, "turnier.seated_offline", why=table["offline"]), flush=True)
    return table


def live_runner(session):
    """session.run, with the table's live state sent to the director beside the view (--turnier)."""
    table = getattr(session, "tournament", None)
    if table is None:
        return session.run
    from schocken_host.tournament.reporter import LiveReport
    live = LiveReport(session.finished.url, table["round"])

    async def run(ui_factory):
        try:
            return await session.run(lambda: Views(ui_factory(), live))
        finally:   # the game's last state on the big screen: waited for, bounded
            await asyncio.get_running_loop().run_in_executor(None, live.finish, 2.0)
    return run


STOP_S = 10.0   # after Ctrl-C the host has this long to close its cups and its log; then it ends regardless


def _stop_in_time(args, session, lang):
    """SIGINT handler of --plain: raises KeyboardInterrupt (the game stops, cups and log are closed) and
    starts a watchdog: should the stopping itself hang (a wait that swallowed the cancellation, a thread that
    does not come back), the host still ends after STOP_S with the resume hint. The log is safe either way:
    every event in it was fsynced when it was written."""
    def force_exit():
        hint = resume_hint(args, session.log_path, lang)
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
    session = session_of(args, lang)
    try:
        if args.plain or not sys.stdout.isatty():
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, _stop_in_time(args, session, lang))
            state = asyncio.run(live_runner(session)(lambda: PlainUI(lang)))
        else:
            from schocken_host.views.scoreboard import run_scoreboard
            # The scoreboard leaves this long after the game is over (0: at once).
            auto_exit = None if args.exit_after is None else max(args.exit_after, 0.001)
            state = run_scoreboard(live_runner(session), lang, auto_exit=auto_exit, coach=args.coach,
                                   web=session.web.view if session.web else None)
    except (KeyboardInterrupt, asyncio.CancelledError):  # --plain: Ctrl-C, a quit key, the end of the input
        state = None
    if state is None:
        state = session.state
    print_end(session.log_path, state, lang, league_line(session, lang))
    if state is None or not state.over:
        # Stopped midway by the people at the table (q, Ctrl-C): not a failure; the log holds the game.
        hint = resume_hint(args, session.log_path, lang)
        if hint:
            print(hint, flush=True)
    return 0


def league_line(session, lang):
    """The line that says the finished game is in the league now, or None; why it is not goes to standard
    error at once, one line (the game is over and logged all the same)."""
    said = session.finished.line(lang) if session.finished is not None else None
    if said is None:
        return None
    line, error = said
    if error:
        print(line, file=sys.stderr, flush=True)
        return None
    return line


def print_end(path, state, lang, league=None):
    """After the game (over, or stopped midway), on the terminal the scoreboard has left: the standings, the
    league's line (``league``) and where the log is (``path``). Nothing when no game began (a refused start
    leaves no log to name)."""
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
    if league is not None:
        lines.append(league)
    lines.append(tr(lang, "play.log_at", path=path))
    print("\n".join(lines), flush=True)


def resume_hint(args, path, lang):
    """The line that tells how to continue an interrupted game from its log (``path``), or None when no game
    began."""
    import shlex

    if path is None or not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    words = invoked_command() + ["play", "--resume", str(path)]
    for port in args.port:
        words += ["--port", port]
    for cup_id in args.ble:
        words += ["--ble", cup_id]
    if args.table:
        words += ["--table", args.table]
    if getattr(args, "turnier", None):
        words += ["--turnier", args.turnier]
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
