"""Who sits where before a game starts: the table file (table/table_file.py ``read_table``) and the seeded
dice of a table (table/seating.py ``seeded_dice``). Bad table files through the command line:
tests/test_cli_errors.py."""

import pytest

from schocken_host.table.table_file import read_table
from schocken_host.table.seating import seeded_dice
from schocken_host.errors import CommandError


def test_table_file(tmp_path):
    path = tmp_path / "tisch.toml"
    path.write_text('rules = "verein"\n[[players]]\nname = "Anna"\nport = "/dev/ttyACM0"\n'
                    '[[players]]\nname = "Bert"\n', encoding="utf-8")
    data = read_table(path)
    assert [p["name"] for p in data["players"]] == ["Anna", "Bert"]
    bad = tmp_path / "bad.toml"
    bad.write_text('[[players]]\nport = "/dev/x"\n', encoding="utf-8")
    with pytest.raises(CommandError):
        read_table(bad)


def test_seeded_dice_are_a_function_of_round_seat_throw():
    d = seeded_dice(7)
    assert d(3, 1, 2, 3) == d(3, 1, 2, 3)
    assert all(1 <= x <= 6 for x in d(3, 1, 2, 3)) and len(d(3, 1, 2, 2)) == 2
    assert [d(r, 0, 1, 3) for r in range(1, 20)] != [d(r, 1, 1, 3) for r in range(1, 20)]


def test_at_most_32_emulated_cups():
    """32 emulated cups are a table bench/table.py measures; one more is refused before any cup starts."""
    from kits.tablekit import play_args
    from schocken_host.commands.play_table import plan
    names, ports, rules = plan(play_args(["--emulate", 32]))
    assert ports == [] and rules.name == "standard"
    with pytest.raises(CommandError) as refused:
        plan(play_args(["--emulate", 33]))
    assert "33" in str(refused.value) and "32" in str(refused.value)
