"""The host's BLE side without a radio: the bleak stack (bleak_link, the scan) with a fake bleak client
and scanner at bleak's interface, and the ``schocken scan`` verb. The firmware over a virtual link:
tests/test_ble.py."""

import asyncio
import io
import json
from types import SimpleNamespace

import pytest

from kits import blekit  # noqa: F401  (puts firmware/ on sys.path)
from schocken import bleformat
from schocken import protocol
from schocken_host.links import ble, ble_bleak
from schocken_host.commands import scan
from schocken_host.links.transport import TransportClosed

run = blekit.run


# --- the bleak backend, with a fake bleak -------------------------------------------------------------------

class FakeScanner:
    """bleak.BleakScanner.discover(timeout, return_adv=True, service_uuids=[...]) -> {address: (dev, adv)}."""
    calls = []
    cups = {}

    @classmethod
    async def discover(cls, timeout=5.0, return_adv=False, service_uuids=None, **kw):
        cls.calls.append((timeout, return_adv, service_uuids))
        assert return_adv and service_uuids == [bleformat.SERVICE_UUID]
        out = {}
        for address, (cup_id, name) in cls.cups.items():
            adv, resp = bleformat.advertising_data("idle", 1, 0, 4000, cup_id, name)
            manufacturer = {}
            for kind, value in bleformat.parse_ad(resp):
                if kind == 0xFF:
                    manufacturer[value[0] | value[1] << 8] = bytes(value[2:])
            out[address] = (SimpleNamespace(address=address),
                            SimpleNamespace(rssi=-61, manufacturer_data=manufacturer, local_name=name,
                                            service_uuids=[bleformat.SERVICE_UUID]))
        return out


class FakeClient:
    """bleak.BleakClient's interface as BleakStack uses it; plays a cup that answers hello."""
    instances = []
    fail_connects = 0

    def __init__(self, device, disconnected_callback=None, services=None):
        self.device = device
        self.disconnected_callback = disconnected_callback
        self.services = services
        self.written = []
        self.notify = None
        self.connected = False
        self.mtu_size = 185
        self.fail_writes = False
        FakeClient.instances.append(self)

    async def connect(self, **kw):
        if FakeClient.fail_connects:
            FakeClient.fail_connects -= 1
            raise OSError("le-connection-abort-by-local")
        self.connected = True

    async def start_notify(self, uuid, callback):
        assert uuid == bleformat.TX_UUID
        self.notify = callback

    async def write_gatt_char(self, uuid, data, response=False):
        assert uuid == bleformat.RX_UUID and response and self.connected
        if self.fail_writes:
            raise OSError("Not connected")
        assert len(data) <= self.mtu_size - 3
        self.written.append(bytes(data))
        if b"".join(self.written).endswith(b"\n"):
            msg = json.loads(b"".join(self.written))
            self.written = []
            reply = protocol.encode({"t": "identity", "v": 1, "cup": "c9", "name": "N" * 20, "fw": "0.1.0",
                              "board": "pico_w", "battery": None, "presets": ["standard"],
                              "pad": msg.get("pad")})
            for k in range(0, len(reply), 7):                     # notifications of odd sizes
                self.notify(None, bytearray(reply[k:k + 7]))

    async def disconnect(self):
        self.connected = False

    def drop(self):
        self.connected = False
        self.disconnected_callback(self)


@pytest.fixture
def fake_bleak():
    FakeClient.instances = []
    FakeClient.fail_connects = 0
    FakeScanner.calls = []
    FakeScanner.cups = {"AA:00": ("c1", "Anna"), "AA:09": ("c9", "Ida")}
    return lambda **kw: ble_bleak.bleak_link(cup="c9", client_factory=FakeClient, scanner=FakeScanner,
                                          backoff=(0.001, 0.004), **kw)


def test_bleak_transport_finds_connects_and_talks(fake_bleak):
    async def go():
        t = fake_bleak()
        await t.open()
        client = FakeClient.instances[-1]
        assert client.device == "AA:09" and client.services == [bleformat.SERVICE_UUID] and t.mtu == 185
        await t.send({"t": "hello", "v": 1, "pad": "p" * 500})
        ident = await t.recv(1)
        assert ident["cup"] == "c9" and ident["pad"] == "p" * 500
        t.close()
        await asyncio.sleep(0)
        assert not client.connected
    run(go())


def test_bleak_transport_reconnects_with_backoff(fake_bleak):
    async def go():
        t = fake_bleak()
        FakeClient.fail_connects = 2
        await t.open()                                          # third try
        assert len(FakeClient.instances) == 3 and len(t.errors) == 2
        FakeClient.instances[-1].drop()
        with pytest.raises(TransportClosed):
            await t.recv(1)
        with pytest.raises(TransportClosed):
            await t.send({"t": "status"})
        await t.open()                                          # what Referee._rejoin does
        await t.send({"t": "hello", "v": 1})
        assert (await t.recv(1))["t"] == "identity"
        FakeClient.instances[-1].fail_writes = True
        with pytest.raises(TransportClosed):
            await t.send({"t": "hello", "v": 1})
        FakeClient.fail_connects = 10
        with pytest.raises(TransportClosed) as e:
            await t.open()
        assert "cannot connect" in str(e.value)
        FakeScanner.cups = {}
        FakeClient.fail_connects = 0
        with pytest.raises(TransportClosed) as e:
            await t.open()
        assert "not advertising" in str(e.value)
    run(go())


def test_bleak_scan_decodes_advertisements(fake_bleak):
    found = run(ble_bleak.bleak_scan(0.5, FakeScanner))
    assert [(f["address"], f["cup"], f["name"], f["seat"], f["battery"], f["rssi"], f["via"])
            for f in found] == [
        ("AA:00", "c1", "Anna", 0, 4000, -61, "bleak"), ("AA:09", "c9", "Ida", 0, 4000, -61, "bleak")]


# --- schocken scan ------------------------------------------------------------------------------------------

def test_scan_verb_lists_serial_and_ble_cups(capsys):
    from schocken_host.cli import build_parser
    args = build_parser().parse_args(["--lang", "en", "scan", "--timeout", "0.1"])
    assert args.run is scan.run

    async def serial(ports):
        return [{"via": "serial", "address": "/dev/ttyACM0", "rssi": None, "cup": "c1", "name": "Anna",
                 "seat": 0, "battery": 3900, "state": "idle", "seq": None}]

    async def ble_scan(timeout):
        return run_found

    run_found = [ble.found("AA:09", -60,
                           {bleformat.COMPANY_ID: bleformat.encode_payload("turn", 4, 2, 3700, "c9", "Ida")},
                           "Ida", "bleak")]
    out = io.StringIO()
    assert scan.run(args, ble_scan=ble_scan, serial=serial, out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["via", "address", "cup", "name", "seat", "rssi", "battery", "state"]
    # The charge from the cell's curve (links/battery.py), not the volts: 3.90 V is 64 %, 3.70 V 12 %, low.
    assert lines[1].split() == ["serial", "/dev/ttyACM0", "c1", "Anna", "0", "64", "%", "idle"]
    assert lines[2].split() == ["bleak", "AA:09", "c9", "Ida", "2", "-60", "dBm", "12", "%", "–", "charge",
                                "it!", "turn"]

    async def broken(timeout):
        raise FileNotFoundError("[Errno 2] No such file or directory: '/run/dbus/system_bus_socket'")
    args = build_parser().parse_args(["--lang", "en", "scan", "--json", "--no-serial"])
    out = io.StringIO()
    assert scan.run(args, ble_scan=broken, out=out) == 0
    assert out.getvalue() == ""
    assert "Bluetooth (bleak) not available: FileNotFoundError" in capsys.readouterr().err


def test_scan_verb_uses_bleak_by_default(fake_bleak, monkeypatch):
    # Without an injected scanner `schocken scan` goes through links.ble_bleak.bleak_scan (here over the fake
    # scanner), not into "Bluetooth (bleak) not available: NameError".
    import bleak
    from schocken_host.cli import build_parser
    monkeypatch.setattr(bleak, "BleakScanner", FakeScanner)
    args = build_parser().parse_args(["scan", "--no-serial", "--timeout", "0.1"])
    out = io.StringIO()
    assert scan.run(args, out=out) == 0
    rows = [line.split()[:4] for line in out.getvalue().splitlines()[1:]]
    assert rows == [["bleak", "AA:00", "c1", "Anna"], ["bleak", "AA:09", "c9", "Ida"]]
