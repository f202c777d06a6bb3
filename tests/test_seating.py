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


@pytest.mark.parametrize("names, seated", [([], ["Nina", "Bot 2"]), (["Otto"], ["Otto", "Bot 2"])],
                         ids=["unnamed", "named"])
def test_a_cup_on_a_port_sits_under_its_own_name_unless_the_table_names_it(tmp_path, micropython, names,
                                                                           seated):
    """A cup deployed as "Nina" and played with --port: the game's log (and so every screen) seats it as Nina,
    as a cup found on USB is, and the table configures it so (it still says Nina after); a name the table
    gives (--names, the table file) still comes first."""
    import asyncio
    import json
    from kits.tablekit import RecordingUI, game_config
    from schocken_host.emulation.emulator import EmulatedCup
    from schocken_host.links.serial import SerialLink
    from schocken_host.links.transport import hello
    from schocken_host.table.session import GameSession

    cup = EmulatedCup("port-a", "Nina")
    ui = RecordingUI()

    async def until_the_start():
        session = GameSession(game_config(names, tmp_path, emulate=1, ports=[cup.port], time_scale=1,
                                          settings={"deckel_total": 1}))
        game = asyncio.create_task(session.run(lambda: ui))
        try:
            async with asyncio.timeout(60):
                while not any(e["ev"] == "start" for e in ui.events) and not game.done():
                    await asyncio.sleep(0.05)
        finally:
            game.cancel()
            await asyncio.gather(game, return_exceptions=True)
    async def its_name():   # what the cup says after the table configured it
        link = SerialLink(cup.port)
        await link.open()
        try:
            return (await hello(link, 10))["name"]
        finally:
            link.close()
    try:
        asyncio.run(until_the_start())
        assert asyncio.run(its_name()) == seated[0]
    finally:
        cup.close()
    start = [e for e in ui.events if e["ev"] == "start"]
    assert start and [p["name"] for p in start[0]["players"]] == seated, ui.events[:3]
    logged = json.loads(next(tmp_path.glob("*.jsonl")).read_text().splitlines()[0])
    assert [p["name"] for p in logged["players"]] == seated
