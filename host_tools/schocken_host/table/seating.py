"""`schocken play`: who sits where, from the command line and the table file (docs/table-file.md), checked in
full before any cup starts, any log is made or any line is printed, so a refused table leaves nothing behind.
Every problem is a RuleError of one line (exit status 2)."""

from schocken import RuleError
from schocken.rules import Rules

from schocken_host import gamelog
from schocken_host.input_checks import check_folder_for_writing, check_port
from schocken_host.rules_cmd import parse_assignments
from schocken_host.table_file import check_name, read_table

# Each emulated cup is a MicroPython process with two pseudo-terminals on this PC; a typo like --emulate 400
# would start them all before anything else could fail.
MAX_EMULATED = 20


def _names(args, table):
    if args.names is None:
        return [p["name"] for p in table["players"]] if table else []
    names = [check_name(n, "--names") for n in args.names.split(",") if n.strip()]
    if not names:
        raise RuleError("--names: no name given (names in seating order, comma separated)")
    for i, name in enumerate(names):
        if name in names[:i]:
            raise RuleError("--names: %r sits at the table already" % name)
    return names


def _ports(args, table):
    """The serial ports in seating order, each named as the user gave it (``--port`` or the file's entry)."""
    given = [(port, "--port") for port in args.port]
    if table:
        given += [(p["port"], "%s: players[%d].port" % (args.table, i + 1))
                  for i, p in enumerate(table["players"]) if "port" in p]
    if args.port and len(given) > len(args.port):
        raise RuleError("%s gives the ports, --port too: give them in one place" % args.table)
    ports = [port for port, _ in given]
    for i, (port, option) in enumerate(given):
        check_port(port, option)
        if port in ports[:i]:
            raise RuleError("%s %s: given twice (one cup, one seat)" % (option, port))
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
            raise RuleError("%s: %s" % (args.table, e))
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
        raise RuleError("--emulate %d: at most %d emulated cups" % (emulate, MAX_EMULATED))
    if args.bots is not None and args.bots > emulate:
        raise RuleError("--bots %d: only %d emulated cups (--emulate N) to play" % (args.bots, emulate))
    seats = len(ports) + len(args.ble) + emulate
    if seats:  # else the cups are found on USB when the table is seated: their number is not known yet
        if seats < 2:
            raise RuleError("a game needs at least two cups, this table has %d (use --emulate N or --port)" % seats)
        if seats < rules.min_players:
            raise RuleError("rules %s need at least %d players, this table has %d"
                            % (rules.name, rules.min_players, seats))
        if len(names) > seats:
            raise RuleError("%d names for %d seats: %s" % (len(names), seats, ", ".join(names[seats:])))
        if args.opener is not None and args.opener >= seats:
            raise RuleError("--opener %d: the seats are numbered 0 to %d" % (args.opener, seats - 1))
    if args.log_dir:
        check_folder_for_writing(args.log_dir, "--log-dir")
    else:
        check_folder_for_writing(gamelog.log_dir(), "log folder")
    return names, ports, rules
