"""The live web page in a real browser: headless Chromium (the system's, Debian's `chromium`; .ci/run installs
it) driven by Playwright, which downloads no browser of its own. A whole bot game with --web ends on the page
with exactly the standings of `schocken replay --json`, on two viewers at once; a page whose server goes away
and comes back (a restart, more of the log meanwhile) carries on without losing or doubling an event; the
page's table-action form refuses a wrong PIN and, with the right one, forfeits an asked seat ("by": "table" in
the log); a hidden tab draws nothing, and the latest model once it is shown; the TV (1920x1080, 8 players, no
scrolling) and the phone (390x844) as screenshots in tests/snapshots/ for a person to look at (rewritten with
SCHOCKEN_SNAPSHOTS=update: git shows when they change)."""

import json
import os
import re
import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from test_web import GAME, coached_events, lines, url_of, wait_for
from kits import tablekit
from kits.tablekit import ROOT, SCHOCKEN, read_log, replay_json
from schocken_host.views.web import check

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install "
                               "playwright)")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no system Chromium (apt-get install chromium)")
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
# the model at the game's end, drawn: the page draws the latest model at the next animation frame
OVER = ("window.schocken && window.schocken.standings() && window.schocken.standings().loser !== null"
        " && document.body.classList.contains('ended')")
# a tab the browser hides: no animation frames until it is shown (showTab) with a visibilitychange
HIDDEN_TAB = """(() => {
  let hidden = true;
  Object.defineProperty(document, "visibilityState", {get: () => hidden ? "hidden" : "visible"});
  Object.defineProperty(document, "hidden", {get: () => hidden});
  const frame = window.requestAnimationFrame.bind(window);
  let held = 0;
  window.requestAnimationFrame = (cb) => hidden ? --held : frame(cb);
  window.showTab = () => { hidden = false; document.dispatchEvent(new Event("visibilitychange")); };
})()"""


def page(browser, url, width=1920, height=1080):
    pg = browser.new_page(viewport={"width": width, "height": height})
    pg.set_default_timeout(60_000)
    pg.goto(url)
    return pg


def snapshot(tmp_path, name):
    """Where a screenshot goes: tests/snapshots/ when it is not there yet or SCHOCKEN_SNAPSHOTS=update (a
    person looks at the change in git), else beside the test (every game differs: it would dirty the tree)."""
    stored = SNAPSHOTS / name
    if not stored.exists() or os.environ.get("SCHOCKEN_SNAPSHOTS") == "update":
        return stored
    return tmp_path / name


def free_port():
    with socket.create_server(("127.0.0.1", 0)) as s:
        return s.getsockname()[1]


def watch(log, out, port=0, more=()):
    with open(out, "w") as f:
        proc = subprocess.Popen(SCHOCKEN + ["watch", str(log), "--web", "127.0.0.1:%d" % port] + list(more),
                                stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=ROOT)
    return proc, url_of(out)[0]


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def deckel_on_page(pg):
    return [int(x) for x in pg.eval_on_selector_all(".card .deckel", "els => els.map(e => e.textContent)")]


def test_a_whole_bot_game_with_web_ends_with_the_standings_of_replay_on_two_viewers(tmp_path, micropython,
                                                                                     browser):
    out = tmp_path / "play.out"
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(tmp_path))
    with open(out, "w") as f:
        # a whole game of the standard rules; three players, since every event costs each open page a
        # render and a check; the coach computes beside the game: it ends all the same
        argv = ["play", "--plain", "--emulate", "3", "--bots", "3", "--time-scale", "50", "--coach",
                "--web", "127.0.0.1:0"]
        proc = subprocess.Popen(SCHOCKEN + argv, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                cwd=ROOT, env=env)
    try:
        url, _ = url_of(out)
        tv = page(browser, url)
        phone = page(browser, url + "?lang=en", 390, 844)
        assert proc.wait(200) == 0, out.read_text()[-2000:]
    finally:
        stop(proc)
    expected = replay_json(next(tmp_path.glob("*.jsonl")), env=env)
    log = lines(next(tmp_path.glob("*.jsonl")))
    for pg in (tv, phone):
        pg.wait_for_function(OVER)
        assert pg.evaluate("window.schocken.standings()") == expected
        assert pg.evaluate("window.schocken.events") == log
        assert deckel_on_page(pg) == [p["deckel"] for p in expected["players"]]
        assert pg.is_visible("#banner")
        if check.missing() is None:  # the browser, a second referee, agrees (else the panel says why)
            pg.wait_for_function("window.schockenCheck && window.schockenCheck.events === %d" % len(log))
            report = pg.evaluate("window.schockenCheck")
            assert report["ok"] and report["fair"], report["first_difference"]
            assert report["throws_checked"] == report["throws_total"] > 0
            assert ("geprüft" if pg is tv else "checked") in pg.inner_text("#check")
        pg.close()


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux for a real terminal")
def test_after_game_over_the_page_stays_up_with_the_scoreboard_and_a_new_page_gets_the_end(tmp_path,
                                                                                          micropython,
                                                                                          browser):
    """The scoreboard (a real terminal under tmux) shows the end until q; the web server lives as long: a
    page open during the game stays connected, a phone that opens the page after the game gets the final
    standings (those of `replay --json`), the game-over banner and the check's "geprüft"; q ends the host and
    its server with it."""
    from test_person import Terminal
    port = free_port()
    url = "http://127.0.0.1:%d/" % port
    logs = tmp_path / "logs"
    term = Terminal(tmp_path)
    try:
        term.start(["play", "--emulate", 3, "--bots", 3, "--strategy", "fast", "--time-scale", 20,
                    "--set", "deckel_total=4", "--web", "127.0.0.1:%d" % port], logs)
        during = page(browser, wait_for(lambda: urllib.request.urlopen(url, timeout=5) and url, 120,
                                        "the page during the game"))
        log = wait_for(lambda: next(logs.glob("*.jsonl"), None), 60, "the game log")
        wait_for(lambda: read_log(log)[-1]["ev"] == "game_over", 240, "the game's end in its log")
        during.wait_for_function(OVER)
        # play() has ended (its last step removes the cups' flash beside a finished log): the server closed
        # there until now
        wait_for(lambda: not log.with_suffix(".cups").exists(), 60, "the end of play()")
        phone = page(browser, url, 390, 844)
        phone.wait_for_function(OVER)
        expected = replay_json(log)
        for pg in (phone, during):
            assert pg.evaluate("window.schocken.standings()") == expected
            assert pg.evaluate("window.schocken.events") == lines(log)
            assert deckel_on_page(pg) == [p["deckel"] for p in expected["players"]]
            assert pg.is_visible("#banner") and not pg.evaluate("document.body.classList.contains('offline')")
        assert [h["seat"] for h in phone.evaluate("window.schocken.view().halves")] == \
            [e["seat"] for e in read_log(log) if e["ev"] == "half_lost"]
        if check.missing() is None:
            phone.wait_for_function("window.schockenCheck && window.schockenCheck.events === %d"
                                    % len(lines(log)))
            assert phone.evaluate("window.schockenCheck.ok")
            assert "geprüft" in phone.inner_text("#check")
        assert phone.is_visible("#actions")   # play takes the table's words (with the PIN)
        term.keys("q")
        assert term.exit_status(60) == 0, term.screen()
        during.wait_for_function("document.body.classList.contains('offline')")
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
        phone.close()
        during.close()
    finally:
        term.close()


def test_a_page_carries_on_through_a_dropped_connection_and_a_server_restart(tmp_path, browser):
    events = lines(GAME)
    raw = GAME.read_text(encoding="utf-8").splitlines(keepends=True)
    log = tmp_path / "game.jsonl"
    log.write_text("".join(raw[:150]), encoding="utf-8")
    port = free_port()
    first, url = watch(log, tmp_path / "1.out", port)
    try:
        pg = page(browser, url)
        other = page(browser, url, 390, 844)
        for p in (pg, other):
            p.wait_for_function("window.schocken.events.length === 150")
        stop(first)
        pg.wait_for_function("document.body.classList.contains('offline')")
        with open(log, "a", encoding="utf-8") as f:
            f.write("".join(raw[150:]))
        time.sleep(1.5)              # the page knocks in vain meanwhile
        second, _ = watch(log, tmp_path / "2.out", port)
    finally:
        stop(first)
    try:
        for p in (pg, other):
            p.wait_for_function("window.schocken.events.length === %d" % len(events))
            p.wait_for_function(OVER)
            assert p.evaluate("window.schocken.events") == events
            assert p.evaluate("window.schocken.standings()") == replay_json(GAME)
            assert not p.evaluate("document.body.classList.contains('offline')")
            p.close()
    finally:
        stop(second)


def test_tv_with_8_players_fits_one_screen_and_the_phone_scrolls(tmp_path, browser):
    """A whole game of eight (tests/data/web_game_8.jsonl: `schocken play --plain --emulate 8 --strategy fast
    --time-scale 50`, fair play) watched on a TV and a phone."""
    log = tmp_path / "game.jsonl"
    shutil.copy(ROOT / "tests" / "data" / "web_game_8.jsonl", log)
    server, url = watch(log, tmp_path / "watch.out")
    try:
        SNAPSHOTS.mkdir(exist_ok=True)
        tv = page(browser, url)
        tv.wait_for_function(OVER)
        assert tv.evaluate("document.documentElement.scrollHeight <= innerHeight"), "the TV page scrolls"
        assert tv.evaluate("document.documentElement.scrollWidth <= innerWidth")
        boxes = [tv.locator(".card").nth(i).bounding_box() for i in range(8)]
        assert all(b["y"] >= 0 and b["y"] + b["height"] <= 1080 and b["x"] + b["width"] <= 1920
                   for b in boxes)
        assert "Spiel aus" in tv.inner_text("header")        # German by default
        phone = page(browser, url + "?lang=en", 390, 844)
        phone.wait_for_function(OVER)
        assert "Game over" in phone.inner_text("header")
        assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
        events = read_log(log)
        last = [e for e in events if e["ev"] == "round"][-1]
        halves = [e for e in events if e["ev"] == "half_lost"]
        for pg, verdict in ((tv, "geprüft"), (phone, "checked")):
            the_end_covers_nothing_and_stays_readable(pg, last, halves)
            assert not pg.is_visible("#actions")   # watch: no table to act on, no PIN form
            if check.missing() is None:  # the page opened on a finished log checks it whole
                pg.wait_for_function("window.schockenCheck && window.schockenCheck.ok")
                assert verdict in pg.inner_text("#check")
                verdict_is_readable_from_across_the_room(pg, 40 if pg is tv else 24)
        tv.screenshot(path=str(snapshot(tmp_path, "web_tv.png")))
        phone.screenshot(path=str(snapshot(tmp_path, "web_phone.png")), full_page=True)
    finally:
        stop(server)


def overlaps(a, b):
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def the_end_covers_nothing_and_stays_readable(pg, last, halves):
    """The game-over banner hides no dice and no history line; every player of the last round shows his dice
    and class on his card; the halves' losers are on the page, one line each."""
    banner = pg.locator("#banner").bounding_box()
    assert banner is not None, "no game-over banner"
    covered = [pg.locator(".card .dice").nth(i).bounding_box() for i in range(pg.locator(".card").count())]
    covered += [pg.locator("#history").bounding_box(), pg.locator("#last").bounding_box()]
    assert not [box for box in covered if box and box["height"] and overlaps(banner, box)]
    for seat in last["order"]:
        card = pg.locator('.card[data-seat="%d"]' % seat)
        assert card.locator(".faces .die").count() == 3, seat
        assert card.locator(".label").inner_text().strip(), seat
        inside(card.locator(".label"), card.locator(".dice"))     # the class is not cut off
        for i in range(3):
            inside(card.locator(".faces .die").nth(i), card.locator(".dice"))
    items = pg.locator("#halves-list li")
    assert [int(items.nth(i).get_attribute("data-seat")) for i in range(items.count())] == \
        [h["seat"] for h in halves]
    assert all(items.nth(i).is_visible() for i in range(items.count()))


def inside(element, box):
    """``element``'s text or picture lies within ``box`` (an element whose overflow is hidden)."""
    width = element.evaluate("e => e.scrollWidth")
    a, b = element.bounding_box(), box.bounding_box()
    assert width <= a["width"] + 1, (element, width, a)
    assert b["x"] - 1 <= a["x"] and a["x"] + a["width"] <= b["x"] + b["width"] + 1, (a, b)
    assert b["y"] - 1 <= a["y"] and a["y"] + a["height"] <= b["y"] + b["height"] + 1, (a, b)


def verdict_is_readable_from_across_the_room(pg, least_px):
    """The check's "geprüft": text of at least ``least_px`` pixels and a contrast of at least 7:1 (WCAG AAA)
    against its own background."""
    style = pg.evaluate("""() => {
        const s = getComputedStyle(document.querySelector('#check .check-status strong'));
        return {size: parseFloat(s.fontSize), color: s.color, background: s.backgroundColor};
    }""")
    assert style["size"] >= least_px, style

    def luminance(css):
        channels = [int(x) / 255 for x in re.findall(r"\d+", css)[:3]]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    light, dark = sorted((luminance(style["color"]), luminance(style["background"])), reverse=True)
    assert (light + 0.05) / (dark + 0.05) >= 7, style


def test_a_hidden_tab_draws_the_latest_model_and_check_when_it_is_shown(tmp_path, browser):
    """The page and the check's panel draw the latest at the next animation frame: a hidden tab, which has
    none, draws nothing meanwhile while its model follows every event, and shows the end (then the
    verdict) as soon as it is shown."""
    events = lines(GAME)
    server, url = watch(GAME, tmp_path / "watch.out")
    try:
        pg = browser.new_page(viewport={"width": 1920, "height": 1080})
        pg.set_default_timeout(60_000)
        pg.add_init_script(HIDDEN_TAB)
        pg.goto(url)
        pg.wait_for_function("window.schocken.view() && window.schocken.view().id === %d" % len(events),
                             polling=100)
        assert pg.evaluate("window.schocken.events") == events
        assert pg.evaluate("[document.querySelectorAll('.card').length, window.schocken.shown.length,"
                           " window.schockenCheck === undefined]") == [0, 0, True]
        pg.evaluate("window.showTab()")
        assert pg.evaluate("window.schocken.shown.length") == len(events)    # drawn at once, no frame
        assert pg.evaluate("document.body.classList.contains('ended')") and pg.is_visible("#banner")
        assert deckel_on_page(pg) == [p["deckel"] for p in replay_json(GAME)["players"]]
        if check.missing() is None:
            pg.wait_for_function("window.schockenCheck && window.schockenCheck.events === %d" % len(events))
            assert pg.evaluate("window.schockenCheck.ok") and "geprüft" in pg.inner_text("#check")
        pg.close()
    finally:
        stop(server)


def test_a_rounds_reveal_stays_on_the_cards_until_the_next_rounds_first_throw(tmp_path, browser):
    """After a round is ranked its reveals stay on every card of it, also once the next round's first
    player is on turn (the host's state has forgotten them then), and go with that round's first throw."""
    raw = GAME.read_text(encoding="utf-8").splitlines(keepends=True)
    events = [json.loads(line) for line in raw]
    ranked = next(i for i, e in enumerate(events) if e["ev"] == "round" and e["round"] >= 3)
    throw = next(i for i in range(ranked, len(events))
                 if events[i]["ev"] == "progress" and events[i]["throws"])
    assert any(e["ev"] == "turn" for e in events[ranked:throw])
    log = tmp_path / "game.jsonl"
    log.write_text("".join(raw[:throw]), encoding="utf-8")
    server, url = watch(log, tmp_path / "watch.out")
    try:
        pg = page(browser, url)
        pg.wait_for_function("window.schocken.shown.length === %d" % throw)   # drawn
        assert pg.evaluate("window.schocken.view().on_turn") is not None      # the next round's turn
        for r in pg.evaluate("window.schocken.view().last_round.reveals"):
            card = pg.locator('.card[data-seat="%d"]' % r["seat"])
            assert [int(d.get_attribute("data-v")) for d in card.locator(".faces .die").all()] == r["dice"]
            assert card.locator(".label").inner_text() == r["label"]
        worst = events[ranked]["worst"]
        assert "worst" in pg.locator('.card[data-seat="%d"] .label' % worst).get_attribute("class")
        with open(log, "a", encoding="utf-8") as f:
            f.write(raw[throw])
        pg.wait_for_function("window.schocken.events.length === %d" % (throw + 1))
        pg.wait_for_function("document.querySelectorAll('.card .faces').length === 0")
        pg.close()
    finally:
        stop(server)


def send_action(pg, pin):
    """The table-action form sent with ``pin``; the page's answer, once it shows."""
    pg.evaluate("() => { const o = document.querySelector('#action-result'); o.textContent = ''; "
                "o.className = ''; }")
    pg.fill("#action-pin", pin)
    pg.click("#action-send")
    pg.wait_for_function("document.querySelector('#action-result').textContent !== ''")
    return pg.inner_text("#action-result")


def test_the_pages_table_action_refuses_a_wrong_pin_and_logs_the_right_pins_forfeit(tmp_path, micropython,
                                                                                     browser):
    # Seat 3 is a person's cup that nobody shakes: after --turn-timeout the table is asked about it (an
    # "absent" event), and has as long again to answer before the wait ends on its own ("by": "timeout").
    out = tmp_path / "play.out"
    key_file = tmp_path / "key"
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(tmp_path), SCHOCKEN_WEB_KEY_FILE=str(key_file))
    with open(out, "w") as f:
        argv = ["play", "--plain", "--emulate", "3", "--bots", "2", "--strategy", "fast",
                "--turn-timeout", "10", "--web", "127.0.0.1:0"]
        proc = subprocess.Popen(SCHOCKEN + argv, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.PIPE,
                                cwd=ROOT, env=env)   # standard input stays open: its end would stop the game
    try:
        url, _ = url_of(out)
        pin = wait_for(lambda: re.search(r"PIN für Tisch-Aktionen auf der Seite: (\d{6})", out.read_text()),
                       what="the PIN").group(1)
        pg = page(browser, url)
        pg.set_default_timeout(30_000)
        # The person's seat (2): on a loaded machine a bot may be slow past the timeout and asked about too
        asked = pg.wait_for_function("window.schocken.events.find((e) => e.ev === 'absent' && e.seat === 2)",
                                     timeout=90_000).json_value()
        log = next(tmp_path.glob("*.jsonl"))
        pg.click("#actions summary")
        pg.select_option("#action-word", "forfeit")
        pg.fill("#action-seat", str(asked["seat"] + 1))
        wrong = "000000" if pin != "000000" else "111111"
        assert "falsche oder fehlende PIN" in send_action(pg, wrong)
        # After the k-th wrong PIN this guest waits 2^(k-1) s: a wrong PIN sent at once meets the wait. A
        # loaded machine may take longer than the wait between two sends; the wait doubles until it does not.
        answers = [send_action(pg, wrong)]
        while "zu viele" not in answers[-1] and len(answers) < 3:
            assert "falsche oder fehlende PIN" in answers[-1], answers
            answers.append(send_action(pg, wrong))
        assert "zu viele" in answers[-1], answers
        assert not [e for e in read_log(log) if e["ev"] in ("forfeit", "wait")], "a wrong PIN was obeyed"
        for _ in range(60):              # the right PIN is taken once the wait is over
            answer = send_action(pg, pin)
            if pg.get_attribute("#action-result", "class") == "ok":
                break
            assert "zu viele" in answer, answer
            pg.wait_for_timeout(500)
        assert "forfeit %d" % (asked["seat"] + 1) in answer, answer
        shown = pg.wait_for_function("window.schocken.events.find((e) => e.ev === 'forfeit' && e.seat === 2)"
                                     ).json_value()
        logged = [e for e in read_log(log) if e["ev"] == "forfeit" and e["seat"] == 2]
        assert logged[0] == shown and shown["by"] == "table", logged
        pg.close()
        # the terminal's QR code carries the key: that page asks for no PIN; the key leaves the address bar
        keyed = page(browser, url + "#k=" + key_file.read_text())
        keyed.wait_for_selector("#pin-label", state="hidden")
        keyed.click("#actions summary")
        assert keyed.evaluate("location.hash") == "" and "QR" in keyed.inner_text("#key-note")
        keyed.select_option("#action-word", "wait")
        keyed.fill("#action-seat", "1")
        keyed.click("#action-send")
        keyed.wait_for_selector("#action-result.ok")
        keyed.close()
    finally:
        stop(proc)
        proc.stdin.close()


def test_a_page_carries_on_through_a_killed_host_resumed_on_the_same_port(tmp_path, micropython, browser):
    """The host dies mid game (SIGKILL, its cups with it) and `play --resume --web` comes back on the same
    port: the open page reconnects, gets what it missed and ends with the standings of `replay --json`."""
    port = free_port()
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(tmp_path))
    argv = ["play", "--plain", "--emulate", "3", "--bots", "3", "--strategy", "fast", "--time-scale", "20",
            "--seed", "5", "--set", "deckel_total=4", "--web", "127.0.0.1:%d" % port]

    def start(attempt):
        with open(tmp_path / ("first%d.out" % attempt), "w") as f:
            proc = subprocess.Popen(SCHOCKEN + argv, stdout=f, stderr=subprocess.STDOUT, cwd=ROOT, env=env,
                                    stdin=subprocess.DEVNULL)
        url, _ = url_of(tmp_path / ("first%d.out" % attempt))
        start.page = page(browser, url)
        return proc, tmp_path

    def two_rounds(evs):
        return sum(e["ev"] == "round" for e in evs) >= 2 and not evs[-1]["ev"] == "game_over"
    log, before = tablekit.killed_game(start, two_rounds)
    pg = start.page
    pg.wait_for_function("document.body.classList.contains('offline')")
    with open(tmp_path / "second.out", "w") as f:
        resumed = subprocess.Popen(SCHOCKEN + argv[:2] + ["--resume", str(log)] + argv[2:], stdout=f,
                                   stderr=subprocess.STDOUT, cwd=ROOT, env=env, stdin=subprocess.DEVNULL)
    try:
        assert resumed.wait(200) == 0, (tmp_path / "second.out").read_text()[-2000:]
    finally:
        stop(resumed)
    pg.wait_for_function(OVER)
    assert pg.evaluate("window.schocken.events") == lines(log)
    assert pg.evaluate("window.schocken.standings()") == replay_json(log, env=env)
    pg.close()


def test_the_page_shows_the_coach_under_the_player_on_turn_only_with_coach(tmp_path, browser):
    log = tmp_path / "game.jsonl"
    log.write_text("".join(json.dumps(ev) + "\n" for ev in coached_events()), encoding="utf-8")
    for coach in (True, False):
        server, url = watch(log, tmp_path / ("watch%d.out" % coach), more=["--coach"] if coach else [])
        try:
            # the words in both languages; without --coach one page shows there is none (in any language)
            for lang, words in (("de", r"Tipp für Cem: \d+ % Chance, jeden Wurf vor dir zu schlagen · "
                                       r"erwartet \d,\d Deckel"),
                                ("en", r"Coach for Cem: \d+ % chance to beat every throw before yours · "
                                       r"expected \d\.\d Deckel"))[:2 if coach else 1]:
                pg = page(browser, url + ("?lang=en" if lang == "en" else ""))
                pg.wait_for_function("window.schocken.view() && window.schocken.view().on_turn === 2")
                if coach:
                    pg.wait_for_function("document.querySelector('.card.on-turn .coach') && !window.schocken"
                                         ".view().coach.pending")
                    assert re.fullmatch(words, pg.inner_text(".card.on-turn .coach")), \
                        pg.inner_text(".card.on-turn .coach")
                    assert pg.locator(".coach").count() == 1
                else:
                    assert "coach" not in pg.evaluate("window.schocken.view()")
                    assert pg.locator(".coach").count() == 0
                pg.close()
        finally:
            stop(server)
