"""One replay of a game log (table/replay.py) behind every reader: `schocken replay`, `stats`, the web page's
hub (and `watch`) and the browser's check take a torn last line and a refused line the same way. The same
logs, made wrong in one place each, go through all of them; a reader that kept a replay of its own would
differ here."""

import json
from pathlib import Path

import pytest

from schocken_host.commands import stats as stats_cmd
from schocken_host.commands.replay import replay as replay_log
from schocken_host.errors import CommandError
from schocken_host.table.replay import Replay, log_lines, replay
from schocken_host.table.game_check import check_lines
from schocken_host.views.web.hub import Hub

GAME = Path(__file__).resolve().parent / "data" / "web_game.jsonl"
LINES = GAME.read_bytes().rstrip(b"\n").split(b"\n")
ROUND = next(n for n, line in enumerate(LINES) if b'"ev":"round"' in line and b'"moves":[["middle"' in line)


def _with_table(table):
    """The start event naming its table (`schocken play --table FILE`), an optional field of the log."""
    ev = json.loads(LINES[0])
    ev["table"] = table
    return json.dumps(ev, separators=(",", ":"), ensure_ascii=False).encode()


def _tampered_round():
    ev = json.loads(LINES[ROUND])
    ev["moves"][0][1] += 1
    return json.dumps(ev, separators=(",", ":")).encode()


# name -> (the log's bytes, events applied, the line refused or None, the torn line or None)
CASES = {
    "whole": (b"\n".join(LINES) + b"\n", len(LINES), None, None),
    "a named table": (b"\n".join([_with_table("Stammtisch")] + LINES[1:]) + b"\n", len(LINES), None, None),
    "a table that is no name": (b"\n".join([_with_table(5)] + LINES[1:]) + b"\n", 0, 1, None),
    "torn tail": (b"\n".join(LINES[:200]) + b"\n" + LINES[200][:37], 200, None, 201),
    "refused event": (b"\n".join(LINES[:ROUND] + [_tampered_round()] + LINES[ROUND + 1:]) + b"\n", ROUND,
                      ROUND + 1, None),
    "not JSON": (b"\n".join(LINES[:30] + [b"{not json"] + LINES[31:]) + b"\n", 30, 31, None),
    "not an event": (b"\n".join(LINES[:30] + [b"[1, 2]"] + LINES[31:]) + b"\n", 30, 31, None),
    "not UTF-8": (b"\n".join(LINES[:30] + [LINES[30][:20] + b"\xff" + LINES[30][20:]] + LINES[31:]) + b"\n",
                  30, 31, None),
}


@pytest.fixture(params=sorted(CASES))
def case(request, tmp_path):
    data, applied, refused, torn = CASES[request.param]
    path = tmp_path / "game.jsonl"
    path.write_bytes(data)
    return path, data, applied, refused, torn


def test_the_replay_keeps_what_came_before_the_first_refusal_and_drops_a_torn_tail(case):
    _, data, applied, refused, torn = case
    for log in (data, data.decode("utf-8", "replace") if b"\xff" not in data else data):
        done = replay(log)
        assert done.state.events == applied
        assert (done.refused and done.refused[0]) == refused and done.torn == torn
    live = Replay()  # a live game's events, one at a time: the same state as the log's lines
    for line, _, _ in log_lines(data):
        try:
            ev = json.loads(line)
        except ValueError:
            break
        if not isinstance(ev, dict) or not live.event(ev):
            break
    assert live.state.standings() == replay(data).state.standings()


def test_schocken_replay_names_the_refused_line_and_says_a_torn_tail(case):
    path, _, applied, refused, torn = case
    if refused is not None:
        with pytest.raises(CommandError) as e:
            replay_log(path)
        assert e.value.message.fields["line"] == refused
    else:
        state = replay_log(path)
        assert state.events == applied and state.torn == torn


def test_stats_counts_a_game_only_when_it_replays_to_its_end(case):
    """A game counts when the rules decided it, as in the league: a log cut short (torn) or refused at a
    line counts nothing, and is counted apart."""
    path, data, applied, refused, _ = case
    games, players, left_out = stats_cmd.stats([path])
    over = refused is None and replay(data).state.over
    assert games == over and set(players) == ({"Bot 1", "Bot 2", "Bot 3", "Bot 4"} if over else set())
    assert left_out == {"unfinished": int(refused is None and not over), "refused": int(refused is not None)}


def test_the_web_page_names_the_refused_line_and_waits_for_a_torn_tail(case):
    path, data, applied, refused, torn = case
    hub = Hub()
    offset = hub.read_lines(path, 0)
    assert hub.state.events == applied and (hub.error and hub.error[0]) == refused
    assert offset == (len(data) if torn is None else data.rfind(b"\n") + 1)   # a torn line may still end


def test_the_browsers_check_names_the_refused_line_and_drops_a_torn_tail(case):
    _, data, applied, refused, _ = case
    if b"\xff" in data:
        return  # the browser reads the log as text: a byte that is not UTF-8 never reaches the check
    report = check_lines(data.decode("utf-8"))
    assert report["ok"] == (refused is None)
    assert (report["first_difference"] and report["first_difference"]["line"]) == refused
    if refused is None:
        assert report["events"] == applied


def test_the_browsers_check_takes_them_the_same_way_under_micropython(micropython, tmp_path):
    """table/replay.py as the browser runs it (the unix port, the files of /py/): CPython's reports."""
    from kits import checkserver
    for name in ("torn tail", "not JSON", "not an event", "a named table", "a table that is no name"):
        log = tmp_path / (name.replace(" ", "-") + ".jsonl")
        log.write_bytes(CASES[name][0])
        folder = tmp_path / name.replace(" ", "-")
        folder.mkdir()
        assert checkserver.micropython_report(micropython, folder, log) == check_lines(log.read_text()), name
