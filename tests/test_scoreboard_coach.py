"""The scoreboard's coach (`play --coach`): the chance of the seat on turn from what the table shows, computed
off the event path (docs/odds.md, "Where you meet it")."""

import re

from schocken_host.views.scoreboard import Scoreboard

from kits.scorekit import ROUND_2, SIZE, THROW_OFF, Table, check_snapshot, run_async, until


async def coach_line(app, pilot):
    """The coach's line once its answer is there (it is computed in the coach's thread; bounded)."""
    for _ in range(500):
        await pilot.pause(0.01)
        text = app.text_of("#coach")
        if text and not text.endswith(("rechnet …", "computing …")):
            return text
    raise AssertionError("no coach answer: %r" % app.text_of("#coach"))


@run_async
async def test_the_coach_line_shows_the_chance_of_the_seat_on_turn_only_with_coach():
    for coach in (False, True):
        app = Scoreboard(lang="de", coach=coach)
        async with app.run_test(size=SIZE) as pilot:
            table = Table(app=app)
            table.start()
            table.emit_all(table.throw_off(THROW_OFF))
            events = table.round(ROUND_2)
            table.emit_all(events[:until(events, "turn", seat=1)])
            await pilot.pause()
            if not coach:
                assert not app.query_one("#coach").display and app.text_of("#coach") == ""
                continue
            assert app.query_one("#coach").display
            # Ben opens: nothing to beat, only the Deckel he expects.
            assert re.fullmatch(r"Tipp für Ben: du eröffnest, kein Wurf zu schlagen · erwartet \d,\d Deckel",
                                await coach_line(app, pilot))
            # Cem after Ben (1-1 open, stood after 2 of 3 throws): his chance before his first throw.
            table.emit_all(events[until(events, "turn", seat=1):until(events, "turn", seat=2)])
            line = await coach_line(app, pilot)
            assert re.fullmatch(r"Tipp für Cem: \d+ % Chance, jeden Wurf vor dir zu schlagen · erwartet "
                                r"\d,\d Deckel", line), line
            await check_snapshot(pilot, app, "coach")
            # After his first throw (of 2): the chance if he throws again, and from which throw standing pays.
            rest = events[until(events, "turn", seat=2):]
            table.emit_all(rest[:until(rest, "progress", seat=2)])
            line = await coach_line(app, pilot)
            assert "wenn du nochmal wirfst" in line and "stehen lohnt ab " in line, line
            # Nobody on turn (the reveal): no line.
            table.emit_all(rest[until(rest, "progress", seat=2):until(rest, "done", seat=0)])
            await pilot.pause()
            assert app.text_of("#coach") == ""


@run_async
async def test_the_coach_speaks_english_and_a_failure_is_reported_while_the_game_goes_on(monkeypatch):
    from schocken_host.table import coach as coach_module

    app = Scoreboard(lang="en", coach=True)
    async with app.run_test(size=SIZE) as pilot:
        table = Table(app=app)
        table.start(opener=0)
        events = table.round(ROUND_2 | {0: ((6, 3, 2), 2, [])})
        table.emit_all(events[:until(events, "turn", seat=1)])
        line = await coach_line(app, pilot)
        assert re.fullmatch(r"Coach for Ben: \d+ % chance to beat every throw before yours · expected "
                            r"\d\.\d Deckel", line), line

        def broken(sit):
            raise ValueError("no tables")
        monkeypatch.setattr(coach_module, "compute", broken)
        table.emit_all(events[until(events, "turn", seat=1):until(events, "progress", seat=1)])
        assert await coach_line(app, pilot) == "Coach for Ben: no advice (ValueError: no tables)"
        assert "Coach: computation failed (ValueError: no tables); the game goes on." in app.text_of("#log")
        table.emit_all(events[until(events, "progress", seat=1):])
        await pilot.pause()
        assert table.st.last_round is not None and app.text_of("#coach") == ""
