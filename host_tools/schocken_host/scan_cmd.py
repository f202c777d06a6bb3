"""`schocken scan`: the cups in reach, over serial ports (hello) and Bluetooth LE (advertisements), with their
names, seats, signal strength and battery."""

import asyncio
import json
import sys
from schocken_host.transport import TransportClosed

from schocken_host.ble import BumbleCentral, bleak_scan, found


def add_scan_arguments(p):
    p.add_argument("--timeout", type=float, default=3.0, help="seconds to listen for BLE cups (default 3)")
    p.add_argument("--port", action="append", default=[],
                   help="also probe this serial port (repeatable; pseudo-terminals are not listed by the OS)")
    p.add_argument("--no-serial", action="store_true", help="skip the serial ports")
    p.add_argument("--no-ble", action="store_true", help="skip Bluetooth")
    p.add_argument("--backend", choices=("bleak", "bumble"), default="bleak",
                   help="BLE stack: bleak (the system's Bluetooth) or bumble (a USB dongle driven directly)")
    p.add_argument("--bumble-transport", default="usb:0", metavar="SPEC",
                   help="bumble transport for --backend bumble (default usb:0)")
    p.add_argument("--json", action="store_true", help="one JSON object per cup")


async def serial_scan(ports=None, timeout=2.0):
    """Cups on serial ports (likely USB ports plus ``ports``): identity, then status for the seat."""
    from schocken_host.transport import SerialTransport, hello, likely_ports
    names = list(ports or [])
    try:
        names = likely_ports() + [p for p in names if p not in likely_ports()]
    except Exception:  # noqa: BLE001 - no pyserial port listing here
        pass
    out = []
    for port in names:
        t = SerialTransport(port)
        try:
            await t.open()
            ident = await hello(t, timeout)
            status = None
            await t.send({"t": "status"})
            while status is None:
                msg = await t.recv(timeout)
                if msg["t"] == "status":
                    status = msg
            out.append({"via": "serial", "address": port, "rssi": None, "cup": ident["cup"],
                        "name": status.get("name") or ident["name"], "seat": status.get("seat"),
                        "battery": ident.get("battery"), "state": status.get("state"), "seq": None})
        except (TransportClosed, asyncio.TimeoutError, OSError):
            pass
        finally:
            t.close()
    return out


async def scan_all(args, ble_scan=None, serial=None, err=None):
    """Every cup in reach as dicts, serial first; BLE problems (no adapter, no BlueZ) become one note."""
    err = err or sys.stderr
    cups = []
    if not args.no_serial:
        cups += await (serial or serial_scan)(args.port)
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
            err.write("schocken scan: Bluetooth (%s) not available: %s: %s\n" % (
                args.backend, type(e).__name__, e))
    return cups


def format_table(cups):
    rows = [("via", "address", "cup", "name", "seat", "rssi", "battery", "state")]
    for c in cups:
        rows.append((c["via"], c["address"], c.get("cup") or "?", c.get("name") or "",
                     "-" if c.get("seat") is None else str(c["seat"]),
                     "" if c.get("rssi") is None else "%d dBm" % c["rssi"],
                     "" if c.get("battery") is None else "%.2f V" % (c["battery"] / 1000),
                     c.get("state") or ""))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows)


def cmd_scan(args, ble_scan=None, serial=None, out=None):
    out = out or sys.stdout
    cups = asyncio.run(scan_all(args, ble_scan, serial))
    if args.json:
        for c in cups:
            out.write(json.dumps(c, sort_keys=True) + "\n")
    elif cups:
        out.write(format_table(cups) + "\n")
    else:
        out.write("no cups found\n")
    return 0
