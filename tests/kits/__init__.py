"""Test kits: the helpers the tests (and bench/) import as ``from kits import tablekit`` or
``from kits.cupkit import CupDriver``, with tests/ on sys.path (tests/conftest.py puts it there, bench/ too).
None of them is a test.

- aioble_shim: an aioble-compatible shim on bumble, so firmware/boards/ble.py runs unchanged on CPython
- blekit: a table of cups over a virtual BLE link (the firmware's BLE link on aioble_shim, a bumble link)
- casekit: runs the shared rule cases of tests/cases/*.json (CPython, and MicroPython through mp_cases)
- cupkit: an emulated cup reached only through its real inputs (CupDriver)
- fake_i2c: a fake I2C bus and the driver checks both interpreters run
- hostile: hostile guests of the live page on raw sockets, each from its own 127.x address (and the host they
  attack), for tests/test_web_hostile.py and bench/web_hostile.py
- mp_cases: the script that runs casekit's cases under the MicroPython unix port
- mp_fuzz: the script that fuzzes the cup's side of the link (MicroPython unix port, and CPython)
- rulekit: hypothesis strategies for the rules package
- rules_doc: renders the generated part of docs/rules.md from the cases
  (``python tests/kits/rules_doc.py --write``)
- scorekit: a table that makes events the way the referee does, for the scoreboard
- tablekit: whole tables of emulated cups refereed by the host, run side by side
- tracekit: the shipped shake traces and what a detector must make of them
- turnierkit: what the tournament's tests and bench/turnier.py send a director that it must hold back
- webkit: the live page's server under aiohttp's test client

The scripts MicroPython runs (mp_cases, mp_fuzz, fake_i2c) import a sibling by its bare name (mp_cases
imports casekit): the tests run them with this folder on MICROPYPATH.
"""
