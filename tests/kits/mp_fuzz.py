"""Fuzzes the cup's side of the link: generated lines go through the same path as App.on_line
(LineSplitter.scan handing each line over where it lies, protocol.decode, Cup.on_message) of a cup in the
middle of a turn. Runs under the MicroPython unix port (and CPython). Usage: fuzz.py N SEED. Prints "fuzz N
lines, E errors, A accepted, L long legal lines, min_free F" and "N passed, M failed".

Checks for every line: nothing escapes as an exception; a line answered with an error leaves the cup exactly
as it was; a legal status padded to any length up to the limit is answered with a status (or, short of memory,
no_memory); the heap stays bounded (the free heap after a collection never falls below a floor).
"""

import gc
import sys

from schocken import protocol
from cup.core import Cup

_WORDS = ("hello", "configure", "turn", "reveal", "round_end", "outcome", "status", "launch", "", "T", "v",
          "round", "limit", "rules", "name", "seat", "result", "deckel", "middle", "preset", "options")


_PAD = b"y" * 64
DEBUG = False


class Lcg:
    # Every intermediate stays below 2**30, so no long int where small ints have 31 bits (a 32-bit board's
    # port): a 15-bit LCG (period 2**15) and a Lehmer generator mod the prime 32749 (10002 is a primitive
    # root: period 32748) side by side, 30 bits a draw, period 268,271,616.
    def __init__(self, seed):
        self.a = seed & 0x7FFF
        self.b = seed % 32748 + 1

    def next(self, n):
        self.a = (self.a * 13821 + 1) & 0x7FFF
        self.b = self.b * 10002 % 32749
        return ((self.a << 15) | self.b) % n


class Quiet:
    def show(self, cup):
        pass

    def refuse(self, cup):
        pass

    def error(self, cup):
        pass


class Dice:
    healthy = True  # the fuzzed cup's roller: always past its startup test

    def __init__(self):
        self.k = 0

    def health_check(self):
        return True

    def roll(self, n):
        self.k += 1
        return [(self.k + i) % 6 + 1 for i in range(n)]

    def random_bytes(self, n):
        return b"\x00" * n


def value(r, depth=0):
    k = r.next(9)
    if k == 0:
        return (r.next(1000000000) - 500000000) * 2  # +-10**9: a small int on every port
    if k == 1:
        return 10 ** r.next(40)  # huge numbers
    if k == 2:
        return _WORDS[r.next(len(_WORDS))]
    if k == 3:
        return None
    if k == 4:
        return r.next(2) == 1
    if k == 5 and depth < 3:
        return [value(r, depth + 1) for _ in range(r.next(4))]
    if k == 6 and depth < 3:
        return {_WORDS[r.next(len(_WORDS))]: value(r, depth + 1) for _ in range(r.next(4))}
    if k == 7:
        return r.next(7)
    return "x" * r.next(40)


# Legal messages the cup may get in the middle of a turn; each is padded with an unknown field to a given
# length.
_LEGAL = ({"t": "status"}, {"t": "hello", "v": 1}, {"t": "hello", "v": 1, "nonce": "ab" * 16},
          {"t": "reveal", "round": 1}, {"t": "round_end", "round": 1}, {"t": "nonce", "round": 1, "throw": 2,
          "nonce": "cd" * 16}, {"t": "turn", "round": 2, "limit": 1},
          {"t": "configure", "rules": {"preset": "standard"}, "name": "F", "seat": 0},
          {"t": "outcome", "round": 1, "result": "won", "deckel": 0, "middle": 13})


def legal_long(r):
    """A legal line of 100..1023 bytes (newline included): (head, pad bytes, tail)."""
    msg = _LEGAL[r.next(len(_LEGAL))]
    head = protocol.encode(msg)[:-2] + b', "pad": "'
    tail = b'"}\n'
    return head, 100 + r.next(protocol.MAX_LINE - 100) - len(head) - len(tail), tail


def line(r, previous):
    kind = r.next(12)
    if kind >= 10:  # legal, long: arrives in pieces
        return legal_long(r)
    if kind == 0:  # random bytes
        return bytes(r.next(256) for _ in range(r.next(60)))
    if kind == 1 and previous:  # replayed
        return previous[r.next(len(previous))]
    if kind == 2 and previous:  # truncated
        p = previous[r.next(len(previous))]
        return p[:r.next(len(p) + 1)]
    if kind == 3:  # overlong: arrives in pieces, as from the serial port
        return protocol.MAX_LINE + r.next(3000)
    msg = {"t": _WORDS[r.next(8)]}
    for _ in range(r.next(5)):
        msg[_WORDS[r.next(len(_WORDS))]] = value(r)
    try:
        data = protocol.encode(msg)[:-1]
    except Exception:
        data = b"{}"
    return data


def snapshot(cup):
    t = cup.turn
    return (cup.state, cup.round, cup.limit, cup.name, cup.seat, cup.hosted, cup.commit, cup.result,
            repr(cup.rules), t.transcript[:] if t else None)


def mem_free():
    return gc.mem_free() if hasattr(gc, "mem_free") else 1 << 30  # CPython: no heap limit to watch


def main(n, seed):
    out = []
    cup = Cup(Dice(), Quiet(), out.append, {"cup": "fz", "name": "F", "board": "emulated"})
    cup.on_message({"t": "configure", "rules": {"preset": "standard"}, "name": "F", "seat": 0})
    cup.on_message({"t": "turn", "round": 1, "limit": None})
    cup.on_shake()

    def on_line(item):  # as App.on_line: the line is a memoryview into the splitter's buffer
        if item is None:
            return out.append(protocol.error(protocol.E_TOO_LONG, "long", None))
        for b in item:
            if b not in b" \t\r\n\x0b\x0c":
                break
        else:
            return
        try:
            msg = protocol.decode(item, protocol.HOST_TO_CUP)
        except protocol.ProtocolError as e:
            return out.append(protocol.error(e.code, e.msg, None))
        except MemoryError:
            return out.append(protocol.error(protocol.E_MEMORY, "no memory", None))
        cup.on_message(msg)

    r = Lcg(seed)
    splitter = protocol.LineSplitter(protocol.MAX_LINE)
    previous = []
    errors = accepted = failed = longs = 0
    gc.collect()
    floor = mem_free()
    min_free = floor
    for i in range(n):
        data = line(r, previous)
        pad = _PAD
        if isinstance(data, tuple):  # legal, long
            first, pads, last = data
            longs += 1
            pad = _PAD[:1 + r.next(len(_PAD))]  # pieces of any size, as a serial port or BLE delivers them
        elif isinstance(data, int):  # overlong
            pads = data
            first = b'{"t": "hello", "pad": "'
            last = b'"}\n'
        else:
            pads = 0
            first = data
            last = b"\n"
            if len(previous) < 16 and len(data) < 200:
                previous.append(data)
        before = snapshot(cup)
        del out[:]
        try:
            splitter.scan(first, on_line, -1)  # bytes arrive in pieces, as from the serial port
            while pads > 0:
                splitter.scan(pad[:pads], on_line, -1)
                pads -= len(pad)
            splitter.scan(last, on_line, -1)
        except Exception as e:  # the one thing that must never happen
            failed += 1
            print("FAIL line %d crashed: %s %r" % (i, type(e).__name__, first[:80]))
            continue
        if any(m.get("t") == "error" for m in out):
            errors += 1
            if snapshot(cup) != before:
                failed += 1
                print("FAIL line %d: error reply but the cup changed: %r" % (i, first[:80]))
        else:
            accepted += 1
        if first.startswith(b'{"t": "status", "pad"') and not [
                m for m in out if m.get("t") == "status" or m.get("code") == protocol.E_MEMORY]:
            failed += 1
            print("FAIL line %d: a long status was not answered: %r" % (i, out))
        if i % 500 == 0:
            gc.collect()
            free = mem_free()
            min_free = min(min_free, free)
            if DEBUG:
                print(i, free)
            if free < floor - 8192:
                failed += 1
                print("FAIL line %d: heap grew by %d bytes" % (i, floor - free))
                break
    print("fuzz %d lines, %d errors, %d accepted, %d long legal lines, min_free %d"
          % (n, errors, accepted, longs, min_free))
    print("%d passed, %d failed" % (n - failed, failed))
    return 1 if failed else 0


sys.exit(main(int(sys.argv[1]), int(sys.argv[2])))
