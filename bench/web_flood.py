"""The page under a reconnecting flood (issue 47): what dropped guests leave in the kernel, how fresh pages
load while connects are in flight, and the game's pace while hostile pages are served.

    .venv/bin/python bench/web_flood.py                  # every phase, about four minutes
    .venv/bin/python bench/web_flood.py --quick          # shorter phases, about two minutes

A real host as a user starts one (`schocken play --emulate 4 --rules beton --time-scale 4 --set
deckel_total=99 --set schock_aus=middle --web 127.0.0.1:PORT --plain`: about twelve events a second, for
longer than the bench), and guests of tests/kits/flood.py and tests/kits/hostile.py, each from its own
loopback address. Measured in the kernel where the issue asks: /proc/net/tcp for the server's sockets, ``ss``
for its listen queue, TCP_INFO for each connect's SYN retransmits, /proc/net/netstat for connects dropped at a
full listen queue (the whole machine's count).

1. kernel: 256 pages that never read, every 11 s from 100 addresses, each held open (never closed by the
   guest) for ``--waves`` waves; the server's sockets sampled every 0.5 s: the most in FIN_WAIT1 at once and
   the most bytes queued on sockets no longer established, during the flood and ``--settle`` s after;
2. listen queue: ``--connect-s`` s of connects from 100 addresses, 8 and then 32 in flight (each closed as
   soon as it is made, and made again), a fresh page loaded from an address of its own every 1.5 s: each
   load's time and its connects' SYN retransmits, and the connects dropped;
3. pace: for each attack, the referee's events per second over ``--quiet-s`` s just before it and over
   ``--attack-s`` s of it (the ratio: the game's pace under attack), the longest pause between two events,
   and the host's CPU time. Attacks: the kernel phase's pages that never read; 150 and 400 pages that never
   read and connect again when let go (hostile.SseSink); 256 pages that read every burst; 8 connects in
   flight.

Printed: a table per phase with the issue's goals (no FIN_WAIT1 left, no byte held; page loads <= 2 s; pace
>= 80 % of quiet), the machine's load beside each, and one JSON line with everything.
"""

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from kits import flood, hostile  # noqa: E402 - tests/ is put on the path just above

GAME = ["--emulate", "4", "--rules", "beton", "--time-scale", "4", "--set", "deckel_total=99",
        "--set", "schock_aus=middle"]
GOAL_LOAD_S = 2.0
GOAL_PACE = 0.8
SAMPLE_S = 0.5


def load_average():
    return os.getloadavg()[0]


def cpu_s(pid):
    """The process's CPU time so far (user + system, /proc/PID/stat)."""
    fields = Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def kernel_phase(host, a):
    hoarder = flood.Hoarder(host.port, hostile.guest_addresses(100, net=61), 256, 11.0)
    peak_fin, peak_held, samples = 0, 0, []
    load = load_average()
    start = time.monotonic()
    flooding = asyncio.create_task(hoarder.run(a.waves))
    try:
        end = None
        while end is None or time.monotonic() < end:
            view = flood.kernel_view(host.port)
            samples.append((round(time.monotonic() - start, 1), view.fin_wait1, view.held))
            peak_fin, peak_held = max(peak_fin, view.fin_wait1), max(peak_held, view.held)
            if end is None and flooding.done():
                end = time.monotonic() + a.settle
            await asyncio.sleep(SAMPLE_S)
        final = flood.kernel_view(host.port)
        guests = dict(hoarder.states())
    finally:
        flooding.cancel()
        await asyncio.gather(flooding, return_exceptions=True)
        hoarder.close()
    return {"pages": 256 * a.waves, "waves": a.waves, "load": load, "peak_fin_wait1": peak_fin,
            "peak_held_bytes": peak_held, "final": final.said(), "final_fin_wait1": final.fin_wait1,
            "final_held_bytes": final.held, "guest_sockets": guests, "failed": dict(hoarder.failed),
            "samples": samples}


async def listen_phase(host, a):
    out = {"backlog": flood.listen_backlog(host.port), "somaxconn": flood.somaxconn()}
    for in_flight in (8, 32):
        load = load_average()
        overflows = flood.listen_overflows()
        connector = flood.Connector(host.port, hostile.guest_addresses(100, net=62), in_flight)
        connecting = asyncio.create_task(connector.run(a.connect_s))
        loads, n = [], 0
        while not connecting.done():
            await asyncio.sleep(1.5)
            n += 1
            loads.append(await hostile.page_load(host.port, "127.63.%d.%d" % (in_flight, n), timeout=10.0))
        await connecting
        out["in_flight_%d" % in_flight] = {
            "load": load, "connects": connector.connects.made, "connects_retried": connector.connects.retried,
            "connects_failed": dict(connector.connects.failed),
            "listen_overflows": flood.listen_overflows() - overflows,
            "page_loads_s": [round(x.seconds, 3) for x in loads],
            "page_loads_failed": [x.error for x in loads if not x.ok],
            "page_syn_retransmits": sum(x.syn_retransmits for x in loads),
            "page_load_max_s": max((x.seconds for x in loads), default=None)}
    return out


async def pace_of(host, name, attack, a):
    """The pace before (quiet) and during ``attack`` (a coroutine function of the seconds it lasts)."""
    pace = flood.Pace(host.log)
    load = load_average()
    pace.mark("quiet")
    cpu0 = cpu_s(host.proc.pid)
    await asyncio.sleep(a.quiet_s)
    pace.mark("attack")
    cpu1 = cpu_s(host.proc.pid)
    await attack(a.attack_s)
    pace.mark("end")
    cpu2 = cpu_s(host.proc.pid)
    quiet, under = pace.rate("quiet", "attack"), pace.rate("attack", "end")
    seconds = pace.marks["end"][0] - pace.marks["attack"][0]
    return {"attack": name, "load": load, "quiet_per_s": round(quiet, 2), "attack_per_s": round(under, 2),
            "ratio": round(under / quiet, 3) if quiet else None,
            "longest_pause_quiet_s": round(pace.longest_pause("quiet", "attack"), 3),
            "longest_pause_attack_s": round(pace.longest_pause("attack", "end"), 3),
            "host_cpu_quiet": round((cpu1 - cpu0) / a.quiet_s, 3),
            "host_cpu_attack": round((cpu2 - cpu1) / seconds, 3) if seconds else None}


async def pace_phase(host, a):
    port = host.port

    async def hoarding(seconds):
        hoarder = flood.Hoarder(port, hostile.guest_addresses(100, net=64), 256, 11.0)
        try:
            await asyncio.wait_for(hoarder.run(int(seconds // 11) + 1), seconds + hostile.CONNECT_S)
            await asyncio.sleep(max(0.0, seconds - 11.0 * (seconds // 11)))
        finally:
            hoarder.close()

    def sinks(count, net):
        async def attack(seconds):
            crowd = hostile.Crowd(port)
            crowd.add(hostile.SseSink, hostile.guest_addresses(100, net=net), count)
            await crowd.run(seconds)
        return attack

    async def readers(seconds):
        await flood.reading_pages(port, hostile.guest_addresses(100, net=67), 256, seconds)

    async def connects(seconds):
        await flood.Connector(port, hostile.guest_addresses(100, net=68), 8).run(seconds)

    attacks = [("256 pages that never read, every 11 s, held", hoarding),
               ("150 pages that never read, reconnecting", sinks(150, 65)),
               ("400 pages that never read, reconnecting", sinks(400, 66)),
               ("256 pages that read every burst", readers),
               ("8 connects in flight", connects)]
    return [await pace_of(host, name, attack, a) for name, attack in attacks]


def on_host(folder, measure, a):
    """``measure(host, a)`` against a fresh host of its own in ``folder``."""
    folder.mkdir()
    host = hostile.PlayHost(folder, GAME)
    try:
        result = asyncio.run(measure(host, a))
        result = result if isinstance(result, dict) else {"attacks": result}
        result["host_ran"] = host.proc.poll() is None
    finally:
        host.stop()
    text = host.text()
    at = text.find("Traceback")
    result["traceback"] = text[at:at + 3000] if at >= 0 else None
    return result


def met(ok):
    return "met" if ok else "MISSED"


def report(kernel, listen, pace):
    print("1. pages that never read (256 every 11 s from 100 addresses, %d waves, held; load %.1f)"
          % (kernel["waves"], kernel["load"]))
    print("   most sockets in FIN_WAIT1 at once: %d; most bytes held on sockets not established: %d"
          % (kernel["peak_fin_wait1"], kernel["peak_held_bytes"]))
    print("   after the flood: FIN_WAIT1 %d, bytes held %d (goal 0, 0): %s; %s" % (
        kernel["final_fin_wait1"], kernel["final_held_bytes"],
        met(kernel["final_fin_wait1"] == 0 and kernel["final_held_bytes"] == 0), kernel["final"]))
    print("   the guest's sockets at the end: %s" % kernel["guest_sockets"])
    print("2. listen queue: backlog %s (somaxconn %s)" % (listen["backlog"], listen["somaxconn"]))
    for in_flight in (8, 32):
        x = listen["in_flight_%d" % in_flight]
        worst = x["page_load_max_s"]
        print("   %2d connects in flight (load %.1f): %d connects (%d with a SYN sent again), %d dropped at "
              "the queue; fresh page loads %s s, worst %s (goal <= %.0f s): %s; failed %s; their SYN "
              "retransmits %d"
              % (in_flight, x["load"], x["connects"], x["connects_retried"], x["listen_overflows"],
                 x["page_loads_s"], worst, GOAL_LOAD_S,
                 met(worst is not None and worst <= GOAL_LOAD_S and not x["page_loads_failed"]),
                 x["page_loads_failed"] or "none", x["page_syn_retransmits"]))
    print("3. the game's pace (events per second), quiet just before and under each attack:")
    for x in pace["attacks"]:
        print("   %-46s load %4.1f  %5.2f -> %5.2f  %5.1f %% (goal >= %.0f %%): %-6s longest pause %.2f s "
              "(quiet %.2f s), host CPU %.0f %% -> %.0f %%"
              % (x["attack"], x["load"], x["quiet_per_s"], x["attack_per_s"], 100 * (x["ratio"] or 0),
                 100 * GOAL_PACE, met((x["ratio"] or 0) >= GOAL_PACE), x["longest_pause_attack_s"],
                 x["longest_pause_quiet_s"], 100 * x["host_cpu_quiet"], 100 * (x["host_cpu_attack"] or 0)))
    for name, part in (("kernel", kernel), ("listen", listen), ("pace", pace)):
        if not part["host_ran"]:
            print("   (%s: the host had ended before the measurement did)" % name)
        if part["traceback"]:
            print("   (%s: a traceback in the host's output)\n%s" % (name, part["traceback"]))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--waves", type=int, default=4, help="waves of 256 pages that never read, 11 s apart")
    ap.add_argument("--settle", type=float, default=15.0, help="seconds the kernel is watched after them")
    ap.add_argument("--connect-s", type=float, default=12.0, help="seconds of connects in flight, each")
    ap.add_argument("--quiet-s", type=float, default=10.0, help="seconds of quiet pace before each attack")
    ap.add_argument("--attack-s", type=float, default=22.0, help="seconds of each attack on the pace")
    ap.add_argument("--quick", action="store_true", help="2 waves, 6 s of connects, 6 + 12 s for the pace")
    a = ap.parse_args(argv)
    if a.quick:
        a.waves, a.settle, a.connect_s, a.quiet_s, a.attack_s = 2, 13.0, 6.0, 6.0, 12.0
    hostile.raise_open_files(16384)
    with tempfile.TemporaryDirectory() as tmp:
        kernel = on_host(Path(tmp) / "kernel", kernel_phase, a)
        listen = on_host(Path(tmp) / "listen", listen_phase, a)
        pace = on_host(Path(tmp) / "pace", pace_phase, a)
    report(kernel, listen, pace)
    print(json.dumps({"bench": "web_flood", "kernel": kernel, "listen": listen, "pace": pace}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
