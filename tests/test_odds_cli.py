"""`schocken odds` through the real command line (a subprocess): the class table in both languages, --json
that parses and holds the exact values, --beat with the best first decision (docs/odds.md)."""

import json
from fractions import Fraction

from kits.tablekit import schocken


def test_the_class_table_in_german_and_english():
    de = schocken("odds")
    assert de.returncode == 0, de.stderr
    assert "Chancen: standard" in de.stdout and "54271/629856 = 0.086164" in de.stdout
    assert "1/216 = 0.004630" in de.stdout and "Schock 2–6" in de.stdout
    en = schocken("--lang", "en", "odds", "--set", "sixes_turn=false")
    assert en.returncode == 0 and "reachable within 3 throws" in en.stdout
    assert "753571/10077696 = 0.074776" in en.stdout


def test_json_parses_and_holds_the_exact_values():
    proc = schocken("odds", "--json", "--rules", "wuerfel63", "--throws", "2")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["throws"] == 2 and data["rules"]["preset"] == "wuerfel63"
    rows = {row["kind"]: row for row in data["classes"]}
    assert Fraction(rows["jule"]["one_throw"]["fraction"]) == Fraction(6, 216)
    assert sum(Fraction(r["strategy"]["fraction"]) for r in rows.values()) == 1
    assert rows["schock_aus"]["reach"]["value"] == round(379 / 11664, 6)


def test_beat_a_throw():
    proc = schocken("--lang", "en", "odds", "--beat", "6 6 1 2")
    assert proc.returncode == 0, proc.stderr
    assert "To beat: 6-6-1 = 661 after 2 throws (built)" in proc.stdout
    lines = {line.split()[0]: line for line in proc.stdout.splitlines() if line.startswith("  ")}
    assert lines["6-6-1"].endswith("stand")          # fewer throws than his two: already beaten
    data = json.loads(schocken("odds", "--beat", "6 6 1 2", "--json").stdout)
    assert data["limit"] == 2 and len(data["first"]) == 56
    assert 0 < Fraction(data["chance"]["fraction"]) < 1
    low = [row for row in data["first"] if row["dice"] == [5, 3, 2]][0]
    assert low["move"] is not None and low["chance"]["value"] < 1   # 532 must throw again
    hand = json.loads(schocken("odds", "--beat", "4 4 4 2 hand", "--rules", "beton", "--json").stdout)
    assert hand["beat"]["hand"] is True and hand["beat"]["label"] == "General"
    built = json.loads(schocken("odds", "--beat", "4 4 4 2", "--rules", "beton", "--json").stdout)
    assert built["beat"]["label"] == "444"       # seed 003: built Generäle count as a plain number


def test_bad_beat_is_one_localized_line():
    proc = schocken("--lang", "en", "odds", "--beat", "6 6 7 2")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "--beat needs" in proc.stderr
    de = schocken("odds", "--throws", "4")
    assert de.returncode == 2 and "Fehler" in de.stderr and "--throws muss" in de.stderr
