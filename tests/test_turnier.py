"""The tournament through its real paths (docs/turnier.md): `schocken turnier` creates, draws and directs;
two tables play `schocken play --turnier URL` with emulated bot cups, their URLs read from the table cards;
every game reaches the director over loopback HTTP, is checked ("geprüft") before it counts and is recorded
once; a tampered and a forged log are held with their reason and count only by the director's word; a table
that lost the network plays on and sends its game when the director is back; guests only look; the
director's standings equal a recount from the logs; the big screen in Chromium shows them. The full-size
simulation (80 players, 20 tables) is bench/turnier.py."""

import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
import segno

from kits.turnierkit import tampered

SCHOCKEN = [sys.executable, "-m", "schocken_host.cli"]
NAMES = ["Anna", "Bert", "Cleo", "Dora", "Emil", "Fritz"]     # two tables of 3
SCALE = "100"
FORMAT = """name = "Kurz"
base = "schockenorg"
rounds = 2
games = 3

[rules]
preset = "standard"
deckel_total = 5
"""


def run(*argv, env, timeout=120, check=True):
    proc = subprocess.run(SCHOCKEN + list(argv), capture_output=True, text=True, timeout=timeout, env=env)
    if check:
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


class Director:
    """`schocken turnier leiten` as a process, on a port of its own (0 first: the port it got is kept)."""

    def __init__(self, folder, env, port=0):
        self.proc = subprocess.Popen(SCHOCKEN + ["turnier", "leiten", str(folder), "--web",
                                                 "127.0.0.1:%d" % port],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        first = self.proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
        if not found:
            self.proc.kill()
            raise AssertionError(first + self.proc.communicate()[0])
        self.port = int(found.group(1))
        self.url = "http://127.0.0.1:%d" % self.port
        self.lines = [first]

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        out, _ = self.proc.communicate(timeout=20)
        self.lines += out.splitlines()
        return self.proc.returncode


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, json.loads(r.read())


def post(url, body, content_type="application/json"):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            raw = r.read()
            return r.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    """A tournament of 6 with its first round played: two tables, one game each, at the same time."""
    root = tmp_path_factory.mktemp("turnier")
    env = dict(os.environ, SCHOCKEN_DATA_DIR=str(root / "data"), PYTHONUNBUFFERED="1")
    folder = root / "T"
    # schocken.org's format with short games: halves of 5 Deckel (the tables take the rules from the director)
    (root / "kurz.toml").write_text(FORMAT, encoding="utf-8")
    run("turnier", "anlegen", str(folder), *NAMES, "--format", str(root / "kurz.toml"), "--seed", "test",
        env=env)
    drawn = run("turnier", "auslosen", str(folder), "--url", "http://127.0.0.1:1/", env=env).stdout
    director = Director(folder, env)
    hall = {"root": root, "env": env, "folder": folder, "director": director, "drawn": drawn}
    try:
        hall["tables"] = _first_round(hall)
        yield hall
    finally:       # the director of the end (a test restarts it), whatever happened
        if hall["director"].proc.poll() is None:
            hall["director"].stop()


def _first_round(hall):
    env, folder, director, root = hall["env"], hall["folder"], hall["director"], hall["root"]
    run("turnier", "karten", str(folder), "--url", director.url + "/", env=env)
    cards = (folder / "karten-runde-1.html").read_text(encoding="utf-8")
    urls = re.findall(r"schocken play --turnier (\S+?)</pre>", cards)
    assert len(urls) == 2 and all(u.startswith(director.url + "/tisch/") for u in urls)
    for url in urls:     # each card's QR code is the table's address
        assert segno.make(url, error="m").svg_inline(scale=5) in cards
    tables = []
    for i, url in enumerate(urls):
        log_dir = root / ("tisch%d" % (i + 1))
        tables.append((url, log_dir, subprocess.Popen(
            SCHOCKEN + ["play", "--turnier", url, "--emulate", "3", "--plain", "--time-scale", SCALE,
                        "--log-dir", str(log_dir)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, env=env)))
    played = []
    for url, log_dir, proc in tables:
        out, _ = proc.communicate(timeout=240)
        assert proc.returncode == 0, out
        played.append((url, log_dir, out))
    return played


def standings(hall):
    return json.loads(run("turnier", "stand", str(hall["folder"]), "--json", env=hall["env"]).stdout)


def the_log(log_dir):
    logs = sorted(log_dir.glob("*.jsonl"))
    return logs[-1]


def test_both_tables_games_are_verified_and_counted(hall):
    for url, log_dir, out in hall["tables"]:
        assert "Turnier: Tisch" in out
        assert "an die Turnierleitung gemeldet: 1 Spiel(e); 0 warten" in out, out
    got = standings(hall)
    assert sum(line["games"] for line in got["standings"]) == 6
    assert sum(line["games_lost"] for line in got["standings"]) == 2
    assert got["held"] == []
    status, stats = get(hall["director"].url + "/api/stats")
    assert stats["verdicts"] == {"counted": 2}


def test_each_tables_live_state_reaches_the_director(hall):
    status, model = get(hall["director"].url + "/screen.json")
    assert sorted(model["live"]) == ["1", "2"]
    for t in model["tables"]:
        live = model["live"][str(t["table"])]
        assert live["over"] is True and live["phase"] == "over"
        assert [p["name"] for p in live["players"]] == t["players"]
        assert sum(p["halves"] for p in live["players"]) >= 2


def test_the_tables_players_and_rules_are_the_ones_drawn(hall):
    for (url, log_dir, out), t in zip(hall["tables"], (1, 2)):
        drawn = re.search(r"Tisch %d: (.*)" % t, hall["drawn"]).group(1).split(", ")
        start = json.loads(the_log(log_dir).read_text().splitlines()[0])
        assert [p["name"] for p in start["players"]] == drawn
        assert start["rules"] == {"preset": "standard", "options": {"deckel_total": 5}}


def test_a_game_sent_again_is_recorded_once(hall):
    url, log_dir, _ = hall["tables"][0]
    key = url.rsplit("/", 1)[1]
    before = standings(hall)
    status, verdict = post(hall["director"].url + "/api/spiel",
                           {"key": key, "round": 1, "log": the_log(log_dir).read_text()})
    assert status == 200 and verdict["status"] == "already"
    assert standings(hall) == before


def test_a_tampered_log_is_held_with_its_reason_and_counts_only_by_the_directors_word(hall):
    url, log_dir, _ = hall["tables"][1]
    key = url.rsplit("/", 1)[1]
    text = tampered(the_log(log_dir).read_text(), "tampered0001")
    before = standings(hall)
    status, verdict = post(hall["director"].url + "/api/spiel", {"key": key, "round": 1, "log": text})
    assert status == 200 and verdict["status"] == "held"
    assert "check fails" in verdict["reason"] and "reveal" in verdict["reason"]
    got = standings(hall)
    assert got["standings"] == before["standings"]
    assert [h["game_id"] for h in got["held"]] == ["tampered0001"]
    said = run("turnier", "stand", str(hall["folder"]), env=hall["env"]).stdout
    assert "tampered0001" in said and "check fails" in said and "Zurückgehalten" in said
    said = run("--lang", "en", "turnier", "standings", str(hall["folder"]), env=hall["env"]).stdout
    assert said.startswith("place  name") and "held back" in said
    # the same game id with other content: a conflict, nothing changes
    status, _ = post(hall["director"].url + "/api/spiel",
                     {"key": key, "round": 1, "log": text.replace("tampered0001", "tampered0001", 1) + "\n"})
    assert status == 409
    # the director rejects it: it never counts
    run("turnier", "entscheiden", str(hall["folder"]), "tampered0001", "verwerfen", env=hall["env"])
    assert standings(hall)["standings"] == before["standings"]
    assert standings(hall)["held"] == []


def test_a_forged_log_of_players_not_drawn_is_held_and_a_decision_can_count_it(hall):
    (url1, log1, _), (url2, log2, _) = hall["tables"]
    # Table 1 sends the game of table 2 under a new id: a valid game, but not of its players.
    text = the_log(log2).read_text()
    start = json.loads(text.splitlines()[0])
    forged = text.replace(start["game_id"], "forged000001")
    before = standings(hall)
    status, verdict = post(hall["director"].url + "/api/spiel",
                           {"key": url1.rsplit("/", 1)[1], "round": 1, "log": forged})
    assert verdict["status"] == "held" and "not the ones drawn at table 1" in verdict["reason"]
    assert standings(hall)["standings"] == before["standings"]
    said = run("--lang", "en", "turnier", "decide", str(hall["folder"]), "forged000001", "count",
               env=hall["env"]).stdout
    assert "admitted" in said
    after = standings(hall)["standings"]
    assert sum(line["games"] for line in after) == sum(line["games"] for line in before["standings"]) + 3
    run("turnier", "nachzaehlen", str(hall["folder"]), env=hall["env"])


def test_only_enrolled_tables_report_guests_only_look(hall):
    d = hall["director"].url
    url, log_dir, _ = hall["tables"][0]
    text = the_log(log_dir).read_text()
    status, body = post(d + "/api/spiel", {"key": "not-a-key", "round": 1, "log": text})
    assert status == 403 and "keinem Tisch" in body and "Traceback" not in body
    seen = []
    for _ in range(8):          # the backoff doubles after each wrong key of a client: 429 comes soon
        status, body = post(d + "/api/spiel", {"round": 1, "log": "x"})
        seen.append(status)
        assert status in (403, 429), body
        if status == 429:
            break
    assert seen[-1] == 429, seen
    # a right key passes during a backoff: the tables are never locked out by a guest's guesses
    status, verdict = post(d + "/api/spiel", {"key": url.rsplit("/", 1)[1], "round": 1, "log": text})
    assert status == 200 and verdict["status"] == "already"
    status, body = post(d + "/api/spiel", b"key=x", content_type="application/x-www-form-urlencoded")
    assert status == 415
    status, body = post(d + "/api/spiel", b"{" * 100000)
    assert status in (400, 413) and "Traceback" not in body
    status, body = post(d + "/api/live", {"key": "nope", "live": {"phase": "x"}})
    assert status in (403, 429)
    status, model = get(d + "/screen.json")
    assert status == 200 and len(model["standings"]) == 6
    assert "key" not in json.dumps(model)
    for key in (u.rsplit("/", 1)[1] for u, _, _ in hall["tables"]):
        assert key not in json.dumps(model)
    req = urllib.request.Request(d + "/screen.json", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=10)
    assert e.value.code == 421


def test_a_table_without_the_network_plays_on_and_sends_its_game_when_it_is_back(hall):
    director = hall["director"]
    url, log_dir, _ = hall["tables"][0]
    port = director.port
    assert director.stop() == 0
    proc = run("play", "--turnier", url, "--emulate", "3", "--plain", "--time-scale", SCALE, "--log-dir",
               str(log_dir), env=hall["env"], timeout=240)
    assert "Turnierleitung nicht erreichbar" in proc.stdout
    assert "1 Spiel(e) warten" in proc.stderr, proc.stderr
    assert len(list((log_dir / "turnier-ausgang").glob("spiel-*.json"))) == 1
    before = standings(hall)
    back = Director(hall["folder"], hall["env"], port)
    hall["director"] = back
    sent = run("turnier", "senden", "--log-dir", str(log_dir), env=hall["env"])
    assert "gemeldet: 1 Spiel(e); 0 warten" in sent.stdout
    after = standings(hall)
    assert sum(line["games"] for line in after["standings"]) == \
        sum(line["games"] for line in before["standings"]) + 3
    assert not list((log_dir / "turnier-ausgang").glob("spiel-*.json"))
    assert "Nachgezählt" in run("turnier", "nachzaehlen", str(hall["folder"]), env=hall["env"]).stdout


def test_the_big_screen_shows_the_tables_and_the_standings_and_a_players_place(hall, browser):
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        page.goto(hall["director"].url + "/leinwand?spieler=Dora")
        page.wait_for_function("document.querySelectorAll('#standings tbody tr').length == 6", timeout=20000)
        assert page.locator("#tables .table").count() == 2
        assert page.locator("#tables .table.mine").count() == 1
        assert page.locator("#standings tr.mine td").nth(1).inner_text() == "Dora"
        assert "Runde" in page.locator("#clock").inner_text()
        mine = page.locator("#mine").inner_text()
        assert "Dora" in mine and "Platz" in mine and "Tisch" in mine
        first = page.locator("#standings tbody tr").first.locator("td").nth(1).inner_text()
        assert first == standings(hall)["standings"][0]["name"]
    finally:
        page.close()


def test_a_round_drawn_while_the_director_runs_seats_the_tables_at_once(hall):
    env, folder = hall["env"], hall["folder"]
    refused = run("turnier", "auslosen", str(folder), env=env, check=False)
    assert refused.returncode == 2 and "nicht fertig" in refused.stderr     # table 2 has games to come
    drawn = run("turnier", "auslosen", str(folder), "--trotzdem", "--url", hall["director"].url + "/",
                env=env).stdout
    for t, (url, _, _) in enumerate(hall["tables"], start=1):
        status, seating = get(hall["director"].url + "/api/tisch/" + url.rsplit("/", 1)[1])
        assert seating["round"] == 2
        assert seating["players"] == re.search(r"Tisch %d: (.*)" % t, drawn).group(1).split(", ")
