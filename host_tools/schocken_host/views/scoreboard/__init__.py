"""The full-screen scoreboard of `schocken play` (Textual): the App and how it runs (`app`), one player's card
(`card`), the layout for the terminal's size with its CSS and screens (`layout`), the person's own cup
(`own`), the coach's line (`coach`) and how dice are drawn (`dice`)."""

from schocken_host.views.scoreboard.app import Scoreboard, run_scoreboard

__all__ = ["Scoreboard", "run_scoreboard"]
