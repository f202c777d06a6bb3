"""Type checks of the host: mypy over every host module (the transports first: the bleak backend has no
Bluetooth adapter to run against here, so a fake client at its interface and mypy against bleak's own type
hints are what cover it), the game log's events as TypedDicts (table/event_types.py) equal to the table the
rules check them with at run time (table/events.py), and a cup's messages (links/message_types.py) equal to
hostside.CUP_TO_HOST, field by field and kind by kind."""

import shutil
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from schocken import hostside
from schocken_host.links import message_types
from schocken_host.table import event_types
from schocken_host.table.events import EVENTS

from conftest import ROOT

MODULES = ["host_tools/schocken_host/links/ble.py", "host_tools/schocken_host/links/transport.py",
           "host_tools/schocken_host/links/serial.py",
           "host_tools/schocken_host/commands/scan.py"]


def mypy(*paths):
    exe = Path(sys.executable).parent / "mypy"
    found = str(exe) if exe.exists() else shutil.which("mypy")
    if found is None:
        pytest.skip("mypy is not installed (pip install -e '.[dev]')")
    return subprocess.run([found, "--ignore-missing-imports", "--follow-imports=silent", "--no-error-summary"]
                          + list(paths), cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_mypy_on_the_transports():
    proc = mypy(*MODULES)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_on_every_host_module():
    proc = mypy("host_tools/schocken_host")
    assert proc.returncode == 0, proc.stdout + proc.stderr


# What each kind letter of table/events.py (and of the wire, whose kinds it shares) is for the type checker.
KIND_TYPES = {"i": "int", "n": "int", "p": "int", "q": "list[int]", "s": "str", "b": "bool", "h": "str",
              "l": "list[typing.Any]", "o": "dict[str, typing.Any]", "a": "list[list[int]]", "d": "list[int]",
              "*": "typing.Any"}


def _equal_to_the_table(typed, fields, hints):
    assert sorted(hints) == sorted(field for field, _ in fields)
    for field, kind in fields:
        expected = KIND_TYPES[kind[0]]
        if kind.endswith("?"):
            assert field in typed.__optional_keys__, field
            assert repr(hints[field]) in ("typing.Optional[%s]" % expected, "%s | None" % expected,
                                          "typing.Union[%s, NoneType]" % expected), (field, hints[field])
        else:
            assert field in typed.__required_keys__, field
            assert repr(hints[field]) in (expected, "<class '%s'>" % expected), (field, hints[field])


@pytest.mark.parametrize("name", sorted(EVENTS))
def test_each_event_type_equals_the_events_table(name):
    typed = event_types.BY_NAME[name]
    hints = typing.get_type_hints(typed)
    assert repr(hints.pop("ev")) == "typing.Literal['%s']" % name
    assert hints.pop("ts") is float
    _equal_to_the_table(typed, [word.split(":") for word in EVENTS[name].split()], hints)


@pytest.mark.parametrize("name", sorted(hostside.CUP_TO_HOST))
def test_each_cup_message_type_equals_the_wires_table(name):
    typed = message_types.BY_TYPE[name]
    hints = typing.get_type_hints(typed)
    assert repr(hints.pop("t")) == "typing.Literal['%s']" % name
    _equal_to_the_table(typed, hostside.fields(hostside.CUP_TO_HOST[name]), hints)


def test_every_cup_message_has_its_type():
    assert sorted(message_types.BY_TYPE) == sorted(hostside.CUP_TO_HOST)


def test_every_event_has_its_type():
    assert sorted(event_types.BY_NAME) == sorted(EVENTS)
