"""Web view bench: referee event to the live page showing it (headless Chromium), and the page's load time.

    .venv/bin/python bench/web.py                            # 4 and 16 cups, one game each, seed 1
    .venv/bin/python bench/web.py --sizes 16 --runs 3        # three games at 16 cups (seeds 1..3)

One full game per run through a GameSession with the page beside it (the code of `schocken play --web`;
emulated cups on the MicroPython unix port, bots with the fast strategy; 16 cups and more with
``--deckel-large`` Deckel in the middle) with one page open on it: the system Chromium, headless, driven by
Playwright in a thread of this process (it downloads no browser of its own). The game waits until the page
has loaded and its in-browser check is ready, so that the load is measured on its own and every event of the
game is seen live.

- latency: for every event, from the moment the referee emits it (``time.time()`` at the top of
  `EventSink.emit`: before it is applied, logged and shown) to the moment the page has drawn the model that
  follows it (``window.schocken.shown[i]``: ``performance.timeOrigin + performance.now()`` right after
  `render()`). Both are the wall clock of this machine; their offset is measured before and after the game
  (the page's clock read between two of Python's, the closest of ten tries) and the one before is taken off.
  Median, p99 and max in ms over the game's events, and the kind of the slowest;
- load: first paint and first contentful paint (the Performance API's ``paint`` entries), DOMContentLoaded and
  load (navigation timing), all since navigation start; the check: ``window.schockenCheckReadyMs`` (from the
  start of check.js to its first report: MicroPython's WebAssembly port loaded, the check's Python imported,
  the events so far checked) and the time since navigation start until that report was there (to a frame).

Every run gets a fresh browser context (no cache). No host module is changed: the bench wraps `EventSink.emit`
and `Table.build` (the gate) in this process.
"""

import argparse
import asyncio
import io
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from schocken.rules import Rules

from schocken_host.commands.play import WebSide
from schocken_host.table import seating, session as game_session
from schocken_host.table.session import GameConfig, GameSession
from schocken_host.table.sink import EventSink
from schocken_host.views.plain import PlainUI
from schocken_host.views.web import check
from schocken_host.views.web.server import WebView

from table import pct, print_summary  # bench/table.py, beside this file

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WAIT_MS = 180_000
NOW = "performance.timeOrigin + performance.now()"
LOAD = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const paint = Object.fromEntries(performance.getEntriesByType("paint").map((e) => [e.name, e.startTime]));
  return {fp: paint["first-paint"], fcp: paint["first-contentful-paint"], dcl: nav.domContentLoadedEventEnd,
          load: nav.loadEventEnd, check_ms: window.schockenCheckReadyMs ?? null};
}"""


_emit = EventSink.emit
stamps = []         # time.time() of each emit, in log order


def emit(self, ev):
    stamps.append(time.time())
    return _emit(self, ev)


class GatedTable(seating.Table):
    gate = threading.Event()   # set by the browser once the page is loaded and its check ready

    async def build(self):
        while not GatedTable.gate.is_set():
            await asyncio.sleep(0.02)
        await super().build()


def plain_view():
    return PlainUI("de", out=io.StringIO())


def clock_offset(pg, tries=10):
    """The page's wall clock minus Python's, in ms: (offset, ± half the bracket) of the closest try."""
    best = None
    for _ in range(tries):
        t0 = time.time()
        page = pg.evaluate(NOW)
        t1 = time.time()
        got = (page - (t0 + t1) * 500, (t1 - t0) * 500)
        if best is None or got[1] < best[1]:
            best = got
    return best


def browse(url, done, out, with_check=True):
    """The page, in its own thread: load it, open the gate, wait for the game's end, collect."""
    from playwright.sync_api import sync_playwright
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            try:
                ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
                if not with_check:   # the page as where the check is missing: what the check costs
                    ctx.route("**/check/check.js", lambda route: route.abort())
                pg = ctx.new_page()
                pg.set_default_timeout(WAIT_MS)
                pg.goto(url)
                if not with_check:
                    out["check_missing"] = "--no-check"
                elif check.missing() is None:
                    out["check_at"] = pg.wait_for_function(
                        "() => window.schockenCheckReadyMs !== undefined && performance.now()",
                        polling="raf").json_value()
                else:
                    out["check_missing"] = check.missing()
                out["load"] = pg.evaluate(LOAD)
                out["offset"] = clock_offset(pg)
                GatedTable.gate.set()
                done.wait()
                pg.wait_for_function("window.schocken.shown.length >= %d" % out["expect"])
                out["shown"] = pg.evaluate("window.schocken.shown")
                out["kinds"] = pg.evaluate("window.schocken.events.map((e) => e.ev)")
                out["offset_after"] = clock_offset(pg)
            finally:
                browser.close()
    except Exception as e:  # noqa: BLE001 - said by the main thread
        out["error"] = "%s: %s" % (type(e).__name__, e)
    finally:
        GatedTable.gate.set()


def run(cups, deckel, seed, log_dir, with_check=True):
    config = GameConfig(emulate=cups, strategy="fast", seed=seed, fair=False,
                        rules=Rules("standard", deckel_total=deckel), log_dir=Path(log_dir))
    web = WebSide(WebView(("127.0.0.1", 0), "de"), banner=False)
    stamps.clear()
    GatedTable.gate.clear()
    done, out = threading.Event(), {"expect": 0}
    page = threading.Thread(target=browse, args=(web.view.url, done, out, with_check),
                            daemon=True)
    page.start()
    try:
        start = time.perf_counter()
        state = asyncio.run(GameSession(config, web=web).run(plain_view))
        wall = time.perf_counter() - start
    finally:
        out["expect"] = len(stamps)
        done.set()
        page.join(WAIT_MS / 1000 + 30)
    if "error" in out:
        raise SystemExit("the page: %s" % out["error"])
    shown = out["shown"]
    offset = out["offset"][0]
    lat = [s - t * 1000 - offset for t, s in zip(stamps, shown)]
    load = out["load"]
    worst = max(range(len(lat)), key=lat.__getitem__)
    return {"cups": cups, "seed": seed, "deckel": deckel, "rounds": state.game.rounds, "over": state.over,
            "events": len(lat), "unmatched": abs(len(stamps) - len(shown)), "wall_s": wall,
            "p50": statistics.median(lat), "p99": pct(lat, 99), "max": lat[worst],
            "worst": out["kinds"][worst], "offset": out["offset"], "offset_after": out["offset_after"],
            "fp": load["fp"], "fcp": load["fcp"],
            "dcl": load["dcl"], "load": load["load"], "check_ms": load["check_ms"],
            "check_at": out.get("check_at"), "check_missing": out.get("check_missing")}


def ms(x):
    return "   -   " if x is None else "%7.1f" % x


def line(r):
    ready = ("%s (%s)" % (ms(r["check_at"]), ms(r["check_ms"])) if r["check_missing"] is None
             else "missing: %s" % r["check_missing"])
    parts = ["%4d  %4d  %6d  %6d" % (r["cups"], r["seed"], r["rounds"], r["events"]),
             "%7.2f  %7.2f  %7.2f %-9s" % (r["p50"], r["p99"], r["max"], "(%s)" % r["worst"]),
             "|  %s    %s  %s  %s" % (ms(r["fp"]), ms(r["fcp"]), ms(r["dcl"]), ms(r["load"])),
             "%-22s" % ready,
             "%+.2f±%.2f / %+.2f±%.2f ms" % (r["offset"] + r["offset_after"]),
             "%5.1f s" % r["wall_s"]]
    if not r["over"]:
        parts.append("(not over!)")
    if r["unmatched"]:
        parts.append("(%d events unmatched!)" % r["unmatched"])
    return "  ".join(parts)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="4,16", help="table sizes, comma separated")
    ap.add_argument("--runs", type=int, default=1, help="games per size, seeds --seed, --seed+1, ...")
    ap.add_argument("--deckel", type=int, default=13, help="Deckel in the middle below 16 cups")
    ap.add_argument("--deckel-large", type=int, default=5, help="Deckel in the middle from 16 cups on")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-check", action="store_true", help="the page without its in-browser check")
    ap.add_argument("--aim", type=float, default=100.0, help="p99 aim in ms for the summary")
    a = ap.parse_args(argv)
    if CHROMIUM is None:
        raise SystemExit("no system Chromium (apt-get install chromium)")
    EventSink.emit = emit
    game_session.Table = GatedTable
    print("latency: referee emit -> page drawn (ms); load: since navigation start (ms)")
    print("cups  seed  rounds  events  p50      p99      max (event)        | first paint  FCP      DCL      "
          "load     check ready (check.js)  clock offset before/after  game")
    with tempfile.TemporaryDirectory() as tmp:
        for cups in (int(s) for s in a.sizes.split(",")):
            p99s = []
            for seed in range(a.seed, a.seed + a.runs):
                deckel = a.deckel_large if cups >= 16 else a.deckel
                r = run(cups, deckel, seed, Path(tmp) / ("%d-%d" % (cups, seed)), not a.no_check)
                p99s.append(r["p99"])
                print(line(r), flush=True)
            if a.runs > 1:
                print_summary(cups, a.aim, p99s)


if __name__ == "__main__":
    sys.exit(main())
