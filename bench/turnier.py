"""The tournament at full size (issue 46, docs/turnier.md): 80 bot players on 20 emulated tables, every table
a real `schocken play --turnier URL --emulate 4` (four MicroPython cup processes and a host each), all sending
their games over loopback HTTP to one `schocken turnier leiten`; table 1 reaches the director through a
proxy whose network is cut after its first game began and restored once its second game has started (that
one seated from the kept seating, both games sent when it ends); after the first round a tampered log (a
revealed die changed) and a forged one (table 1's game under a new id, sent as table 2's) are sent: the
director must hold both, and they are rejected.
Every round is drawn by `schocken turnier auslosen` once the director has every game of the round.

    nice -n 10 .venv/bin/python bench/turnier.py [--tables 20] [--rounds 3] [--games 2] [--time-scale 50]

Prints one JSON object: the whole tournament's wall time, a game's arrival at the director to the standings
made anew (p50, p99, max: the director's own clock), the director's peak memory (VmHWM), the verdicts, and
whether the recount from the logs equals the director's standings (`schocken turnier nachzaehlen`)."""

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from kits.turnierkit import tampered  # noqa: E402

SCHOCKEN = [sys.executable, "-m", "schocken_host.cli"]


FAILURES = []


def cli(*argv, env, check=True, timeout=600):
    proc = subprocess.run(SCHOCKEN + list(argv), capture_output=True, text=True, env=env, timeout=timeout)
    if check and proc.returncode != 0:
        raise SystemExit("%s failed:\n%s%s\n%s" % (" ".join(argv), proc.stdout, proc.stderr,
                                                   "\n".join(map(str, FAILURES[:3]))))
    return proc


def get(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def post(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


class Cuttable:
    """A TCP forwarder to the director whose network can be cut (every connection refused and the open ones
    reset) and restored: one table's link to the hall."""

    def __init__(self, target_port):
        self.target = target_port
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.up = True
        self.open = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            conn, _ = self.server.accept()
            if not self.up:
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                conn.close()
                continue
            try:
                far = socket.create_connection(("127.0.0.1", self.target), timeout=10)
            except OSError:
                conn.close()
                continue
            with self.lock:
                self.open += [conn, far]
            # the table names the proxy's port in its Host header; the director answers only to its own
            host = (b"Host: 127.0.0.1:%d\r\n" % self.port, b"Host: 127.0.0.1:%d\r\n" % self.target)
            threading.Thread(target=self._pipe, args=(conn, far, host), daemon=True).start()
            threading.Thread(target=self._pipe, args=(far, conn, None), daemon=True).start()

    @staticmethod
    def _pipe(a, b, host):
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                if host is not None:
                    data = data.replace(*host)
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):     # shutdown first: a close alone leaves the other thread's recv asleep
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def cut(self):
        self.up = False
        with self.lock:
            for s in self.open:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            self.open = []

    def restore(self):
        self.up = True


def peak_kib(pid):
    try:
        for line in Path("/proc/%d/status" % pid).read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--games", type=int, default=2, help="games per table and round")
    p.add_argument("--time-scale", type=int, default=50)
    p.add_argument("--deckel", type=int, default=13, help="Deckel of a half (the rules' deckel_total)")
    p.add_argument("--out", default=None, help="the tournament's folder (default: a temporary one)")
    opts = p.parse_args(argv)
    if opts.games < 2 or opts.tables < 2:
        p.error("table 1's cut network needs two games a round; the forged log two tables")
    root = Path(opts.out or tempfile.mkdtemp(prefix="turnier-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, SCHOCKEN_DATA_DIR=str(root / "data"), PYTHONUNBUFFERED="1")
    players = ["Gast%02d" % (i + 1) for i in range(opts.tables * opts.seats)]
    (root / "format.toml").write_text(
        'name = "Bench"\nbase = "schockenorg"\nrounds = %d\ngames = %d\n[tables]\nsize = %d\nmin = %d\n'
        'max = %d\n[rules]\npreset = "standard"\ndeckel_total = %d\n'
        % (opts.rounds, opts.games, opts.seats, max(2, opts.seats - 1), opts.seats + 1, opts.deckel))
    folder = root / "T"
    began = time.monotonic()
    cli("turnier", "anlegen", str(folder), *players, "--format", str(root / "format.toml"), "--seed", "bench",
        env=env)
    director = subprocess.Popen(SCHOCKEN + ["turnier", "leiten", str(folder), "--web", "127.0.0.1:0"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        return _run(opts, root, env, folder, players, director, began)
    finally:
        if director.poll() is None:      # whatever ended the bench: its director goes too
            director.terminate()
            director.wait(timeout=30)


def _run(opts, root, env, folder, players, director, began):
    first = director.stdout.readline()
    port = int(re.search(r"127\.0\.0\.1:(\d+)/", first).group(1))
    heard = []
    threading.Thread(target=lambda: heard.extend(director.stdout), daemon=True).start()
    base = "http://127.0.0.1:%d" % port
    proxy = Cuttable(port)
    failures = FAILURES
    cut_log = {}
    games_played = 0

    def table(round_no, t, url, log_dir):
        nonlocal games_played
        for g in range(opts.games):
            argv = ["play", "--turnier", url, "--emulate", str(opts.seats), "--plain", "--time-scale",
                    str(opts.time_scale), "--log-dir", str(log_dir)]
            proc = subprocess.Popen(SCHOCKEN + argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True, env=env)
            seen = []
            if round_no == 1 and t == 1 and g < 2:
                # table 1: the network goes once its first game is seated, and comes back once its second
                # game is seated from the kept seating
                for line in proc.stdout:
                    seen.append(line)
                    if g == 0 and line.startswith("Turnier: Tisch"):
                        proc_cut = time.monotonic()
                        proxy.cut()
                        cut_log["cut"] = round(proc_cut - began, 1)
                        break
                    if g == 1 and "Turnierleitung nicht erreichbar" in line:
                        proxy.restore()
                        cut_log["restored"] = round(time.monotonic() - began, 1)
                        break
            out, _ = proc.communicate(timeout=1800)
            out = "".join(seen) + out
            if round_no == 1 and t == 1 and g < 2:
                cut_log["game%d" % (g + 1)] = [line for line in out.splitlines() if "Turnier" in line]
            games_played += 1
            if proc.returncode != 0:
                failures.append((round_no, t, g, out[-2000:]))

    for round_no in range(1, opts.rounds + 1):
        cli("turnier", "auslosen", str(folder), "--url", base + "/", env=env)
        cards = (folder / ("karten-runde-%d.html" % round_no)).read_text(encoding="utf-8")
        urls = re.findall(r"schocken play --turnier (\S+?)</pre>", cards)
        urls[0] = urls[0].replace(":%d/" % port, ":%d/" % proxy.port)   # table 1 behind the cuttable link
        threads = [threading.Thread(target=table, args=(round_no, t, url, root / ("tisch%02d" % t)))
                   for t, url in enumerate(urls, start=1)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        if round_no == 1:
            logs = sorted((root / "tisch02").glob("*.jsonl"))
            other = sorted((root / "tisch01").glob("*.jsonl"))      # table 1's game, sent as table 2's
            key2 = re.findall(r"/tisch/(\S+?)</pre>", cards)[1]
            forged_text = other[0].read_text()
            forged_id = json.loads(forged_text.splitlines()[0])["game_id"]
            verdicts = [post(base + "/api/spiel", {"key": key2, "round": 1,
                                                   "log": tampered(logs[0].read_text(), "tampered0001")}),
                        post(base + "/api/spiel", {"key": key2, "round": 1,
                                                   "log": forged_text.replace(forged_id, "forged000001")})]
            cut_log["forged"] = [(v["status"], v["reason"]) for v in verdicts]
            for gid in ("tampered0001", "forged000001"):
                cli("turnier", "entscheiden", str(folder), gid, "verwerfen", env=env)
        deadline = time.monotonic() + 120
        while get(base + "/screen.json")["missing"] and time.monotonic() < deadline:
            time.sleep(1.0)
    wall = time.monotonic() - began
    stats = get(base + "/api/stats")
    model = get(base + "/screen.json")
    memory = peak_kib(director.pid)
    recount = cli("turnier", "nachzaehlen", str(folder), env=env, check=False)
    director.terminate()
    director.wait(timeout=30)
    load = os.getloadavg()
    result = {
        "players": len(players), "tables": opts.tables, "rounds": opts.rounds, "games_per_round": opts.games,
        "time_scale": opts.time_scale, "games_played": games_played, "failures": len(failures),
        "wall_s": round(wall, 1), "arrival_to_standings_s": {k: stats[k] and round(stats[k], 4)
                                                            for k in ("p50", "p99", "max")},
        "director_cpu_per_game_s": {k: stats["cpu_" + k] and round(stats["cpu_" + k], 4)
                                    for k in ("p50", "p99")},
        "arrivals": stats["arrivals"], "verdicts": stats["verdicts"], "director_peak_rss_mib":
            memory and round(memory / 1024, 1), "missing_at_end": model["missing"],
        "counted_games": sum(line["games"] for line in model["standings"]) // opts.seats,
        "recount_equal": recount.returncode == 0, "network_cut": cut_log,
        "loadavg_at_end": [round(x, 1) for x in load], "folder": str(root)}
    print(json.dumps(result, indent=1, ensure_ascii=False))
    for f in failures[:3]:
        print("failed:", f, file=sys.stderr)
    return 0 if not failures and recount.returncode == 0 and not model["missing"] else 1


if __name__ == "__main__":
    sys.exit(main())
