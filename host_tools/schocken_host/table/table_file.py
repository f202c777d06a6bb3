"""The table file of `schocken play --table FILE.toml`: the table's name, the players in seating order, their
cups' ports, the rule set. docs/table-file.md is the format; every entry is checked here, and every problem
is a CommandError of one line that names the file and the key (``tisch.toml: players[2].name: ...``)."""

import tomllib
from pathlib import Path

from schocken.rules import OPTION_NAMES, PRESETS

from schocken_host.input_checks import read_text
from schocken_host.errors import CommandError
from schocken_host.i18n import Message, toml_error

TOP_KEYS = ("name", "players", "rules", "options")
PLAYER_KEYS = ("name", "port", "strategy")
# The bots' strategies (table/bots.py STRATEGIES), named here: the file is checked before any cup starts.
STRATEGY_NAMES = ("fast", "general", "optimal", "schock")


def check_name(name, where):
    """A player's name: not empty, no control characters (a line break would break the one-line output). A
    cup shows the first 24 characters of a longer one (the referee shortens it)."""
    if not isinstance(name, str):
        raise CommandError("table_file.name_not_text", where=where, name=name)
    name = name.strip()
    if not name:
        raise CommandError("table_file.empty_name", where=where)
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise CommandError("table_file.control_character", where=where, name=name)
    return name


def _players(path, players):
    if not isinstance(players, list) or not players:
        raise CommandError("table_file.no_players", path=path)
    out = []
    seen_names, seen_ports = set(), set()
    port_ended = None  # the first player without a port: players with a port must come before
    for i, entry in enumerate(players):
        where = "%s: players[%d]" % (path, i + 1)
        if not isinstance(entry, dict):
            raise CommandError("table_file.player_not_a_table", where=where)
        unknown = sorted(set(entry) - set(PLAYER_KEYS))
        if unknown:
            raise CommandError("table_file.unknown_key", where=where, keys=", ".join(unknown),
                               known=", ".join(PLAYER_KEYS))
        if "name" not in entry:
            raise CommandError("table_file.no_name", where=where)
        name = check_name(entry["name"], where + ".name")
        if name in seen_names:
            raise CommandError("table_file.name_twice", where=where, name=name)
        seen_names.add(name)
        player = {"name": name}
        if "port" in entry:
            port = entry["port"]
            if not isinstance(port, str) or not port.strip():
                raise CommandError("table_file.port_not_text", where=where, port=port)
            if port in seen_ports:
                raise CommandError("table_file.port_twice", where=where, port=port)
            if port_ended is not None:
                # Cups on ports are seated first (then BLE, emulated, found cups): a port after a portless
                # player would give this name to another seat.
                raise CommandError("table_file.ports_first", where=where, portless=port_ended)
            seen_ports.add(port)
            player["port"] = port
        elif port_ended is None:
            port_ended = i + 1
        if "strategy" in entry:
            # A bot's strategy: whether this seat is a bot is known once the command line is added
            # (commands/play_table.bot_strategies).
            if entry["strategy"] not in STRATEGY_NAMES:
                raise CommandError("table_file.unknown_strategy", where=where, strategy=entry["strategy"],
                                   known=", ".join(STRATEGY_NAMES))
            player["strategy"] = entry["strategy"]
        out.append(player)
    return out


def _rules(path, data):
    """{"preset", "options"} as the file gives them: the preset known, every option known and plain (true or
    false, a whole number or a word). Values are checked by the rule set when the table is seated."""
    preset = data.get("rules", "standard")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise CommandError("table_file.unknown_rules", path=path, rules=preset,
                           known=", ".join(sorted(PRESETS)))
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise CommandError("table_file.options_not_a_table", path=path)
    for key, value in options.items():
        if key not in OPTION_NAMES:
            raise CommandError("table_file.unknown_option", path=path, option=key,
                               known=", ".join(OPTION_NAMES))
        if not isinstance(value, (bool, int, str)):
            raise CommandError("table_file.option_value", path=path, option=key, value=value)
    return {"preset": preset, "options": dict(options)}


def read_table(path):
    """The table file -> {"name": the table's, "players": [{"name", "port"?, "strategy"?}], "rules":
    {"preset", "options"} or None}. The table's name is its ``name``, else the file's name without its suffix
    (``tisch.toml``: "tisch"): the league's evening is a day at this table (league/evenings.py)."""
    text = read_text(path, Message("input.table_file"))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise CommandError("table_file.not_toml", path=path, error=toml_error(e))
    except RecursionError:
        raise CommandError("table_file.nested", path=path)
    unknown = sorted(set(data) - set(TOP_KEYS))
    if unknown:
        raise CommandError("table_file.unknown_key", where=path, keys=", ".join(unknown),
                           known=", ".join(TOP_KEYS))
    rules = _rules(path, data) if ("rules" in data or "options" in data) else None
    name = check_name(data["name"], "%s: name" % path) if "name" in data else Path(path).stem
    return {"name": name, "players": _players(path, data.get("players")), "rules": rules}
