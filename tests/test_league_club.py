"""The club's side of the league (docs/league.md, "Evenings, seasons, stakes") on a real SQLite file: games
grouped into evenings by day and table (an evening runs past midnight; its table is the one its logs name,
whatever folders they lie in), a game moved to another evening and kept so by a rebuild, seasons by their
days and the standings of one, no stake unless one is chosen, the stakes of the seeds and the ledger settled
per evening, the standings sorted by a column; bad input one line, exit 2, nothing changed."""

import json
import time
from pathlib import Path

import pytest

import test_league
from test_league import RECORDED, dump, refused, standings

liga = test_league.liga   # the fixture: `schocken liga ARGV` in this process, the data folder in tmp_path

# 2026-12-04 in UTC, the tests' time zone: an evening at the club, one at the pub.
EVENING = 1796414400          # 2026-12-04 20:00
NIGHT = EVENING + 5.5 * 3600  # 2026-12-05 01:30: still the evening of the 4th
NEXT = EVENING + 23 * 3600    # 2026-12-05 19:00: the evening of the 5th


@pytest.fixture(autouse=True)
def utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def game(source, folder, game_id, ts, names=None, table=None):
    """A copy of a recorded game as another game: its own id and start time (and seat names, and the table
    its start event names, as `schocken play --table FILE` writes it)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = Path(source).read_text(encoding="utf-8").splitlines(keepends=True)
    start = json.loads(lines[0])
    start["game_id"], start["ts"] = game_id, ts
    if table is not None:
        start["table"] = table
    for player, name in zip(start["players"], names or ()):
        player["name"] = name
    lines[0] = json.dumps(start, separators=(",", ":"), ensure_ascii=False) + "\n"
    target = folder / ("%s.jsonl" % game_id)
    target.write_text("".join(lines), encoding="utf-8")
    return target


FOUR, EIGHT = RECORDED   # a game of 4 seats and one of 8 (tests/data)


def loser(log):
    from schocken_host.commands.replay import replay
    result = replay(log).standings()
    return result["players"][result["loser"]]["name"]


@pytest.fixture
def club(tmp_path):
    """Three games at the club's table (two on the evening of the 4th, one after midnight; one on the 5th),
    their logs written to two folders (the game after midnight on another laptop), and one at the pub on the
    4th: (folder of the logs, {game id: log})."""
    logs = tmp_path / "logs"
    made = {"aaaa00000001": game(FOUR, logs / "games", "aaaa00000001", EVENING, table="Clubhaus"),
            "aaaa00000002": game(EIGHT, logs / "laptop", "aaaa00000002", NIGHT, table="Clubhaus"),
            "aaaa00000003": game(FOUR, logs / "games", "aaaa00000003", NEXT, table="Clubhaus"),
            "bbbb00000001": game(FOUR, logs / "laptop", "bbbb00000001", EVENING + 600, table="Kneipe")}
    return logs, made


def test_games_make_evenings_by_day_and_table_past_midnight_whatever_their_folders(liga, club):
    logs, _ = club
    assert liga("import", logs / "games")[0] == 0
    assert liga("import", logs / "laptop")[0] == 0
    status, out, _ = liga("evening")
    assert status == 0 and out.splitlines() == [
        "2026-12-04 · Clubhaus: 2 games", "2026-12-04 · Kneipe: 1 game", "2026-12-05 · Clubhaus: 1 game"]
    assert liga("evening", "--table", "Kneipe")[1] == "2026-12-04 · Kneipe: 1 game\n"
    status, out, _ = liga("abend", "2026-12-04", "--table", "Clubhaus")
    assert [line.split()[:4] for line in out.splitlines()] == [
        ["aaaa00000001", "2026-12-04", "20:00", "Clubhaus"],
        ["aaaa00000002", "2026-12-05", "01:30", "Clubhaus"]]
    # The same logs in other folders are the same evenings.
    before = liga("evening")[1]
    for log in logs.rglob("*.jsonl"):
        log.rename(logs / log.name)
    assert liga("rebuild", logs)[0] == 0 and liga("evening")[1] == before


def test_an_evening_at_a_table_without_a_name_is_named_by_its_people(liga, tmp_path):
    """Logs without a table (played without a table file, or before logs named their table): all games of
    the day at one table, named by the people who played there."""
    logs = tmp_path / "old"
    game(FOUR, logs / "a", "cccc00000001", EVENING, names=["Anna", "Bert", "Cleo", "Dora"])
    game(FOUR, logs / "b", "cccc00000002", NIGHT, names=["Anna", "Bert", "Cleo", "Emil"])
    game(FOUR, logs / "b", "cccc00000003", NEXT, names=["Anna", "Bert"])
    assert liga("import", logs)[0] == 0
    assert liga("evening")[1].splitlines() == ["2026-12-04 · Anna, Bert, Cleo +2: 2 games",
                                               "2026-12-05 · Anna, Bert, Bot 3 +1: 1 game"]
    status, out, _ = liga("abend", "2026-12-04")
    assert [line.split()[:3] for line in out.splitlines()] == [
        ["cccc00000001", "2026-12-04", "20:00"], ["cccc00000002", "2026-12-05", "01:30"]]
    assert out.splitlines()[0].split()[3] == "lost:"


def test_a_game_moved_to_another_evening_stays_there_through_a_rebuild(liga, club, tmp_path):
    logs, made = club
    liga("import", logs)
    status, out, _ = liga("evening", "2026-12-05", "--move", "aaaa00000002")
    assert (status, out) == (0, "game aaaa00000002 now belongs to the evening 2026-12-05 · Clubhaus\n")
    assert liga("evening")[1].splitlines()[::2] == ["2026-12-04 · Clubhaus: 1 game",
                                                    "2026-12-05 · Clubhaus: 2 games"]
    path = tmp_path / "data" / "league.sqlite3"
    before = dump(path)
    refused(liga, ["evening", "2026-12-05", "--move", "aaaa"], "several games begin so")
    refused(liga, ["evening", "2026-12-05", "--move", "cccc"], "cccc: no game of the league has that id")
    refused(liga, ["evening", "--move", "aaaa00000001"], "needs the evening's day")
    refused(liga, ["evening", "2026-13-01", "--move", "aaaa00000001"], "2026-13-01: no day (YYYY-MM-DD")
    assert dump(path) == before
    assert liga("rebuild", logs)[0] == 0
    assert liga("evening")[1].splitlines()[::2] == ["2026-12-04 · Clubhaus: 1 game",
                                                    "2026-12-05 · Clubhaus: 2 games"]


def test_the_standings_of_a_season(liga, club):
    logs, made = club
    liga("import", logs)
    assert liga("season", "Dezember", "2026-12-05", "2026-12-31") == (
        0, "season Dezember: 2026-12-05 to 2026-12-31\n", "")
    assert liga("saison")[1] == "season Dezember: 2026-12-05 to 2026-12-31, 1 game\n"
    status, out, _ = liga("--season", "Dezember", "--json")
    table = json.loads(out)
    assert status == 0 and table["games"] == 1    # the game after midnight is the 4th's evening: not in it
    assert {row["player"] for row in table["players"]} == {"Bot 1", "Bot 2", "Bot 3", "Bot 4"}
    assert all(row["games"] == 1 for row in table["players"])
    assert standings(liga)["games"] == 4
    _, out, _ = liga("--season", "Dezember")
    assert out.splitlines()[1] == "season Dezember: 2026-12-05 to 2026-12-31, 1 game"
    refused(liga, ["--season", "Sommer"], "Sommer: no season of that name (there are: Dezember)")
    refused(liga, ["season", "Winter", "2026-12-31", "2026-12-01"], "the season ends (2026-12-01) before")
    refused(liga, ["season", "Winter", "2026-12-01"], "a season needs its name, first and last day")
    refused(liga, ["season", "Winter", "1.12.2026", "2026-12-31"], "1.12.2026: no day")


def test_no_stake_is_charged_unless_the_table_chose_one(liga, club):
    """A league whose scorekeeper set no stake: the ledger shows each evening's games and who lost them, no
    money; the standings have no columns of money (their JSON has them, zero)."""
    logs, made = club
    liga("import", logs)
    four, eight = loser(FOUR), loser(EIGHT)
    assert liga("stake")[1] == "the league's stake: no stake\n"
    status, out, _ = liga("ledger")
    assert status == 0 and "€" not in out
    assert out.splitlines() == [
        "2026-12-04 · Clubhaus: 2 games, no stake",
        *sorted(["  %-20s lost 1" % four, "  %-20s lost 1" % eight]),
        "2026-12-04 · Kneipe: 1 game, no stake", "  %-20s lost 1" % four,
        "2026-12-05 · Clubhaus: 1 game, no stake", "  %-20s lost 1" % four,
        "no stake set: `schocken liga stake RULE` sets one (players, game:AMOUNT, drinks)"]
    ledger = json.loads(liga("ledger", "--json")[1])
    assert [(e["evening"], e["rule"], [(o["player"], o["lost"], o["euros"]) for o in e["owes"]])
            for e in ledger][1:] == [("2026-12-04 · Kneipe", "none", [(four, 1, 0.0)]),
                                     ("2026-12-05 · Clubhaus", "none", [(four, 1, 0.0)])]
    _, out, _ = liga()
    assert "stakes" not in out and "owed" not in out and "€" not in out
    assert all(row["stakes"] == 0 and row["owed"] == 0 for row in standings(liga)["players"])


def test_the_stakes_of_the_club_rules_and_the_ledger_settled_per_evening(liga, club):
    """The club's rulebook (seed 000, the rule set verein): "Einsatz festlegen: Bis 5 Personen: 5 € Einsatz
    pro Runde. Ab 6 Personen: 10 € Einsatz pro Runde. Bei Spielen in Gaststätten wird um eine Getränkerunde
    gespielt (Ausnahme sind offizielle Vereinsabende)"; the "Runde" is the game, whose loser "verliert das
    Spiel und zahlt den Einsatz". Seed 002: "Traditionell zahlt der Gesamtverlierer die nächste Runde" (a
    round of drinks)."""
    logs, made = club
    liga("import", logs)
    four, eight = loser(FOUR), loser(EIGHT)
    assert four != eight
    by_players = "€5 a game up to 5 players, €10 from 6, as in the club's rulebook (rule set verein)"
    assert liga("stake", "players")[1] == "the league's stake: %s\n" % by_players
    assert liga("stake")[1] == "the league's stake: %s\n" % by_players
    _, out, _ = liga("ledger", "--json")
    evenings = {(e["day"], e["table"]): e for e in json.loads(out)}
    club4 = evenings[("2026-12-04", "Clubhaus")]
    assert club4["games"] == 2 and not club4["settled"]
    assert club4["owes"] == sorted([{"player": four, "lost": 1, "euros": 5.0, "drinks": 0},   # 4 at the table
                                    {"player": eight, "lost": 1, "euros": 10.0, "drinks": 0}],  # 8 there
                                   key=lambda o: o["player"])
    # The pub plays for a round of drinks: one for each of the 4 at the table.
    assert liga("einsatz", "getraenke", "--evening", "2026-12-04", "--table", "Kneipe")[0] == 0
    _, out, _ = liga("ledger", "--json")
    pub = [e for e in json.loads(out) if e["table"] == "Kneipe"][0]
    assert pub["rule"] == "drinks" and pub["owes"] == [{"player": four, "lost": 1, "euros": 0.0, "drinks": 4}]
    rows = {r["player"]: r for r in standings(liga)["players"]}
    assert (rows[four]["stakes"], rows[four]["owed"], rows[four]["drinks"]) == (10.0, 10.0, 4)  # two evenings
    assert rows[eight]["stakes"] == 10.0
    # The club's evening of the 4th is settled: still in the stakes, no longer owed.
    assert liga("kasse", "--settle", "2026-12-04", "--table", "Clubhaus")[0] == 0
    rows = {r["player"]: r for r in standings(liga)["players"]}
    assert (rows[four]["stakes"], rows[four]["owed"]) == (10.0, 5.0) and rows[eight]["owed"] == 0.0
    _, out, _ = liga("ledger")
    lines = out.splitlines()
    assert "2026-12-04 · Clubhaus: 2 games, %s, settled" % by_players in lines
    assert "  %-20s %-12s %12s" % (eight, "lost 1", "€10.00") in lines
    assert lines[lines.index("still open:") + 1].split() == four.split() + ["€5.00", "+", "4", "drinks"]
    assert "stakes" in liga()[1]
    # A fixed stake for the league: every evening without its own rule.
    assert liga("stake", "game:2.50")[1] == "the league's stake: €2.50 a game\n"
    rows = {r["player"]: r for r in standings(liga)["players"]}
    assert rows[eight]["stakes"] == 2.5 and rows[four]["stakes"] == 5.0   # 2.50 at the club twice, drinks
    assert liga("ledger", "--reopen", "2026-12-04", "--table", "Clubhaus")[0] == 0
    assert {r["player"]: r for r in standings(liga)["players"]}[eight]["owed"] == 2.5
    # The stake rules and the settling are the scorekeeper's word: a rebuild from the logs keeps them.
    liga("kasse", "--settle", "2026-12-05")
    before = liga("ledger", "--json")[1]
    assert liga("rebuild", logs)[0] == 0
    assert liga("ledger", "--json")[1] == before and liga("stake")[1].startswith("the league's stake: €2.50")


def test_the_standings_sorted_by_a_column(liga, club):
    logs, _ = club
    liga("import", logs)
    for column in ("deckel", "schock_aus", "stakes"):
        values = [row[column] for row in json.loads(liga("--sort", column, "--json")[1])["players"]]
        assert values == sorted(values, reverse=True)
    german = json.loads(liga("--sort", "Einsatz", "--json")[1])["players"]
    assert german == json.loads(liga("--sort", "stakes", "--json")[1])["players"]
    names = [row["player"] for row in json.loads(liga("--sort", "spieler", "--json")[1])["players"]]
    assert names == sorted(names)


def test_bad_stakes_and_columns_are_one_line_and_change_nothing(liga, club, tmp_path):
    logs, _ = club
    liga("import", logs)
    path = tmp_path / "data" / "league.sqlite3"
    before = dump(path)
    refused(liga, ["stake", "a beer"], "a beer: no stake rule (players, game:AMOUNT, drinks, none)")
    refused(liga, ["stake", "game:-1"], "no stake rule")
    refused(liga, ["stake", "drinks", "--evening", "2026-11-01"], "2026-11-01: no evening of the league")
    refused(liga, ["ledger", "--settle", "2027-01-01"], "2027-01-01: no evening of the league")
    refused(liga, ["ledger", "--settle", "morgen"], "morgen: no day")
    refused(liga, ["--sort", "luck"], "--sort luck: no such column (there are: player, games")
    refused(liga, ["ledger", "--season", "Sommer"], "Sommer: no season of that name")
    refused(liga, ["stake", "drinks", "--table", "Kneipe"], "--table needs --evening DAY")
    assert dump(path) == before


def _tallies(path):
    """The tallies the standings read (db.py's migration 5) and what the seats add up to, per evening, table
    size and person."""
    import sqlite3
    conn = sqlite3.connect(path)
    try:
        kept = conn.execute("SELECT * FROM tallies ORDER BY day, place, players, player").fetchall()
        added = conn.execute(
            "SELECT s.day, g.place, g.players, s.player, count(*), sum(s.lost), sum(s.halves_lost), "
            "sum(s.final_lost), sum(s.rounds), sum(s.deckel), sum(s.schock_aus) "
            "FROM seats s JOIN games g ON g.game_id = s.game_id "
            "GROUP BY s.day, g.place, g.players, s.player ORDER BY 1, 2, 3, 4").fetchall()
        return kept, added
    finally:
        conn.close()


def test_the_tallies_are_what_the_seats_add_up_to_whatever_was_done_to_them(liga, club, tmp_path):
    """Imported, a game moved to another evening and to another table, two names merged into one person, a
    game taken out: the tallies follow every change, and a rebuild makes the same."""
    logs, made = club
    game(FOUR, logs / "games", "cccc00000001", EVENING + 1200, names=["Anna", "Bert", "Carl", "Dora"],
         table="Kneipe")
    path = tmp_path / "data" / "league.sqlite3"
    liga("import", logs / "games")
    kept, added = _tallies(path)
    assert kept == added and len(kept) == 12   # the 4 people of 3 games on 3 evenings
    liga("import", logs / "laptop")
    assert liga("evening", "2026-12-05", "--move", "aaaa00000002")[0] == 0
    assert liga("evening", "2026-12-04", "--table", "Kneipe", "--move", "aaaa00000001")[0] == 0
    assert liga("merge", "Anna", "Bot 1")[0] == 0
    kept, added = _tallies(path)
    assert kept == added
    bot_1 = [(day, place, players, games) for day, place, players, player, games, *_ in kept if player == 1]
    assert bot_1 == [("2026-12-04", "Kneipe", 4, 3),   # his game there, the one moved there, and Anna's
                     ("2026-12-05", "Clubhaus", 4, 1), ("2026-12-05", "Clubhaus", 8, 1)]
    assert standings(liga)["players"] and liga("rebuild", logs)[0] == 0
    assert _tallies(path)[0] == kept
    import sqlite3
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("DELETE FROM games WHERE game_id = 'aaaa00000002'")
    conn.commit()
    conn.close()
    kept, added = _tallies(path)
    assert kept == added
