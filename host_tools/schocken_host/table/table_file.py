"""The table file of `schocken play --table FILE.toml`: the players in seating order, their cups' ports, the
rule set. docs/table-file.md is the format; every entry is checked here and every problem is a CommandError of one
line that names the file and the key (``tisch.toml: players[2].name: ...``)."""

import tomllib

from schocken.rules import OPTION_NAMES, PRESETS

from schocken_host.input_checks import read_text
from schocken_host.errors import CommandError

TOP_KEYS = ("players", "rules", "options")
PLAYER_KEYS = ("name", "port")


def check_name(name, where):
    """A player's name: not empty, no control characters (a line break would break the one-line output). A
    cup shows the first 24 characters of a longer one (the referee shortens it)."""
    if not isinstance(name, str):
        raise CommandError("%s: needs text, not %r" % (where, name))
    name = name.strip()
    if not name:
        raise CommandError("%s: empty name" % where)
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise CommandError("%s: %r has a control character" % (where, name))
    return name


def _players(path, players):
    if not isinstance(players, list) or not players:
        raise CommandError("%s: needs [[players]] entries, one per seat, each with a name" % path)
    out = []
    seen_names, seen_ports = set(), set()
    port_ended = None  # the first player without a port: players with a port must come before
    for i, entry in enumerate(players):
        where = "%s: players[%d]" % (path, i + 1)
        if not isinstance(entry, dict):
            raise CommandError("%s: needs a table with a name ([[players]])" % where)
        unknown = sorted(set(entry) - set(PLAYER_KEYS))
        if unknown:
            raise CommandError("%s: unknown key %s (known: %s)" % (where, ", ".join(unknown), ", ".join(PLAYER_KEYS)))
        if "name" not in entry:
            raise CommandError("%s: needs a name" % where)
        name = check_name(entry["name"], where + ".name")
        if name in seen_names:
            raise CommandError("%s.name: %r sits at the table already" % (where, name))
        seen_names.add(name)
        player = {"name": name}
        if "port" in entry:
            port = entry["port"]
            if not isinstance(port, str) or not port.strip():
                raise CommandError("%s.port: needs a port name like /dev/ttyACM0 or COM3, not %r" % (where, port))
            if port in seen_ports:
                raise CommandError("%s.port: %s belongs to another player already" % (where, port))
            if port_ended is not None:
                # Cups on ports are seated first (then BLE, emulated, found cups): a port after a portless
                # player would give this name to another seat.
                raise CommandError("%s.port: players with a port come first in the file (players[%d] has none)"
                                % (where, port_ended))
            seen_ports.add(port)
            player["port"] = port
        elif port_ended is None:
            port_ended = i + 1
        out.append(player)
    return out


def _rules(path, data):
    """{"preset", "options"} as the file gives them: the preset known, every option known and plain (true or
    false, a whole number or a word). Values are checked by the rule set when the table is seated."""
    preset = data.get("rules", "standard")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise CommandError("%s: rules: unknown rule set %r (known: %s)" % (path, preset, ", ".join(sorted(PRESETS))))
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise CommandError("%s: options: needs a table [options] of OPTION = VALUE" % path)
    for key, value in options.items():
        if key not in OPTION_NAMES:
            raise CommandError("%s: options.%s: unknown option (known: %s)" % (path, key, ", ".join(OPTION_NAMES)))
        if not isinstance(value, (bool, int, str)):
            raise CommandError("%s: options.%s: needs true, false, a whole number or a word, not %r"
                            % (path, key, value))
    return {"preset": preset, "options": dict(options)}


def read_table(path):
    """The table file -> {"players": [{"name", "port"?}], "rules": {"preset", "options"} or None}."""
    text = read_text(path, "table file")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise CommandError("%s: not TOML: %s" % (path, e))
    except RecursionError:
        raise CommandError("%s: not TOML: nested too deeply" % path)
    unknown = sorted(set(data) - set(TOP_KEYS))
    if unknown:
        raise CommandError("%s: unknown key %s (known: %s)" % (path, ", ".join(unknown), ", ".join(TOP_KEYS)))
    rules = _rules(path, data) if ("rules" in data or "options" in data) else None
    return {"players": _players(path, data.get("players")), "rules": rules}
