"""The director's rounds without the network (tournament/director.py, store.py): a round is drawn only once
its games have counted, later rounds keep players apart who met, the knock-out final takes the best of the
standings and ends with one player left; the format file of docs/turnier.md and its refusals; players and
teams from a file. The games here are results written into the store: the real games, their check and the
network are tests/test_turnier.py."""

import re
from pathlib import Path

import pytest

from schocken_host.commands.turnier import players_of
from schocken_host.errors import CommandError
from schocken_host.tournament import standings as stand
from schocken_host.tournament.director import Director, recount
from schocken_host.tournament.draw import pairs_met, repeats
from schocken_host.tournament.formats import PRESETS, parse_format, read_format
from schocken_host.tournament.store import Store

DOC = Path(__file__).resolve().parents[1] / "docs" / "turnier.md"


def doc_format():
    return re.search(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S).group(1)


def test_the_format_file_of_the_docs_reads_as_it_says(tmp_path):
    path = tmp_path / "verein.toml"
    path.write_text(doc_format(), encoding="utf-8")
    fmt = read_format(path)
    assert (fmt.name, fmt.rounds, fmt.games, fmt.size, fmt.min_size, fmt.max_size, fmt.fill) == \
        ("Vereinsmeisterschaft", 3, 4, 4, 3, 5, "smaller")
    assert (fmt.half_points, fmt.game_points, fmt.tie_breaks) == (1, 1, ("games_lost", "deckel", "lot"))
    assert (fmt.final.players, fmt.final.out_after, fmt.final.table_size) == (8, 2, 4)
    assert (fmt.entry_fee, fmt.prizes) == (10.0, (50, 30, 20))
    assert fmt.rules == {"preset": "standard", "options": {}}


@pytest.mark.parametrize("text, words", [
    ("runden = 3", "runden"),
    ("rounds = 0", "rounds"),
    ("rounds = 'drei'", "rounds"),
    ("base = 'lummerland'", "lummerland"),
    ("[tables]\nsize = 7\nmax = 6", "tables.size"),
    ("[tables]\nfill = 'auffuellen'", "tables.fill"),
    ("[scoring]\ntie_breaks = ['punkte']", "tie_breaks"),
    ("[scoring]\ntie_breaks = ['deckel', 'deckel']", "tie_breaks"),
    ("[prizes]\nsplit = [60, 50]", "prizes.split"),
    ("[final]\nout_after = 0", "final.out_after"),
    ("[rules]\njule = 'vielleicht'", "[rules]"),
    ("[rules]\npreset = 'skat'", "[rules]"),
    ("[tische]\nsize = 4", "tische"),
])
def test_a_bad_format_file_is_refused_naming_file_and_key(tmp_path, text, words):
    path = tmp_path / "f.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError) as e:
        read_format(path)
    said = e.value.localized("en")
    assert str(path) in said and words in said, said


def test_a_format_without_final_and_the_presets_as_published():
    fmt = parse_format("x.toml", {"base": "gonzerath", "final": {"players": 0}})
    assert fmt.final is None and fmt.rounds == 3
    g, f, s = PRESETS["gonzerath"], PRESETS["ferschweiler"], PRESETS["schockenorg"]
    assert (g.rounds, g.games, g.max_size, g.final.players, g.final.out_after) == (3, 5, 6, 6, 2)
    assert (f.rounds, f.games, f.size, f.final.players, f.prizes) == (2, 6, 4, 16, (50, 30, 20))
    assert (s.min_size, s.max_size, s.fill) == (3, 5, "smaller")


def test_players_and_teams_from_a_file(tmp_path):
    f = tmp_path / "spieler.txt"
    f.write_text("# Gonzerath 2026\nAnna; Ohne Gnade\nBert;Ohne Gnade\n\nCleo\nDora; Die Schocker\n",
                 encoding="utf-8")
    assert players_of(["Emil"], str(f)) == [("Emil", None), ("Anna", "Ohne Gnade"), ("Bert", "Ohne Gnade"),
                                            ("Cleo", None), ("Dora", "Die Schocker")]
    with pytest.raises(CommandError):
        players_of(["Anna"], str(f))
    lines = stand.table(PRESETS["gonzerath"], "s", players_of([], str(f)),
                        [[("Anna", 2, 0, 1, 9), ("Cleo", 0, 0, 0, 1), ("Dora", 0, 0, 0, 0)]])
    assert stand.teams(lines) == [("Die Schocker", 0, 0, 1), ("Ohne Gnade", 3, 1, 2)]


def _play(director, round_no, loser_of):
    """Every table of the round plays its games: ``loser_of(table players, game)`` loses both halves."""
    store = director.store
    n = 0
    for table_no, names in store.tables_of(round_no).items():
        for g in range(director.games_due(round_no)):
            loser = loser_of(names, g)
            seats = [(name, 2 if name == loser else 0, 0, int(name == loser), 3 if name == loser else 1)
                     for name in names]
            gid = "r%dt%dg%d" % (round_no, table_no, g)
            log = director.folder / "logs" / (gid + ".jsonl")
            store.add_game(gid, round_no, table_no, "counted", None, log, "x", seats)
            n += 1
    director._standings = None
    return n


def test_rounds_then_the_knock_out_final_until_one_is_left(tmp_path):
    fmt = parse_format("f.toml", {"base": "schockenorg", "rounds": 3, "games": 1,
                                  "final": {"players": 4, "out_after": 1, "table_size": 4}})
    names = ["P%02d" % i for i in range(16)]
    Store.create(tmp_path / "T", "T", fmt, "seed", [(n, None) for n in names]).close()
    director = Director(tmp_path / "T")
    try:
        earlier = []
        for r in (1, 2, 3):
            round_no, kind, tables = director.draw_next()
            assert (round_no, kind) == (r, "round") and sorted(len(t) for t in tables) == [4] * 4
            ids = {n: i for i, n in enumerate(names)}
            as_ids = [[ids[n] for n in t] for t in tables]
            assert repeats(as_ids, pairs_met(earlier)) == 0       # 16 in tables of 4: no one meets twice
            earlier.append(as_ids)
            with pytest.raises(CommandError) as e:
                director.draw_next()
            assert e.value.message.key == "turnier.round_open" and e.value.message.fields["missing"] == 4
            _play(director, r, lambda table, g: sorted(table)[-1])   # the last name of a table loses
        lines = director.standings()
        assert [line.place for line in lines] == list(range(1, 17))
        assert sum(line.games_lost for line in lines) == 12 and sum(line.points for line in lines) == 36
        best = [line.name for line in lines[:4]]
        round_no, kind, tables = director.draw_next()
        assert (round_no, kind) == (4, "final") and sorted(n for t in tables for n in t) == sorted(best)
        ranking, still = director.final()
        assert still == best and [r[0] for r in ranking] == best
        out_order = []
        while True:
            lost = sorted(n for t in director.store.tables_of(round_no).values() for n in t)[-1]
            out_order.append(lost)
            _play(director, round_no, lambda table, g, lost=lost: lost if lost in table else None)
            ranking, still = director.final()
            if not still:
                break
            round_no, kind, tables = director.draw_next()
            assert kind == "final" and len(tables) == 1
        assert len(out_order) == 3
        assert [r[0] for r in ranking][1:] == out_order[::-1]      # later out, better place
        with pytest.raises(CommandError) as e:
            director.draw_next()
        assert e.value.message.key == "turnier.over"
    finally:
        director.close()


def test_a_draw_is_the_same_in_another_folder_from_the_same_seed(tmp_path):
    fmt = PRESETS["gonzerath"]
    names = [("Spieler%02d" % i, None) for i in range(23)]
    draws = []
    for folder in ("a", "b"):
        Store.create(tmp_path / folder, "T", fmt, "öffentlich", names).close()
        director = Director(tmp_path / folder)
        draws.append(director.draw_next()[2])
        director.close()
    assert draws[0] == draws[1] and sorted(len(t) for t in draws[0]) == [5, 6, 6, 6]


def test_a_recount_reads_the_logs_the_store_names(tmp_path):
    # The recount reads the log files: without them it cannot agree by accident.
    Store.create(tmp_path / "T", "T", PRESETS["schockenorg"], "s", [("A", None), ("B", None),
                                                                      ("C", None)]).close()
    director = Director(tmp_path / "T")
    director.draw_next()
    _play(director, 1, lambda table, g: table[0])
    director.close()
    with pytest.raises(FileNotFoundError):
        recount(tmp_path / "T")
