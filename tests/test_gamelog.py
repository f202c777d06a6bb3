"""The game log is the record: a torn tail is repaired before anything is appended, a log that does not replay
is refused in one line, a decided game whose host died before game_over is finished, `--resume` takes the
newest unfinished game, and one host at a time writes a log. Through the real CLI (`schocken play --resume`,
`replay`, `stats`) on logs of real games of emulated cups."""

import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import micropython_path
from schocken_host.table import gamelog
from kits import tablekit

ARGV = ["--emulate", 3, "--seed", 3, "--set", "deckel_total=2", "--strategy", "fast"] + tablekit.SCALED
TORN = b'{"ev":"turn","round":7,"se'


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """A finished game, and the same game killed in the middle of a round (both seeded alike)."""
    if micropython_path() is None:
        pytest.skip("needs the micropython unix port")
    lab = tablekit.Lab(tmp_path_factory.mktemp("gamelog"))
    whole, whole_dir = lab.cli("whole", ARGV)

    def mid_round(evs):
        rounds = [i for i, e in enumerate(evs) if e["ev"] == "round"]
        return len(rounds) >= 1 and any(e["ev"] == "done" for e in evs[rounds[-1] + 1:])
    killed_log, _ = tablekit.killed_game(lambda n: lab.cli("killed%d" % n, ARGV), mid_round)
    # Fair play, killed when every cup of a round has stood, the cups that stood first frozen: the last one's
    # reveal may be in the log, theirs are not.
    fair_log, fair_at = tablekit.killed_game(lambda n: lab.cli("fair%d" % n, FAIR_ARGV), tablekit.all_stood,
                                             freeze=tablekit.freeze_the_stood)
    assert tablekit.wait_proc(whole) == 0
    yield {"whole": tablekit.the_log(whole_dir), "killed": killed_log, "lab": lab,
           "fair": (fair_log, fair_at)}
    lab.close()


FAIR_ARGV = ["--emulate", 3, "--set", "deckel_total=2", "--strategy", "fast"] + tablekit.SCALED


def play(*argv, log_dir):
    env = dict(tablekit.os.environ, SCHOCKEN_LOG_DIR=str(log_dir))
    return tablekit.schocken("--lang", "en", "play", "--plain", *argv, env=env, timeout=tablekit.GAME_TIMEOUT)


def one_line_error(proc):
    assert proc.returncode == 2, proc.stderr
    return tablekit.one_line(proc)


def test_a_torn_last_line_is_kept_out_of_the_record(logs, tmp_path):
    log = tmp_path / "game.jsonl"
    shutil.copy(logs["killed"], log)
    before = log.read_bytes()
    with open(log, "ab") as f:
        f.write(TORN)  # the host died while writing this line
    proc = play("--resume", log, *ARGV, log_dir=tmp_path)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    assert "torn" in proc.stdout
    data = log.read_bytes()
    assert data.startswith(before)                             # the record before the crash, untouched
    assert data[len(before):].startswith(b'{"ev":"resumed"')   # and nothing of the torn line after it
    assert (tmp_path / "game.jsonl.torn").read_bytes() == TORN + b"\n"
    evs = tablekit.read_log(log)
    assert evs[-1]["ev"] == "game_over"
    assert tablekit.replay_json(log)["phase"] == "over"
    stats = tablekit.schocken("stats", "--log-dir", tmp_path, "--json")
    assert stats.returncode == 0 and json.loads(stats.stdout)["games"] == 1, stats.stderr
    again = play("--resume", log, *ARGV, log_dir=tmp_path)
    assert "over already" in one_line_error(again)


def test_a_whole_last_line_without_its_newline_is_kept(logs, tmp_path):
    log = tmp_path / "game.jsonl"
    data = Path(logs["killed"]).read_bytes()
    assert data.endswith(b"\n")
    log.write_bytes(data[:-1])
    last = json.loads(data.splitlines()[-1])
    glog = gamelog.GameLog(log)
    try:
        assert glog.repaired and "newline" in str(glog.repaired)
        glog.append({"ev": "resumed"})
    finally:
        glog.close()
    evs = tablekit.read_log(log)
    assert evs[-2] == last and evs[-1] == {"ev": "resumed"}


def test_a_corrupt_line_in_the_middle_is_refused_in_one_line(logs, tmp_path):
    log = tmp_path / "game.jsonl"
    lines = Path(logs["killed"]).read_text().splitlines()
    lines[5] = lines[5][:20]
    log.write_text("\n".join(lines) + "\n")
    before = log.read_bytes()
    proc = play("--resume", log, *ARGV, log_dir=tmp_path)
    for said in (proc, tablekit.schocken("--lang", "en", "replay", log)):   # a line is named one way
        assert "%s line 6: not JSON" % log in one_line_error(said)
    assert log.read_bytes() == before                              # nothing written, nothing lost


def test_a_tail_torn_inside_a_character_is_a_torn_line_not_a_broken_log(logs, tmp_path):
    """Power cut in the middle of a name's "ü" (two bytes in UTF-8): the fragment is a torn line like any
    other; replay reads the game without it and a resume moves it out of the record. A line before the last
    that is not UTF-8 is refused naming its line."""
    log = tmp_path / "game.jsonl"
    data = Path(logs["killed"]).read_bytes()
    torn = '{"ev":"fault","round":7,"seat":0,"reason":"Jü'.encode()[:-1]
    log.write_bytes(data + torn)
    assert tablekit.schocken("replay", log).returncode == 0
    assert gamelog.read(log) == gamelog.read(logs["killed"])
    glog = gamelog.GameLog(log)
    glog.close()
    assert log.read_bytes() == data and (tmp_path / "game.jsonl.torn").read_bytes() == torn + b"\n"

    lines = data.split(b"\n")
    lines[5] = lines[5][:30] + b"\xff" + lines[5][30:]
    log.write_bytes(b"\n".join(lines))
    assert "line 6: not UTF-8 (byte " in one_line_error(tablekit.schocken("--lang", "en", "replay", log))


# One field of one event made wrong as a broken or forged log could have it (docs/gamelog.md lists the kinds).
WRONG_FIELDS = [("turn", "round", "x"), ("progress", "seat", -1), ("progress", "seat", True),
                ("progress", "seat", 9), ("progress", "public", [5]), ("progress", "throws", 1.5),
                ("done", "commit", None), ("reveal", "dice", [7, 1, 1]), ("turn", "order", [0, 7]),
                ("start", "players", [{"seat": 1, "name": "A"}]), ("round", "best", "0"),
                ("turn", "ts", "now"), ("turn", "ts", float("nan")), ("done", "ts", float("inf"))]


@pytest.mark.parametrize("kind,field,value", WRONG_FIELDS)
def test_an_event_with_a_wrong_field_is_refused_naming_line_and_field(logs, tmp_path, kind, field, value):
    """A wrong type or a seat that is not at the table is refused where the log is read, before it reaches
    the referee or a view (a round id "x" crashed a resumed host in a comparison); the file stays as it
    was."""
    log = tmp_path / "game.jsonl"
    lines = Path(logs["killed"]).read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if json.loads(line)["ev"] == kind)
    ev = json.loads(lines[n])
    ev[field] = value
    lines[n] = json.dumps(ev)
    log.write_text("\n".join(lines) + "\n" + TORN.decode())     # a torn tail too: it must stay as well
    before = log.read_bytes()
    err = one_line_error(tablekit.schocken("--lang", "en", "replay", log))
    assert "line %d: %s event: %s " % (n + 1, kind, field) in err, err
    assert "line %d" % (n + 1) in one_line_error(play("--resume", log, *ARGV, log_dir=tmp_path))
    assert log.read_bytes() == before and not (tmp_path / "game.jsonl.torn").exists()


def test_a_second_start_in_a_log_is_refused(logs, tmp_path):
    """One game per log: a start event after the first (two logs run together) would replace the game."""
    log = tmp_path / "game.jsonl"
    lines = Path(logs["killed"]).read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:12] + lines[:1] + lines[12:]))
    assert "line 13: a second start event" in one_line_error(tablekit.schocken("--lang", "en", "replay", log))


def test_a_string_utf8_cannot_hold_is_written_as_its_json_escape(tmp_path):
    """A lone surrogate in an event (from a name that was not UTF-8, a cup's \\u escape) must neither stop
    the game nor tear the log: it is written as the escape it came as and reads back the same."""
    log = gamelog.GameLog(tmp_path / "game.jsonl")
    try:
        log.append({"ev": "fault", "round": 1, "seat": 0, "reason": "a\ud800b \u00fc"})
    finally:
        log.close()
    assert (tmp_path / "game.jsonl").read_bytes() == \
        b'{"ev":"fault","round":1,"seat":0,"reason":"a\\ud800b \xc3\xbc"}\n'
    assert gamelog.read(tmp_path / "game.jsonl")[0][1]["reason"] == "a\ud800b \u00fc"


def test_the_documented_events_are_the_checked_ones():
    """docs/gamelog.md's table of events, schocken_host/table/events.py's EVENTS and the state's handlers
    (state.HANDLERS, registered by the event's name) name the same events, and the table names every field the
    check knows."""
    from schocken_host.table.events import EVENTS
    from schocken_host.table.state import HANDLERS
    doc = (Path(__file__).resolve().parents[1] / "docs" / "gamelog.md").read_text()
    rows = dict(re.findall(r"^\| `(\w+)` \| (.*?) \|", doc, re.M))
    del rows["ev"]  # the table's header
    assert set(rows) == set(EVENTS) == set(HANDLERS)
    for kind, spec in EVENTS.items():
        for word in spec.split():
            assert "`%s`" % word.split(":")[0] in rows[kind], (kind, word)
    flat = " ".join(doc.split())
    optional = flat.split("These may be missing or `null`: ")[1].split(". Every other")[0]
    said = {kind: set(re.findall(r"`(\w+)`", fields))
            for kind, fields in re.findall(r"(\w+): ([^;]+)", optional)}
    assert said == {kind: {w.split(":")[0] for w in spec.split() if w.endswith("?")}
                    for kind, spec in EVENTS.items() if "?" in spec}


def test_a_decided_game_without_game_over_is_finished(logs, tmp_path):
    log = tmp_path / "game.jsonl"
    lines = Path(logs["whole"]).read_text().splitlines(keepends=True)
    assert json.loads(lines[-1])["ev"] == "game_over"
    log.write_text("".join(lines[:-1]))                            # died between the last round and game_over
    proc = play("--resume", log, log_dir=tmp_path)
    assert proc.returncode == 0, proc.stderr
    evs = tablekit.read_log(log)
    assert evs[-1]["ev"] == "game_over" and evs[-1]["loser"] == json.loads(lines[-1])["loser"]
    assert tablekit.replay_json(log)["phase"] == "over"


def test_resume_takes_the_newest_unfinished_game(logs, tmp_path):
    unfinished = tmp_path / "20250101-100000-1.jsonl"
    lines = Path(logs["whole"]).read_text().splitlines(keepends=True)
    unfinished.write_text("".join(lines[:-1]))
    finished = tmp_path / "20250101-110000-2.jsonl"
    shutil.copy(logs["whole"], finished)                           # newer, but over
    stray = tmp_path / "20250101-120000-3.jsonl"
    stray.write_bytes(b"\x00\xffnot a log")                       # newer still, but no game at all
    (tmp_path / "20250101-130000-4.jsonl").write_text('{"ev":"turn","round":1}\n')  # no start: no game
    tablekit.os.utime(unfinished, (1, 1))
    proc = play("--resume", log_dir=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert tablekit.read_log(unfinished)[-1]["ev"] == "game_over"
    assert finished.read_bytes() == Path(logs["whole"]).read_bytes()


def test_an_empty_newest_log_gets_a_clear_message(logs, tmp_path):
    shutil.copy(logs["whole"], tmp_path / "20250101-100000-1.jsonl")
    (tmp_path / "20250101-120000-3.jsonl").write_text("")
    err = one_line_error(play("--resume", log_dir=tmp_path))
    assert "empty" in err and "two cups" not in err, err


def test_one_host_at_a_time_writes_a_log(logs, tmp_path):
    log = tmp_path / "game.jsonl"
    shutil.copy(logs["killed"], log)
    before = log.read_bytes()
    held = gamelog.GameLog(log)  # another host has this game open
    try:
        err = one_line_error(play("--resume", log, *ARGV, log_dir=tmp_path))
        assert "another" in err, err
    finally:
        held.close()
    assert log.read_bytes() == before


def test_append_writes_whole_lines_or_nothing(tmp_path):
    log = gamelog.GameLog(tmp_path / "g.jsonl")
    try:
        log.append({"ev": "start", "name": "Jürgen"})
        with pytest.raises(ValueError):
            log.append({"ev": "x", "bad": float("nan")})           # replay could not read NaN back as JSON
    finally:
        log.close()
    assert tablekit.read_log(tmp_path / "g.jsonl") == [{"ev": "start", "name": "Jürgen"}]


def test_a_resumed_host_gives_nobody_a_second_throw(logs, tmp_path):
    """The host died with every cup of the round stood (uncovered, or about to): the resumed host takes the
    throws the cups hold, reveals included; no seat gets a fresh turn, and every throw checks against its
    logged nonce."""
    from schocken import fair
    log, at_kill = logs["fair"]
    proc = play("--resume", log, *FAIR_ARGV, log_dir=Path(log).parent)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    evs = tablekit.read_log(log)
    stood = {(e["round"], e["seat"]) for e in at_kill if e["ev"] == "done"}
    rnd = max(r for r, _ in stood)
    fresh = [e for e in evs[len(at_kill):]
             if e["ev"] == "turn" and (e["round"], e["seat"]) in stood and not e.get("continued")]
    assert fresh == [], fresh
    reveals = [e for e in evs if e["ev"] == "reveal" and e["round"] == rnd]
    assert sorted(e["seat"] for e in reveals) == [0, 1, 2]
    for r in reveals:
        seed, = [e["hash"] for e in evs if e["ev"] == "seed" and (e["round"], e["seat"]) == (rnd, r["seat"])]
        nonces = {e["throw"]: e["nonce"] for e in evs
                  if e["ev"] == "nonce" and (e["round"], e["seat"]) == (rnd, r["seat"])}
        fair.check_dice(r["seed"], seed, nonces, rnd, r["transcript"])


def test_a_burst_of_events_shares_one_fsync_the_loop_goes_on_meanwhile_and_every_send_waits_for_it(
        tmp_path, monkeypatch):
    """Inside the event loop a line is written at once (a killed host keeps it) and the fsync starts at the
    end of the loop's turn, one for the whole burst, on the log's own thread: the loop (the views, the cups'
    lines) goes on while the disk works. ``on_disk`` (which the referee awaits before every message to a cup)
    returns only once everything appended is on disk. Outside a loop every append syncs."""
    import asyncio
    import threading
    path = tmp_path / "g.jsonl"
    synced, disk_busy, disk_free = [], threading.Event(), threading.Event()

    def slow_fsync(fd):                              # a disk that takes its time, until the test lets it go
        disk_busy.set()
        disk_free.wait(10)
        synced.append(path.stat().st_size)
    monkeypatch.setattr(gamelog.os, "fsync", slow_fsync)
    log = gamelog.GameLog(path)

    async def burst():
        loop = asyncio.get_running_loop()
        for seat in range(16):
            log.append({"ev": "reveal", "seat": seat})
        assert synced == []                          # written, not yet synced: the loop's turn goes on
        assert len(tablekit.read_log(path)) == 16
        await asyncio.sleep(0)
        assert await loop.run_in_executor(None, disk_busy.wait, 10)
        log.append({"ev": "round"})                  # the loop is not held by the disk: events go on
        ticks = 0
        for _ in range(5):
            await asyncio.sleep(0)
            ticks += 1
        assert ticks == 5 and synced == []
        sending = asyncio.ensure_future(log.on_disk())
        await asyncio.sleep(0.05)
        assert not sending.done()                    # the message to a cup waits for the disk
        disk_free.set()
        await asyncio.wait_for(sending, 10)
        # Every line is on disk: the round written while the first fsync ran had one of its own.
        assert synced[-1] == path.stat().st_size and len(synced) >= 2
        n = len(synced)
        await log.on_disk()                          # nothing new: no further fsync
        await asyncio.sleep(0)
        assert len(synced) == n
    try:
        asyncio.run(burst())
        log.append({"ev": "game_over"})
        assert synced[-1] == path.stat().st_size      # outside a loop: synced at once
    finally:
        disk_free.set()
        log.close()


def test_a_failed_fsync_stops_the_game_and_keeps_only_what_was_on_disk(tmp_path, monkeypatch):
    import asyncio
    import errno
    log = gamelog.GameLog(tmp_path / "g.jsonl")
    log.append({"ev": "start"})                      # on disk

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    async def burst():
        monkeypatch.setattr(gamelog.os, "fsync", full)
        log.append({"ev": "turn"})
        with pytest.raises(gamelog.LogFileError):
            await log.on_disk()                      # before the turn goes to the cup: the disk refused it
        with pytest.raises(gamelog.LogFileError):
            log.append({"ev": "done"})
        with pytest.raises(gamelog.LogFileError):
            log.sync()
    try:
        asyncio.run(burst())
    finally:
        log.close()
    assert tablekit.read_log(tmp_path / "g.jsonl") == [{"ev": "start"}]


def test_a_late_fsync_that_fails_is_kept_for_the_next_append(tmp_path, monkeypatch):
    """The fsync that runs on its own (no message to a cup waiting) fails: the log is cut back to what was on
    disk, and the referee's next append raises it."""
    import asyncio
    import errno
    log = gamelog.GameLog(tmp_path / "g.jsonl")
    log.append({"ev": "start"})

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    async def burst():
        monkeypatch.setattr(gamelog.os, "fsync", full)
        log.append({"ev": "turn"})
        for _ in range(200):                         # the fsync on the log's thread, then its outcome
            await asyncio.sleep(0.01)
            if log.failed is not None:
                break
        with pytest.raises(gamelog.LogFileError):
            log.append({"ev": "done"})
    try:
        asyncio.run(burst())
    finally:
        log.close()
    assert tablekit.read_log(tmp_path / "g.jsonl") == [{"ev": "start"}]
