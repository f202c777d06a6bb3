"""The table's side of a tournament (tournament/reporter.py) against a small stand-in director on the
loopback: the seating kept per table (two tables sharing a log folder each get their own back when the
network is gone), the outbox that keeps a game until the director has it and puts a refused one aside with
its reason. The real director and `schocken play` are tests/test_turnier.py."""

import http.server
import json
import os
import threading

import pytest

from schocken_host.errors import CommandError
from schocken_host.tournament.reporter import Outbox, parse_url, seating

SEATINGS = {"A": {"table": 1, "round": 2, "players": ["Anna", "Bert", "Cleo"]},
            "B": {"table": 2, "round": 2, "players": ["Dora", "Emil", "Fritz"]}}


class StandIn(http.server.BaseHTTPRequestHandler):
    games = []
    answer = 200

    def log_message(self, *a):
        pass

    def _json(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        key = self.path.rsplit("/", 1)[1]
        if key in SEATINGS:
            self._json(200, SEATINGS[key])
        else:
            self._json(403, {"reason": "no table"})

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if StandIn.answer != 200:
            self._json(StandIn.answer, {"status": "refused", "reason": "not a log"})
            return
        StandIn.games.append(body)
        self._json(200, {"status": "counted"})


@pytest.fixture
def director():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    StandIn.games, StandIn.answer = [], 200
    yield server, "http://127.0.0.1:%d" % server.server_address[1]
    server.shutdown()
    server.server_close()


def test_a_table_cards_url_is_the_directors_base_and_the_key():
    assert parse_url("http://192.168.1.10:8470/tisch/abc-DEF_1") == ("http://192.168.1.10:8470", "abc-DEF_1")
    for bad in ("ftp://x/tisch/k", "http://x/tisch/", "http://x/k", "tisch/k", "http:///tisch/k"):
        with pytest.raises(CommandError):
            parse_url(bad)


def test_two_tables_sharing_a_log_folder_each_keep_their_own_seating(director, tmp_path):
    server, base = director
    a, b = base + "/tisch/A", base + "/tisch/B"
    assert seating(a, tmp_path)["players"] == SEATINGS["A"]["players"]
    assert seating(b, tmp_path)["players"] == SEATINGS["B"]["players"]
    with pytest.raises(CommandError) as e:
        seating(base + "/tisch/C", tmp_path)
    assert e.value.message.key == "turnier.refused"
    server.shutdown()
    server.server_close()
    offline_a, offline_b = seating(a, tmp_path), seating(b, tmp_path)
    assert offline_a["players"] == SEATINGS["A"]["players"] and offline_a["offline"]
    assert offline_b["players"] == SEATINGS["B"]["players"] and offline_b["round"] == 2
    with pytest.raises(CommandError) as e:      # a table never seated while the network was there
        seating(base + "/tisch/D", tmp_path)
    assert e.value.message.key == "turnier.unreachable"


def _log(tmp_path, game_id):
    path = tmp_path / ("%s.jsonl" % game_id)
    path.write_text(json.dumps({"ev": "start", "game_id": game_id}) + "\n", encoding="utf-8")
    return path


def test_the_outbox_keeps_each_game_until_the_director_has_it(director, tmp_path):
    server, base = director
    outbox = Outbox(tmp_path)
    dead = "http://127.0.0.1:9/tisch/A"                     # nothing listens there
    outbox.put(dead, 1, _log(tmp_path, "g1"), "g1")
    outbox.put(base + "/tisch/A", 1, _log(tmp_path, "g2"), "g2")
    sent, waiting, why = outbox.flush()
    assert (sent, waiting) == (0, 2) and why                 # the oldest first: it stops at the first failure
    entry = outbox.folder / "spiel-g1.json"          # the network back (its address again), its age kept
    age = entry.stat()
    entry.write_text(json.dumps({"url": base + "/tisch/A", "round": 1, "log": str(tmp_path / "g1.jsonl")}),
                     encoding="utf-8")
    os.utime(entry, ns=(age.st_atime_ns, age.st_mtime_ns))
    assert outbox.flush() == (2, 0, None)
    assert [json.loads(g["log"].splitlines()[0])["game_id"] for g in StandIn.games] == ["g1", "g2"]
    assert all(g["key"] == "A" and g["round"] == 1 for g in StandIn.games)


def test_a_game_the_director_refuses_is_put_aside_with_its_reason(director, tmp_path):
    server, base = director
    StandIn.answer = 409
    outbox = Outbox(tmp_path)
    outbox.put(base + "/tisch/A", 1, _log(tmp_path, "g3"), "g3")
    assert outbox.flush() == (0, 0, None)
    assert (outbox.folder / "abgewiesen" / "spiel-g3.json").is_file()
    assert "not a log" in (outbox.folder / "abgewiesen" / "spiel-g3.reason.txt").read_text()


class KeptAlive(StandIn):
    protocol_version = "HTTP/1.1"        # keeps the connection open between requests, as aiohttp does
    connections = 0

    def setup(self):
        KeptAlive.connections += 1
        super().setup()


def test_the_live_state_goes_over_one_kept_connection_and_a_new_one_when_it_was_closed():
    """The hall counts each address's new connections (4 a second after the first 32), and several tables on
    one laptop send their live state every second: each table keeps its one connection to the director. One
    the director closed meanwhile is replaced at the next send, and a refusal is an OSError like a lost
    network."""
    from schocken_host.tournament.reporter import KeptConnection
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), KeptAlive)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    StandIn.games, StandIn.answer, KeptAlive.connections = [], 200, 0
    director = KeptConnection("http://127.0.0.1:%d" % server.server_address[1], timeout=5.0)
    try:
        for n in range(40):
            director.post("/api/live", {"key": "A", "n": n})
        assert [g["n"] for g in StandIn.games] == list(range(40)) and KeptAlive.connections == 1
        director.conn.sock.shutdown(2)                   # the connection is gone (the director restarted)
        director.post("/api/live", {"key": "A", "n": 40})
        assert StandIn.games[-1]["n"] == 40 and KeptAlive.connections == 2
        StandIn.answer = 429
        with pytest.raises(OSError):
            director.post("/api/live", {"key": "A", "n": 41})
    finally:
        StandIn.answer = 200
        director.close()
        server.shutdown()
        server.server_close()
