"""`schocken play`'s options as a game's config (table/session.py ``GameConfig``): who sits where, from the
command line and the table file (docs/table-file.md), checked in full before any cup starts, any log is made
or any line is printed, so a refused table leaves nothing behind. Every problem is a CommandError of one line
(exit status 2) that names the option or the file it comes from."""

from pathlib import Path

from schocken import RuleError
from schocken.rules import Rules

from schocken_host.errors import CommandError
from schocken_host.i18n import Message, RuleText
from schocken_host.input_checks import check_folder_for_writing, check_port, parse_assignments
from schocken_host.pace import Pace
from schocken_host.table import gamelog, habit_book
from schocken_host.table.session import GameConfig
from schocken_host.table.table_file import check_name, read_table

# Each emulated cup is a MicroPython process with two pseudo-terminals on this PC; a typo like --emulate 400
# would start them all before anything else could fail.
MAX_EMULATED = 32


def game_config(args):
    """The GameConfig of ``schocken play``'s ``args``, every option checked (CommandError)."""
    resume = resume_path(args) if args.resume else None
    table = read_table(args.table) if args.table else None
    names, ports, rules = plan(args, resuming=resume is not None, table=table)
    return GameConfig(
        names=names, emulate=args.emulate, bots=args.bots, ports=ports, ble=list(args.ble), rules=rules,
        strategy=bot_strategies(args, table, ports, resuming=resume is not None), seed=args.seed,
        fair=fair_mode(args) if resume is None else False,
        reveal=args.reveal, cheat=args.cheat, absent_timeout=args.absent_timeout,
        turn_timeout=args.turn_timeout, opener=args.opener, resume=resume,
        log_dir=Path(args.log_dir) if args.log_dir else None, heap=args.heap,
        pace=Pace(getattr(args, "time_scale", 1), getattr(args, "cup_slowness", 1)),
        coach=getattr(args, "coach", False),
        auth=not getattr(args, "no_auth", False), table=table["name"] if table else None,
        habit_book=None if getattr(args, "no_league", False) else habit_book.book_path())


def resume_path(args):
    """The log ``--resume [LOG]`` names: the newest unfinished game's without a LOG."""
    if args.resume != "latest":
        return Path(args.resume)
    path = gamelog.latest(args.log_dir, unfinished=True)
    if path is None:
        newest = gamelog.latest(args.log_dir)
        where = gamelog.log_dir() if args.log_dir is None else args.log_dir
        if newest is not None and newest.stat().st_size == 0:
            raise CommandError("gamelog.newest_empty", path=newest)
        raise CommandError("gamelog.none_unfinished", folder=where)
    return path


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


def plan(args, resuming=False, table=None):
    """-> (names in seating order, serial ports, Rules). A resumed game takes its players and rules from its
    log (the rules are None then); the ports it needs are checked all the same. ``table``: the table file
    read already (None: read here, if there is one)."""
    if table is None and args.table:
        table = read_table(args.table)
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


DEFAULT_STRATEGY = "optimal"


def bot_strategies(args, table, ports, resuming=False):
    """How the bots play: one strategy's name for every bot, or a list of names, one per bot in seating order.
    ``--strategy`` decides where it is given (as --names replaces the file's names): one name, or exactly as
    many as there are bots; else the table file's players' ``strategy`` (each must sit at a bot's seat), a
    bot without one playing optimal. A resumed game's bots play what its log's start event says
    (seating.Table), this only where the log does not say."""
    given = getattr(args, "strategy", None)
    if isinstance(given, str):
        given = [given]
    n_bots = args.emulate if args.bots is None else args.bots
    if resuming:   # the log's start event says (seating.Table); a log from before that plays these
        return (given[0] if len(given) == 1 else list(given)) if given else DEFAULT_STRATEGY
    if given:
        if len(given) == 1:
            return given[0]
        if len(given) != n_bots:
            raise CommandError("seating.strategies_count", given=",".join(given), n=len(given), bots=n_bots)
        return list(given)
    players = table["players"] if table else []
    if not any("strategy" in p for p in players):
        return DEFAULT_STRATEGY
    first = len(ports) + len(args.ble)   # the emulated cups come after the ports and the BLE cups
    chosen = [DEFAULT_STRATEGY] * n_bots
    for i, player in enumerate(players):
        if "strategy" in player:
            if not first <= i < first + n_bots:
                raise CommandError("table_file.strategy_not_a_bot",
                                   where="%s: players[%d]" % (args.table, i + 1),
                                   name=player["name"], seat=i + 1)
            chosen[i - first] = player["strategy"]
    return chosen


def fair_mode(args):
    """Fair play is the default for a new game (a resumed one keeps its log's: session.fair_play); scripted
    dice (--seed) are not fair dice, so --seed turns it off, and --seed with --fair is refused."""
    if args.seed is not None:
        if args.fair:
            raise CommandError("seating.seed_and_fair")
        return False
    return args.fair is not False
