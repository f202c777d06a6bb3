"""The wire protocol over Bluetooth Low Energy, defined once for cup and host (docs/protocol.md, "BLE").

Pure and portable (MicroPython and CPython, no radio): the GATT UUIDs, fragmentation of protocol lines to the
negotiated ATT MTU and their reassembly, and the advertisement (cup id, name, seat, battery, state, sequence
number). The cup's radio is firmware/boards/ble.py (aioble); the host's is schocken_host/links/ble.py.

Framing: the BLE link carries exactly the bytes of the serial link (JSON lines). A message is cut into
fragments of at most ``mtu - 3`` bytes (the ATT header); the receiver concatenates fragments in order (ATT
over one connection is reliable and ordered) and cuts lines with ``protocol.LineSplitter``. A new connection
starts with an empty reassembler, so a line cut off by a dropped link never runs into the next one.
"""

from micropython import const

from binascii import unhexlify

from schocken import protocol

# 128-bit UUIDs of our own (random, version 4), one base with a different first group per attribute.
SERVICE_UUID = "5c0c0001-7e57-4d1c-9c3b-5c0c4b3e0001"
RX_UUID = "5c0c0002-7e57-4d1c-9c3b-5c0c4b3e0001"   # host -> cup: write / write without response
TX_UUID = "5c0c0003-7e57-4d1c-9c3b-5c0c4b3e0001"   # cup -> host: notify

ATT_HEADER = const(3)          # opcode + handle in a notification or write
DEFAULT_MTU = const(23)        # before any exchange (Core spec)
WANT_MTU = const(247)          # what the cup offers: 244 payload bytes, one LL packet with DLE
ADV_INTERVAL_US = const(100000)  # in a game (a host configured the cup): a lost host finds it again at once
ADV_IDLE_US = const(1000000)     # outside a game: a scan of a few seconds still sees it, the radio rests

COMPANY_ID = const(0xFFFF)     # Bluetooth SIG: "reserved for internal use / testing";
                               # no company id of our own
ADV_VERSION = const(1)
AD_FLAGS = const(0x01)
AD_UUID128_COMPLETE = const(0x07)
AD_NAME_SHORT = const(0x08)
AD_NAME_COMPLETE = const(0x09)
AD_MANUFACTURER = const(0xFF)
ADV_MAX = const(31)            # legacy advertising PDU and scan response: 31 bytes each
SHORT_NAME_MAX = const(8)      # what is left of the advertising PDU after flags and the service UUID
PAYLOAD_FIXED = const(5)       # state byte, seq, seat, battery, id length
TEXT_MAX = const(22)           # cup id + name bytes in the scan response (31 - 4 AD/company - 5 fixed)
TRUNCATED = const(0x08)

STATES = ("idle", "turn", "done", "revealed")
STATE_CODE = {"idle": 0, "turn": 1, "done": 2, "reveal_ready": 2, "revealed": 3}
NO_SEAT = const(0xFF)
NO_BATTERY = const(0xFF)
BATTERY_STEP_MV = const(20)    # battery byte = mV / 20: 0..5080 mV


# --- fragmentation ------------------------------------------------------------------------------------
def payload_size(mtu):
    """Bytes of protocol data per write or notification for a negotiated ATT MTU (None: not exchanged)."""
    if not mtu or mtu < DEFAULT_MTU:
        mtu = DEFAULT_MTU
    return mtu - ATT_HEADER


def fragments(data, mtu):
    """The fragments of ``data`` (one or more encoded lines) for an ATT MTU, in order; never empty pieces."""
    n = payload_size(mtu)
    return [bytes(data[i:i + n]) for i in range(0, len(data), n)]


class Reassembler:
    """Fragments in, complete lines out (bytes without newline; None for an overlong line, as LineSplitter).
    ``reset()`` on every new connection."""

    def __init__(self, limit=protocol.MAX_LINE):
        self.limit = limit
        self.splitter = protocol.LineSplitter(limit)

    def feed(self, fragment):
        return self.splitter.feed(fragment)

    def reset(self):
        self.splitter = protocol.LineSplitter(self.limit)

    def pending(self):
        """Bytes of an unfinished line held."""
        n = getattr(self.splitter, "n", None)
        return len(self.splitter.buf) if n is None else n


# --- advertisement ------------------------------------------------------------------------------------
def _ad(kind, value):
    return bytes((len(value) + 1, kind)) + bytes(value)


def _utf8_cut(text, n):
    """At most n bytes of text's UTF-8, never cutting a character in two."""
    data = text.encode("utf-8")
    if len(data) <= n:
        return data
    data = data[:n]
    while data and (data[-1] & 0xC0) == 0x80:  # a continuation byte: drop the partial character
        data = data[:-1]
    if data and data[-1] >= 0xC0:               # a lead byte without its continuation
        data = data[:-1]
    return data


def uuid_bytes(uuid):
    """A 128-bit UUID string -> 16 bytes in the little-endian order of advertising data."""
    raw = unhexlify(uuid.replace("-", ""))
    return bytes(reversed(raw))


def encode_payload(state, seq, seat, battery_mv, cup_id, name):
    """The manufacturer-specific payload (after the company id) of the scan response."""
    code = STATE_CODE.get(state, 0)
    seat_b = NO_SEAT if seat is None or not 0 <= seat < NO_SEAT else seat
    if battery_mv is None or battery_mv < 0:
        bat = NO_BATTERY
    else:
        bat = min(battery_mv // BATTERY_STEP_MV, NO_BATTERY - 1)
    ident = _utf8_cut(cup_id, TEXT_MAX)
    text = _utf8_cut(name, TEXT_MAX - len(ident))
    cut = len(ident) < len(cup_id.encode("utf-8")) or len(text) < len(name.encode("utf-8"))
    head = (ADV_VERSION << 4) | (TRUNCATED if cut else 0) | code
    return bytes((head, seq & 0xFF, seat_b, bat, len(ident))) + ident + text


def decode_payload(data):
    """Manufacturer payload -> dict (state, seq, seat, battery, cup, name, truncated);
    ValueError if not ours."""
    data = bytes(data)
    if len(data) < PAYLOAD_FIXED or data[0] >> 4 != ADV_VERSION:
        raise ValueError("not a schocken cup advertisement")
    n = data[4]
    if PAYLOAD_FIXED + n > len(data) or data[0] & 7 >= len(STATES):
        raise ValueError("bad schocken cup advertisement")
    try:
        cup = data[PAYLOAD_FIXED:PAYLOAD_FIXED + n].decode("utf-8")
        name = data[PAYLOAD_FIXED + n:].decode("utf-8")
    except UnicodeError:
        raise ValueError("bad text in a schocken cup advertisement")
    return {"state": STATES[data[0] & 7], "seq": data[1], "seat": None if data[2] == NO_SEAT else data[2],
            "battery": None if data[3] == NO_BATTERY else data[3] * BATTERY_STEP_MV, "cup": cup, "name": name,
            "truncated": bool(data[0] & TRUNCATED)}


def advertising_data(state, seq, seat, battery_mv, cup_id, name):
    """(advertising PDU, scan response), 31 bytes at most each.

    Advertising PDU: flags (LE general discoverable, no BR/EDR), our service UUID, the name (shortened to
    SHORT_NAME_MAX bytes, or the cup id when unnamed). Scan response: manufacturer data COMPANY_ID with the
    payload of ``encode_payload``."""
    label = name or cup_id
    short = _utf8_cut(label, SHORT_NAME_MAX)
    kind = AD_NAME_COMPLETE if len(short) == len(label.encode("utf-8")) else AD_NAME_SHORT
    adv = _ad(AD_FLAGS, b"\x06") + _ad(AD_UUID128_COMPLETE, uuid_bytes(SERVICE_UUID))
    if short:
        adv += _ad(kind, short)
    company = bytes((COMPANY_ID & 0xFF, COMPANY_ID >> 8))
    resp = _ad(AD_MANUFACTURER, company + encode_payload(state, seq, seat, battery_mv, cup_id, name))
    return adv, resp


def parse_ad(data):
    """Advertising data -> list of (type, value bytes); stops at a zero length or a structure cut short."""
    out = []
    i = 0
    data = bytes(data)
    while i < len(data):
        n = data[i]
        if n == 0 or i + 1 + n > len(data):
            break
        out.append((data[i + 1], data[i + 2:i + 1 + n]))
        i += 1 + n
    return out


def decode_advertisement(data):
    """Advertising data (PDU and scan response concatenated, as a scanner merges them) -> the cup's fields
    plus "adv_name", or None when it is not a cup of ours."""
    ours = False
    fields = None
    adv_name = None
    svc = uuid_bytes(SERVICE_UUID)
    for kind, value in parse_ad(data):
        if kind in (AD_UUID128_COMPLETE, 0x06):
            for k in range(0, len(value) - 15, 16):
                if value[k:k + 16] == svc:
                    ours = True
        elif kind == AD_MANUFACTURER and len(value) >= 2 and value[0] | (value[1] << 8) == COMPANY_ID:
            try:
                fields = decode_payload(value[2:])
            except ValueError:
                pass
        elif kind in (AD_NAME_SHORT, AD_NAME_COMPLETE):
            try:
                adv_name = value.decode("utf-8")
            except UnicodeError:
                pass
    if not ours:
        return None
    out = fields or {"state": None, "seq": None, "seat": None, "battery": None, "cup": None, "name": adv_name,
                     "truncated": True}
    out["adv_name"] = adv_name
    return out
