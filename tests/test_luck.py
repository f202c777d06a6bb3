"""Luck and decisions against the exact odds (`schocken liga luck`, docs/odds.md "Luck and decisions"), on
hand-built logs whose numbers are counted by hand, through the real CLI; the rarity of luck (the saddlepoint
approximation) against the exact enumeration; bots that play the best play lose nothing by their decisions.

Both games are of one round: 2 players, one Deckel in the middle and one half (`deckel_total=1`,
`one_half=true`), so every round's loser takes exactly one Deckel and loses the game: the Deckel a player
expects are his chance of losing the round."""

import argparse
import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

from schocken_host import cli
from schocken_host.input_checks import OneLineParser
from schocken_host.league.luck.tails import tail

ROOT = Path(__file__).resolve().parents[1]


def event(ev, **fields):
    return dict({"ev": ev, "ts": 1800000000.0}, **fields)


def one_round_game(game_id, names, max_throws, turns, worst, worth):
    """A finished game's events: seat 0 opens (no throw-off); ``turns`` per seat: (progress events' (throws,
    public), transcript, final dice, throws, hand, label, kind); ``worst`` takes the one Deckel (the best
    throw is ``worth`` more: the middle holds only one)."""
    rules = {"preset": "standard", "options": {"deckel_total": 1, "one_half": True, "max_throws": max_throws}}
    events = [event("start", version=1, game_id=game_id, rules=rules, reveal="all", cheat="replay",
                    fair=False, players=[{"seat": s, "name": n, "cup": "emu%d" % (s + 1), "kind": "cup"}
                             for s, n in enumerate(names)]),
              event("opener", seat=0)]
    limit = None
    for seat, (progress, _, _, throws, _, _, _) in enumerate(turns):
        events.append(event("turn", round=1, seat=seat, limit=limit, kind="round", order=[0, 1]))
        events += [event("progress", round=1, seat=seat, throws=t, public=public) for t, public in progress]
        events.append(event("done", round=1, seat=seat, throws=throws, commit="ab" * 32))
        limit = throws if limit is None else limit
    for seat, (_, transcript, dice, throws, hand, label, kind) in enumerate(turns):
        events.append(event("reveal", round=1, seat=seat, dice=dice, throws=throws, hand=hand,
                            nonce="00" * 16, transcript=transcript, seed=None, label=label, kind=kind))
    best = 1 - worst
    entries = [[turn[2], turn[3], turn[4]] for turn in turns]
    events += [event("round", round=1, order=[0, 1], entries=entries, ranking=[best, worst], best=best,
                     worst=worst, deckel=worth, moves=[["middle", 1]]),
               event("half_lost", phase="half1", seat=worst),
               event("game_over", loser=worst, blattschuss=False)]
    return "".join(json.dumps(e, separators=(",", ":"), ensure_ascii=False) + "\n" for e in events)


# Game A, one throw each: Anna (opener) 2-2-1, the lowest throw; Bert 6-5-4, the highest Straße.
GAME_A = one_round_game("00000000000a", ["Anna", "Bert"], 1, [
    ([(1, [])], [["roll", [2, 2, 1]], ["stand"]], [2, 2, 1], 1, True, "221", "zahl"),
    ([(1, [])], [["roll", [6, 5, 4]], ["stand"]], [6, 5, 4], 1, True, "Straße", "strasse"),
], worst=0, worth=2)

# Game B, two throws (docs/odds.md's worked example, tests/data/luck/worked_example.jsonl): Carla (opener)
# keeps her two ones of 1-1-3 and throws a 4 (Schock 4 built in 2 throws);
# Dora throws 1-1-6 (a Schock 6 from the hand), keeps the ones instead of standing and throws a 6 again.
GAME_B = one_round_game("00000000000b", ["Carla", "Dora"], 2, [
    ([(1, []), (1, [[0, 1]]), (1, [[0, 1], [1, 1]]), (2, [[0, 1], [1, 1]])],
     [["roll", [1, 1, 3]], ["aside", 0], ["aside", 1], ["roll", [4]], ["stand"]], [1, 1, 4], 2, False,
     "Schock 4", "schock"),
    ([(1, []), (1, [[0, 1]]), (1, [[0, 1], [1, 1]]), (2, [[0, 1], [1, 1]])],
     [["roll", [1, 1, 6]], ["aside", 0], ["aside", 1], ["roll", [6]], ["stand"]], [1, 1, 6], 2, False,
     "Schock 6", "schock"),
], worst=0, worth=6)


@pytest.fixture
def liga(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SCHOCKEN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("SCHOCKEN_DEBUG", raising=False)
    monkeypatch.setattr(argparse, "_", argparse._)
    monkeypatch.setattr(OneLineParser, "lang", OneLineParser.lang)

    def run(*argv, lang="en"):
        capsys.readouterr()
        try:
            status = cli.main(["--lang", lang, "liga"] + [str(a) for a in argv])
        except SystemExit as e:
            status = e.code
        out, err = capsys.readouterr()
        return status, out, err
    return run


@pytest.fixture
def league(liga, tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.jsonl").write_text(GAME_A)
    (logs / "b.jsonl").write_text(GAME_B)
    assert liga("import", logs)[1].startswith("2 recorded, 0 already there")
    status, out, err = liga("luck", "--json")
    assert status == 0, err
    return {p["player"]: p for p in json.loads(out)["players"]}, logs


def close(x, y):
    return abs(x - float(y)) < 1e-4


def test_one_throw_each_luck_by_hand(league):
    """With one throw each a player's expected Deckel before it is his chance of losing to a uniform throw.
    All 56 throws rank apart (6 triples of 1/216, 30 pairs of 3/216, 20 of three values of 6/216), ties go
    to the opener: the opener loses with (1 - P(tie)) / 2, P(tie) = (6 + 30*9 + 20*36) / 216^2 = 996/46656.
    Anna's 2-2-1 loses to all but itself: 213/216; Bert's 6-5-4 loses to the 27 throws at or above it
    (Schock-Aus 1, Schocks 15, Generals 5, itself 6)."""
    players, _ = league
    opener = (1 - Fraction(996, 46656)) / 2
    assert opener == Fraction(3805, 7776)
    anna, bert = players["Anna"], players["Bert"]
    assert close(anna["luck"], opener - Fraction(213, 216))             # -3863/7776
    assert close(bert["luck"], (1 - opener) - Fraction(27, 216))        # +2999/7776
    assert anna["throws"] == bert["throws"] == 1
    assert anna["decisions"] == bert["decisions"] == 0
    # Anna's throw is the worst there is: as unlucky as the 3 outcomes of 216 that give it, 1 in 72.
    assert not anna["lucky"] and anna["one_in"] == 72
    assert bert["lucky"]
    # The classes: how many of each against the chances, and how rare that count is (1 or more Straße
    # in one throw: 1/9; no Schock-Aus: 215/216).
    assert anna["classes"]["zahl"] == {"thrown": 1, "expected": round(171 / 216, 4), "more": True,
                                       "share": round(171 / 216, 6), "one_in": 1}
    assert bert["classes"]["strasse"] == {"thrown": 1, "expected": round(24 / 216, 4), "more": True,
                                          "share": round(1 / 9, 6), "one_in": 9}
    assert bert["classes"]["schock_aus"] == {"thrown": 0, "expected": round(1 / 216, 4), "more": False,
                                             "share": round(215 / 216, 6), "one_in": 1}


def test_a_decision_against_the_best_play_by_hand(league):
    """Dora must beat Carla's 1-1-d built in two throws, d uniform (Carla used her throws: nobody saw it).
    Standing on her 1-1-6 from the hand loses only to d = 1 (the Schock-Aus): 1/6. Keeping the ones and
    throwing e loses to d = 1, and to e <= d unless e = 1 (as many throws: the earlier seat wins):
    1/6 + (1+2+3+4+5)/36 = 7/12. So the throw again cost 7/12 - 1/6 = 5/12 Deckel; its 6 then lost to d in
    {1, 6}: 1/3, the dice saved 7/12 - 1/3 = 1/4 on it."""
    players, _ = league
    dora = players["Dora"]
    assert dora["decisions"] == 1 and dora["mistakes"] == 1
    assert close(dora["decision_cost"], Fraction(5, 12))
    # Her luck: the first throw's (V at the start - 1/6, the best after it) and the second's 1/4.
    from schocken.rules import from_dict
    from schocken_host.odds.best import Context, SeatView, seen
    rules = from_dict({"preset": "standard",
                       "options": {"deckel_total": 1, "one_half": True, "max_throws": 2}})
    carla = seen(rules, SeatView([1, 1], 2, False, [1, 1]), 2)
    start = Context(rules, [carla], 0, 2, False, 1, exact=True).expected()
    assert close(dora["luck"], start - Fraction(1, 6) + Fraction(1, 4))
    # Two throws' outcomes are listed: the share is exact (every pair of outcomes at least as lucky, 1/108).
    assert dora["share_exact"] and dora["one_in"] == 108 and abs(dora["share"] - 1 / 108) < 1e-6
    # The classes after each throw: 1-1-6 (a Schock) and 1-1-6 again, the second with two ones out: 5/6.
    assert dora["classes"]["schock"]["thrown"] == 2
    assert close(dora["classes"]["schock"]["expected"], Fraction(15, 216) + Fraction(5, 6))
    # Two Schocks: both throws had to give one, 15/216 * 5/6 = 75/1296, 1 in 17.
    schocks = dora["classes"]["schock"]
    assert abs(schocks["share"] - 75 / 1296) < 1e-6 and schocks["one_in"] == 17 and schocks["more"]
    assert close(dora["classes"]["schock_aus"]["expected"], Fraction(1, 216) + Fraction(1, 6))


def test_the_worked_example_is_this_log():
    """docs/odds.md shows tests/data/luck/worked_example.jsonl: game B as this test builds it."""
    assert (ROOT / "tests" / "data" / "luck" / "worked_example.jsonl").read_text(encoding="utf-8") == GAME_B


def test_the_words_in_german_and_english(liga, league):
    status, out, _ = liga("glueck", lang="de")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("Glück und Entscheidungen aus 2 Spielen")
    anna = next(line for line in lines if line.startswith("Anna "))
    assert "-0,50" in anna and "Pech wie 1 von 72" in anna
    dora = next(line for line in lines if line.startswith("Dora "))
    assert dora.split()[-3:] == ["1", "1", "0,42"]
    status, out, _ = liga("luck")
    assert "as unlucky as 1 in 72" in out


def test_a_game_whose_log_is_gone_is_named_not_counted(liga, league):
    _, logs = league
    (logs / "b.jsonl").unlink()
    status, out, _ = liga("luck")
    assert status == 0
    assert "games whose log is gone (moved or deleted), not counted: 1, e.g. " in out and "b.jsonl" in out
    assert "Anna" in out and "Carla" not in out


def test_the_saddlepoint_against_the_exact_enumeration():
    """Three throws of three dice from the hand, lucks as the Deckel of a one-Deckel round against the
    throws' ranks: every one of the 56^3 sums enumerated, the tail compared at several points."""
    from schocken.rules import from_dict
    from schocken_host.odds.best import Context
    from schocken_host.league.luck.game import luck_outcomes
    rules = from_dict({"preset": "standard", "options": {"deckel_total": 1, "max_throws": 1}})
    outcomes = luck_outcomes(Context(rules, later=3, limit=1), (), 1)
    spreads = {outcomes: 3}
    sums = {}
    for combo in itertools.product(outcomes, repeat=3):
        s = round(sum(x for x, _ in combo), 9)
        p = combo[0][1] * combo[1][1] * combo[2][1]
        sums[s] = sums.get(s, 0.0) + p
    for point in (-1.5, -0.8, 0.3, 0.9, 1.6):
        exact = (sum(p for s, p in sums.items() if s >= point) if point >= 0
                 else sum(p for s, p in sums.items() if s <= point))
        assert abs(tail(spreads, point) - exact) <= 0.15 * exact + 0.002, (point, exact, tail(spreads, point))


# Whole games of `optimal` bots: they play the best play in the context the table shows them. optimal_4:
# `schocken play --plain --emulate 4 --strategy optimal --time-scale 50 --seed 11
# --names Anna,Bert,Carla,Dora`;
# optimal_3_*: `... --emulate 3 ... --seed 5 --rules R --set deckel_total=7` (Straße and General only from the
# hand, only ones aside and Jule; the other six back into the cup; Schock-Aus from the middle, ace hundred).
OPTIMAL = sorted((ROOT / "tests" / "data" / "luck").glob("optimal_*.jsonl"))


@pytest.mark.parametrize("game", OPTIMAL, ids=lambda p: p.stem)
def test_the_best_play_costs_nothing_and_every_turn_adds_up(liga, tmp_path, monkeypatch, game):
    """The bots' decisions cost 0 Deckel; every turn's start, luck and loss add up to the Deckel expected
    on its final throw; the classes' expected counts add up to the throws."""
    from schocken_host.league.luck import game as luck
    from schocken_host.odds.model import merge
    checked = []
    plain = luck.turn_tally

    def checking(context, throws, tally):
        start, got, loss = plain(context, throws, tally)
        last = throws[-1]
        final = context.cost(merge(last.out, last.fell), last.t, not last.out)
        assert abs(start - got + loss - final) < 1e-9
        checked.append(loss)
        return start, got, loss
    monkeypatch.setattr(luck, "turn_tally", checking)
    assert liga("import", game)[0] == 0
    status, out, _ = liga("luck", "--json")
    found = json.loads(out)
    assert status == 0 and found["games"] == 1 and len(checked) >= 15
    for p in found["players"]:
        assert p["decisions"] > 0 and p["mistakes"] == 0 and p["decision_cost"] == 0, p
        assert abs(sum(c["expected"] for c in p["classes"].values()) - p["throws"]) < 1e-3
        assert sum(c["thrown"] for c in p["classes"].values()) == p["throws"]


def test_the_picture_for_the_notice_board(liga, league, tmp_path, monkeypatch):
    """`schocken liga --plot FILE`: an SVG (or PNG) with the standings, the Deckel over the games or
    evenings and the luck with its rarity; another suffix, or no matplotlib, is one line and no file."""
    svg = tmp_path / "liga.svg"
    status, out, err = liga("--plot", svg)
    assert (status, err) == (0, "") and out == "Picture written: %s\n" % svg
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<?xml") and "<svg" in text
    for words in ("Standings: games lost per game", "Luck against the odds", "as unlucky as 1 in 72",
                  "Anna", "Dora"):
        assert words in text, words
    png = tmp_path / "liga.png"
    assert liga("--plot", png, lang="de")[0] == 0 and png.read_bytes().startswith(b"\x89PNG")
    status, out, err = liga("--plot", tmp_path / "liga.pdf")
    assert (status, out) == (2, "") and err.count("\n") == 1 and "--plot writes .svg or .png" in err
    monkeypatch.setitem(__import__("sys").modules, "matplotlib", None)   # as if it were not installed
    status, out, err = liga("--plot", tmp_path / "none.svg")
    assert (status, out) == (2, "") and "pip install 'schocken-cup[plot]'" in err and err.count("\n") == 1
    assert not (tmp_path / "none.svg").exists()


@pytest.mark.parametrize("other", [["--json"], ["--csv"], ["luck"], ["kasse"]])
def test_the_picture_alone(liga, league, tmp_path, other):
    """--plot with the table as text or with a job: one line, no picture and no job done (neither is
    dropped without a word)."""
    status, out, err = liga("--plot", tmp_path / "liga.svg", *other)
    assert (status, out) == (2, "") and err.count("\n") == 1, err
    assert "--plot draws the standings: without %s" % other[0] in err
    assert not (tmp_path / "liga.svg").exists()


def test_a_season_counts_its_evenings_only(liga, league, tmp_path):
    """Game A played again a month later (its own game id): the season of January counts the first only;
    --plot draws that season; a season nobody made is one line."""
    _, logs = league
    events = [json.loads(line) for line in GAME_A.splitlines()]
    events[0]["game_id"], events[0]["ts"] = "00000000000c", events[0]["ts"] + 30 * 86400
    (logs / "c.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    assert liga("import", logs)[0] == 0
    assert liga("season", "Januar", "2027-01-01", "2027-01-31")[0] == 0

    def anna(*argv):
        status, out, err = liga("luck", "--json", *argv)
        assert status == 0, err
        return next(p for p in json.loads(out)["players"] if p["player"] == "Anna")
    assert anna()["throws"] == 2
    january = anna("--season", "Januar")
    assert january["throws"] == 1 and close(january["luck"], Fraction(3805, 7776) - Fraction(213, 216))
    status, out, err = liga("--season", "Januar", "--plot", tmp_path / "januar.svg")
    assert status == 0 and (tmp_path / "januar.svg").exists(), err
    status, out, err = liga("luck", "--season", "Sommer")
    assert (status, out) == (2, "") and "Sommer: no season of that name (there are: Januar)" in err


def test_rarity_in_words():
    from schocken_host.league.luck.table import rarity
    assert rarity("de", True, 20) == "Glück wie 1 von 20"
    assert rarity("en", False, 72) == "as unlucky as 1 in 72"
    assert rarity("en", True, 2) == rarity("en", False, 1) == "as most players"
    assert rarity("en", False, None) == "unlucky as hardly anyone (rarer than 1 in a billion)"


def test_what_was_read_is_kept_beside_the_league_until_a_log_changes(liga, league, tmp_path, monkeypatch):
    """league-luck.sqlite3 keeps each game's tallies: a second `liga luck` (another process: nothing kept in
    memory) reads no log, and says the same; a log that changed is read again; a damaged cache is made
    anew and changes nothing."""
    from schocken_host.league.luck import table as luck_table
    _, logs = league
    read = []
    plain = luck_table.game_luck

    def counting(data):
        read.append(len(data))
        return plain(data)
    monkeypatch.setattr(luck_table, "game_luck", counting)

    def luck_json():
        luck_table._READ.clear()       # as a new process
        status, out, err = liga("luck", "--json")
        assert status == 0, err
        return json.loads(out)
    first = luck_json()                # the league fixture's run filled the cache already
    assert read == [] and (tmp_path / "data" / "league-luck.sqlite3").exists()
    with (logs / "a.jsonl").open("a") as f:
        f.write("\n")                  # the same game, but the log is not as it was
    assert luck_json() == first and len(read) == 1
    (tmp_path / "data" / "league-luck.sqlite3").write_bytes(b"no database" * 100)
    for suffix in ("-wal", "-shm"):
        (tmp_path / "data" / ("league-luck.sqlite3" + suffix)).unlink(missing_ok=True)
    assert luck_json() == first and len(read) == 3
    assert luck_json() == first and len(read) == 3


def test_docs_show_what_the_worked_example_prints(liga, tmp_path):
    """docs/odds.md's worked example is the real output of `schocken --lang en liga luck` on its log."""
    text = (ROOT / "docs" / "odds.md").read_text(encoding="utf-8")
    shown = text.split("$ schocken --lang en liga luck\n", 1)[1].split("```", 1)[0]
    assert liga("import", ROOT / "tests" / "data" / "luck" / "worked_example.jsonl")[0] == 0
    status, out, _ = liga("luck")
    assert status == 0
    assert out.replace(str(tmp_path / "data"), "...") == shown


def test_luck_names_the_opponent_model_it_judged_against(liga):
    """`liga glueck` says against which model each decision was judged: its last line, and --json."""
    assert liga("import", ROOT / "tests" / "data" / "luck" / "worked_example.jsonl")[0] == 0
    status, out, _ = liga("luck", "--json")
    model = json.loads(out)["opponent_model"]
    assert status == 0 and model["kind"] == "habits" and model["prior_decisions"] == 1.0
    status, out, _ = liga("luck")
    assert out.splitlines()[-1].startswith("Opponent model: each decision is judged against the habits")
