"""`schocken scan`: the cups in reach, over serial ports (hello) and Bluetooth LE (advertisements), with their
names, seats, signal strength and battery. A cup on a serial port that answers with a signed identity this
host has no key for is listed as paired with another host (it takes orders only from that host)."""

import asyncio
import json
import sys

from schocken import hostside
from schocken import protocol

from schocken_host.links import battery
from schocken_host.links.ble_bleak import bleak_scan
from schocken_host.links.ble_bumble import BumbleCentral
from schocken_host.i18n import tr
from schocken_host.input_checks import check_port, seconds
from schocken_host.links.transport import TransportClosed
from schocken_host.links.keys import keystore
from schocken_host.errors import CommandError


def add_arguments(p):
    p.add_argument("--timeout", type=seconds, default=3.0, help="seconds to listen for BLE cups (default 3)")
    p.add_argument("--port", action="append", default=[],
                   help="also probe this serial port, or a cup on the network: socket://HOST:PORT, "
                        "rfc2217://HOST:PORT (repeatable; pseudo-terminals are not listed by the OS, "
                        "network cups are never searched for)")
    p.add_argument("--no-serial", action="store_true", help="skip the serial ports")
    p.add_argument("--no-ble", action="store_true", help="skip Bluetooth")
    p.add_argument("--backend", choices=("bleak", "bumble"), default="bleak",
                   help="BLE stack: bleak (the system's Bluetooth) or bumble (a USB dongle driven directly)")
    p.add_argument("--bumble-transport", default="usb:0", metavar="SPEC",
                   help="bumble transport for --backend bumble (default usb:0)")
    p.add_argument("--json", action="store_true", help="one JSON object per cup")


async def serial_scan(ports=None, timeout=2.0, note=None):
    """Cups on serial ports (links/serial.py ``cups_on_ports``: the likely USB ports plus ``ports``), one at a
    time: identity, then status for the seat; ``note(error)`` hears of each port of ``ports`` that does not
    open."""
    from schocken_host.links.serial import cups_on_ports
    out = []

    def refused(t):
        entry = _refused_identity(t)
        if entry is not None:
            out.append(entry)
    async for t, ident in cups_on_ports(ports or [], timeout, note, refused):
        try:
            status = None
            await t.send({"t": "status"})
            while status is None:
                msg = await t.recv(timeout)
                if msg["t"] == "status":
                    status = msg
            out.append({"via": "serial", "address": t.port, "rssi": None, "cup": ident["cup"],
                        "name": status.get("name") or ident["name"], "seat": status.get("seat"),
                        "battery": ident.get("battery"), "state": status.get("state"),
                        "motion": status.get("motion"), "seq": None,
                        "paired": "here" if t.session is not None else None})
        except (TransportClosed, asyncio.TimeoutError, OSError):
            pass
        finally:
            t.close()  # before the next port opens: two links must not share one cup
    return out


def _refused_identity(t):
    """The entry of a cup whose identity ``hello`` refused, from the line it answered with (the transport
    keeps it: ``last_raw``), or None when the refusal was not about its identity. Without this host's key
    nobody can ask it for its status: the seat and state stay unknown."""
    try:
        ident = protocol.decode(t.last_raw, hostside.CUP_TO_HOST) if t.last_raw else None
    except protocol.ProtocolError:
        return None
    if not ident or ident.get("t") != "identity":
        return None
    # hello refuses a signed identity when this host has no key for the cup: it is paired with another host.
    # It also refuses one that does not verify under this host's key, or comes unsigned for a cup this host
    # paired: somebody answers in the name of that cup.
    elsewhere = ident.get("nonce") is not None and ident["cup"] not in keystore()
    paired = "elsewhere" if elsewhere else "not authentic"
    return {"via": "serial", "address": t.port, "rssi": None, "cup": ident["cup"], "name": ident.get("name"),
            "seat": None, "battery": ident.get("battery"), "state": None, "motion": None, "seq": None,
            "paired": paired}


async def scan_all(args, ble_scan=None, serial=None, err=None):
    """Every cup in reach as dicts, serial first; BLE problems (no adapter, no BlueZ) become one note."""
    err = err or sys.stderr
    cups = []
    lang = getattr(args, "lang", "de")
    if not args.no_serial:
        if serial is None:
            cups += await serial_scan(args.port,
                                      note=lambda e: err.write("schocken scan: %s\n" % e.localized(lang)))
        else:
            cups += await serial(args.port)
    if not args.no_ble:
        try:
            if ble_scan is not None:
                cups += await ble_scan(args.timeout)
            elif args.backend == "bumble":
                central = BumbleCentral(transport=args.bumble_transport)
                try:
                    cups += await central.scan(args.timeout)
                finally:
                    await central.close()
            else:
                cups += await bleak_scan(args.timeout)
        except Exception as e:  # noqa: BLE001 - no adapter, no D-Bus, no dongle: say so and go on
            why = "%s: %s" % (type(e).__name__, e)
            err.write("schocken scan: %s\n" % tr(lang, "scan.no_bluetooth", backend=args.backend, error=why))
    return cups


PAIRED_TEXT = {"elsewhere": "scan.paired_elsewhere", "not authentic": "scan.not_authentic"}   # text keys
COLUMNS = ("via", "address", "cup", "name", "seat", "rssi", "battery", "state")
STATES = ("idle", "turn", "done", "reveal_ready", "revealed")   # a cup's state (firmware/cup/core.py)


# What a cup's sensor saw (firmware/cup/shake.py, the status answer's "motion"): the state column says it
# after the state ("bereit, gekippt"), so an owner sees why a cup that was handled did not throw.
MOTIONS = ("still", "tilt", "handling", "set_down", "shaking", "settling")


def _state(lang, state, motion=None):
    text = tr(lang, "scan.state_" + state) if state in STATES else state or ""
    if motion:
        text += ", " + (tr(lang, "scan.motion_" + motion) if motion in MOTIONS else motion)
    return text


def _charge(lang, mv):
    """The battery column: the percent from the cell's curve, or that the cup runs on USB (links/battery.py);
    a cup that will not last (below 20 %) says so."""
    if mv is None:
        return ""
    if battery.on_usb(mv):
        return tr(lang, "scan.usb")
    percent = battery.percent(mv)
    return tr(lang, "scan.charge_low" if percent < battery.LOW_PERCENT else "scan.charge", percent=percent)


def format_table(cups, lang="de"):
    rows = [tuple(tr(lang, "scan." + column) for column in COLUMNS)]
    for c in cups:
        paired = PAIRED_TEXT.get(c.get("paired"))
        rows.append((c["via"], c["address"], c.get("cup") or "?", c.get("name") or "",
                     "-" if c.get("seat") is None else str(c["seat"]),
                     "" if c.get("rssi") is None else "%d dBm" % c["rssi"],
                     _charge(lang, c.get("battery")),
                     tr(lang, paired) if paired else _state(lang, c.get("state"), c.get("motion"))))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows)


def run(args, ble_scan=None, serial=None, out=None):
    out = out or sys.stdout
    if args.no_serial and args.no_ble:
        raise CommandError("scan.nothing_to_scan")
    for port in args.port:
        check_port(port)
    cups = asyncio.run(scan_all(args, ble_scan, serial))
    if args.json:
        for c in cups:
            c.setdefault("paired", None)   # BLE: an advertisement does not tell
            mv = c.get("battery")          # the charge as the table reads it (links/battery.py)
            c["usb"] = battery.on_usb(mv) if mv is not None else None
            c["percent"] = None if mv is None or c["usb"] else battery.percent(mv)
            out.write(json.dumps(c, sort_keys=True) + "\n")
    elif cups:
        out.write(format_table(cups, getattr(args, "lang", "de")) + "\n")
    else:
        out.write(tr(getattr(args, "lang", "de"), "scan.none_found") + "\n")
    return 0
