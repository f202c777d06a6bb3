"""Type checks of the host: mypy over every host module (the transports first: the bleak backend has no
Bluetooth adapter to run against here, so a fake client at its interface and mypy against bleak's own type
hints are what cover it), with the game log's events (table/event_types.py) and the wire's messages
(links/message_types.py) as TypedDicts made from the tables the rules and the wire check them with at run
time (tests/kits/schema_types.py)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from schocken import hostside, protocol
from schocken_host.links import message_types
from schocken_host.table import event_types
from schocken_host.table.events import EVENTS

from conftest import ROOT
from kits import schema_types

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


def test_the_typed_views_are_made_from_the_tables():
    """table/event_types.py and links/message_types.py are what tests/kits/schema_types.py makes from the
    tables the host and the cup check at run time (events.EVENTS, hostside.CUP_TO_HOST, protocol.HOST_TO_CUP):
    a field added to a table and not to its type fails here."""
    for path, make in schema_types.MADE.items():
        assert path.read_text() == make(), "not current: %s (tests/kits/schema_types.py --write)" % path


def test_every_event_and_message_has_its_type():
    assert sorted(event_types.BY_NAME) == sorted(EVENTS)
    assert sorted(message_types.BY_TYPE) == sorted(hostside.CUP_TO_HOST)
    assert sorted(message_types.TO_CUP_BY_TYPE) == sorted(protocol.HOST_TO_CUP)
