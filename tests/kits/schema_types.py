"""The typed views of the one schema of each family, made from it: table/event_types.py from the game log's
events (table/events.py ``EVENTS``) and links/message_types.py from the wire's messages (``CUP_TO_HOST`` of
schocken.hostside, ``HOST_TO_CUP`` of schocken.protocol). The tables stay the ones the host and the cup check
with at run time (the firmware's package and the browser's MicroPython have no typing); these modules are
what the type checker reads.

    .venv/bin/python tests/kits/schema_types.py --write     # after a change of a table

tests/test_types.py fails when a written module is not what this makes."""

import argparse
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for _p in (ROOT / "firmware" / "lib", ROOT / "host_tools"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from schocken import hostside, protocol  # noqa: E402
from schocken_host.table.events import EVENTS  # noqa: E402

EVENT_TYPES = ROOT / "host_tools" / "schocken_host" / "table" / "event_types.py"
MESSAGE_TYPES = ROOT / "host_tools" / "schocken_host" / "links" / "message_types.py"

# What each kind letter of the tables is for the type checker (the wire's kinds and the game log's own).
KIND_TYPES = {"i": "int", "n": "int", "p": "int", "q": "list[int]", "s": "str", "b": "bool", "h": "str",
              "l": "list[Any]", "o": "dict[str, Any]", "a": "list[list[int]]", "d": "list[int]", "*": "Any"}

IMPORTS = "\nfrom typing import Any, Literal, NotRequired, TypedDict, Union"


def header(what, tables):
    text = ("%s Made by tests/kits/schema_types.py from %s: edit the table, then run it with --write. Import "
            "it under ``typing.TYPE_CHECKING`` only." % (what, tables))
    return '"""%s"""\n' % textwrap.fill(text, width=107) + IMPORTS


def fields(spec):
    return [word.split(":") for word in spec.split()]


def camel(name):
    return "".join(part.capitalize() for part in name.split("_"))


def typed_dict(class_name, base, key, name, spec):
    lines = ["", "", "class %s(%s):" % (class_name, base), '    %s: Literal["%s"]' % (key, name)]
    for field, kind in fields(spec):
        t = KIND_TYPES[kind.rstrip("?")]
        lines.append("    %s: %s" % (field, "NotRequired[%s | None]" % t if kind.endswith("?") else t))
    return lines


def wrapped(opening, items, closing):
    """``items`` after ``opening``, as many on a line as fit, ``closing`` after the last."""
    lines, line = [opening], "   "
    for i, item in enumerate(items):
        piece = " " + item + ("," if i < len(items) - 1 else closing)
        if len(line) + len(piece) > 110:
            lines.append(line.rstrip())
            line = "   "
        line += piece
    return lines + [line]


def family(table, key, suffix, base, union, by, what):
    out = []
    for name, spec in table.items():
        out += typed_dict(camel(name) + suffix, base, key, name, spec)
    classes = [camel(name) + suffix for name in table]
    out += ["", ""]
    out += wrapped("%s = Union[" % union, classes, "]")
    out += ["", '# the TypedDict of each %s, by its "%s"' % (what, key)]
    out += wrapped("%s: dict[str, Any] = {" % by, ['"%s": %s' % (n, c) for n, c in zip(table, classes)], "}")
    return out


def event_types():
    out = [header("The game log's events as types for the type checker: one TypedDict per event of "
                  "``table/events.py``.", "EVENTS")]
    out += ["", "class _Base(TypedDict):", "    ts: NotRequired[float]          # every event may carry the "
            "host's time"]
    out += family(EVENTS, "ev", "Event", "_Base", "Event", "BY_NAME", "event type")
    return "\n".join(out) + "\n"


def message_types():
    out = [header("The wire's messages as types for the type checker: one TypedDict per message a cup sends "
                  "(``hostside.CUP_TO_HOST``: the seats' pumps read them so) and per message the host sends "
                  "(``protocol.HOST_TO_CUP``). On the host an error's ``msg`` is always there: the transport "
                  "puts a ``why`` into words.", "CUP_TO_HOST and HOST_TO_CUP")]
    out += family(hostside.CUP_TO_HOST, "t", "Message", "TypedDict", "CupMessage", "BY_TYPE", "cup's message")
    out += family(protocol.HOST_TO_CUP, "t", "ToCup", "TypedDict", "HostMessage", "TO_CUP_BY_TYPE",
                  "host's message")
    out += ["", "", "class GarbageItem(TypedDict):",
            '    """A line from a cup the transport could not take (links/transport.py): its error code and '
            'why."""',
            '    t: Literal["garbage"]', "    code: str", "    msg: str"]
    return "\n".join(out) + "\n"


MADE = {EVENT_TYPES: event_types, MESSAGE_TYPES: message_types}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write the modules (else: say which differ)")
    args = ap.parse_args(argv)
    stale = [path for path, make in MADE.items() if path.read_text() != make()]
    if args.write:
        for path in stale:
            path.write_text(MADE[path]())
    for path in stale:
        print(("written: " if args.write else "not current: ") + str(path.relative_to(ROOT)))
    return 1 if stale and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
