"""The live web view's server (views/web/): its endpoints through aiohttp's test client, the Server-Sent
Events and their resynchronisation with Last-Event-ID, the PIN in front of the table's actions, --web's
parsing, and the real `schocken watch` / `schocken play --web` as subprocesses over real HTTP."""

import asyncio
import json
import os
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from schocken.rules import from_dict

from schocken_host.commands.replay import replay
from schocken_host.table.state import TableState
from schocken_host.views.web.hub import Hub
from schocken_host.table.view import View, Views
from schocken_host.views.web.server import WebView

from kits import scorekit
from kits.webkit import Played, with_client
from kits.tablekit import ROOT, SCHOCKEN, read_log, schocken

GAME = ROOT / "tests" / "data" / "web_game.jsonl"


def lines(path):
    return read_log(path)


class FakeReferee:
    def __init__(self):
        self.requests = []

    def request(self, what, seat):
        self.requests.append((what, seat))


def loaded_view(actions=True, path=GAME):
    view = WebView(("127.0.0.1", 0), actions=actions)
    view.attach_log(path)
    return view


async def sse(resp, until):
    """(kind, id, data) of each message until ``until(messages)`` is true (bounded by the test's timeout)."""
    messages, buf, ident = [], "", None
    while not until(messages):
        chunk = await asyncio.wait_for(resp.content.readany(), 10)
        if not chunk:
            break
        buf += chunk.decode()
        while "\n\n" in buf:
            block, buf = buf.split("\n\n", 1)
            kind, data = None, None
            for line in block.split("\n"):
                field, _, value = line.partition(": ")
                if field == "id":
                    ident = int(value)
                elif field == "event":
                    kind = value
                elif field == "data":
                    data = json.loads(value)
            if kind:
                messages.append((kind, ident, data))
    return messages


def test_the_endpoints_serve_the_page_the_log_the_sources_and_the_standings():
    expected = replay(GAME).standings()

    async def test(client):
        page = await client.get("/")
        assert page.status == 200 and '<section id="check">' in await page.text()
        for asset in ("/static/app.js", "/static/style.css"):
            assert (await client.get(asset)).status == 200
        de = await (await client.get("/texts.json")).json()
        en = await (await client.get("/texts.json?lang=en")).json()
        assert de["middle"] == "Mitte" and en["middle"] == "Middle" and en["phase_final"] == "Final"
        state = await (await client.get("/state.json")).json()
        assert state["view"]["standings"] == expected and state["events"] == len(lines(GAME))
        log = await (await client.get("/log.jsonl")).text()
        assert [json.loads(x) for x in log.splitlines()] == lines(GAME)
        files = await (await client.get("/py/index.json")).json()
        assert {"schocken/game.py", "schocken_host/table/state.py", "schocken_host/i18n.py"} <= set(files)
        src = await (await client.get("/py/schocken_host/table/state.py")).text()
        assert "class TableState" in src
        assert (await client.get("/py/../../etc/passwd")).status == 404
        qr = await client.get("/qr.svg")
        assert qr.status == 200 and "<svg" in await qr.text()
    with_client(loaded_view(), test)


def test_events_come_all_then_the_model_and_a_returning_browser_gets_only_what_it_missed():
    total = len(lines(GAME))

    async def test(client):
        resp = await client.get("/events")
        got = await sse(resp, lambda m: m and m[-1][0] == "view")
        resp.close()
        evs = [m for m in got if m[0] == "ev"]
        assert [m[1] for m in evs] == list(range(1, total + 1))
        assert [m[2] for m in evs] == lines(GAME)
        assert got[-1][2]["id"] == total and got[-1][2]["over"]
        resp = await client.get("/events", headers={"Last-Event-ID": str(total - 3)})
        again = await sse(resp, lambda m: m and m[-1][0] == "view")
        resp.close()
        assert [m[1] for m in again if m[0] == "ev"] == [total - 2, total - 1, total]
        # A browser from another game (or ahead of this log) is told to reset and gets everything.
        resp = await client.get("/events?last=5&game=another")
        fresh = await sse(resp, lambda m: m and m[-1][0] == "view")
        resp.close()
        assert fresh[0][0] == "reset" and len([m for m in fresh if m[0] == "ev"]) == total
    with_client(loaded_view(), test)


def test_new_events_reach_every_open_browser():
    events = lines(GAME)
    view = WebView(("127.0.0.1", 0))
    play = Played(view)
    for ev in events[:10]:
        play(ev)

    async def test(client):
        a = await client.get("/events")
        b = await client.get("/events", headers={"Last-Event-ID": "10"})
        await sse(a, lambda m: m and m[-1][0] == "view")
        await sse(b, lambda m: m and m[-1][0] == "view")
        for ev in events[10:20]:
            play(ev)
        for resp in (a, b):
            got = await sse(resp, lambda m: any(x[1] == 20 for x in m if x[0] == "ev")
                            and m[-1][0] == "view")
            assert [m[1] for m in got if m[0] == "ev"] == list(range(11, 21))
            resp.close()
    with_client(view, test)


def coached_events():
    """A round of three from the scoreboard's kit up to Cem's turn (Ben opened and stood on 1-1 open)."""
    class Recorder:
        events = []

        def update(self, st, ev):
            self.events.append(json.loads(json.dumps(ev)))
    table = scorekit.Table(app=Recorder())
    table.start()
    table.emit_all(table.throw_off(scorekit.THROW_OFF))
    events = table.round(scorekit.ROUND_2)
    table.emit_all(events[:scorekit.until(events, "turn", seat=2)])
    return table.app.events


def test_the_model_has_a_coach_only_with_coach_and_it_is_of_the_seat_on_turn():
    events = coached_events()
    plain, coached = Hub(), Hub(coach=True)
    for ev in events:
        plain.feed(ev)
        coached.feed(ev)
    assert "coach" not in plain.view()
    coach = coached.view()["coach"]   # no event loop here: computed at once
    assert coach["seat"] == 2 and coach["throws"] == 0 and coach["limit"] == 2 and coach["aside"] == []
    assert not coach["first"] and 0 < coach["chance"] < 1 and coach["expected"] > 0
    json.dumps(coach)
    # A finished game: nobody on turn, no advice.
    finished = Hub(coach=True)
    for ev in lines(GAME):
        finished.feed(ev)
    assert finished.view()["coach"] is None


def test_the_coachs_answer_reaches_the_open_browsers_without_a_new_event():
    view = WebView(("127.0.0.1", 0), coach=True)
    play = Played(view)
    for ev in coached_events():
        play(ev)

    async def test(client):
        texts = await (await client.get("/texts.json?lang=en")).json()
        assert texts["coach_head"] == "Coach for {name}: " and texts["coach_pending"] == "computing …"
        resp = await client.get("/events")
        got = await sse(resp, lambda m: m and m[-1][0] == "view" and not m[-1][2]["coach"].get("pending"))
        resp.close()
        views = [m[2] for m in got if m[0] == "view"]
        assert views[0]["coach"]["pending"] and views[-1]["coach"]["seat"] == 2, views[-1]["coach"]
        assert 0 < views[-1]["coach"]["chance"] < 1
        assert views[0]["id"] == views[-1]["id"]     # the same events, a new model
    with_client(view, test)


def test_a_rounds_reveals_stay_on_the_cards_until_the_next_rounds_first_throw():
    """Every player's dice and class of a ranked round stay on his card after the next round's first turn
    (the state has forgotten them by then) and go at that round's first throw; the halves' losers stay."""
    events = lines(GAME)
    rounds = [i for i, ev in enumerate(events)
              if ev["ev"] == "round" and any(e["ev"] == "progress" for e in events[i:])]
    assert len(rounds) > 5
    for i in rounds:
        hub = Hub()
        for ev in events[:i + 1]:
            hub.feed(ev)
        ranked = events[i]
        shown = {r["seat"]: r for r in hub.view()["last_round"]["reveals"] if r["dice"]}
        assert set(shown) == set(ranked["order"]) - set(ranked.get("forfeit", []))
        following = events[i + 1:]
        first_throw = next(j for j, e in enumerate(following) if e["ev"] == "progress" and e["throws"])
        assert any(e["ev"] == "turn" for e in following[:first_throw])   # the state forgets them here
        for ev in following[:first_throw]:
            hub.feed(ev)
        cards = {p["seat"]: p["reveal"] for p in hub.view()["players"]}
        for seat, r in shown.items():
            card = cards[seat]
            assert card["past"] and (card["dice"], card["label"]) == (r["dice"], r["label"]), (ranked, card)
            assert card["kind"] and card["worst"] == (seat == ranked["worst"])
            assert card["best"] == (seat == ranked["best"])
        hub.feed(following[first_throw])
        assert all(p["reveal"] is None for p in hub.view()["players"]), following[first_throw]
    whole = Hub()
    for ev in events:
        whole.feed(ev)
    halves = [{"phase": e["phase"], "seat": e["seat"]} for e in events if e["ev"] == "half_lost"]
    assert len(halves) >= 2 and whole.view()["halves"] == halves
    assert halves[-1]["seat"] == whole.view()["loser"]
    # the last round's reveals are on the cards of the finished game (no next round forgets them)
    last = events[[i for i, ev in enumerate(events) if ev["ev"] == "round"][-1]]
    assert all(p["reveal"] and not p["reveal"]["past"] for p in whole.view()["players"]
               if p["seat"] in last["order"])


def test_a_half_stays_as_it_ended_and_rounds_are_numbered_as_replay_counts_them():
    """Issue 41: at the round that ends a half the page's cards showed the next half (every player 0 Deckel);
    they show the half as it ended (its loser holds them all) until the next round's first throw. The page's
    rounds are the ranked ones from 1 (the throw-off is none), as replay counts them; the last round says
    what its loser took, not what the best throw was worth."""
    events = lines(GAME)
    total = from_dict(events[0]["rules"]).deckel_total
    ranked = 0
    halves = 0
    hub = Hub()
    for n, ev in enumerate(events):
        hub.feed(ev)
        if ev["ev"] == "round":
            ranked += 1
            view = hub.view()
            assert view["round"] == ranked and view["last_round"]["round"] == ranked, (ev, view["round"])
            assert view["last_round"]["taken"] == sum(m[1] for m in ev["moves"])
            ends_a_half = n + 1 < len(events) and events[n + 1]["ev"] == "half_lost"
            if ends_a_half and any(e["ev"] == "progress" for e in events[n + 1:]):   # not the game's end
                halves += 1
                loser = events[n + 1]["seat"]
                following = events[n + 1:]
                first_throw = next(j for j, e in enumerate(following)
                                   if e["ev"] == "progress" and e["throws"])
                shadow = Hub()
                for e in events[:n + 1] + following[:first_throw]:
                    shadow.feed(e)
                kept = shadow.view()
                assert {p["seat"]: p["deckel"] for p in kept["players"]}[loser] == total, kept["players"]
                assert kept["phase"] == events[n + 1]["phase"] and kept["round"] == ranked
                shadow.feed(following[first_throw])
                assert all(p["deckel"] == 0 for p in shadow.view()["players"])   # the next half
                assert shadow.view()["round"] == ranked + 1
        elif ev["ev"] == "throw_off":
            assert hub.view()["last_round"]["round"] is None
    assert halves >= 2
    assert hub.view()["standings"]["rounds"] == ranked == replay_rounds(GAME)


def replay_rounds(path):
    state = TableState()
    for ev in lines(path):
        state.apply(ev)
    return state.standings()["rounds"]


def test_a_played_game_shows_what_its_log_replayed_shows_and_is_applied_once(tmp_path):
    """The page of a game this host plays reads the referee's state (``Hub.live``, as table/sink.py hands
    it): after every event its model and lines are the ones a replay of the log gives, and no event is
    applied a second time. A resumed game: the log's events replayed first, then the live state."""
    events = lines(GAME)
    replayed, view = Hub(coach=True), WebView(("127.0.0.1", 0), coach=True)
    play = Played(view)
    for n, ev in enumerate(events, 1):
        replayed.feed(ev)
        play(ev)
        assert view.hub.view() == replayed.view(), (n, ev)
    assert view.hub.lines == replayed.lines and view.hub.state is play.state
    assert play.state.events == len(events) and view.hub.error is None
    view.sock.close()
    half = len(events) // 2
    log = tmp_path / "resumed.jsonl"
    log.write_text("".join(line + "\n" for line in replayed.lines[:half]), encoding="utf-8")
    resumed = WebView(("127.0.0.1", 0))
    resumed.attach_log(log)
    play = Played(resumed)
    for ev in events[:half]:
        play.state.apply(ev)            # the referee's own replay of the log (gamelog.open_resume)
    for ev in events[half:]:
        play(ev)
    whole = Hub()
    for ev in events:
        whole.feed(ev)
    assert resumed.hub.view() == whole.view() and resumed.hub.lines == whole.lines
    assert resumed.hub.state is play.state
    resumed.sock.close()


def test_only_play_has_table_actions_on_the_page_and_the_join_data_is_there_for_the_terminal():
    for actions in (True, False):
        view = loaded_view(actions=actions)
        info = view.join_info()
        assert info["url"] == view.url == info["urls"][0] and info["pin"] == view.pin
        assert (info["pin"] is not None) == actions and info["qr_url"] == view.url + "qr.svg"
        assert info["qr"] == view.qr_text() and {"█", "▀", "▄"} & set(info["qr"])
        assert len(info["qr"].splitlines()) > 10

        async def test(client):
            page = await (await client.get("/page.json")).json()
            assert page == {"actions": actions}
        with_client(view, test)


def test_the_server_serves_the_final_page_after_the_game_until_its_loop_ends():
    """finish() (the end of a game) leaves the server up: a browser that comes later gets every event and
    the standings; it closes when the host's event loop ends (asyncio.run cancels what holds it)."""
    import aiohttp
    view = WebView(("127.0.0.1", 0))
    port = view.port

    async def main():
        await view.start()
        play = Played(view)
        for ev in lines(GAME):
            play(ev)
        await asyncio.wait_for(view.finish(0.1), 10)
        async with aiohttp.ClientSession() as session:
            state = await (await session.get("http://127.0.0.1:%d/state.json" % port)).json()
            resp = await session.get("http://127.0.0.1:%d/events" % port)
            got = await sse(resp, lambda m: m and m[-1][0] == "view")
            resp.close()
        return state, got
    state, got = asyncio.run(main())
    assert state["view"]["over"] and state["events"] == len(lines(GAME))
    assert [m[2] for m in got if m[0] == "ev"] == lines(GAME)
    assert got[-1][2]["standings"] == replay(str(GAME)).standings()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()


def test_table_actions_need_the_pin_and_the_right_one_reaches_the_referee():
    view = loaded_view()
    view.referee = referee = FakeReferee()

    async def test(client):
        none = await client.post("/action", json={"word": "forfeit 2"})
        wrong = await client.post("/action?lang=en", json={"pin": "x" + view.pin, "word": "forfeit 2"})
        assert none.status == wrong.status == 403
        assert (await wrong.json())["error"] == "wrong or missing PIN"
        assert referee.requests == []
        bad = await client.post("/action", json={"pin": view.pin, "word": "shake 2"})
        assert bad.status == 400 and referee.requests == []
        for word in ("forfeit 2", "wait 1", "drop 3", "ein 4"):
            ok = await client.post("/action", json={"pin": view.pin, "word": word})
            assert ok.status == 200, await ok.text()
        assert referee.requests == [("forfeit", 1), ("wait", 0), ("penalty", 2), ("einwuerfeln", 3)]
        broken = await client.post("/action", data=b"{not json", headers={"Content-Type": "application/json"})
        assert broken.status == 400
    with_client(view, test)


def test_watch_only_takes_no_actions():
    view = loaded_view(actions=False)

    async def test(client):
        resp = await client.post("/action", json={"pin": "", "word": "drop 1"})
        assert resp.status == 403
    with_client(view, test)


def test_a_web_view_that_fails_never_reaches_the_referee_nor_the_terminal():
    class Terminal(View):
        lang = "en"

        def __init__(self):
            self.events = []

        def note(self, text):
            pass

        def update(self, state, ev):
            self.events.append(ev)

    class Broken(View):
        def update(self, state, ev):
            raise RuntimeError("boom")
    terminal = Terminal()
    both = Views(terminal, Broken())
    both.update(None, {"ev": "x"})
    assert terminal.events == [{"ev": "x"}] and both.lang == "en"
    view = WebView(("127.0.0.1", 0))
    view.update(TableState(), {"ev": "reveal"})   # no seat: the page's tracker cannot take it
    assert view.hub.view()["error"]["line"] == 1      # the hub names it, nothing is raised
    view.sock.close()


# --- the command line -----------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["abc", "70000", "host:", "a:b:c", "-1", "1.5"])
def test_a_bad_web_address_is_one_line_and_exit_2(value):
    for argv in (["play", "--emulate", "2", "--web", value], ["watch", str(GAME), "--web", value]):
        proc = schocken(*argv)
        assert proc.returncode == 2 and proc.stdout == "", proc
        assert len(proc.stderr.strip().splitlines()) == 1 and "--web" in proc.stderr, proc.stderr


def test_a_port_in_use_or_a_missing_log_is_refused_before_anything_starts(tmp_path):
    busy = socket.create_server(("127.0.0.1", 0))
    port = busy.getsockname()[1]
    try:
        env = {"SCHOCKEN_LOG_DIR": str(tmp_path)}
        proc = schocken("--lang", "en", "play", "--emulate", "2", "--web", "127.0.0.1:%d" % port,
                        env=dict(__import__("os").environ, **env))
        assert proc.returncode == 2 and proc.stdout == "" and "address not available" in proc.stderr
        assert list(tmp_path.iterdir()) == []
        proc = schocken("watch", str(GAME), "--web", "127.0.0.1:%d" % port)
        assert proc.returncode == 2 and proc.stdout == ""
    finally:
        busy.close()
    proc = schocken("--lang", "en", "watch", str(tmp_path / "none.jsonl"), "--web", "127.0.0.1:0")
    assert proc.returncode == 2 and "no such game log" in proc.stderr


def url_of(out_path, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        text = Path(out_path).read_text(errors="replace") if Path(out_path).exists() else ""
        m = re.search(r"(http://\S+/)", text)
        if m:
            return m.group(1), text
        time.sleep(0.1)
    raise AssertionError("no URL in %s" % Path(out_path).read_text(errors="replace"))


def get_json(url):
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read())


def wait_for(fn, timeout=30, what="condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            value = fn()
            if value:
                return value
        except (OSError, urllib.error.URLError, ValueError):
            pass
        time.sleep(0.1)
    raise AssertionError("timed out waiting for %s" % what)


def listening(pid):
    """The TCP sockets process ``pid`` listens on (its event loop's own socket pair is no TCP socket)."""
    inodes = set()
    for fd in Path("/proc/%d/fd" % pid).iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue                  # a file it closed meanwhile (the log, read and closed)
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for row in Path(table).read_text().splitlines()[1:]:
            fields = row.split()
            if fields[3] == "0A" and fields[9] in inodes:
                found.append(fields[1])
    return found


def test_watch_without_web_follows_the_log_in_the_terminal_and_listens_on_nothing(tmp_path):
    log = tmp_path / "game.jsonl"
    raw = GAME.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text("".join(raw[:100]), encoding="utf-8")
    out = tmp_path / "watch.out"
    with open(out, "w") as f:
        proc = subprocess.Popen(SCHOCKEN + ["--lang", "en", "watch", str(log)], stdout=f,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=ROOT)
    try:
        wait_for(lambda: "Round" in out.read_text(), what="the first lines")
        assert not listening(proc.pid), "watch without --web listens"
        assert proc.poll() is None, out.read_text()         # the game is not over: it follows
        with open(log, "a", encoding="utf-8") as f:
            f.write("".join(raw[100:]))
        assert proc.wait(30) == 0, out.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
    text = out.read_text()
    assert "http" not in text and "PIN" not in text
    assert text.rstrip().endswith("Game over: Bot 4 lost."), text[-500:]
    coach = subprocess.run(SCHOCKEN + ["--lang", "en", "watch", str(log), "--coach"], capture_output=True,
                           text=True, cwd=ROOT, timeout=60)
    assert coach.returncode == 2 and coach.stderr.strip().endswith("only together with --web"), coach.stderr


def test_watch_follows_a_log_while_it_grows(tmp_path):
    events = lines(GAME)
    log = tmp_path / "game.jsonl"
    raw = GAME.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text("".join(raw[:100]) + raw[100][:20], encoding="utf-8")   # a torn last line waits
    out = tmp_path / "watch.out"
    with open(out, "w") as f:
        proc = subprocess.Popen(SCHOCKEN + ["watch", str(log), "--web", "127.0.0.1:0"], stdout=f,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=ROOT)
    try:
        url, _ = url_of(out)
        wait_for(lambda: get_json(url + "state.json")["events"] == 100, what="the first 100 events")
        with open(log, "a", encoding="utf-8") as f:
            f.write(raw[100][20:] + "".join(raw[101:]))
        state = wait_for(lambda: (lambda s: s if s["events"] == len(events) else None)(
            get_json(url + "state.json")), what="the whole log")
        assert state["view"]["standings"] == replay(GAME).standings()
    finally:
        proc.terminate()
        proc.wait(10)


def test_play_with_web_takes_the_tables_word_with_the_pin_only(tmp_path, micropython):
    out = tmp_path / "play.out"
    key_file = tmp_path / "key"
    env = dict(__import__("os").environ, SCHOCKEN_LOG_DIR=str(tmp_path), SCHOCKEN_WEB_KEY_FILE=str(key_file))
    with open(out, "w") as f:
        # beton: a dropped die costs a Deckel
        argv = ["--lang", "en", "play", "--plain", "--emulate", "3", "--rules", "beton",
                "--time-scale", "30", "--web", "127.0.0.1:0"]
        proc = subprocess.Popen(SCHOCKEN + argv, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                cwd=ROOT, env=env)
    try:
        url, text = url_of(out)
        pin = wait_for(lambda: re.search(r"PIN for table actions on the page: (\d{6})", out.read_text()),
                       what="the PIN").group(1)

        def post(body):
            req = urllib.request.Request(url + "action", data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=5) as r:
                    return r.status
            except urllib.error.HTTPError as e:
                return e.code
        assert post({"word": "drop 2"}) == 403
        assert post({"pin": "000000" if pin != "000000" else "111111", "word": "drop 2"}) == 403
        # after a wrong PIN this guest waits a second before his next PIN is even looked at
        assert post({"pin": pin, "word": "drop 1"}) == 429
        time.sleep(1.1)
        assert post({"pin": pin, "word": "drop 1"}) == 200
        # the terminal's QR code carries the key: it acts without a PIN, whatever the limiter says
        assert post({"key": "x" + key_file.read_text(), "word": "drop 2"}) == 403
        assert post({"key": key_file.read_text(), "word": "drop 2"}) == 200
        assert proc.wait(180) == 0, out.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
    log = next(tmp_path.glob("*.jsonl"))
    penalties = [e for e in read_log(log) if e["ev"] == "penalty"]
    assert [e["seat"] for e in penalties] == [0, 1], out.read_text()[-2000:]


def test_the_terminals_qr_code_carries_the_key_and_still_fits_80x24():
    view = WebView(("127.0.0.1", 0))
    try:
        view.url = "http://192.168.178.123:65535/"        # the longest address a LAN gives
        assert view.join_url() == view.url + "#k=" + view.key and len(view.key) >= 20   # 120 bits
        lines = view.qr_text().splitlines()
        assert len(lines) <= 17 and max(len(line) for line in lines) <= 37, (len(lines), len(lines[0]))
        assert view.join_info()["qr_url"] == view.url + "qr.svg"      # the page's own code: no key
        watch = WebView(("127.0.0.1", 0), actions=False)
        assert watch.key is None and watch.join_url() == watch.url
        watch.sock.close()
    finally:
        view.sock.close()
